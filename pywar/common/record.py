"""A game of a student's Python, played by a child of pywar's runner and recorded as JSON
lines in the order written: a header record, the game's pieces (its tape's records: {"t":
text}, {"e": trace line}), then {"end": finished | timeout | cut | ..., "words": ...}.
The children that play a student's Python (pywar.check.exercise.portplay,
pywar.check.implementations.pyclass) record with record_game, each with a tape of its
own; pywar reads the records back in its own process (records_of) and decides there.  Standard library
alone (and the alarm), so that a child runs on copies of pywar's shared modules."""

import json

from .alarm import TimeUp, within


class Cut(BaseException):
    """A game that printed past its bound (or, on the exercise's tape, left the
    reference's game): every later piece raises it again, so that a student's bare
    'except' cannot swallow it."""


def record_game(out, header, tape, play, seconds, failed, grace=None):
    """Play one game (play(), writing to the tape) into records: the header, the tape's
    records, the end.  The tape has .stopped (None, or the end it cut the game with) and
    .finish() (write what it holds back).  failed(error) gives the end of an exception of
    the student's code, as (kind, words); grace as for within.  The end's kind."""
    out.write(json.dumps(header) + "\n")
    try:
        within(seconds, play, grace)
        end = ("finished", "")
    except TimeUp:
        end = ("timeout", "")
    except Cut:
        end = ("cut", "")
    except Exception as error:                   # the student's code, whatever it raises
        end = failed(error)
    tape.finish()
    if tape.stopped:
        end = (tape.stopped, "")
    out.write(json.dumps({"end": end[0], "words": end[1]}) + "\n")
    out.flush()
    return end[0]


def records_of(text):
    """The records a child wrote, up to the first that is not one."""
    records = []
    for line in text.splitlines():
        try:
            record = json.loads(line)
        except ValueError:
            break
        if not isinstance(record, dict):
            break
        records.append(record)
    return records
