"""pywar exercise's check run in this process: for the page of pywar page, whose Python
(Pyodide, in the student's browser) has no child process to run a port in, and no
sandbox.  The port is played by portplay's play_records, the same as in the child of
pywar exercise check, and judged by portjudge's judge_port, the same as in pywar's
process: only the runner differs (InProcessRun in place of portcheck's PortRun).

    >>> from pywar.check.exercise import skeleton
    >>> from pywar.check.exercise.portjudge import report
    >>> findings = check(skeleton.skeleton(), seeds=[17455])
    >>> print(report(findings)[0])
    Pile.add_card_to_pile is not written yet: its body still raises its TODO

Nothing bounds the port here, neither its time, nor its memory, nor what it may read or
change in this process: it is the student's own code in the student's own browser, with
nothing of anyone else's to reach.  The page runs this Python in a Web Worker and ends
the worker when a check runs past its time (docs/page.md); a game's own time limit
(pywar.common.alarm) needs a timer signal that the browser's Python lacks.
"""

import contextlib
import io
import os
import shutil
import sys
import tempfile

from ...common.record import records_of
from .portjudge import (GAME_SECONDS, SEEDS, Ran, bounds_of, games_of, judge_port, own_output,
                        reference_games)
from .portplay import play_records

STUDENT = "student_port"        # the name portplay.load_student imports a port under


class InProcessRun:
    """The runs of one check, played in this process: a folder of the student's files,
    the stack, the reference's games by seed, and each game's seconds."""

    def __init__(self, folder, stack, games, seconds):
        self.folder, self.stack, self.games, self.seconds = folder, stack, games, seconds

    def run(self, mode, seeds):
        """One run of the port (whole or members) on seeds: a Ran, with what the port
        printed itself (to stdout or stderr) as its own output."""
        records, own = io.StringIO(), io.StringIO()
        bounds = [int(bound) for bound in bounds_of(self.games, seeds).split(",")]
        expected = {str(seed): game for seed, game in self.games.items()}
        forget_student()
        try:
            with contextlib.redirect_stdout(own), contextlib.redirect_stderr(own):
                play_records(records, mode, self.folder, self.stack, self.seconds, bounds,
                             seeds, expected if mode == "members" else None)
        finally:
            forget_student()
        games, said = games_of(records_of(records.getvalue()))
        return Ran(games, said, "your port stopped the check before its game ended",
                   *own_output(own.getvalue()))


def forget_student():
    """Unload a port loaded before (its modules under STUDENT), so that the next run
    imports the files as they are now."""
    for name in [name for name in sys.modules if name.split(".")[0] == STUDENT]:
        del sys.modules[name]


def write_port(folder, files):
    """The student's files ({name: text}, as skeleton.skeleton() gives them) in a folder."""
    os.makedirs(folder)
    for name, text in files.items():
        if os.path.basename(name) != name or not name:
            raise ValueError(f"{name!r} is not a file name of the port")
        with open(os.path.join(folder, name), "w", encoding="utf-8") as file:
            file.write(text)


def check(files, stack="pile", seeds=SEEDS, fresh=(), game_seconds=GAME_SECONDS):
    """Check a student's port ({file name: text}) on seeds, of which fresh were drawn
    fresh for this check (portjudge.default_seeds), in this process: portjudge's
    findings, the first the one to say.  Each check writes the files to a folder of its
    own, so that nothing read of an earlier one (portplay's caches, by path) serves it."""
    seeds = list(seeds)
    reference = reference_games(seeds, stack)
    work = tempfile.mkdtemp(prefix="pywar-exercise-")
    try:
        folder = os.path.join(work, "port")
        write_port(folder, files)
        runs = InProcessRun(folder, stack, reference, game_seconds)
        return judge_port(runs, seeds, reference, game_seconds, folder, list(fresh))
    finally:
        shutil.rmtree(work, ignore_errors=True)
