"""pywar similar at class scale (pytest-benchmark), side by side in one run:

    pytest bench/test_similar.py --benchmark-group-by=group

A class of PYWAR_BENCH_SIMILAR submissions (101 unless set: tests/data/class's programs
and tests/data/similar's class, copied round until there are enough): similar-code reads
and tokenizes every one (copydetect's pygments lexer, then the fingerprints), and
similar-pairs compares every pair (N(N-1)/2: all are listed, so the pairs grow with the
square of the class, each pair a few numpy calls on its two fingerprint arrays).  The
pairs in extra_info.  No test here asserts a time.

Measured on 2 cores (quiet): 101 submissions, 5,050 pairs, 3.5 s for `pywar similar
*/ --json` in all: 1.0 s tokenizing, 1.8 s the pairs (copydetect's own overlap,
a numpy array per shared fingerprint, took 5.7 s).
"""

import os
import shutil
from itertools import cycle, islice
from pathlib import Path

import pytest

from pywar.check.similar import pairs, source

ROOT = Path(__file__).resolve().parent.parent
PROGRAMS = sorted([*(ROOT / "tests" / "data" / "class").iterdir(),
                   *(ROOT / "tests" / "data" / "similar" / "class").iterdir()])
SIZE = int(os.environ.get("PYWAR_BENCH_SIMILAR", "101"))


@pytest.fixture(scope="module")
def class_folders(tmp_path_factory):
    """SIZE submission folders, copies of the tests' programs."""
    top = tmp_path_factory.mktemp("similar-class")
    folders = []
    for number, program in enumerate(islice(cycle(PROGRAMS), SIZE)):
        folders.append(top / f"{number:03d}-{program.name}")
        shutil.copytree(program, folders[-1])
    return folders


@pytest.mark.benchmark(group="similar")
def test_similar_code(benchmark, class_folders):
    """Read and tokenize the class."""
    codes = benchmark.pedantic(lambda: [source.code_of(f.name, f) for f in class_folders],
                               rounds=3, iterations=1)
    assert len(codes) == SIZE and all(code.coverage for code in codes)


@pytest.mark.benchmark(group="similar")
def test_similar_pairs(benchmark, class_folders):
    """Compare every pair of the class."""
    codes = [source.code_of(folder.name, folder) for folder in class_folders]
    found = benchmark.pedantic(pairs.ranked, args=(codes,), rounds=3, iterations=1)
    assert len(found) == SIZE * (SIZE - 1) // 2
    benchmark.extra_info["pairs"] = len(found)      # a second: pairs / the mean's seconds
