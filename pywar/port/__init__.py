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

from ..common.fields import check_seed, text_target
from .pile import STACKS
from .program4 import main



def check(seed, stack):
    """The seed as an int, or a one-line TypeError or ValueError for a bad seed or stack."""
    seed = check_seed(seed)
    if stack not in STACKS:
        raise ValueError(f"stack must be 'pile' (Program 4) or 'adt' (Program 6), "
                         f"not {stack!r}")
    return seed


def play(seed, stack="pile", transcript=False, trace=False):
    """Play the game of a seed: (counts, transcript, trace).

    counts is the observer's Counts.  transcript and trace are each False (none), True
    (the text is returned) or a text stream (the text is written to it as the game
    goes, and None is returned).  The trace is its event lines, without the header
    (pywar.common.trace.header_line writes that). C: pywar_port_play."""
    seed = check(seed, stack)
    text = text_target(transcript)
    trace_text = text_target(trace)
    counts = main(seed, stack, text, trace_text)
    words = "".join(text) if transcript is True else None
    trace_words = "".join(trace_text) if trace is True else None
    return counts, words, trace_words
