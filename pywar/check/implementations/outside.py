"""The implementations that pywar check and pywar referee play, seed by seed: pywar's
own (c, python, port-c, port-python) and outside ones, named on the command line:

- cmd:COMMAND, a program run once per seed, {seed} in COMMAND standing for the seed
  (cmd:'./student --seed {seed}').  It prints a trace (docs/trace.md) or a transcript
  on stdout: the first line tells which (a trace's is its JSON header; a transcript's
  is the first line of its narration, "Welcome to the Game of War!" for smu).
- py:MODULE:CLASS, a Python class with the port's interface (pywar.port.tabletop.
  TableTop): CLASS(seed, text=text) shuffles and deals, writing the opening lines with
  text.append(str); each do_battle() plays one round, writing its lines, and returns
  True once someone has run out of cards.  pywar writes the round header before each
  round, as the reference's main does.

Each implementation's play(seed, rules) gives a compare.Side.  An outside one that
crashes, hangs past its timeout, or prints neither a trace nor a transcript raises an
OutsideError: one line that says so.
"""

import json
import os
import shlex
import shutil
import signal
from importlib import import_module

from ... import one_game
from ...common.trace import TraceError, read
from ...engine_choice import ENGINES, check_port, resolve_engine
from ..runner import sandbox
from ...common.alarm import TimeUp, within
from .difference import Side
from ..referee.quote import shown
from .replay import split_lines

TRANSCRIPT_OPENINGS = ("Welcome to the Game of War!", "Shuffling deck",
                       "Dealing deck into two piles", "Welcome to War, let's begin...")
OUTPUT_LIMIT = 256 * 2 ** 20          # bytes a program may print for one game
ENGINE_HELP = ("c, python, port-c, port-python, cmd:'PROGRAM ARGS' (with {seed} for the "
               "seed) or py:MODULE:CLASS")


class OutsideError(Exception):
    """An outside implementation that failed on a seed: one line saying how, and its kind
    (one of FAILURES), which pywar check --keep-going tallies."""

    def __init__(self, message, kind="failed", printed=None):
        super().__init__(message)
        self.kind = kind
        self.printed = printed          # what the program printed on stdout before, if known


FAILURES = ("crashed", "timed out", "exit status", "failed")


def kind_of(text):
    """'trace' or 'transcript', told by the first line, or None for anything else."""
    first = text.split("\n", 1)[0]
    if first in TRANSCRIPT_OPENINGS:
        return "transcript"
    try:
        header = json.loads(first)
    except ValueError:
        return None
    return "trace" if isinstance(header, dict) and header.get("trace") == "pywar" else None


class Builtin:
    """One of pywar's engines, with the port's stack for a port engine."""

    def __init__(self, engine, stack=None):
        self.engine = resolve_engine(engine)
        self.stack = stack
        self.name = self.engine if stack is None else f"{self.engine}/{stack}"

    def check(self, rules):
        """Raise a one-line ValueError for rules or a stack this engine cannot play."""
        self.stack = check_port(self.engine, rules, self.stack)

    def play(self, seed, rules):
        """The game of a seed: its trace, transcript and result."""
        game = one_game.play(seed, rules, engine=self.engine, stack=self.stack,
                             transcript=True, trace=True)
        result = game.to_json()
        return Side(self.name, game.trace, game.transcript, result)


