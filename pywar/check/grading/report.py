"""A class's grades as a reader wants them: a terminal table with each submission's first
examples, one line of JSON, a self-contained HTML page, and Gradescope's results.json.
"""

import html
import json

from ..referee.rubric import ITEM, NAMES

SHORT = {name: ITEM[name].short for name in NAMES}      # the table's headings


LEGEND = ("(ok: put to the test and kept on every seed; K/N: broken on K of the N seeds "
          "that put it to the test; -: not checked, no points)")


def terminal_name(name):
    """A submission's name as the terminal table prints it: as it is, or, with a control
    character in it (a newline, an escape sequence), spelled as Python spells it
    ('ann\\n\\x1b[31m'), so that no folder's name can split the table or colour the
    terminal."""
    return name if name.isprintable() else repr(name)[1:-1]


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
    round_ = (f" (round {example['round']})" if example.get("round") else
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
    """A run's example: how it ended, how far the game got, its last lines."""
    text = f"{where}it {example['said']}; {example['progress']}"
    if example.get("last_lines"):
        text += "; its last lines: " + " | ".join(map(repr, example["last_lines"]))
    return text


def memcheck_words(where, item, example):
    """valgrind's example."""
    return f"{where}valgrind memcheck: {example['said']}"


def rule_words(where, item, example):
    """A game item's example: what the rules (or the format) require, what the file says."""
    return f"{where}{item.asks} {example['required']}; the file says {example['said']}"


EXAMPLE_WORDS = {"build": build_words, "run": run_words, "memcheck": memcheck_words,
                 "game": rule_words}


def findings(submission):
    """(item, how many broken, the example in words, the lines around it) of each item
    the submission did not earn (broken or not checked), but those left out."""
    found = []
    for name in NAMES:
        item = submission.items[name]
        if not item["ok"] and name not in submission.left_out:
            count = (f"on {item['failed']} of {item['of']} seeds" if item["of"] > 1 else "")
            example = item["example"] or {}
            found.append((name, count, example_text(name, item["example"]),
                          example.get("context") or []))
    return found


def terminal(submissions):
    """The class table, submissions by items, then each submission's first examples."""
    header = ["submission", *(SHORT[item] for item in NAMES), "score"]
    rows = [header] + [[terminal_name(sub.name), *(mark(sub.items[item]) for item in NAMES),
                        f"{sub.score:g}/{sub.max_score:g}"] for sub in submissions]
    widths = [max(len(row[i]) for row in rows) for i in range(len(header))]
    lines = ["  ".join(cell.ljust(width) for cell, width in zip(row, widths)).rstrip()
             for row in rows]
    lines.append(LEGEND)
    if submissions:
        lines.append(f"run on {terminal_name(submissions[0].seeds_said())}")
    for sub in submissions:
        found = findings(sub)
        lines.append("")
        lines.append(f"{terminal_name(sub.name)}: {sub.score:g} of {sub.max_score:g}" +
                     ("" if found else ", every item ok"))
        for name, count, text, context in found:
            lines.append(f"  {name}" + (f" ({count})" if count else "") + f": {terminal_name(text)}")
            lines.extend(f"      {number:>5} | {terminal_name(line)}" for number, line in context)
        lines.extend(f"  note: {terminal_name(note)}" for note in sub.notes)
    return "\n".join(lines) + "\n"


def as_json(submissions):
    """One line: {"submissions": [{"name", "items", "score", ...}, ...]}."""
    return json.dumps({"items": list(NAMES),
                       "submissions": [sub.to_json() for sub in submissions]}) + "\n"


PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>pywar grade: {count} submissions</title>
<style>
body {{ font-family: system-ui, sans-serif; margin: 2em; color: #222; }}
table {{ border-collapse: collapse; }}
th, td {{ border: 1px solid #bbb; padding: 0.3em 0.6em; text-align: center; }}
td.name {{ text-align: left; font-weight: bold; }}
td.ok {{ background: #d9f2d9; }} td.failed {{ background: #f7d4d4; }}
td.unchecked {{ background: #eee; }}
section {{ margin-top: 1.5em; }} li {{ margin: 0.3em 0; }}
code {{ background: #f4f4f4; }}
</style></head><body>
<h1>pywar grade</h1>
<p>{count} submissions, each run on the same seeds ({seeds}). A cell is <b>ok</b>, or the
number of seeds on which the item was broken of those checked.</p>
<table id="grades"><thead><tr><th>submission</th>{heads}<th>score</th></tr></thead>
<tbody>
{rows}
</tbody></table>
{sections}
</body></html>
"""


def html_page(submissions):
    """The class report as one self-contained HTML page."""
    heads = "".join(f"<th>{item}</th>" for item in NAMES)
    rows = []
    for sub in submissions:
        cells = []
        for item in NAMES:
            value = sub.items[item]
            kind = "unchecked" if not value["of"] else "ok" if value["ok"] else "failed"
            cells.append(f'<td class="{kind}" data-item="{item}">{html.escape(mark(value))}</td>')
        rows.append(f'<tr data-name="{html.escape(sub.name)}"><td class="name">'
                    f'{html.escape(sub.name)}</td>{"".join(cells)}<td class="score">'
                    f'{sub.score:g}/{sub.max_score:g}</td></tr>')
    sections = []
    for sub in submissions:
        found = findings(sub)
        items = "".join(f'<li data-item="{name}"><b>{name}</b>'
                        f'{" (" + count + ")" if count else ""}: {html.escape(text)}'
                        f'{context_html(context)}</li>'
                        for name, count, text, context in found) or "<li>every item ok</li>"
        notes = "".join(f'<li class="note">{html.escape(note)}</li>' for note in sub.notes)
        sections.append(f'<section data-name="{html.escape(sub.name)}"><h2>'
                        f'{html.escape(sub.name)}: {sub.score:g} of {sub.max_score:g}</h2>'
                        f'<ul>{items}</ul>' + (f'<ul class="notes">{notes}</ul>' if notes
                                               else "") + '</section>')
    seeds = html.escape(submissions[0].seeds_said()) if submissions else "no seed"
    return PAGE.format(count=len(submissions), seeds=seeds, heads=heads, rows="\n".join(rows),
                       sections="\n".join(sections))


def context_html(context):
    """The lines around an example, numbered, as a block of the page."""
    if not context:
        return ""
    return "<pre>" + "\n".join(f"{number:>5} | {html.escape(line)}"
                                for number, line in context) + "</pre>"


def gradescope(submission, weights):
    """Gradescope's results.json for one submission: a test per item, and the score."""
    tests = []
    for name in NAMES:
        item = submission.items[name]
        weight = weights[name]
        if name in submission.left_out:
            continue                        # left out (memory with --no-memory)
        text = "ok" if item["ok"] else example_text(name, item["example"])
        context = (item["example"] or {}).get("context") or []
        if context and not item["ok"]:
            text += "\n" + "\n".join(f"{number:>5} | {line}" for number, line in context)
        if not item["ok"] and item["of"] > 1:
            text = f"broken on {item['failed']} of {item['of']} seeds; first: {text}"
        tests.append({"name": name, "score": weight if item["ok"] else 0.0,
                      "max_score": weight, "output": text})
    return json.dumps({"score": submission.score, "tests": tests,
                       "output": f"pywar grade: {submission.score:g} of "
                                 f"{submission.max_score:g}; run on "
                                 f"{submission.seeds_said()}"}, indent=1) + "\n"
