"""Where two implementations' games part: the first differing event of their traces and
the transcript lines around the first differing line, as a unified diff.  pywar check
--against and pywar diff print what first_difference() finds.

    >>> import pywar
    >>> from pywar.check.implementations.difference import Side, first_difference
    >>> c, py = (pywar.play(17455, engine=e, trace=True, transcript=True) for e in ("c", "python"))
    >>> first_difference(Side("c", c.trace, c.transcript), Side("python", py.trace, py.transcript))

The transcript lines come from each side's trace, told by the narrator (narrate_steps),
or, for a side with no trace (a program that prints only a transcript), from its
transcript.  Once both traces agree, the transcripts the implementations printed are
compared too, so a narrator that says a line wrong is found at that line.
"""

import difflib
import json
import re
from dataclasses import dataclass, field

from ...common.trace import TraceError, read, strict_loads
from ..referee.quote import cut
from .replay import split_lines
from ...twin.narrator import narrate_steps

CONTEXT = 3          # lines of context in the diff
AFTER = 6            # lines after the first differing one that the diff may show
HEADER_FIELDS = ("seed", "deal", "rules")
HUNK = re.compile(r"^@@ -(\d+)(,\d+)? \+(\d+)(,\d+)? @@$")
LONGEST_EVENT = 1000  # characters of an event line shown: more than pywar writes (a deal
                      # of 52 cards is about 300), far less than a file's 100 MB line


@dataclass
class Side:
    """One implementation's game: its trace and its transcript (each text, or None), and
    its result as JSON (built-in engines only)."""
    name: str
    trace: object = None
    transcript: object = None
    result: object = None


@dataclass
class Difference:
    """Where two games part.  kind is "events" (the traces part), "transcript" (the
    traces agree or are missing, the transcripts part) or "results".  event is the
    index of the first differing event (0 is the deal, on trace line 2), or for a
    transcript difference the event whose narration holds the line, when known; line is
    the first differing transcript line (1 is the first); headers holds the trace
    header fields (seed, deal, rules) that differ, which do not stop the comparison."""
    names: tuple
    kind: str
    seed: object = None
    event: object = None
    round: object = None
    battle: object = None
    sides: tuple = (None, None)         # the two event lines (None: the trace ended)
    line: object = None
    diff: list = field(default_factory=list)
    fields: list = field(default_factory=list)
    note: str = ""
    headers: dict = field(default_factory=dict)     # header field: [a's value, b's]

    def to_json(self):
        """The difference as a JSON-ready dict."""
        return {"kind": self.kind, "seed": self.seed, "event": self.event,
                "trace_line": None if self.event is None else self.event + 2,
                "round": self.round, "battle": self.battle,
                "sides": dict(zip(self.names, self.sides)), "transcript_line": self.line,
                "diff": self.diff, "differing_fields": self.fields, "note": self.note,
                "differing_header": self.headers}

    def where(self):
        """'event E (trace line L), round R, battle B', or '' when no event is known."""
        if self.event is None:
            return ""
        return (f"event {self.event} (trace line {self.event + 2}), round {self.round}, "
                f"battle {self.battle}")

    def headline(self):
        """The first line of the report."""
        seed = "" if self.seed is None else f"seed {self.seed}: "
        if self.kind == "events":
            return f"{seed}the traces part at {self.where()}"
        if self.kind == "transcript":
            where = f", in the narration of {self.where()}" if self.where() else ""
            return f"{seed}the transcripts part at line {self.line}{where}"
        return f"{seed}{self.note}"

    def report(self):
        """The difference as text: the headline, both events, the transcript diff."""
        lines = [self.headline()]
        lines += [f"  {header_words(self.headers)}"] if self.headers else []
        width = max(len(name) for name in self.names) + 1
        if self.kind == "events":
            lines += [f"  {name + ':':{width}} "
                      f"{cut(line, LONGEST_EVENT) if line is not None else '(the trace ends here)'}"
                      for name, line in zip(self.names, self.sides)]
            lines += [f"  {self.note}"] if self.note else []
            lines += [f"the transcripts part at line {self.line}:"] if self.line else []
        lines += self.diff
        return "\n".join(lines) + "\n"


