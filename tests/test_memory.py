"""Memory: games in the C core under valgrind memcheck, with no leaks and no errors."""

import os
import shutil
import subprocess

import pytest

from conftest import ROOT
from pywar.rules import PRESETS, c_numbers

TOOLS = ("valgrind", "cc")


@pytest.fixture(scope="module")
def driver(tmp_path_factory):
    """bench/driver.c and the core, built with debug information.  Without valgrind or
    a C compiler the tests are skipped, or fail where PYWAR_REQUIRE_C is set (CI)."""
    missing = [tool for tool in TOOLS if not shutil.which(tool)]
    if missing and os.environ.get("PYWAR_REQUIRE_C"):
        pytest.fail(f"PYWAR_REQUIRE_C is set but {' and '.join(missing)} is missing")
    if missing:
        pytest.skip(f"needs {' and '.join(missing)}")
    binary = tmp_path_factory.mktemp("driver") / "driver"
    sources = sorted(str(path) for path in (ROOT / "csrc").rglob("*.c"))
    subprocess.run(["cc", "-std=c11", "-g", "-O1", "-Wall", "-Wextra", "-Werror",
                    f"-I{ROOT / 'csrc'}", f"-I{ROOT / 'csrc' / 'common'}", str(ROOT / "bench" / "driver.c"), *sources,
                    "-o", str(binary)], check=True)
    return binary


@pytest.mark.parametrize("name, games", [("smu", 300), ("lehigh", 300), ("iofall", 300),
                                         ("iofall-single", 300)])
def test_games_under_memcheck(driver, name, games):
    numbers = [str(number) for number in c_numbers(PRESETS[name]).values()]
    command = ["valgrind", "--error-exitcode=99", "--leak-check=full",
               "--errors-for-leak-kinds=all", "--show-leak-kinds=all",
               str(driver), str(games), "1", *numbers, "10"]
    run = subprocess.run(command, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr[-3000:]
    assert "ERROR SUMMARY: 0 errors" in run.stderr
    assert "in use at exit: 0 bytes" in run.stderr
    assert f"games {games} " in run.stdout
