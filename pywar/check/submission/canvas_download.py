"""Canvas's "Download Submissions" zip, read by its names (docs/grading.md, "Canvas";
instructure/canvas-lms lib/content_zipper.rb).

A flat zip: each file a student attached is `<name>_[LATE_]<user id>_<attachment
id>_<file name>`, where name is the sortable name lowercased with every character that
is not a letter, digit or '_' removed ("Doe, Jane" is doejane), LATE marks a late one,
and the user id is the one Canvas's gradebook import matches by ID.  An online text entry
is `<prefix>_text.html`, a website `<prefix>_link.html`: left out, with a note.  An
anonymous assignment writes `[LATE_]anon_<5 characters>` in place of name and user id.
Canvas's own reader of these names (Re-upload Submissions, assignment.rb's
infer_comment_context_from_filename) takes the first two fields of digits alone as the
user and attachment ids; so does this one, and where a name ends in _<digits> both are
wrong alike.  A Canvas of 2014 wrote `doe--jane-late_1001_...`: read too.

A file a student sent under a name already in their course's Submissions folder is
numbered by Canvas (attachment.rb's make_unique_filename: Pile.h is Pile-1.h, past 7 a
UUID): unnumbered() gives it back its name where nothing of the student's names the
numbered one and the name is free.
"""

import os
import re

from .files import SOURCES
from .students import Student, add_file
from .unzip import Refused

LMS = "canvas"
RULE = ("<name>_[LATE_]<user id>_<attachment id>_<file name>, flat (Canvas's "
        "content_zipper.rb)")
DIGITS = re.compile(r"[0-9]+")                  # Ruby's \d: ASCII digits alone
ANONYMOUS = re.compile(r"(LATE_)?anon_([0-9A-Za-z]{5})_(.+)", re.S)
OLD_LATE = "-late"                              # 2014's late mark, before the user id
PAGES = {"text.html": "an online text entry", "link.html": "a website URL"}
UUID = r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"
NUMBERED = re.compile(rf"(.+)-([1-9][0-9]*|{UUID})((?:\.[^./]*)*)", re.S)
UUID_AFTER = re.compile(rf"(.+\.[A-Za-z0-9]+)({UUID})", re.S)
INCLUDED = re.compile(rb'^\s*#\s*include\s*"([^"\n]{1,200})"', re.M)
READ = 1 << 20                                  # bytes of a source read for its #includes


def entry(path):
    """(user id or anon id, name, late, anonymous, what follows the ids) of a path of
    the download, or None where it does not follow Canvas's rule."""
    if "/" in path:
        return None
    found = ANONYMOUS.fullmatch(path)
    if found:
        return found[2], "", bool(found[1]), True, found[3]
    fields = path.split("_")
    first = next((i for i, part in enumerate(fields) if DIGITS.fullmatch(part)), None)
    if first is None or first == len(fields) - 1:
        return None
    prefix, late = fields[:first], False
    if prefix and prefix[-1] == "LATE":
        prefix, late = prefix[:-1], True
    name = "_".join(prefix)
    if name.endswith(OLD_LATE) and not late:
        name, late = name[:-len(OLD_LATE)], True
    return fields[first], name, late, False, "_".join(fields[first + 1:])


def follows(path):
    """Whether a path of a download follows Canvas's rule."""
    found = entry(path)
    if found is None:
        return False
    rest = found[4]
    attachment, _, name = rest.partition("_")
    return rest in PAGES or (bool(DIGITS.fullmatch(attachment)) and bool(name))


def students(paths, read=None):
    """The students of a download's paths (each following Canvas's rule), by user id:
    each file under its name as the student sent it; an online text or URL left out."""
    found = {}
    for path in sorted(paths):
        user, name, late, anonymous, rest = entry(path)
        student = found.setdefault(user, Student(LMS, user, name, late, anonymous=anonymous))
        if student.name != name:
            raise Refused(f"two names for Canvas's user {user}: {student.name!r} and "
                             f"{name!r} (Canvas writes one): the download was edited")
        student.late = student.late or late
        if rest in PAGES:
            student.notes.append(f"left out {path!r}: {PAGES[rest]} (pywar grades files)")
            continue
        add_file(student, path, [rest.partition("_")[2]])
    for student in found.values():
        if student.late:
            student.notes.append("late, as its name in Canvas's download says (LATE)")
    return list(found.values())


def included(folder):
    """The names every source file of a submission's folder #includes."""
    names = set()
    for top, _, files in os.walk(folder):
        for name in files:
            if name.lower().endswith(SOURCES):
                try:
                    with open(os.path.join(top, name), "rb") as source:
                        text = source.read(READ)
                except OSError:
                    continue
                names.update(os.path.basename(os.fsdecode(found))
                             for found in INCLUDED.findall(text))
    return names


def original(name):
    """The name a student sent, before Canvas numbered it (None where it was not)."""
    found = NUMBERED.fullmatch(name) or UUID_AFTER.fullmatch(name)
    if found is None:
        return None
    return found[1] + (found[3] if found.re is NUMBERED else "")


def unnumbered(folder):
    """Give each file at the top of a student's folder that Canvas numbered (Pile-1.h)
    its name back (Pile.h), where no file of that name is there and no source #includes
    the numbered name: the notes of each."""
    notes, names = [], set(os.listdir(folder))
    wanted = None
    for name in sorted(names):
        was = original(name)
        if was is None or was in names:
            continue
        wanted = included(folder) if wanted is None else wanted
        if name in wanted:
            continue
        os.rename(os.path.join(folder, name), os.path.join(folder, was))
        names.add(was)
        notes.append(f"{name!r} graded as {was!r}: Canvas numbers a file sent under a name "
                     "already in the student's Submissions folder of the course")
    return notes
