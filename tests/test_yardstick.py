"""bench/tight_iofall.c and bench/tight_smu.c, the single-purpose loops the engine's
speed is measured against, play exactly the engine's iofall and smu games: the same fold
of every game's fields."""

import shutil
import subprocess

import pytest

from conftest import ROOT
from pywar.rules import PRESETS, c_numbers

pytestmark = pytest.mark.skipif(not shutil.which("cc"), reason="needs a C compiler")


def build(tmp_path, name, sources):
    """Compile a program of bench/ with the core's include paths."""
    binary = tmp_path / name
    subprocess.run(["cc", "-std=c11", "-O2", "-Wall", "-Wextra", "-Werror",
                    f"-I{ROOT / 'csrc'}", f"-I{ROOT / 'csrc' / 'common'}", *sources,
                    "-o", str(binary)], check=True)
    return binary


def fold(output):
    """The fold of every game's fields that both programs print."""
    words = output.split()
    return words[words.index("fold") + 1]


@pytest.mark.parametrize("name, face_down", [("iofall", 3), ("iofall-single", 1)])
def test_the_tight_loop_plays_the_engines_games(tmp_path, name, face_down):
    core = sorted(str(path) for path in (ROOT / "csrc").rglob("*.c"))
    driver = build(tmp_path, "driver", [str(ROOT / "bench" / "driver.c"), *core])
    tight = build(tmp_path, "tight", [str(ROOT / "bench" / "tight_iofall.c"),
                                      str(ROOT / "csrc" / "common" / "rng.c")])
    numbers = [str(number) for number in c_numbers(PRESETS[name]).values()]
    engine = subprocess.run([str(driver), "3000", "5", *numbers], capture_output=True,
                            text=True, check=True).stdout
    loop = subprocess.run([str(tight), "3000", "5", str(face_down)], capture_output=True,
                          text=True, check=True).stdout
    assert fold(engine) == fold(loop)


def test_the_naive_smu_loop_plays_the_engines_games(tmp_path):
    core = sorted(str(path) for path in (ROOT / "csrc").rglob("*.c"))
    driver = build(tmp_path, "driver", [str(ROOT / "bench" / "driver.c"), *core])
    naive = build(tmp_path, "tight_smu", [str(ROOT / "bench" / "tight_smu.c")])
    numbers = [str(number) for number in c_numbers(PRESETS["smu"]).values()]
    engine = subprocess.run([str(driver), "1000", "5", *numbers], capture_output=True,
                            text=True, check=True).stdout
    loop = subprocess.run([str(naive), "1000", "5"], capture_output=True, text=True,
                          check=True).stdout
    assert fold(engine) == fold(loop)
