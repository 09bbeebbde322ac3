"""A class's grades as a reader wants them: a terminal table with each submission's first
examples, one line of JSON and a self-contained HTML page (Gradescope's results.json is
gradescope_results', the LMSs' imports canvas_import's and moodle_worksheet's).

Every report is written whatever the names of a class's files and folders: a byte that is
not UTF-8 is spelled \\xff in all of them, a control or format character (a newline, an
escape, a right-to-left mark) as Python spells it wherever a person reads the text, and
a name that looks like another of the class with its characters outside ASCII escaped
(docs/grading.md, section 4).
"""

import html
import json
import os
import unicodedata
from urllib.parse import quote
from dataclasses import replace

from ..referee.finding import round_words
from ..referee.rubric import ITEM, NAMES, RUBRIC
from ..submission.names import readable, readable_value, terminal_name

SHORT = {name: ITEM[name].short for name in NAMES}      # the table's headings


LEGEND = ("(ok: put to the test and kept on every seed; K/N: broken on K of the N seeds "
          "that put it to the test; -: not checked, no points)")


def readable_submission(sub):
    """A submission whose every text any report may write: its name, items and notes."""
    return replace(sub, name=readable(sub.name), items=readable_value(sub.items),
                   notes=readable_value(sub.notes), mistakes=readable_value(sub.mistakes))


def look(name):
    """A name as it looks: its NFKC form (a full-width or ligature letter as its plain one)."""
    return unicodedata.normalize("NFKC", name)


def alike(one, other):
    """Whether two names of a class may look alike: the same in NFKC, or of one length and
    differing only where one has a character outside ASCII and the other not (Cyrillic
    'а' for Latin 'a').  No table of confusable letters: a pair it names may differ to the
    eye, and escaping such a name costs nothing."""
    first, second = look(one), look(other)
    if first == second:
        return True
    return len(first) == len(second) and all(
        a == b or a.isascii() != b.isascii() for a, b in zip(first, second))


def look_alikes(names):
    """{name: the first other name of the class it looks like} of the names that do."""
    found = {}
    for i, one in enumerate(names):
        for other in names[i + 1:]:
            if one != other and alike(one, other):
                found.setdefault(one, other)
                found.setdefault(other, one)
    return found


def shown_name(name, alikes):
    """A submission's name as a person reads it: printable, and with its characters outside
    ASCII escaped ('\\u0430lice') where it looks like another of the class."""
    if name in alikes:
        return name.encode("ascii", "backslashreplace").decode("ascii")
    return terminal_name(name)


def alike_words(name, alikes):
    """The words that say a name looks like another's, or ''."""
    if name not in alikes:
        return ""
    return (f" (its name looks like {shown_name(alikes[name], alikes)}'s: characters "
            "outside ASCII escaped)")


def readable_class(submissions):
    """(the submissions readable, the look-alike names among them)."""
    subs = [readable_submission(sub) for sub in submissions]
    return subs, look_alikes([sub.name for sub in subs])


def mark(item):
    """An item in a table cell: 'ok', 'K/N' seeds broken, or '-' not checked."""
    if not item["of"]:
        return "-"
    return "ok" if item["ok"] else f"{item['failed']}/{item['of']}"


def example_text(name, example):
    """An item's first example in one line of plain words, as its row's source reads."""
    if example is None:
        return ""
    seed = f"seed {example['seed']}" if "seed" in example else ""
    line = f", line {example['line']}" if example.get("line") else ""
    round_ = (f" ({round_words(example['round'], example.get('file_round'))})"
              if example.get("round") else
              " (before round 1)" if example.get("line") else "")
    where = f"{seed}{line}{round_}: " if seed or line else ""
    if "required" not in example:
        return f"{where}{example['said']}"
    return EXAMPLE_WORDS[ITEM[name].source](where, ITEM[name], example)


def build_words(where, item, example):
    """A build's example: the command, what it said, its first error or last lines."""
    said = f"the build ({example['command']}) {example['said']}"
    if example.get("error"):
        return f"{said}: {example['error']}"
    if not example.get("last_lines"):
        return said
    return f"{said}; its last lines: {' | '.join(example['last_lines'])}"


def run_words(where, item, example):
    """A run's example: how it ended, how far the game got, its last lines, and what it
    said on stderr (why it died)."""
    text = f"{where}it {example['said']}; {example['progress']}"
    if example.get("last_lines"):
        text += "; its last lines: " + " | ".join(map(repr, example["last_lines"]))
    if example.get("stderr"):
        text += "; on stderr: " + " | ".join(map(repr, example["stderr"]))
    return text


def memcheck_words(where, item, example):
    """valgrind's example."""
    return f"{where}valgrind memcheck: {example['said']}"


