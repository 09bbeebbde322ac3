"""pywar similar's reports: the table on the terminal, the JSON, and the page that shows
each pair side by side with the code they share marked.  Every name a submission gave
(a folder, a file, a line it printed) is shown escaped: it is untrusted."""

import html
import json

from ..submission.names import readable, readable_value, terminal_name
from .pairs import VERDICT, pair_json

TOP = 20                        # pairs the table and the page show, most alike first


def class_json(pairs, names, archive, starter, behaviour_from, notes):
    """The whole comparison as JSON's values: what was compared and every pair."""
    unknown = dict(found for pair in pairs for found in pair.unknown)
    return {"submissions": [readable(name) for name in names],
            "archive": [readable(name) for name in archive],
            "starter": [readable(folder) for folder in starter],
            "behaviour": behaviour_from, "notes": [readable(note) for note in notes],
            "unknown": [{"name": readable(name), "why": unknown[name]} for name in names
                        if name in unknown],
            "says": VERDICT,
            "pairs": [readable_value(pair_json(pair)) for pair in pairs]}


def as_json(*args):
    """class_json in one line."""
    return json.dumps(class_json(*args)) + "\n"


def name_of(pair, side):
    """A side's name as a person reads it, a past term's marked."""
    name = terminal_name(readable(pair.a if side == "a" else pair.b))
    return f"{name} (archive)" if side == "b" and pair.archived else name


def percent(share):
    """A share as a whole percent."""
    return f"{round(100 * share)}%"


def code_words(pair):
    """What two submissions' code shares, in words."""
    a, b = pair.match.shares
    if not a and not b:
        return "no code alike"
    regions = pair.match.regions[0][:3]
    where = ", ".join(f"{terminal_name(readable(r.file))} {r.first}-{r.last}" for r in regions)
    more = len(pair.match.regions[0]) - len(regions)
    return (f"{percent(a)} of {name_of(pair, 'a')}'s code and {percent(b)} of "
            f"{name_of(pair, 'b')}'s is alike ({where}{f' and {more} more' if more else ''})")


def counted(count, noun):
    """'1 line', '4 lines'."""
    return f"{count} {noun}{'' if count == 1 else 's'}"


def standing(shared):
    """What a behaviour score stands on, in words: the shared traits, their weight, what
    either shows, and the one rare trait's worth taken off as chance's."""
    said = (f"{counted(shared.shared, 'shared trait')} weighing {shared.weight:.2f}, of "
            f"{shared.either:.2f} that either shows")
    if shared.weight <= shared.allowed:
        return (f"{said}: no more than one rare trait's worth ({shared.allowed:.2f}), "
                "which any two programs may share by chance, so not alike by behaviour")
    return f"{said}, less one rare trait's worth ({shared.allowed:.2f}) for chance"


def behaviour_words(pair):
    """What two programs' behaviour shares, in words: what the score stands on, how many
    rare traits, how rare; or why it was not compared."""
    if pair.unknown:
        said = " and ".join(f"{terminal_name(readable(name))} {why}"
                            for name, why in pair.unknown)
        return (f"behaviour: not compared, {said}: what "
                f"{'they' if len(pair.unknown) > 1 else 'it'} did is unknown")
    shared = pair.shared
    if shared is None:
        return None
    if not shared.traits:
        return "behaviour: nothing rare in common"
    of = shared.of
    lines = [found for found in shared.traits if found[0][0] == "line"]
    mistakes = [found for found in shared.traits if found[0][0] == "mistake"]
    said = []
    if lines:
        others = max(count for *_, count, _, _ in lines) - 2
        example = terminal_name(readable(lines[0][0][1]))
        said.append(f"{counted(len(lines), 'line')} of their own that "
                    + (f"none of the {counted(of - 2, 'other program')} prints" if not others
                       else f"at most {others} of the {counted(of - 2, 'other program')} "
                            "print")
                    + f", as {example!r}")
    if mistakes:
        rows = sorted(trait[1] for trait, *_ in mistakes)
        said.append(f"the same {'mistake' if len(rows) == 1 else f'{len(rows)} mistakes'} "
                    f"({', '.join(rows)})")
    return f"behaviour: {standing(shared)}; " + "; ".join(said)


def behaviour_cells(pair):
    """A pair's behaviour score and the shared traits it stands on, as the tables show
    them: '-' where not compared, '?' where the grading cannot tell of one of the two."""
    if pair.shared is None:
        return ("?", "?") if pair.unknown else ("-", "-")
    return f"{pair.shared.score:.2f}", str(pair.shared.shared)


