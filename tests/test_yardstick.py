"""bench/tight_iofall.c and bench/tight_smu.c, the single-purpose loops the engine's
speed is measured against, play exactly the engine's iofall and smu games: the same
fold of each column that the loop counts.  A column the loop does not count (one added
to the table after it) is the driver's alone: the loops stay what they are."""

import shutil
import subprocess

import pytest

from conftest import C_FLAGS, ROOT, bench_driver
from pywar.rules import PRESETS, c_numbers

pytestmark = pytest.mark.skipif(not shutil.which("cc"), reason="needs a C compiler")


def column_folds(output):
    """{column: fold} of the fold_NAME words that a program prints."""
    words = output.split()
    return {name[5:]: value for name, value in zip(words[::2], words[1::2])
            if name.startswith("fold_")}


def same_games(engine, loop):
    """Each column the loop folds (all 15 counts, the digest and the war depths) is
    folded alike by the driver."""
    counted = column_folds(loop)
    assert len(counted) == 17
    assert {name: column_folds(engine).get(name) for name in counted} == counted


@pytest.mark.parametrize("name, face_down", [("iofall", 3), ("iofall-single", 1)])
def test_the_tight_loop_plays_the_engines_games(c_program, name, face_down):
    driver = bench_driver(c_program)
    tight = c_program([ROOT / "bench" / "tight_iofall.c", ROOT / "csrc" / "common" / "rng.c"],
                      C_FLAGS)
    numbers = [str(number) for number in c_numbers(PRESETS[name]).values()]
    engine = subprocess.run([str(driver), "3000", "5", *numbers], capture_output=True,
                            text=True, check=True).stdout
    loop = subprocess.run([str(tight), "3000", "5", str(face_down)], capture_output=True,
                          text=True, check=True).stdout
    same_games(engine, loop)


def test_the_naive_smu_loop_plays_the_engines_games(c_program):
    driver = bench_driver(c_program)
    naive = c_program([ROOT / "bench" / "tight_smu.c"], C_FLAGS)
    numbers = [str(number) for number in c_numbers(PRESETS["smu"]).values()]
    engine = subprocess.run([str(driver), "1000", "5", *numbers], capture_output=True,
                            text=True, check=True).stdout
    loop = subprocess.run([str(naive), "1000", "5"], capture_output=True, text=True,
                          check=True).stdout
    same_games(engine, loop)


def test_the_comparison_sees_a_column_that_differs():
    """The comparison can fail: the loop's fold of one column differs from the driver's."""
    loop = " ".join(f"fold_c{i} {i:02x}" for i in range(17))
    same_games(loop + " fold_new ff", loop)             # a column of the driver's alone
    with pytest.raises(AssertionError):
        same_games(loop.replace("fold_c3 03", "fold_c3 04"), loop)