def header_and_events(trace):
    """(header, events) of a trace's text, or a TraceError."""
    return read(split_lines(trace))


def narration(side):
    """The lines a side's game is told in: its trace narrated, else its transcript; None
    for a trace whose events the narrator cannot tell (replay says what is wrong)."""
    if side.trace is None:
        return split_lines(side.transcript)
    try:
        header, events = header_and_events(side.trace)
        return split_lines("".join(narrate_steps(header, events)))
    except (TraceError, LookupError, TypeError, ValueError, AttributeError):
        return None


def printed(side):
    """The lines a side printed: its transcript, or its trace narrated (an empty list if
    the narrator cannot tell it)."""
    if side.transcript is not None:
        return split_lines(side.transcript)
    return narration(side) or []


def first_differing(a_lines, b_lines):
    """The index of the first line that differs (one list ending counts), or None."""
    for i, (a, b) in enumerate(zip(a_lines, b_lines)):
        if a != b:
            return i
    if len(a_lines) != len(b_lines):
        return min(len(a_lines), len(b_lines))
    return None


def renumber(line, offset):
    """A hunk header moved down by offset lines (the diff was of a window)."""
    match = HUNK.match(line)
    if not match:
        return line
    a_start, a_count, b_start, b_count = match.groups()
    return (f"@@ -{int(a_start) + offset}{a_count or ''} "
            f"+{int(b_start) + offset}{b_count or ''} @@")


def hunk(a_lines, b_lines, first, names):
    """The unified diff of the lines around index first, where they first differ: its
    two file lines and its first hunk, numbered as in the whole transcripts."""
    start = max(0, first - CONTEXT)
    stop = first + AFTER
    diff = list(difflib.unified_diff(a_lines[start:stop], b_lines[start:stop],
                                     names[0], names[1], n=CONTEXT, lineterm=""))
    if not diff:
        return []
    body = [diff[2]]
    for line in diff[3:]:
        if line.startswith("@@"):
            break
        body.append(line)
    return diff[:2] + [renumber(body[0], start)] + body[1:]


def header_difference(a, b):
    """The header fields of the games (seed, deal, rules) that differ between two Sides'
    traces, as {field: [a's, b's]} ({} unless both have a readable header)."""
    if a.trace is None or b.trace is None:
        return {}
    try:
        a_header, b_header = (strict_loads(split_lines(side.trace)[0]) for side in (a, b))
    except (TypeError, IndexError, ValueError):
        return {}
    if not isinstance(a_header, dict) or not isinstance(b_header, dict):
        return {}
    return {key: [a_header.get(key), b_header.get(key)] for key in HEADER_FIELDS
            if a_header.get(key) != b_header.get(key)}


def spelled(value):
    """A header value in the trace's own JSON spelling (null, true, [[2,0],[1]])."""
    return value if isinstance(value, str) else json.dumps(value, separators=(",", ":"))


def rules_words(a_rules, b_rules):
    """Two rule sets in words: their names, then each setting that differs."""
    if not isinstance(a_rules, dict) or not isinstance(b_rules, dict):
        return f"rules {spelled(a_rules)} / {spelled(b_rules)}"
    names = f"rules {spelled(a_rules.get('name'))} / {spelled(b_rules.get('name'))}"
    settings = [f"{key} {spelled(a_rules.get(key))} / {spelled(b_rules.get(key))}"
                for key in dict.fromkeys([*a_rules, *b_rules])
                if key != "name" and a_rules.get(key) != b_rules.get(key)]
    return names + (f" ({', '.join(settings)})" if settings else "")


