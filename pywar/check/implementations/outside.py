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
  round, as the reference's main does.  The class is untrusted code, as a program is:
  nothing of it is imported into pywar's process.  pywar finds the module's top-level
  package or file on its own sys.path, as an import would (with `python -m pywar` the
  current folder is on it, with the `pywar` command it is not: PYTHONPATH), running
  none of its code; a child of the runner (sandbox.run, the cmd profile, no caller's
  environment; pyclass.py is the child's side) that sees that package or file alone,
  read-only, beside copies of pywar.common and pywar.rules, imports it and plays a
  batch of the seeds check asks next, recording each game as JSON lines.  A game past
  --timeout is timed out (its child goes on to the next seed); output past the limit
  is cut, per game and in all.

Each implementation's play(seed, rules) gives a compare.Side.  An outside one that
crashes, hangs past its timeout, or prints neither a trace nor a transcript raises an
OutsideError: one line that says so.
"""

import json
import os
import shlex
import shutil
import signal
from importlib import util

from ... import one_game
from ...common.fields import SEED_LIMIT
from ...common.trace import TraceError, read
from ...engine_choice import ENGINES, check_port, resolve_engine
from ..runner import sandbox
from ..runner.pychild import boot, copy_shared, not_started, python_for_runs
from ...common.record import records_of
from .difference import Side
from ..referee.quote import LINE, cut, shown
from .replay import split_lines

TRANSCRIPT_OPENINGS = ("Welcome to the Game of War!", "Shuffling deck",
                       "Dealing deck into two piles", "Welcome to War, let's begin...")
OUTPUT_LIMIT = 256 * 2 ** 20          # bytes a program may print for one game
WORDS = 1000                          # characters of a py: class's error message shown
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

    def __init__(self, command, timeout, isolation="auto"):
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
        self.isolation = isolation          # the command's sandbox.Isolation (sandbox.run)

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
        outcome = sandbox.run(argv, limits, show=shown, isolation=self.isolation)
        if outcome.failed_to_start or outcome.status in (126, 127):
            said = outcome.failed_to_start or (split_lines(outcome.stderr) or ["?"])[-1]
            raise OutsideError(f"{self.name} could not be run: {said}")
        if outcome.timed_out:
            raise timed_out(self.name, seed, self.timeout, outcome.stdout)
        status = -signal.SIGXFSZ if outcome.flooded else outcome.status
        return status, outcome.stdout, outcome.stderr

    def play(self, seed, rules):
        """The program's game of a seed, as the trace or transcript it printed; an
        OutsideError keeps what it printed."""
        status, printed, err = self.run(seed)
        if status != 0:
            raise failure(self.name, seed, status, printed, err)
        return side_of(self.name, printed, seed)


def timed_out(name, seed, timeout, printed):
    """The OutsideError of a game still going after --timeout."""
    return OutsideError(f"{name} did not finish seed {seed} within {timeout:g} s (--timeout)",
                        "timed out", printed)


def failure(name, seed, status, printed, err):
    """The OutsideError of a program (or a py: class's child) that ended a seed's game
    with a status other than 0: killed (by SIGXFSZ: it printed past its limit), or an
    exit status, with the last line it wrote on stderr."""
    if status == -signal.SIGXFSZ:
        return OutsideError(f"{name} printed more than {OUTPUT_LIMIT // 2 ** 20} MiB for seed "
                            f"{seed}", "crashed", printed)
    if status < 0:
        return OutsideError(f"{name} was killed by {signal_name(-status)} on seed {seed}",
                            "crashed", printed)
    said = split_lines(err)
    last = f": {cut(said[-1], LINE)}" if said else ""
    return OutsideError(f"{name} exited with status {status} on seed {seed}{last}",
                        "exit status", printed)


def signal_name(number):
    """A signal's name: SIGSEGV (signal 40, say, for one Python has no name of)."""
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"


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


# ---- py:MODULE:CLASS, played in children of the runner (pyclass.py)

PY_BOOT = boot("pywar.check.implementations.pyclass")
PY_PARTS = ("rules.py", "common", "check/implementations/pyclass.py")   # of pywar, in LIB
BATCH = 64          # seeds one child plays at most.  A child costs some 60 ms to start
                    # (5 games of pywar's port), and the seeds of the last child that check
                    # does not ask for are played for nothing.  `pywar check -n 200 --engine
                    # py:pywar.port.tabletop:TableTop --against port-python` took 8.3 s with
                    # the class in pywar's process (4286381) and takes 10.1 s in children of
                    # 1, 2, 4, ... 64, 64, 64 seeds, 55 of them not asked for (medians of 5,
                    # on a busy 2-core machine); the class's side alone, 2.3 s and 3.7 s
SLACK = 2.0         # seconds a child may take beyond its import's and games': its start
GRACE = 1.0         # seconds a game that swallows its TimeUp goes on before it is killed


def located(module_name):
    """(the paths a child must see, the folders to put first on its sys.path): those of
    the module's top-level package or file, found on pywar's sys.path as an import
    would find it (with `python -m pywar` the current folder is on it; with the `pywar`
    command it is not: PYTHONPATH), running none of its code; a one-line ValueError
    when there is none."""
    if not all(part.isidentifier() for part in module_name.split(".")):
        raise ValueError(f"py: cannot import {module_name}: not a module's name")
    top = module_name.split(".")[0]
    try:
        spec = util.find_spec(top)          # a name without a dot: nothing is imported
    except (ImportError, ValueError) as error:
        raise ValueError(f"py: cannot import {module_name}: {error}") from None
    if spec is None:
        raise ValueError(f"py: cannot import {module_name}: No module named {top!r}")
    if spec.submodule_search_locations:     # a package (a namespace: each of its folders)
        paths = [os.path.abspath(path) for path in spec.submodule_search_locations]
    elif spec.has_location and spec.origin:
        paths = [os.path.abspath(spec.origin)]
    else:
        paths = []                          # built into Python: the child's has it too
    paths = [path for path in paths if os.path.exists(path)]     # not in a zip file
    return paths, list(dict.fromkeys(os.path.dirname(path) for path in paths))


def one_line(words):
    """A child's words, on one line and cut short."""
    return cut(" ".join(str(words).splitlines()), WORDS)


def recorded(records, seeds):
    """What a child recorded of its seeds: [(seed, text, end record)] of the games it
    ended, in the order of seeds, and the text of the game it was in when its records
    stop ('' if none)."""
    games, pieces, playing = [], [], None
    following = iter(seeds)
    for record in records:
        if "game" in record and playing is None and record["game"] == next(following, None):
            playing, pieces = record["game"], []
        elif "t" in record and playing is not None and isinstance(record["t"], str):
            pieces.append(record["t"])
        elif "end" in record and playing is not None:
            games.append((playing, "".join(pieces), record))
            playing, pieces = None, []
        else:
            break
    return games, "".join(pieces)


class PythonClass:
    """An outside Python class with the port's interface: py:MODULE:CLASS.  Nothing of it
    runs in pywar's process: children of the runner (pyclass.py, the cmd profile) load
    it and play it, a batch of seeds each."""

    def __init__(self, spec, timeout, isolation="auto"):
        module_name, _, class_name = spec.partition(":")
        if not module_name or not class_name:
            raise ValueError(f"py: takes MODULE:CLASS, as in py:pywar.port.tabletop:TableTop, "
                             f"not {spec!r}")
        self.module_name, self.class_name = module_name, class_name
        self.name = "py:" + spec
        self.timeout = timeout
        self.isolation = isolation          # the command's sandbox.Isolation (sandbox.run)
        self.shown, self.folders = located(module_name)
        self.games = {}             # seed: Side or OutsideError, the last child's, not yet asked
        self.following = None       # the seed after the last child's games
        self.size = 0               # the seeds the last child was given
        said = self.load_trouble(*self.run([]))
        if said:
            raise ValueError(said)

    def check(self, rules):
        """An outside class plays the rules it plays: nothing to check."""

    def run(self, seeds):
        """One child on the seeds (none: it only loads the class): (its Outcome, its
        records).  The folders go as JSON: a word of argv that is a path is shown to
        the run (sandbox.shown_paths), and the folder is not to be, only the module."""
        with sandbox.Scratch("pywar-pyclass-") as work:
            lib = copy_shared(os.path.join(work, "lib"), PY_PARTS)
            argv = [python_for_runs(), "-I", "-S", "-B", "-c", PY_BOOT, lib,
                    json.dumps(self.folders), self.module_name, self.class_name,
                    str(self.timeout), str(GRACE), str(OUTPUT_LIMIT), ",".join(map(str, seeds))]
            wall = SLACK + GRACE + self.timeout * (1 + len(seeds))
            limits = sandbox.profile("cmd", wall=wall, cpu=max(1, int(wall + 1)),
                                     output=OUTPUT_LIMIT)
            outcome = sandbox.run(argv, limits, show=[lib, *self.shown],
                                  isolation=self.isolation)
        return outcome, records_of(outcome.stdout)

    def load_trouble(self, outcome, records):
        """'' when a child loaded the class; else why not, in one line."""
        said = records[0] if records else {}
        if said.get("load") == "ok":
            return ""
        if said.get("load") == "class":
            return f"py: module {self.module_name} has no class {self.class_name}"
        if said.get("load") == "import":
            return f"py: cannot import {self.module_name}: {one_line(said.get('words'))}"
        if outcome.failed_to_start or outcome.status in (126, 127):
            return not_started(outcome, python_for_runs(), self.name)
        if outcome.timed_out or outcome.status == -signal.SIGALRM:
            how = f"did not finish within {self.timeout:g} s (--timeout)"
        else:
            how = outcome.trouble() or "exited with status 0"
        return f"py: cannot import {self.module_name}: it {how}"

    def play(self, seed, rules):
        """The class's game of a seed, driven as the reference's main drives TableTop,
        from the games of the child that played it."""
        if seed not in self.games:
            self.games = self.batch(seed)
        found = self.games.pop(seed)
        if isinstance(found, OutsideError):
            raise found
        return found

    def batch(self, seed):
        """{seed: Side or OutsideError} of the games one child played from the seed on,
        the seed's own at least.  While the seeds asked for follow one another, as check
        asks them, each child is given twice the last one's (up to BATCH); else one."""
        self.size = min(BATCH, self.size * 2) if seed == self.following else 1
        seeds = [(seed + k) % SEED_LIMIT for k in range(self.size)]
        outcome, records = self.run(seeds)
        said = self.load_trouble(outcome, records)
        if said:
            return {seed: OutsideError(said, "failed")}
        ended, printed = recorded(records[1:], seeds)
        found = {played: self.ended(played, text, end) for played, text, end in ended}
        if len(ended) < len(seeds):
            stopped = self.stopped(seeds[len(ended)], printed, outcome, not ended)
            if stopped is not None:
                found[seeds[len(ended)]] = stopped
        self.following = (seed + len(found)) % SEED_LIMIT
        return found

    def ended(self, seed, text, end):
        """A game the child ended, as its Side or its OutsideError."""
        kind, words = end.get("end"), end.get("words")
        if kind == "finished":
            try:
                return side_of(self.name, text, seed)
            except OutsideError as error:
                return error
        if kind == "timeout":
            return timed_out(self.name, seed, self.timeout, text)
        if kind == "cut":
            return failure(self.name, seed, -signal.SIGXFSZ, text, "")
        if kind == "error" and isinstance(words, list) and len(words) == 2:
            return OutsideError(f"{self.name} raised {one_line(words[0])} on seed {seed}: "
                                f"{one_line(words[1])}", "crashed", text)
        return OutsideError(f"{self.name} ended seed {seed}'s game in a way pywar cannot "
                            f"read: {shown(str(kind))}", "failed", text)

    def stopped(self, seed, printed, outcome, first):
        """The OutsideError of the game a child was in when it stopped.  A game past its
        time is charged at once; another is charged only as its child's first game (None
        otherwise: a new child plays it first, so that what the earlier games printed
        cannot spend its output limit, say)."""
        if outcome.timed_out or outcome.status == -signal.SIGALRM:
            return timed_out(self.name, seed, self.timeout, printed)
        if not first:
            return None
        status = -signal.SIGXFSZ if outcome.flooded else outcome.status
        return failure(self.name, seed, status, printed, outcome.stderr)


def implementation(name, stack=None, timeout=10.0, isolation="auto"):
    """The implementation an --engine value names, an outside one run under isolation
    (the command's sandbox.Isolation, or a wish of sandbox.MODES, resolved here once); a
    one-line ValueError otherwise."""
    if name.startswith("cmd:"):
        found = Program(name[len("cmd:"):], timeout, sandbox.resolve(isolation))
    elif name.startswith("py:"):
        found = PythonClass(name[len("py:"):], timeout, sandbox.resolve(isolation))
    elif name in ENGINES:
        return Builtin(name, stack)
    else:
        raise ValueError(f"unknown engine {name!r}: choose {ENGINE_HELP}")
    if stack is not None:
        raise ValueError(f"a stack is for the port engines, not {found.name}")
    return found
