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


class StrictJSONError(ValueError):
    """A line that is not JSON as a trace may hold it; the reason in a few words."""


def unique_keys(pairs):
    """An object's pairs as a dict, or StrictJSONError for a key given twice (which
    json.loads takes, keeping the last)."""
    found = dict(pairs)
    if len(found) < len(pairs):
        twice = next(key for i, (key, _) in enumerate(pairs)
                     if key in (other for other, _ in pairs[:i]))
        raise StrictJSONError(f"the key {json.dumps(twice)} is given twice")
    return found


def no_constant(name):
    """NaN, Infinity and -Infinity, which json.loads takes and JSON has not: refused."""
    raise StrictJSONError(f"{name} is not JSON")


STRICT = json.JSONDecoder(object_pairs_hook=unique_keys, parse_constant=no_constant)


def strict_loads(line):
    """A line's JSON value, read as the trace format allows: a key given twice, NaN or
    Infinity, an integer longer than Python reads (4,300 digits), or a nesting deeper
    than Python's reader goes (RecursionError) is a StrictJSONError saying so."""
    try:
        return STRICT.decode(line)
    except StrictJSONError:
        raise
    except json.JSONDecodeError as error:
        raise StrictJSONError(error.msg) from None
    except RecursionError:
        raise StrictJSONError("nested deeper than pywar reads") from None
    except ValueError as error:              # an integer of more than 4,300 digits
        raise StrictJSONError(str(error).split(";")[0]) from None


def parse_header(line):
    """The header of a trace's first line (None for an empty file), checked for the
    format's name and version, or a TraceError saying why it is not one."""
    if not isinstance(line, str):
        raise TraceError("not a pywar trace: the first line is not a JSON header")
    try:
        header = strict_loads(line)
    except StrictJSONError as error:
        raise TraceError("not a pywar trace: the first line is not a JSON header "
                         f"({error})") from None
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
            event = strict_loads(line)
        except StrictJSONError as error:
            raise TraceError(f"line {number}: not JSON ({error})") from None
        if not isinstance(event, dict) or event.get("event") not in KINDS:
            raise TraceError(f"line {number}: not an event of the trace")
        events.append(event)
    return header, events
