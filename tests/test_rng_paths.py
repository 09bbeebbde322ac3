"""The generator's three paths (csrc/common/rng.h: scalar, and AVX2 and AVX-512 where the
processor has them) give glibc's rand() bit for bit, and its blocks of draws rand() % n, on seeds across
the 32-bit range; and the engine plays the same games on its best path and the scalar one."""

import random
import shutil
import subprocess

import pytest

from conftest import C_FLAGS, ROOT, bench_driver
from pywar.rules import PRESETS, c_numbers
from test_rng import libc_draws, needs_glibc

pytestmark = pytest.mark.skipif(not shutil.which("cc"), reason="needs a C compiler")

PATHS = {"scalar": 0, "avx2": 1, "avx512": 2}
SEEDS = [0, 1, 2, 12345, 2 ** 31 - 1, 2 ** 31, 2 ** 31 + 1, 2 ** 32 - 2, 2 ** 32 - 1]
SEEDS += random.Random(22).sample(range(2 ** 32), 24)
MODULI = list(range(1, 53)) + [53, 64, 100, 1000, 65536, 2 ** 31 - 1, 2 ** 31, 2 ** 32 - 1]
FLAGS = C_FLAGS


def plan(seed):
    """A seed's calls: single draws and blocks of every size up to the generator's block,
    below every modulus, so that blocks start and end at every offset of a refill."""
    rng = random.Random(seed)
    ops = []
    for n in MODULI + rng.sample(MODULI, 20):
        ops.append(("r", rng.randrange(0, 40), None))
        ops.append(("d", rng.choice([208, 208, 1, 7, 8, 9, 100, 511, 512]), n))
    return ops


def expected(seed, ops):
    """What glibc's rand() gives for the plan: the values, or each value % n."""
    values = iter(libc_draws(seed, sum(count for _, count, _ in ops)))
    out = []
    for kind, count, n in ops:
        for _ in range(count):
            value = next(values)
            out.append(value if kind == "r" else value % n)
    return out


@pytest.fixture(scope="module")
def driver(tmp_path_factory):
    """tests/rng_driver.c with csrc/common/rng.c."""
    binary = tmp_path_factory.mktemp("rng") / "rng_driver"
    subprocess.run(["cc", *FLAGS, str(ROOT / "tests" / "rng_driver.c"),
                    str(ROOT / "csrc" / "common" / "rng.c"), "-o", str(binary)], check=True)
    return binary


def run(driver, path, seed, ops):
    """The driver's values for the plan, or None if the path is not on this machine."""
    words = [f"r{count}" if kind == "r" else f"d{count}:{n}" for kind, count, n in ops]
    out = subprocess.run([str(driver), str(path), str(seed), *words], capture_output=True,
                         text=True, check=True).stdout.split()
    return None if out == ["unavailable"] else [int(word) for word in out]


@needs_glibc
@pytest.mark.parametrize("path", list(PATHS))
def test_each_path_gives_glibcs_rand_and_its_remainders(driver, path):
    checked = 0
    for seed in SEEDS:
        ops = plan(seed)
        got = run(driver, PATHS[path], seed, ops)
        if got is None:
            pytest.skip(f"this processor cannot run the {path} path")
        assert got == expected(seed, ops), f"seed {seed}"
        checked += len(got)
    assert checked > len(SEEDS) * 10_000


def processor_flags():
    """The flags /proc/cpuinfo lists for the first processor, or None where there is no
    such file (not Linux)."""
    try:
        with open("/proc/cpuinfo") as info:
            lines = [line for line in info if line.startswith("flags")]
    except OSError:
        return None
    return set(lines[0].split(":", 1)[1].split()) if lines else set()


def test_the_path_taken_is_the_best_the_processor_lists(driver):
    """Games take (Rng_BestPath) the AVX-512 path where /proc/cpuinfo lists avx2 and
    avx512f, AVX2 where it lists avx2 alone, else the scalar one: so that the test above
    skips a vector path only on a processor that lacks it (.ci/run says which paths its
    processor lacks)."""
    flags = processor_flags()
    if flags is None:
        pytest.skip("no /proc/cpuinfo to read the processor's flags from")
    best = int(subprocess.run([str(driver), "best"], capture_output=True, text=True,
                              check=True).stdout)
    wanted = "avx512" if {"avx2", "avx512f"} <= flags else "avx2" if "avx2" in flags \
        else "scalar"
    assert best == PATHS[wanted]