def terminal(pairs, names, top=TOP):
    """The ranked table, the top pairs, each with its evidence in words."""
    out = [f"{len(pairs)} pairs of {len(names)} submissions, most alike first"
           + (f" (the {top} first):" if len(pairs) > top else ":"),
           f"{'score':>6}  {'source':>6}  {'behaviour':>9}  {'on':>6}  pair"]
    for pair in pairs[:top]:
        by_behaviour, on = behaviour_cells(pair)
        out.append(f"{pair.score():6.2f}  {pair.match.score():6.2f}  {by_behaviour:>9}  "
                   f"{on:>6}  {name_of(pair, 'a')} ~ {name_of(pair, 'b')}")
        out.append(f"{'':32}{code_words(pair)}")
        words = behaviour_words(pair)
        if words:
            out.append(f"{'':32}{words}")
    out.append(VERDICT)
    return "\n".join(out) + "\n"


PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>pywar similar: {count} pairs</title>
<style>
body {{ font-family: system-ui, sans-serif; margin: 2em; color: #222; }}
table {{ border-collapse: collapse; }}
th, td {{ border: 1px solid #bbb; padding: 0.3em 0.6em; }}
.pair {{ margin-top: 2.5em; }}
.sides {{ display: grid; grid-template-columns: 1fr 1fr; gap: 1em; }}
.side {{ min-width: 0; }}
pre {{ background: #f6f6f6; padding: 0.6em; overflow-x: auto; font-size: 0.85em; }}
mark {{ background: #ffe08a; }}
.verdict {{ background: #eef4ff; padding: 0.6em; border-left: 4px solid #6a8fd8; }}
</style></head><body>
<h1>pywar similar: {count} pairs of {submissions} submissions</h1>
<p class="verdict">{verdict}</p>
{notes}
<table><tr><th>score</th><th>source</th><th>behaviour</th><th>on (shared traits)</th>
<th>pair</th></tr>
{rows}
</table>
{shown}
</body></html>
"""


def marked(text, regions):
    """A file's text, escaped, with the regions the other holds in <mark>."""
    out, at = [], 0
    for region in sorted(regions, key=lambda r: r.start):
        start = max(at, region.start)
        if start >= region.end:
            continue
        out += [html.escape(text[at:start]), "<mark>",
                html.escape(text[start:region.end]), "</mark>"]
        at = region.end
    out.append(html.escape(text[at:]))
    return "".join(out)


def side_html(code, regions, title):
    """One side of a pair: each of its files, the shared regions marked."""
    parts = [f"<div class=\"side\"><h3>{html.escape(title)}</h3>"]
    for name, text in code.files:
        mine = [region for region in regions if region.file == name]
        parts.append(f"<h4>{html.escape(terminal_name(readable(name)))}</h4>"
                     f"<pre>{marked(text, mine)}</pre>")
    return "".join(parts) + "</div>"


def pair_html(number, pair, codes):
    """A pair's section: its evidence in words, then both sides' code."""
    words = [code_words(pair), behaviour_words(pair)]
    said = "".join(f"<li>{html.escape(word)}</li>" for word in words if word)
    sides = "".join(side_html(codes[key], regions, name_of(pair, side))
                    for side, key, regions in (("a", ("now", pair.a), pair.match.regions[0]),
                                               ("b", ("archive" if pair.archived else "now",
                                                      pair.b), pair.match.regions[1])))
    return (f"<section class=\"pair\" id=\"pair-{number}\"><h2>{number}. "
            f"{html.escape(name_of(pair, 'a'))} ~ {html.escape(name_of(pair, 'b'))}: "
            f"{pair.score():.2f}</h2><ul>{said}</ul><div class=\"sides\">{sides}</div>"
            "</section>")


def html_page(pairs, codes, names, notes, top=TOP):
    """The page: the ranked table, then the top pairs side by side; codes by
    ("now" or "archive", name)."""
    rows = []
    for number, pair in enumerate(pairs, 1):
        by_behaviour, on = behaviour_cells(pair)
        title = f"{html.escape(name_of(pair, 'a'))} ~ {html.escape(name_of(pair, 'b'))}"
        link = f"<a href=\"#pair-{number}\">{title}</a>" if number <= top else title
        rows.append(f"<tr><td>{pair.score():.2f}</td><td>{pair.match.score():.2f}</td>"
                    f"<td>{by_behaviour}</td><td>{on}</td><td>{link}</td></tr>")
    shown = "".join(pair_html(number, pair, codes)
                    for number, pair in enumerate(pairs[:top], 1))
    said = "".join(f"<li>{html.escape(terminal_name(readable(note)))}</li>" for note in notes)
    return PAGE.format(count=len(pairs), submissions=len(names), verdict=html.escape(VERDICT),
                       notes=f"<ul>{said}</ul>" if said else "", rows="\n".join(rows),
                       shown=shown)
