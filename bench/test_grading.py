"""The grader at class scale (pytest-benchmark):

    pytest bench/test_grading.py --benchmark-group-by=group

Groups: grade-class (tests/data/class's programs, copied to PYWAR_BENCH_CLASS
submissions in a temporary folder, 100 unless set, graded on 40 seeds with --jobs at its
default, the usable cores, memcheck included: one round, since one takes minutes; with
PYWAR_BENCH_EVERY=K, every K-th of them alone, a sample whose time K times over is
class_seconds in extra_info, an upper bound: bench/grade_phases.py gives a closer
one), referee-lines (the referee that keeps going on seed
1553's transcript of 18,375 lines, its rate in lines a second in extra_info) and
referee-15mib (the referee on 15 MiB that say one thing again and again, a run's output
under the 16 MiB limit: tests/floods.py's kinds, and seed 1553's game told over and
over; lines a second in extra_info, one round each; PYWAR_BENCH_FLOOD_MIB MiB where set,
as CI's smoke run sets 1).  No test here asserts a time.

    pytest bench/test_grading.py -k 15mib --benchmark-group-by=group

Measured (issue 36) on 2 cores under a load of 3 to 5, where referee-lines went at 39,000
lines a second (115,000 unloaded), lines a second on 15 MiB: battle line 19,000 (27 s:
one seed of it did not finish in 300 s before), round 90,000, face down 256,000, junk
line 627,000, game 203,000 (its first game refereed: the battle after its end stops the
referee).
"""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import pywar
from pywar.check.referee.judge import judge

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from floods import of_size  # noqa: E402  (the tests' transcripts of repeated lines)

sys.path.pop(0)

ROOT = Path(__file__).resolve().parent.parent
CLASS = ROOT / "tests" / "data" / "class"
CLASS_SIZE = int(os.environ.get("PYWAR_BENCH_CLASS", "100"))
EVERY = int(os.environ.get("PYWAR_BENCH_EVERY", "1"))     # every K-th submission: a sample
SEEDS = 40
needs_tools = pytest.mark.skipif(not (shutil.which("g++") and shutil.which("valgrind")),
                                 reason="grading needs g++ and valgrind")


HANGS = {"loops_forever"}       # its 40 timeouts measure --timeout, not the grader


def a_class(folder, size):
    """size submissions: the class's programs in turn (but the one that hangs), each in
    a folder of its own."""
    programs = sorted(path for path in CLASS.iterdir() if path.is_dir()
                      and path.name not in HANGS)
    made = []
    for number in range(size):
        source = programs[number % len(programs)]
        target = folder / f"{number:03d}-{source.name}"
        shutil.copytree(source, target)
        made.append(str(target))
    return made


@needs_tools
def test_grade_a_class(benchmark, tmp_path):
    benchmark.group = "grade-class"
    submissions = a_class(tmp_path, CLASS_SIZE)[::EVERY]
    command = [os.path.join(os.path.dirname(sys.executable), "pywar"), "grade", *submissions,
               "-n", str(SEEDS), "--fresh", "0", "--json"]     # 40 seeds, no more
    benchmark.extra_info.update(submissions=len(submissions), of_class=CLASS_SIZE,
                                seeds=SEEDS, jobs=pywar.usable_cores())
    done = benchmark.pedantic(subprocess.run, args=(command,),
                              kwargs={"capture_output": True, "text": True},
                              rounds=1, iterations=1)
    assert done.returncode == 0, done.stderr
    assert len(json.loads(done.stdout)["submissions"]) == len(submissions)
    stats = getattr(benchmark, "stats", None)
    if stats is not None and stats.stats.median:
        benchmark.extra_info["class_seconds"] = round(stats.stats.median * EVERY)


def test_referee_lines(benchmark):
    benchmark.group = "referee-lines"
    text = pywar.play(1553, transcript=True).transcript
    lines = text.count("\n")
    benchmark.extra_info["lines"] = lines
    found = benchmark.pedantic(judge, args=(text,), rounds=5, iterations=1, warmup_rounds=1)
    assert found.broken() == [] and found.finished
    stats = getattr(benchmark, "stats", None)
    if stats is not None and stats.stats.median:
        benchmark.extra_info["lines_per_second"] = round(lines / stats.stats.median)


FLOOD = int(os.environ.get("PYWAR_BENCH_FLOOD_MIB", "15")) * 2 ** 20    # a run's output
                                                                      # under 16 MiB


@pytest.mark.parametrize("kind", ["battle line", "round", "junk line", "face down", "game"])
def test_referee_15mib(benchmark, kind):
    benchmark.group = "referee-15mib"
    text = of_size(kind, FLOOD)
    lines = text.count("\n")
    benchmark.extra_info.update(lines=lines, mib=round(len(text) / 2 ** 20, 1))
    benchmark.pedantic(judge, args=(text,), rounds=1, iterations=1)
    stats = getattr(benchmark, "stats", None)
    if stats is not None and stats.stats.median:
        benchmark.extra_info["lines_per_second"] = round(lines / stats.stats.median)
