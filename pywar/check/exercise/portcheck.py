"""The port as an exercise, its check run (pywar exercise check DIR; the skeleton is
pywar.check.exercise.skeleton, the judge pywar.check.exercise.portjudge).

The check (check()) copies the student's port and runs it in pywar's runner
(sandbox.run, its exercise profile: bubblewrap where it works, no stdin, a scratch
folder, limits on time, memory and output), beside a pywar of the shared modules alone
(no pywar.port), where pywar/check/exercise/portplay.py plays each seed and records what
the port printed and traced.  Those records are read back here and judged in pywar's
own process by portjudge.judge_port, which the page's check in the browser runs too.
"""

import json
import os
import time

from ..runner import sandbox
from ..runner.pychild import PYWAR_FOLDER, boot, copy_shared, not_started, python_for_runs
from ..submission.bounds import MIB, TooLarge
from ..submission.copying import safe_copy
from ...common.record import records_of
from .portjudge import (GAME_SECONDS, SEEDS, PortFinding, Ran, bounds_of, default_seeds,
                        games_of, judge_port, own_output, reference_games)

CHECK_SECONDS = 120.0               # the whole check, at most
LIMITS = sandbox.PROFILES["exercise"]   # memory, output, processes of the port's process


BOOT = boot("pywar.check.exercise.portplay")
SHARED = ("rules.py", "common", "check/exercise/portplay.py")   # of pywar, beside it


def stopped_words(outcome):
    """How a port's run stopped the check, in a few words."""
    status = outcome.status
    if outcome.failed_to_start:
        how = f"it could not be started: {outcome.failed_to_start}"
    elif outcome.flooded or status == -signal_number("SIGXFSZ"):
        how = f"it wrote more than {LIMITS.output // MIB} MiB"
    elif status is not None and status < 0:
        how = f"killed by {signal_name(-status)}"
    else:
        how = f"exit status {status}"
    said = outcome.stderr.strip().splitlines()
    last = f": {said[-1]}" if said else ""
    return f"your port stopped the check ({how}){last}"


def signal_number(name):
    """A signal's number by its name."""
    import signal
    return int(getattr(signal, name))


def signal_name(number):
    """A signal's name by its number."""
    import signal
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"


class PortRun:
    """The runs of one check: the student's port copied, the pywar beside it, and the
    time left of the whole check."""

    def __init__(self, work, copy, stack, games, seconds, timeout, isolation="auto"):
        self.work, self.copy, self.stack = work, copy, stack
        self.isolation = isolation
        self.games, self.seconds, self.timeout = games, seconds, timeout
        self.deadline = time.monotonic() + timeout

    def run(self, mode, seeds):
        """One run of the port (whole or members) on seeds: a Ran, or a PortFinding once
        the check's time is up."""
        lib = copy_shared(os.path.join(self.work, f"lib-{mode}"),
                          SHARED + (("port",) if mode == "members" else ()))
        argv = [python_for_runs(self.isolation), "-I", "-S", "-B", "-c", BOOT, lib, mode,
                self.copy, self.stack, str(self.seconds), bounds_of(self.games, seeds),
                ",".join(map(str, seeds))]
        shown = [self.copy, lib]
        if mode == "members":
            expected = os.path.join(self.work, "expected.json")
            with open(expected, "w", encoding="utf-8") as file:
                json.dump({str(seed): game for seed, game in self.games.items()}, file)
            os.chmod(expected, 0o644)
            argv.append(expected)
            shown.append(expected)
        left = self.deadline - time.monotonic()
        if left <= 0:
            return self.out_of_time()
        limits = sandbox.profile("exercise", wall=left, cpu=max(1, int(left + 1)))
        outcome = sandbox.run(argv, limits, show=shown, hide=[PYWAR_FOLDER],
                              isolation=self.isolation)
        if outcome.timed_out:
            return self.out_of_time()
        games, said = games_of(records_of(outcome.stdout))
        if not games and not said and (outcome.failed_to_start or outcome.status in (126, 127)):
            return self.not_started(outcome, argv[0])
        stopped = stopped_words(outcome) if outcome.status != 0 or outcome.flooded else \
            "your port stopped the check before its game ended"
        return Ran(games, said, stopped, *own_output(outcome.stderr))

    def not_started(self, outcome, python):
        """The finding of a check whose Python could not be started (the machine's)."""
        return PortFinding(None, None, not_started(outcome, python, "your port"), "unchecked")

    def out_of_time(self):
        """The finding of a check that ran past its time."""
        return PortFinding(None, None, f"the check did not finish within {self.timeout:g} s",
                       "timeout")


def check(folder, stack="pile", seeds=None, timeout=CHECK_SECONDS, game_seconds=GAME_SECONDS,
          isolation="auto", fresh=None):
    """Check a student's port (a folder made by new and filled in) on seeds (default:
    default_seeds()), of which fresh were drawn fresh for this check (default: those of
    default_seeds(), or none): a list of Findings, the first the one to say; one of kind
    passed when it plays every seed exactly.  The port runs in pywar's runner; only what
    it printed and traced is judged, here."""
    folder = os.path.abspath(folder)
    isolation = sandbox.resolve(isolation)          # once, here: each run is handed it
    if seeds is None:
        seeds = default_seeds()
        fresh = seeds[len(SEEDS):] if fresh is None else fresh
    seeds, fresh = list(seeds), list(fresh or ())
    reference = reference_games(seeds, stack)
    with sandbox.Scratch("pywar-exercise-") as work:
        copy = os.path.join(work, "port")
        try:
            safe_copy(folder, copy)
        except (OSError, TooLarge) as error:
            return [PortFinding(None, None, f"your port cannot be copied: {error}", "error")]
        runs = PortRun(work, copy, stack, reference, game_seconds, timeout, isolation)
        return judge_port(runs, seeds, reference, game_seconds, copy, fresh)