@pytest.mark.parametrize("name", list(PRESETS))
def test_the_engine_plays_the_same_games_on_both_paths(c_program, name):
    """The engine built with its vector paths (the best taken where the processor has
    it) and built with the scalar path alone (-DPYWAR_RNG_SCALAR) fold every game's
    fields alike."""
    builds = {label: bench_driver(c_program, extra)
              for label, extra in (("default", []), ("scalar", ["-DPYWAR_RNG_SCALAR"]))}
    numbers = [str(number) for number in c_numbers(PRESETS[name]).values()]
    folds = set()
    for binary in builds.values():
        out = subprocess.run([str(binary), "400", "7", *numbers], capture_output=True,
                             text=True, check=True).stdout.split()
        folds.add(out[out.index("fold") + 1])
    assert len(folds) == 1


def test_the_engine_plays_the_same_games_on_the_avx2_path(c_program):
    """smu (every shuffle's draws through Rng_Draws, the small piles through
    Shuffle_SwapBytes) on the engine's AVX2 path, taken under valgrind, which hides
    AVX-512 from the program, folds its games as the scalar build does: on a processor
    with AVX-512 the test above compares only that path with the scalar one."""
    if not shutil.which("valgrind"):
        pytest.skip("needs valgrind")
    numbers = [str(number) for number in c_numbers(PRESETS["smu"]).values()]
    games = ["150", "7", *numbers]
    scalar = bench_driver(c_program, ["-DPYWAR_RNG_SCALAR"])
    vector = bench_driver(c_program, [])
    expected = subprocess.run([str(scalar), *games], capture_output=True, text=True,
                              check=True).stdout.split()
    checked = subprocess.run(["valgrind", "--error-exitcode=99", str(vector), *games],
                             capture_output=True, text=True)
    assert checked.returncode == 0, checked.stderr[-3000:]
    got = checked.stdout.split()
    assert got[got.index("fold") + 1] == expected[expected.index("fold") + 1]


SANITIZE = ["-g", "-fsanitize=address,undefined", "-fno-sanitize-recover=all",
            "-fno-omit-frame-pointer"]


@pytest.mark.parametrize("path", list(PATHS))
def test_each_path_is_clean_under_asan_ubsan_and_valgrind(tmp_path, driver, path):
    """The generator's blocks, refills and reductions on each path, under AddressSanitizer
    and UBSan (stopping at the first report), and under valgrind memcheck; the values
    are those of the plain build."""
    ops = plan(2 ** 32 - 1)
    plain = run(driver, PATHS[path], 2 ** 32 - 1, ops)
    if plain is None:
        pytest.skip(f"this processor cannot run the {path} path")
    sanitized = tmp_path / "rng_driver_asan"
    subprocess.run(["cc", *FLAGS, *SANITIZE, str(ROOT / "tests" / "rng_driver.c"),
                    str(ROOT / "csrc" / "common" / "rng.c"), "-o", str(sanitized)], check=True)
    assert run(sanitized, PATHS[path], 2 ** 32 - 1, ops) == plain
    if not shutil.which("valgrind"):
        pytest.skip("needs valgrind")
    words = [f"r{count}" if kind == "r" else f"d{count}:{n}" for kind, count, n in ops]
    checked = subprocess.run(["valgrind", "--error-exitcode=99", "--leak-check=full",
                              str(driver), str(PATHS[path]), str(2 ** 32 - 1), *words],
                             capture_output=True, text=True)
    assert checked.returncode == 0, checked.stderr[-3000:]
    assert "ERROR SUMMARY: 0 errors" in checked.stderr
    if checked.stdout.split() == ["unavailable"]:
        pytest.skip(f"valgrind does not run the {path} path (it hides AVX-512 from the "
                    "program); ASan and UBSan checked it")
    assert [int(word) for word in checked.stdout.split()] == plain


@pytest.mark.slow
def test_the_scalar_engine_is_clean_under_valgrind(c_program):
    """The engine built with the scalar path alone, 200 games of each preset under
    valgrind memcheck (tests/test_memory.py checks the default build)."""
    if not shutil.which("valgrind"):
        pytest.skip("needs valgrind")
    binary = bench_driver(c_program, ["-g", "-DPYWAR_RNG_SCALAR"])
    for name in PRESETS:
        numbers = [str(number) for number in c_numbers(PRESETS[name]).values()]
        checked = subprocess.run(["valgrind", "--error-exitcode=99", "--leak-check=full",
                                  str(binary), "200", "1", *numbers, "10"],
                                 capture_output=True, text=True)
        assert checked.returncode == 0, checked.stderr[-3000:]
        assert "ERROR SUMMARY: 0 errors" in checked.stderr
