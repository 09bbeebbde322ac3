"""The grader at class scale (pytest-benchmark):

    pytest bench/test_grading.py --benchmark-group-by=group

Groups: grade-class (tests/data/class's programs, copied to PYWAR_BENCH_CLASS
submissions, 100 unless set, graded on 40 seeds with --jobs 2, memcheck included: one
round, since one takes minutes) and referee-lines (the referee that keeps going on seed
1553's transcript of 18,375 lines, its rate in lines a second in extra_info).  No test
here asserts a time.
"""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import pywar
from pywar.check.referee.judge import judge

ROOT = Path(__file__).resolve().parent.parent
CLASS = ROOT / "tests" / "data" / "class"
CLASS_SIZE = int(os.environ.get("PYWAR_BENCH_CLASS", "100"))
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
    submissions = a_class(tmp_path, CLASS_SIZE)
    command = [os.path.join(os.path.dirname(sys.executable), "pywar"), "grade", *submissions,
               "-n", str(SEEDS), "--jobs", "2", "--json"]
    benchmark.extra_info.update(submissions=CLASS_SIZE, seeds=SEEDS, jobs=2)
    done = benchmark.pedantic(subprocess.run, args=(command,),
                              kwargs={"capture_output": True, "text": True},
                              rounds=1, iterations=1)
    assert done.returncode == 0, done.stderr
    assert done.stdout.count('"name"') == CLASS_SIZE


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
