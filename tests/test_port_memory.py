"""The port's memory: games of both stacks under valgrind memcheck, and every allocation
of a game failed in turn, each ending in a clean PYWAR_ENOMEM with nothing left."""

import shutil
import subprocess

import pytest

import pywar
from conftest import ROOT

HAS_CC = shutil.which("cc") is not None
HAS_VALGRIND = shutil.which("valgrind") is not None
STACKS = {"pile": 0, "adt": 1}                      # PYWAR_STACK_PILE, PYWAR_STACK_ADT
MEMCHECK = ["valgrind", "--error-exitcode=99", "--leak-check=full",
            "--errors-for-leak-kinds=all", "--show-leak-kinds=all"]
GAMES = 100

pytestmark = pytest.mark.skipif(not HAS_CC, reason="needs a C compiler")


@pytest.fixture(scope="module")
def driver(tmp_path_factory):
    """tests/port_driver.c with the port and csrc/common, allocations wrapped."""
    binary = tmp_path_factory.mktemp("port") / "port_driver"
    sources = sorted(str(path) for part in ("common", "port")
                     for path in (ROOT / "csrc" / part).glob("*.c"))
    subprocess.run(["cc", "-std=c11", "-g", "-O2", "-Wall", "-Wextra", "-Werror",
                    f"-I{ROOT / 'csrc'}", f"-I{ROOT / 'csrc' / 'common'}",
                    str(ROOT / "tests" / "port_driver.c"), *sources,
                    "-Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=free",
                    "-o", str(binary)], check=True)
    return binary


@pytest.fixture(scope="module")
def memchecked(driver):
    """Both stacks' games under memcheck, run side by side: stack: (status, out, err)."""
    if not HAS_VALGRIND:
        pytest.skip("needs valgrind")
    runs = {stack: subprocess.Popen([*MEMCHECK, str(driver), str(GAMES), "1", str(number)],
                                    stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            for stack, number in STACKS.items()}
    outputs = {stack: run.communicate() for stack, run in runs.items()}
    return {stack: (runs[stack].returncode, *outputs[stack]) for stack in STACKS}


def fold(digests):
    """The driver's FNV-1a fold of 64-bit digests."""
    value = 0xCBF29CE484222325
    for digest in digests:
        value = ((value ^ digest) * 0x100000001B3) % 2 ** 64
    return value


@pytest.fixture(scope="module")
def expected():
    """The driver's line for games 1..100, from the C engine when built, else the twin."""
    games = [pywar.play(seed) for seed in range(1, GAMES + 1)]
    rounds = sum(game.rounds for game in games)
    return f"games {GAMES} rounds {rounds} fold {fold(game.digest for game in games):016x}\n"


@pytest.mark.parametrize("stack", STACKS)
def test_games_under_memcheck(memchecked, expected, stack):
    status, out, err = memchecked[stack]
    assert status == 0, err[-3000:]
    assert "ERROR SUMMARY: 0 errors" in err
    assert "in use at exit: 0 bytes" in err
    assert out == expected


@pytest.mark.parametrize("stack", STACKS)
def test_the_driver_plays_the_engine_games(driver, expected, stack):
    run = subprocess.run([str(driver), str(GAMES), "1", str(STACKS[stack])],
                         capture_output=True, text=True, check=True)
    assert run.stdout == expected


@pytest.mark.parametrize("seed", [17455, 1553])
@pytest.mark.parametrize("stack", STACKS)
def test_each_failed_allocation_is_a_clean_enomem(driver, stack, seed):
    """One game's allocations (52 cards, 4 piles, the stacks, the text buffers), each
    failed in turn: PYWAR_ENOMEM, and every block freed."""
    command = [str(driver), "--fail", str(seed), str(STACKS[stack])]
    if HAS_VALGRIND and seed == 17455:
        command = [*MEMCHECK, *command]
    run = subprocess.run(command, capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr[-3000:]
    allocations = int(run.stdout.split()[1].rstrip(","))
    assert allocations >= 52 + 4 + (6 if stack == "adt" else 0)
    assert run.stdout.endswith("PYWAR_ENOMEM, 0 blocks left\n")