class Program:
    """An outside program, run once per seed: cmd:COMMAND."""

    def __init__(self, command, timeout):
        try:
            self.argv = shlex.split(command)
        except ValueError as error:
            raise ValueError(f"cmd: cannot split {command!r} into words: {error}") from None
        if not self.argv:
            raise ValueError("cmd: needs a command, as in cmd:'./student --seed {seed}'")
        if not any("{seed}" in word for word in self.argv):
            raise ValueError(f"cmd: {command!r} has no {{seed}}: write where the seed goes, "
                             "as in cmd:'./student --seed {seed}'")
        if shutil.which(self.argv[0]) is None:
            raise ValueError(f"cmd: cannot run {self.argv[0]!r}: no such program, or it is "
                             "not executable")
        self.name = "cmd:" + command
        self.timeout = timeout

    def check(self, rules):
        """An outside program plays the rules it plays: nothing to check."""

    def run(self, seed):
        """Run the program for a seed in pywar's runner (sandbox.run, its cmd profile):
        (exit status, stdout, stderr).  It sees the system and the files and folders its
        command line names (a relative one as an absolute path), read-only."""
        argv = [word.replace("{seed}", str(seed)) for word in self.argv]
        argv, shown = named_paths(argv)
        limits = sandbox.profile("cmd", wall=self.timeout, cpu=max(1, int(self.timeout + 1)),
                                 output=OUTPUT_LIMIT)
        outcome = sandbox.run(argv, limits, show=shown)
        if outcome.failed_to_start or outcome.status in (126, 127):
            said = outcome.failed_to_start or (split_lines(outcome.stderr) or ["?"])[-1]
            raise OutsideError(f"{self.name} could not be run: {said}")
        if outcome.timed_out:
            raise OutsideError(f"{self.name} did not finish seed {seed} within "
                               f"{self.timeout:g} s (--timeout)", "timed out", outcome.stdout)
        status = -signal.SIGXFSZ if outcome.flooded else outcome.status
        return status, outcome.stdout, outcome.stderr

    def play(self, seed, rules):
        """The program's game of a seed, as the trace or transcript it printed; an
        OutsideError keeps what it printed."""
        status, printed, err = self.run(seed)
        if status == -signal.SIGXFSZ:
            raise OutsideError(f"{self.name} printed more than {OUTPUT_LIMIT // 2 ** 20} MiB "
                               f"for seed {seed}", "crashed", printed)
        if status < 0:
            raise OutsideError(f"{self.name} was killed by {signal.Signals(-status).name} "
                               f"on seed {seed}", "crashed", printed)
        if status != 0:
            said = split_lines(err)
            last = f": {said[-1]}" if said else ""
            raise OutsideError(f"{self.name} exited with status {status} on seed {seed}{last}",
                               "exit status", printed)
        return side_of(self.name, printed, seed)


def named_paths(argv):
    """A command line with each word that names an existing file or folder made absolute,
    and those paths (what a cmd: program may read)."""
    words, shown = [], []
    for word in argv:
        if word and os.path.exists(word):
            word = os.path.abspath(word)
            shown.append(word)
        words.append(word)
    return words, shown


def side_of(name, text, seed):
    """A program's output as a Side: a trace or a transcript, or an OutsideError."""
    kind = kind_of(text)
    if kind is None:
        first = text.split("\n", 1)[0]
        said = "nothing" if not text else f"first the line {shown(first)}"
        raise OutsideError(f"{name} printed neither a pywar trace nor a transcript for seed "
                           f"{seed}: it printed {said}")
    if kind == "transcript":
        return Side(name, transcript=text)
    try:
        read(split_lines(text))
    except TraceError as error:
        raise OutsideError(f"{name} printed a broken trace for seed {seed}: {error}") from None
    return Side(name, trace=text)


class PythonClass:
    """An outside Python class with the port's interface: py:MODULE:CLASS."""

    def __init__(self, spec, timeout):
        module_name, _, class_name = spec.partition(":")
        if not module_name or not class_name:
            raise ValueError(f"py: takes MODULE:CLASS, as in py:pywar.port.tabletop:TableTop, "
                             f"not {spec!r}")
        try:
            module = import_module(module_name)
        except Exception as error:          # an import runs the module's code
            raise ValueError(f"py: cannot import {module_name}: {error}") from None
        self.cls = getattr(module, class_name, None)
        if not callable(self.cls):
            raise ValueError(f"py: module {module_name} has no class {class_name}")
        self.name = "py:" + spec
        self.timeout = timeout

    def check(self, rules):
        """An outside class plays the rules it plays: nothing to check."""

    def play(self, seed, rules):
        """The class's game of a seed, driven as the reference's main drives TableTop."""
        text = []
        try:
            within(self.timeout, lambda: self.drive(seed, text))
            transcript = "".join(text)
        except TimeUp:
            raise OutsideError(f"{self.name} did not finish seed {seed} within "
                               f"{self.timeout:g} s (--timeout)", "timed out") from None
        except Exception as error:
            raise OutsideError(f"{self.name} raised {type(error).__name__} on seed {seed}: "
                               f"{error}", "crashed") from None
        return side_of(self.name, transcript, seed)

    def drive(self, seed, text):
        """main: the round header, then do_battle(), until it returns True."""
        table = self.cls(seed, text=text)
        number = 1
        over = False
        while not over:
            text.append(f"======== Round {number} ========\n")
            number += 1
            over = table.do_battle()


def implementation(name, stack=None, timeout=10.0):
    """The implementation an --engine value names; a one-line ValueError otherwise."""
    if name.startswith("cmd:"):
        found = Program(name[len("cmd:"):], timeout)
    elif name.startswith("py:"):
        found = PythonClass(name[len("py:"):], timeout)
    elif name in ENGINES:
        return Builtin(name, stack)
    else:
        raise ValueError(f"unknown engine {name!r}: choose {ENGINE_HELP}")
    if stack is not None:
        raise ValueError(f"a stack is for the port engines, not {found.name}")
    return found
