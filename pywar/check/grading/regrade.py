"""A regrade (`pywar grade --since OLD.json`): a class graded again, and what changed
since OLD.json, per student (each item whose mark changed, the score) and why it may
have (their files' sha256, and the receipt: pywar's version, the weights, the seeds...);
the students whose marks did not change in one line (docs/grading.md, section 4)."""

import json
import os
import re

from ..referee.rubric import NAMES
from ..seeds import FIRST_FRESH, FRESH_LIMIT
from ..submission.names import terminal_name
from .report import mark

OLD_BYTES = 16 * 2 ** 20            # an OLD.json larger than this is refused unread: a grade
                                    # takes 1.8 KB a submission (3.8 KB at most; 66 of a
                                    # class: 118,879 bytes), so 16 MiB holds over 4,000;
                                    # json.loads of 16 MiB took 94 MB of such grades, 451 MB
                                    # at worst ('[{},{},...]'), where 200 MiB took 6 GB
SHORT_SHA = 12                      # hex digits of a sha256 shown
SHA256 = re.compile(r"[0-9a-f]{64}")    # a submission's sha256 as pywar writes it


class NotAGrade(ValueError):
    """An OLD.json that is not a pywar grade JSON: why, in a few words."""


def load_old(path):
    """The grade JSON at path as a dict, or NotAGrade (OSError where it cannot be read); a
    file larger than OLD_BYTES is refused by its size, before a byte of it is read."""
    with open(path, "rb") as file:
        if os.fstat(file.fileno()).st_size > OLD_BYTES:
            raise NotAGrade(f"larger than {OLD_BYTES // 2 ** 20} MiB")
        data = file.read(OLD_BYTES + 1)     # a pipe's: no size said, the read bounded
    if len(data) > OLD_BYTES:
        raise NotAGrade(f"larger than {OLD_BYTES // 2 ** 20} MiB")
    try:
        found = json.loads(data)
    except (ValueError, RecursionError) as error:
        raise NotAGrade(f"not JSON: {str(error)[:80]}") from None
    check_grade(found)
    return found


def check_grade(found):
    """NotAGrade unless found has the form of `pywar grade --json`'s output."""
    if not isinstance(found, dict) or not isinstance(found.get("submissions"), list):
        raise NotAGrade("no \"submissions\" list")
    if "receipt" in found and not isinstance(found["receipt"], dict):
        raise NotAGrade("its \"receipt\" is not an object")
    names = set()
    for number, sub in enumerate(found["submissions"], 1):
        why = submission_trouble(sub)
        if why:
            raise NotAGrade(f"submission {number}: {why}")
        if sub["name"] in names:
            raise NotAGrade(f"two submissions named {sub['name']!r}")
        names.add(sub["name"])


def submission_trouble(sub):
    """What keeps sub from being a submission of a grade JSON, or None."""
    if not isinstance(sub, dict) or not isinstance(sub.get("name"), str):
        return "no \"name\""
    if not all(is_number(sub.get(key)) for key in ("score", "max_score")):
        return "no \"score\" and \"max_score\""
    items = sub.get("items")
    if not isinstance(items, dict) or not items:
        return "no \"items\""
    for name, item in items.items():
        if not (isinstance(item, dict) and isinstance(item.get("ok"), bool) and
                all(is_number(item.get(key)) for key in ("failed", "of"))):
            return f"its item {name!r} is not {{\"ok\", \"failed\", \"of\"}}"
    sha = sub.get("sha256")
    if sha is not None and not (isinstance(sha, str) and SHA256.fullmatch(sha)):
        return "its \"sha256\" is not 64 hex digits"
    keyed = sub.get("keyed")
    if keyed is not None and not (isinstance(keyed, int) and not isinstance(keyed, bool)
                                  and FIRST_FRESH <= keyed < FRESH_LIMIT):
        return (f"its \"keyed\" is not a seed from {FIRST_FRESH} to below {FRESH_LIMIT}")
    return None


def keyed_seeds(old):
    """{sha256: its keyed seed} of an old grade's submissions that had one: a regrade
    keeps them for the same files, whatever the key here (Settings.known)."""
    if old is None:
        return {}
    return {sub["sha256"]: sub["keyed"] for sub in old["submissions"]
            if sub.get("sha256") is not None and sub.get("keyed") is not None}


def is_number(value):
    """Whether a JSON value is a number (not a bool)."""
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def flat(value, prefix=""):
    """{'limits.run.wall': 10, ...}: a receipt's leaves by their dotted keys."""
    if not isinstance(value, dict):
        return {prefix: value}
    found = {}
    for key, inner in value.items():
        found.update(flat(inner, f"{prefix}.{key}" if prefix else str(key)))
    return found


def receipt_changes(old, new):
    """The receipt's differences in words ('weights.memory: 1 -> 2'), or, for an old
    grade with no receipt (an older pywar's), that what else changed is unknown."""
    if "receipt" not in old:
        return ["OLD.json has no receipt (an older pywar wrote it): what else changed "
                "is unknown"]
    before, after = flat(old["receipt"]), flat(new["receipt"])
    return [f"{key}: {shown(before.get(key))} -> {shown(after.get(key))}" +
            (fresh_hint(before.get(key)) if key == FRESH_KEY else "")
            for key in dict.fromkeys([*before, *after]) if before.get(key) != after.get(key)]


