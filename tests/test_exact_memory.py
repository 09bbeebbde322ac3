"""The exact enumerator's C (csrc/engine/exact.c) on its own: no warning under -Wall
-Wextra -Wshadow, clean under AddressSanitizer and UBSan and under valgrind, and every
one of its allocations failed in turn ending in a clean PYWAR_ENOMEM."""

import shutil
import subprocess

import pytest

import pywar
from conftest import ROOT

HAS_CC = shutil.which("cc") is not None
HAS_VALGRIND = shutil.which("valgrind") is not None
FLAGS = ["-std=c11", "-g", "-Wall", "-Wextra", "-Wshadow", "-Werror",
         f"-I{ROOT / 'csrc'}", f"-I{ROOT / 'csrc' / 'common'}"]
WRAP = "-Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=free"
# ranks suits pickup face_down short_war prefix_length mirror (C numbers)
WINNER_FIRST_9 = ["9", "1", "3", "0", "0", "3", "0"]
MIRRORED_4X3 = ["4", "3", "3", "2", "2", "4", "1"]
SMU_4X3 = ["4", "3", "0", "1", "1", "4", "0"]          # long games, many cycles

pytestmark = pytest.mark.skipif(not HAS_CC, reason="needs a C compiler")


def build(directory, name, extra):
    """tests/exact_driver.c with the engine's C, csrc/common and csrc/pywar.c."""
    binary = directory / name
    sources = sorted(str(path) for part in ("engine", "common")
                     for path in (ROOT / "csrc" / part).glob("*.c"))
    sources.append(str(ROOT / "csrc" / "pywar.c"))
    subprocess.run(["cc", *FLAGS, str(ROOT / "tests" / "exact_driver.c"), *sources, *extra,
                    "-o", str(binary)], check=True)
    return binary


@pytest.fixture(scope="module")
def sanitized(tmp_path_factory):
    """The driver under AddressSanitizer and UBSan, stopping at the first report."""
    try:
        return build(tmp_path_factory.mktemp("exact"), "exact_asan",
                     ["-O0", "-fsanitize=address,undefined", "-fno-sanitize-recover=all"])
    except subprocess.CalledProcessError:
        pytest.skip("the compiler cannot build with the sanitizers")


@pytest.fixture(scope="module")
def wrapped(tmp_path_factory):
    """The driver with the allocations wrapped, for failing them."""
    return build(tmp_path_factory.mktemp("exact"), "exact_wrap",
                 ["-O1", "-DWRAP_ALLOCATIONS", WRAP])


def expected_line(ranks, suits, pickup, face_down, short_war, length, listed):
    """The driver's line for a run, from the published counts or from pywar.exact."""
    result = pywar.exact_counts("smu", deck=f"{ranks}x{suits}", piles="queue", pickup=pickup,
                         face_down=face_down, short_war=short_war)
    counts = result.sequences
    return (f"sequences {result.rank_sequences} a {counts['a_wins']} b {counts['b_wins']} "
            f"both {counts['both_lose']} cycles {counts['cycles']} capped 0 "
            f"distinct {result.distinct_cycles} longest {result.longest['rounds']} "
            f"listed {listed}\n")


def test_the_enumerator_compiles_without_a_warning():
    run = subprocess.run(["cc", *FLAGS, "-O2", "-fsyntax-only", "csrc/engine/exact.c"], cwd=ROOT,
                         capture_output=True, text=True)
    assert run.returncode == 0 and run.stderr == "", run.stderr


def test_a400411_for_9_cards_under_the_sanitizers(sanitized):
    run = subprocess.run([str(sanitized), *WINNER_FIRST_9], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr[-3000:]
    assert run.stderr == ""
    assert run.stdout == ("sequences 362880 a 89862 b 54338 both 0 cycles 218680 capped 0 "
                          "distinct 336 longest 28 listed 720\n")


@pytest.mark.parametrize("argv, rules", [
    (MIRRORED_4X3, ("winner-first", 2, "all-but-one")),
    (SMU_4X3, ("smu", 1, "last-card")),
])
def test_decks_with_ties_under_the_sanitizers(sanitized, argv, rules):
    run = subprocess.run([str(sanitized), *argv], capture_output=True, text=True)
    assert run.returncode == 0 and run.stderr == "", run.stderr[-3000:]
    assert run.stdout == expected_line(4, 3, *rules, 4, 560)


@pytest.mark.skipif(not HAS_VALGRIND, reason="needs valgrind")
@pytest.mark.parametrize("argv", [["7", "1", "3", "0", "0", "2", "0"],
                                  ["3", "3", "4", "1", "2", "2", "0"],
                                  ["6", "1", "4", "0", "0", "2", "1"]])
def test_under_memcheck(wrapped, argv):
    command = ["valgrind", "--error-exitcode=99", "--leak-check=full",
               "--errors-for-leak-kinds=all", "--show-leak-kinds=all", str(wrapped), *argv]
    run = subprocess.run(command, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr[-3000:]
    assert "ERROR SUMMARY: 0 errors" in run.stderr
    assert "in use at exit: 0 bytes" in run.stderr


def test_every_allocation_failed_in_turn_is_clean(wrapped):
    """4x3 under smu's pickup: games of over 64 rounds and battles and 247 cycles, so
    both the histograms and the set of cycles grow."""
    run = subprocess.run([str(wrapped), "--fail", *SMU_4X3], capture_output=True, text=True)
    assert run.returncode == 0, run.stdout
    words = run.stdout.split()
    assert words[0] == "allocations" and int(words[1]) >= 7
    assert run.stdout.endswith("all failed cleanly\n")