def rule_words(where, item, example):
    """A game item's example: what the rules (or the format) require, what the file says."""
    return f"{where}{item.asks} {example['required']}; the file says {example['said']}"


EXAMPLE_WORDS = {"build": build_words, "run": run_words, "memcheck": memcheck_words,
                 "game": rule_words}


def not_graded(submission):
    """Why no item but builds was put to the test, in words ('it did not build'), or None
    where one was: said once, not as each item's 'not checked'."""
    others = [name for name in NAMES if name != RUBRIC.builds and name not in submission.left_out]
    if any(submission.items[name]["of"] for name in others):
        return None
    if submission.items[RUBRIC.builds]["failed"]:
        return NOT_BUILT
    if not submission.items[RUBRIC.builds]["of"]:
        return "pywar could not grade it (its note says why)"
    return None


NOT_BUILT = "it did not build"


def findings(submission):
    """(item, how many broken, the example in words, the lines around it, the example) of
    each item the submission did not earn (broken or not checked), but those left out,
    and, of a submission not graded, but those it left unchecked (not_graded says why,
    once)."""
    found = []
    unsaid = not_graded(submission) is not None
    for name in NAMES:
        item = submission.items[name]
        if unsaid and not item["of"]:
            continue
        if not item["ok"] and name not in submission.left_out:
            count = (f"on {item['failed']} of {item['of']} seeds" if item["of"] > 1 else "")
            example = item["example"] or {}
            found.append((name, count, example_text(name, item["example"]),
                          example.get("context") or [], example))
    return found


def terminal(submissions):
    """The class table, submissions by items, then each submission's first examples."""
    submissions, alikes = readable_class(submissions)
    header = ["submission", *(SHORT[item] for item in NAMES), "score"]
    rows = [header] + [[shown_name(sub.name, alikes), *(mark(sub.items[item]) for item in NAMES),
                        f"{sub.score:g}/{sub.max_score:g}"] for sub in submissions]
    widths = [max(len(row[i]) for row in rows) for i in range(len(header))]
    lines = ["  ".join(cell.ljust(width) for cell, width in zip(row, widths)).rstrip()
             for row in rows]
    lines.append(LEGEND)
    if submissions:
        lines.append(f"run on {terminal_name(class_seeds_said(submissions))}")
    for sub in submissions:
        found = findings(sub)
        lines.append("")
        lines.append(f"{shown_name(sub.name, alikes)}: {sub.score:g} of {sub.max_score:g}" +
                     ("" if found or not_graded(sub) else ", every item ok") +
                     alike_words(sub.name, alikes))
        for name, count, text, context, example in found:
            lines.append(f"  {name}" + (f" ({count})" if count else "") + f": {terminal_name(text)}")
            if example.get("kept"):
                lines.append(f"      at {terminal_name(kept_at(example))}")
            lines.extend(f"      {number:>5} | {terminal_name(line)}" for number, line in context)
        if not_graded(sub):
            lines.append(f"  not graded: {not_graded(sub)}")
        lines.extend(f"  note: {terminal_name(note)}" for note in sub.notes)
    return "\n".join(lines) + "\n"


def class_json(submissions, receipt=None, since=None):
    """The class as JSON's values: {"receipt": {...}, "items": [...], "submissions":
    [{"name", "sha256", "items", "score", ...}, ...]}, and "since", a regrade's changes,
    where given; every text readable()."""
    found = {} if receipt is None else {"receipt": readable_value(receipt)}
    found.update(items=list(NAMES), submissions=[readable_submission(sub).to_json()
                                                 for sub in submissions])
    if since is not None:
        found["since"] = readable_value(since)
    return found


def as_json(submissions, receipt=None, since=None):
    """class_json in one line."""
    return json.dumps(class_json(submissions, receipt, since)) + "\n"


def kept_at(example):
    """Where an example's file was kept (--keep), as a compiler names a place:
    'kept/alice/seed-2.txt:116', or the file alone for an example of no line."""
    return example["kept"] + (f":{example['line']}" if example.get("line") else "")


PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>pywar grade: {count} submissions</title>
<style>
body {{ font-family: system-ui, sans-serif; margin: 2em; color: #222; }}
table {{ border-collapse: collapse; }}
th, td {{ border: 1px solid #bbb; padding: 0.3em 0.6em; text-align: center; }}
td.name {{ text-align: left; font-weight: bold; }}
td.ok {{ background: #d9f2d9; }} td.failed {{ background: #f7d4d4; }}
td.unchecked {{ background: #eee; }}
table.lines td {{ text-align: left; font-family: monospace; white-space: pre-wrap; }}
table.lines tr.at td {{ background: #fff3c4; }}
section {{ margin-top: 1.5em; }} li {{ margin: 0.3em 0; }}
code {{ background: #f4f4f4; }}
</style></head><body>
<h1>pywar grade</h1>
<p>{count} submissions, each run on {seeds}. A cell: {legend}.</p>
<table id="grades"><thead><tr><th>submission</th>{heads}<th>score</th></tr></thead>
<tbody>
{rows}
</tbody></table>
{sections}
</body></html>
"""


def page_text(text):
    """A text of the page: printable (terminal_name), then escaped for HTML."""
    return html.escape(terminal_name(text))


def class_seeds_said(submissions):
    """The seeds of a class's grading in words: a submission with a keyed seed speaks for
    them all (one not hashed, and not built, has none)."""
    said = next((sub for sub in submissions if sub.keyed is not None), submissions[0])
    return said.seeds_said(each=len(submissions) > 1)


def html_page(submissions, folder=None):
    """The class report as one self-contained HTML page (folder: where it is written,
    which the links to the files kept with --keep are relative to; else the current
    folder).  A cell of an item not earned links to its example on the page."""
    submissions, alikes = readable_class(submissions)
    heads = "".join(f"<th>{item}</th>" for item in NAMES)
    rows = []
    for number, sub in enumerate(submissions):
        name = html.escape(shown_name(sub.name, alikes))
        cells = []
        shown = {found[0] for found in findings(sub)}
        for item in NAMES:
            value = sub.items[item]
            kind = "unchecked" if not value["of"] else "ok" if value["ok"] else "failed"
            text = html.escape(mark(value))
            if item in shown:
                text = f'<a href="#{anchor(number, item)}">{text}</a>'
            cells.append(f'<td class="{kind}" data-item="{item}">{text}</td>')
        rows.append(f'<tr data-name="{name}"><td class="name">{name}</td>{"".join(cells)}'
                    f'<td class="score">{sub.score:g}/{sub.max_score:g}</td></tr>')
    sections = []
    for number, sub in enumerate(submissions):
        found = findings(sub)
        name = html.escape(shown_name(sub.name, alikes))
        items = "".join(f'<li data-item="{item}" id="{anchor(number, item)}"><b>{item}</b>'
                        f'{" (" + count + ")" if count else ""}: {page_text(text)}'
                        f'{kept_html(example, folder)}{context_html(context, item, example)}'
                        f'</li>'
                        for item, count, text, context, example in found)
        if not_graded(sub):
            items += f'<li class="not-graded">not graded: {html.escape(not_graded(sub))}</li>'
        items = items or "<li>every item ok</li>"
        notes = "".join(f'<li class="note">{page_text(note)}</li>' for note in sub.notes)
        sections.append(f'<section data-name="{name}"><h2>{name}: {sub.score:g} of '
                        f'{sub.max_score:g}{html.escape(alike_words(sub.name, alikes))}</h2>'
                        f'<ul>{items}</ul>' + (f'<ul class="notes">{notes}</ul>' if notes
                                               else "") + '</section>')
    seeds = html.escape(class_seeds_said(submissions)) if submissions else "no seed"
    return PAGE.format(count=len(submissions), seeds=seeds, legend=html.escape(LEGEND[1:-1]),
                       heads=heads, rows="\n".join(rows),
                       sections="\n".join(sections))


def anchor(number, item):
    """The id of a submission's example of an item on the page: 's3-ranks'."""
    return f"s{number}-{item}"


def kept_html(example, folder=None):
    """The link to the file an example was kept in (--keep), relative to the page's
    folder, and its line; '' where nothing was kept."""
    if not example.get("kept"):
        return ""
    href = quote(os.path.relpath(os.path.abspath(example["kept"]), folder or os.getcwd()))
    line = f", line {example['line']}" if example.get("line") else ""
    return (f'<p class="kept">kept: <a href="{html.escape(href)}">'
            f'{page_text(example["kept"])}</a>{line}</p>')


def context_html(context, item=None, example=None):
    """The lines around an example, numbered, the file's beside what is required at the
    example's line, as a table of the page."""
    if not context:
        return ""
    example = example or {}
    required = (f"{ITEM[item].asks} {example['required']}"
                if item in ITEM and example.get("required") else "")
    rows = "".join(line_row(number, line, required if number == example.get("line")
                            else None) for number, line in context)
    return ('<table class="lines"><tr><th>line</th><th>the file says</th><th>what is '
            f'required there</th></tr>{rows}</table>')


def line_row(number, line, required=None):
    """A row of an example's lines: its number, the file's line, and, at the example's
    own line (marked), what is required there."""
    at = ' class="at"' if required is not None else ""
    return (f"<tr{at}><td>{number}</td><td>{page_text(line)}</td>"
            f"<td>{page_text(required or '')}</td></tr>")