FRESH_KEY = "seeds.fresh"           # the receipt's seeds drawn fresh at each grading


def fresh_hint(seeds):
    """How to grade again on an old grade's fresh seeds, so that only what else changed
    may change a mark."""
    if not (isinstance(seeds, list) and all(is_number(seed) for seed in seeds)):
        return ""
    option = f"--fresh-seeds {','.join(map(str, seeds))}" if seeds else "--fresh 0"
    return f" (drawn anew at each grading: {option} grades on the old grade's)"


def shown(value):
    """A receipt's value in words: as JSON writes it, 'none' where there is none."""
    return "none" if value is None else json.dumps(value)


def marks_of(sub):
    """{item: its mark ('ok', 'K/N', '-')} of a submission of a grade JSON."""
    return {name: mark(item) for name, item in sub["items"].items()}


def files_word(old, new):
    """Whether the student's files changed: 'changed', 'same' or 'unknown'."""
    before, after = old.get("sha256"), new.get("sha256")
    if not (isinstance(before, str) and isinstance(after, str)):
        return "unknown"
    return "same" if before == after else "changed"


def changes(old, new, asked=None):
    """What changed from the grade JSON old to new, as JSON: {"receipt": [words],
    "changed": [{"name", "marks": {item: [old, new]}, "score": [old, new], "max_score":
    [old, new], "files", "sha256": [old, new]}], "unchanged": [names], "new": [{"name",
    "score", "max_score"}], "gone": [names]}.  Gone: in old and not among the names
    asked to be graded (all of new's by default: one asked but not graded, as after a
    Ctrl-C, is neither gone nor changed)."""
    before = {sub["name"]: sub for sub in old["submissions"]}
    after = {sub["name"]: sub for sub in new["submissions"]}
    asked = set(after if asked is None else asked)
    found = {"receipt": receipt_changes(old, new), "changed": [], "unchanged": [],
             "new": [{key: sub[key] for key in ("name", "score", "max_score")}
                     for name, sub in after.items() if name not in before],
             "gone": [name for name in before if name not in asked]}
    for name in (name for name in after if name in before):
        then, now = marks_of(before[name]), marks_of(after[name])
        differ = {item: [then.get(item, "none"), now.get(item, "none")]
                  for item in dict.fromkeys([*NAMES, *then, *now])
                  if then.get(item) != now.get(item)}
        if not differ:
            found["unchanged"].append(name)
            continue
        found["changed"].append({
            "name": name, "marks": differ,
            "score": [before[name]["score"], after[name]["score"]],
            "max_score": [before[name]["max_score"], after[name]["max_score"]],
            "files": files_word(before[name], after[name]),
            "sha256": [before[name].get("sha256"), after[name].get("sha256")]})
    return found


def why_words(change, receipt):
    """Why a student's marks may have changed: their files, the receipt, or neither."""
    then, now = (terminal_name(str(sha or "")[:SHORT_SHA]) for sha in change["sha256"])
    files = {"changed": f"their files changed (sha256 {then} -> {now})",
             "same": f"their files are the same (sha256 {now})",
             "unknown": "their files: unknown (no sha256 in the old grade)"}[change["files"]]
    if receipt:
        return f"{files}, and the receipt changed (above)"
    if change["files"] == "same":
        return (f"{files}, and the receipt: a run's time limit or the machine (its load, "
                "compiler or valgrind) may have made the difference")
    return files


def number(value):
    """A score as the reports write it: 10, 9.5."""
    return f"{value:g}"


def change_words(change, receipt):
    """One student's change in one line: the score, each item's marks, why."""
    (then, now), (most_then, most_now) = change["score"], change["max_score"]
    score = (f"{number(then)} of {number(most_then)} -> {number(now)} of "
             f"{number(most_now)}")
    marks = ", ".join(f"{terminal_name(item)} {old} -> {new}"
                      for item, (old, new) in change["marks"].items())
    return (f"  {terminal_name(change['name'])}: {score}: {marks}; "
            f"{why_words(change, receipt)}")


def words(found, since):
    """The changes in lines for the terminal: the receipt's, then each student's."""
    receipt = found["receipt"]
    lines = ["", f"since {terminal_name(since)}: " +
             ("; ".join(terminal_name(text) for text in receipt) if receipt
              else "the same receipt (pywar's version, rules, seeds, limits, weights, "
                   "commands)")]
    lines.extend(change_words(change, receipt) for change in found["changed"])
    lines.extend(f"  {terminal_name(sub['name'])}: new, not in {terminal_name(since)}: "
                 f"{number(sub['score'])} of {number(sub['max_score'])}"
                 for sub in found["new"])
    lines.extend(f"  {terminal_name(name)}: gone, in {terminal_name(since)} and not graded "
                 "now" for name in found["gone"])
    if found["unchanged"]:
        lines.append(f"  marks unchanged ({len(found['unchanged'])}): " +
                     ", ".join(terminal_name(name) for name in found["unchanged"]))
    return "\n".join(lines) + "\n"