def header_words(headers):
    """'the trace headers differ in seed 1 / 2; rules smu / lehigh (face_down 0 / 3)'."""
    said = [rules_words(*values) if key == "rules"
            else f"{key} {spelled(values[0])} / {spelled(values[1])}"
            for key, values in headers.items()]
    return "the trace headers differ in " + "; ".join(said)


def event_at_line(side, line):
    """(index, event) of the event whose narration holds transcript line index line,
    from a side's trace; None if the trace does not tell that line."""
    try:
        header, events = header_and_events(side.trace)
        steps = narrate_steps(header, events)
    except (TraceError, LookupError, TypeError, ValueError, AttributeError):
        return None
    said = 0
    for index, words in enumerate(steps):
        said += words.count("\n")
        if said > line:
            return index, events[index]
    return None


def event_or_nothing(line):
    """An event line's object, or {} for a line that is not one (an outside program's)."""
    try:
        event = strict_loads(line)
    except ValueError:
        return {}
    return event if isinstance(event, dict) else {}


def trace_difference(a, b, seed):
    """The first difference between two traces, or None when their events agree."""
    names = (a.name, b.name)
    a_lines, b_lines = split_lines(a.trace), split_lines(b.trace)
    first = first_differing(a_lines[1:], b_lines[1:])
    if first is None:
        return None
    sides = tuple(lines[first + 1] if first + 1 < len(lines) else None
                  for lines in (a_lines, b_lines))
    shown = event_or_nothing(sides[0] if sides[0] is not None else sides[1])
    found = Difference(names, "events", seed, first, shown.get("round"), shown.get("battle"),
                       sides)
    add_transcript_diff(found, narration(a), narration(b))
    return found


def add_transcript_diff(found, a_lines, b_lines):
    """Add the transcripts' first differing line and the diff around it."""
    if a_lines is None or b_lines is None:
        found.note = ("the transcript cannot be told: the narrator cannot tell a trace's "
                      "events (pywar replay says which breaks a rule)")
        return
    line = first_differing(a_lines, b_lines)
    if line is None:
        found.note = "the transcripts agree: the narration does not tell this difference"
        return
    found.line = line + 1
    found.diff = hunk(a_lines, b_lines, line, found.names)


def transcript_difference(a, b, seed):
    """The first difference between two transcripts (as printed), or None."""
    names = (a.name, b.name)
    a_lines, b_lines = printed(a), printed(b)
    line = first_differing(a_lines, b_lines)
    if line is None:
        return None
    found = Difference(names, "transcript", seed, line=line + 1,
                       diff=hunk(a_lines, b_lines, line, names))
    traced = a if a.trace is not None else b if b.trace is not None else None
    located = None if traced is None else event_at_line(traced, line)
    if located is not None:
        found.event, event = located
        found.round, found.battle = event["round"], event["battle"]
    return found


def result_difference(a, b, seed):
    """The fields of two built-in results that differ, as a Difference, or None."""
    if a.result is None or b.result is None:
        return None
    fields = [key for key in a.result if key != "engine" and a.result[key] != b.result.get(key)]
    if not fields:
        return None
    shown = ", ".join(f"{key} {a.result[key]!r} / {b.result.get(key)!r}" for key in fields)
    return Difference((a.name, b.name), "results", seed, fields=fields,
                      note=f"the traces and transcripts agree, the results differ: {shown}")


def first_difference(a, b, seed=None):
    """Where the games of two Sides first part, or None when they agree: the traces
    (when both have one), then the printed transcripts, then the results."""
    found = None
    if a.trace is not None and b.trace is not None:
        found = trace_difference(a, b, seed)
    found = found or transcript_difference(a, b, seed) or result_difference(a, b, seed)
    if found is not None:
        found.headers = header_difference(a, b)
    if found is not None and a.result is not None and b.result is not None:
        found.fields = [key for key in a.result
                        if key != "engine" and a.result[key] != b.result.get(key)]
    return found


__all__ = ["Difference", "Side", "first_difference"]
