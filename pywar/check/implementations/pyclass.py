"""The child's side of py:MODULE:CLASS (pywar check, pywar referee): it runs inside pywar's
runner (sandbox.run, its cmd profile), imports the outside class and plays it seed by
seed as the reference's main drives TableTop, recording each game's text as JSON lines
(pywar.common.record) on the descriptor that was stdout; the class's own prints go to
stderr.  It decides nothing: pywar (pywar.check.implementations.outside) reads the
records in its own process.  Standard library alone, beside copies of pywar.common and
pywar.rules (what a port imports from pywar), which pywar puts in LIB.

    python -I -S -B -c BOOT LIB FOLDERS MODULE CLASS SECONDS GRACE BOUND SEEDS

FOLDERS, a JSON list (empty for a module built into Python), go first on sys.path: the
folder that holds MODULE's top-level package or file (which the child sees alone of it).  SEEDS,
comma-separated, may be empty: the child then only loads the class.  Records: first
{"load": "ok"}, or {"load": "import", "words": why} or {"load": "class"} and nothing
more; then for each seed {"game": seed}, {"t": text}..., {"end": finished | timeout |
cut | error, "words": ...} (an error's words: [its type's name, its message]).  Each
import and each game may take SECONDS (then TimeUp; a game that swallows it is killed
GRACE seconds later, by SIGALRM) and write BOUND characters (then cut, and the child
stops); the child goes on to the next seed after a timeout or an error.
"""

import json
import os
import signal
import sys
from functools import partial
from importlib import import_module

from ...common.alarm import TimeUp, within
from ...common.record import Cut, record_game

WORDS = 1000                # characters of an exception's message recorded
CHUNK = 65536               # characters of text a record holds, at least (but the last)


class Text:
    """A game's text (its .append), written as records of CHUNK characters or more, not
    one a line: a game of pywar's port appends some 3,700 lines, and a record a line (as
    the exercise's tape writes them) made 64 games 0.4 s slower in the child and 0.3 s
    in pywar's reading of them.  Past its bound (characters) the game is cut: Cut, again
    at each later chunk.  A child killed in a game loses the last CHUNK characters at
    most."""

    def __init__(self, out, bound):
        self.out = out
        self.left = bound
        self.stopped = None
        self.held = []
        self.size = 0

    def append(self, piece):
        """A piece of text, held; written once those held are CHUNK characters."""
        piece = str(piece)
        self.held.append(piece)
        self.size += len(piece)
        if self.size >= CHUNK:
            self.finish()
            if self.stopped:
                raise Cut

    def finish(self):
        """Write the text held as one record, unless the game is past its bound."""
        held, self.held, self.size = self.held, [], 0   # taken first: a TimeUp between
        text = "".join(held)                            # the two loses it, never doubles it
        self.left -= len(text)
        if self.left < 0:
            self.stopped = "cut"
        if text and not self.stopped:
            self.out.write(json.dumps({"t": text}) + "\n")


def drive(cls, seed, text):
    """main: the round header, then do_battle(), until it returns True."""
    table = cls(seed, text=text)
    number = 1
    over = False
    while not over:
        text.append(f"======== Round {number} ========\n")
        number += 1
        over = table.do_battle()


def raised(error):
    """An exception of the class's as its game's end: ('error', [type, message])."""
    try:
        said = str(error)
    except Exception:                           # a __str__ of the student's that raises
        said = "(its message raised an exception too)"
    return "error", [type(error).__name__, said[:WORDS]]


def load(module_name, class_name):
    """(the class, the load record): (None, why not) for a module that cannot be
    imported or has no such class."""
    try:
        module = import_module(module_name)
    except Exception as error:                  # an import runs the module's code
        return None, {"load": "import", "words": str(error)[:WORDS]}
    found = getattr(module, class_name, None)
    if not callable(found):
        return None, {"load": "class"}
    return found, {"load": "ok"}


def forget_pywar():
    """Drop the pywar this child started on (LIB's copies) from sys.modules: the module
    then imports pywar afresh, from its own folder when it is pywar's own port
    (py:pywar.port.tabletop:TableTop), else from LIB (pywar.common, pywar.rules).  The
    functions here keep what they took from it."""
    for name in [name for name in sys.modules if name == "pywar" or name.startswith("pywar.")]:
        del sys.modules[name]


def main(argv):
    """The child's main: the records on the descriptor that was stdout."""
    folders, module_name, class_name, seconds, grace, bound, seeds = argv
    records = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    signal.signal(signal.SIGXFSZ, signal.SIG_DFL)   # past the output limit: killed, as a
    seconds, grace = float(seconds), float(grace)   # program is (Python ignores it)
    forget_pywar()
    sys.path[:0] = json.loads(folders)
    try:
        found, said = within(seconds, lambda: load(module_name, class_name), grace)
    except TimeUp:
        found, said = None, {"load": "import", "words": f"it did not finish within "
                                                        f"{seconds:g} s (--timeout)"}
    records.write(json.dumps(said) + "\n")
    records.flush()
    if found is None:
        return
    for seed in [int(seed) for seed in seeds.split(",") if seed]:
        text = Text(records, int(bound))
        end = record_game(records, {"game": seed}, text, partial(drive, found, seed, text),
                          seconds, raised, grace)
        if end == "cut":
            break                               # the rest of its output is all but spent
