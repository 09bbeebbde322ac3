"""bench/tight_iofall.c and bench/tight_smu.c, the single-purpose loops the engine's
speed is measured against, play exactly the engine's iofall and smu games: the same fold
of every game's fields."""

import shutil
import subprocess

import pytest

from conftest import C_FLAGS, ROOT, bench_driver
from pywar.rules import PRESETS, c_numbers

pytestmark = pytest.mark.skipif(not shutil.which("cc"), reason="needs a C compiler")


def fold(output):
    """The fold of every game's fields that both programs print."""
    words = output.split()
    return words[words.index("fold") + 1]


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
    assert fold(engine) == fold(loop)


def test_the_naive_smu_loop_plays_the_engines_games(c_program):
    driver = bench_driver(c_program)
    naive = c_program([ROOT / "bench" / "tight_smu.c"], C_FLAGS)
    numbers = [str(number) for number in c_numbers(PRESETS["smu"]).values()]
    engine = subprocess.run([str(driver), "1000", "5", *numbers], capture_output=True,
                            text=True, check=True).stdout
    loop = subprocess.run([str(naive), "1000", "5"], capture_output=True, text=True,
                          check=True).stdout
    assert fold(engine) == fold(loop)
