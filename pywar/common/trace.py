"""The trace's lines (docs/trace.md): one JSON object per line, no spaces, the keys in a
fixed order, so that every implementation writes the same bytes. C: csrc/common/trace.c
writes the event lines; the header is written here for every implementation."""

import json

from .fields import OUTCOMES

VERSION = 1
KINDS = ("deal", "round", "take_back", "face_up", "battle", "pickup", "refill",
         "face_down", "run_out", "cap", "cycle", "end")


def spell(data):
    """One JSON line, spelled as the trace spells it. C: the Line_ functions."""
    return json.dumps(data, separators=(",", ":")) + "\n"


def header_line(engine, seed, rules, stack=None, deal=None):
    """The trace's first line. rules is a dict: name, then every dimension."""
    hands = None if deal is None else [list(hand) for hand in deal]
    return spell({"trace": "pywar", "version": VERSION, "engine": engine, "stack": stack,
                  "seed": seed, "deal": hands, "rules": rules})


def event_line(kind, round_, battle, own, piles, pot):
    """An event's line: its kind, where it stands, its own keys (a dict, in order), and
    the pile sizes after it. C: Trace_Write."""
    data = {"event": kind, "round": round_, "battle": battle}
    data.update(own)
    data["piles"] = [list(pile) for pile in piles]
    data["pot"] = pot
    return spell(data)


class TraceError(ValueError):
    """A file that is not a pywar trace, or a line of one that cannot be read."""


def parse_header(line):
    """The header of a trace's first line (None for an empty file), checked for the
    format's name and version, or a TraceError saying why it is not one."""
    try:
        header = json.loads(line)
    except (TypeError, json.JSONDecodeError):
        raise TraceError("not a pywar trace: the first line is not a JSON header") from None
    if not isinstance(header, dict) or header.get("trace") != "pywar":
        raise TraceError('not a pywar trace: the first line has no "trace":"pywar"')
    if header.get("version") != VERSION:
        raise TraceError(f"trace version {header.get('version')!r} is not known: "
                         f"this pywar reads version {VERSION}")
    return header


def read(lines):
    """(header, events) of a trace's lines: dicts, checked for the format's shape."""
    lines = iter(lines)
    header = parse_header(next(lines, None))
    events = []
    for number, line in enumerate(lines, start=2):
        try:
            event = json.loads(line)
        except json.JSONDecodeError as error:
            raise TraceError(f"line {number}: not JSON ({error.msg})") from None
        if not isinstance(event, dict) or event.get("event") not in KINDS:
            raise TraceError(f"line {number}: not an event of the trace")
        events.append(event)
    return header, events
