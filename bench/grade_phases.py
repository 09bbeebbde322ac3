"""Where the time of `pywar grade` goes (docs/performance.md): the class of
bench/test_grading.py (tests/data/class's programs in turn, copied to a temporary
folder), or every K-th of it, graded by pywar.check.grading.grade.grade in this process,
with the seconds of each phase summed over the jobs (the builds, the runs, valgrind's
run, the referee) and each submission's own.  Not a test: run it by hand.

    python bench/grade_phases.py [--class 100] [--every 10] [--seeds 40] [--jobs J]

The class's time is estimated from the sample's: its submissions' seconds, summed, K
times over and shared among the jobs (the sample's own wall time, K times over, counts
its longest submission's tail K times).  The machine's load is said before and after:
on a shared machine the figures are upper bounds.
"""

import argparse
import os
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

from pywar.check.grading import grade as grading
from pywar.engine_choice import usable_cores

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_grading import a_class  # noqa: E402  (the bench's class)

sys.path.pop(0)


class Phases:
    """Seconds and calls by phase, from any thread."""

    def __init__(self):
        self.seconds, self.calls, self.lock = Counter(), Counter(), threading.Lock()
        self.each = {}                  # a submission's folder name -> its seconds

    def timed(self, name, action):
        """action, its time added to name's."""
        def wrapped(*args, **kwargs):
            start = time.perf_counter()
            try:
                return action(*args, **kwargs)
            finally:
                with self.lock:
                    self.seconds[name] += time.perf_counter() - start
                    self.calls[name] += 1
        return wrapped


def measured(phases):
    """Wrap grade.py's phases: the build, valgrind's run, each seed's run (sandbox.run
    also starts the build and valgrind: their time is taken off) and its referee."""
    grading.build = phases.timed("build (g++, sandboxed)", grading.build)
    grading.memcheck = phases.timed("valgrind, one seed", grading.memcheck)
    grading.sandbox.run = phases.timed("sandbox.run, all", grading.sandbox.run)
    grading.referee_in_time = phases.timed("referee", grading.referee_in_time)
    grading.grade_safely = phases.timed("submission", grading.grade_safely)
    grade_one = grading.grade_one

    def each(source, *args):
        start = time.perf_counter()
        try:
            return grade_one(source, *args)
        finally:
            phases.each[os.path.basename(source)] = time.perf_counter() - start
    grading.grade_one = each


def main():
    """Grade the sample and print the phases and the estimate."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--class", dest="size", type=int, default=100)
    parser.add_argument("--every", type=int, default=10)
    parser.add_argument("--seeds", type=int, default=40)
    parser.add_argument("--jobs", type=int, default=usable_cores())
    args = parser.parse_args()
    phases = Phases()
    measured(phases)
    print(f"load before: {os.getloadavg()}")
    with tempfile.TemporaryDirectory() as folder:
        sample = a_class(Path(folder), args.size)[::args.every]
        start = time.perf_counter()
        grading.grade(sample, grading.Settings(games=args.seeds), jobs=args.jobs)
        wall = time.perf_counter() - start
    print(f"load after: {os.getloadavg()}")
    print(f"{len(sample)} of {args.size} submissions x {args.seeds} seeds, --jobs "
          f"{args.jobs}: {wall:.1f} s")
    runs = phases.seconds["sandbox.run, all"] - phases.seconds["build (g++, sandboxed)"] \
        - phases.seconds["valgrind, one seed"]
    for name, seconds in [*phases.seconds.items(), ("the runs alone", runs)]:
        print(f"  {name}: {seconds:.1f} s over {phases.calls[name] or '-'} calls")
    longest = sorted(phases.each.items(), key=lambda pair: -pair[1])[:3]
    print("  the longest: " + ", ".join(f"{name} {seconds:.1f} s" for name, seconds in longest))
    per_job = phases.seconds["submission"] * args.every / args.jobs
    print(f"the class of {args.size}, estimated: {per_job:.0f} s ({per_job / 60:.1f} min)")


if __name__ == "__main__":
    main()
