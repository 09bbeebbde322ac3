"""The port: the SMU CSE1342 reference program of War, member for member, in Python.

The reference is the C++ of KirkWThomas/CSE1342-Spring2019, folder Program6Reference/.
Each of its classes has a module here (card, pile, player, tabletop) and its main is
program4.main; each member has a method of the same name in snake case, whose docstring
names the C function beside it in csrc/port/.  Read the three side by side
(docs/reading-guide.md), or step through a game:

    >>> import pywar.port
    >>> counts, transcript, trace = pywar.port.play(17455, transcript=True)
    >>> counts.rounds, counts.winner, transcript.splitlines()[0]
    (29, 1, 'Welcome to the Game of War!')

It plays only the smu rules, and needs nothing beyond the standard library.
"""

from .pile import STACKS
from .program4 import main

SEED_LIMIT = 2 ** 32


class StreamText:
    """Text that is written to a text stream as it is said. C: a PywarText with a sink."""

    def __init__(self, stream):
        self.stream = stream

    def append(self, line):
        """Write one piece of the text."""
        self.stream.write(line)


def text_for(wanted):
    """Where text goes: None for False, a list for True, a StreamText for a stream."""
    if wanted is False:
        return None
    if wanted is True:
        return []
    return StreamText(wanted)


def check(seed, stack):
    """Raise a one-line TypeError or ValueError for a bad seed or stack."""
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise TypeError(f"seed must be an integer from 0 to {SEED_LIMIT - 1}")
    if not 0 <= seed < SEED_LIMIT:
        raise ValueError(f"seed must be from 0 to {SEED_LIMIT - 1} (32 bits), not {seed}")
    if stack not in STACKS:
        raise ValueError(f"stack must be 'pile' (Program 4) or 'adt' (Program 6), "
                         f"not {stack!r}")


def play(seed, stack="pile", transcript=False, trace=False):
    """Play the game of a seed: (counts, transcript, trace).

    counts is the observer's Counts.  transcript and trace are each False (none), True
    (the text is returned) or a text stream (the text is written to it as the game
    goes, and None is returned).  The trace is its event lines, without the header
    (pywar.common.trace.header_line writes that). C: pywar_port_play."""
    check(seed, stack)
    text = text_for(transcript)
    trace_text = text_for(trace)
    counts = main(seed, stack, text, trace_text)
    words = "".join(text) if transcript is True else None
    trace_words = "".join(trace_text) if trace is True else None
    return counts, words, trace_words
