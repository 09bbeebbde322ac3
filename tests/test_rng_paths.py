"""The generator's three paths (csrc/common/rng.h: scalar, and AVX2 and AVX-512 where the
processor has them) give glibc's rand() bit for bit, and its blocks of draws rand() % n, on seeds across
the 32-bit range; and the engine plays the same games on every path the processor has,
each named by the caller (PywarRules.rng_path), and takes the one it is named."""

import random
import shutil
import subprocess

import pytest

import pywar
from conftest import C_FLAGS, ROOT, bench_driver, needs_c
from pywar import _checked
from pywar.cli import main
from pywar.common.rng import RNG_PATH_VARIABLE, RNG_PATHS, RngPathError
from pywar.rules import PEERS, PRESETS, c_numbers, make_rules
from test_rng import libc_draws, needs_glibc

pytestmark = pytest.mark.skipif(not shutil.which("cc"), reason="needs a C compiler")

PATHS = {name: RNG_PATHS.index(name) for name in RNG_PATHS if name != "best"}
# the presets, and a rule set of face-down wars and shuffled refills (rustwar's)
GAMES = {**PRESETS, "rustwar": make_rules("smu", refill="shuffle", **PEERS["rustwar"])}
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


def processor_paths():
    """The paths whose flags /proc/cpuinfo lists (AVX-512 wants avx2 and avx512f), or
    None where there is no such file."""
    flags = processor_flags()
    if flags is None:
        return None
    return {"scalar"} | ({"avx2"} if "avx2" in flags else set()) \
        | ({"avx512"} if {"avx2", "avx512f"} <= flags else set())


def test_the_path_taken_is_the_best_the_processor_lists(driver):
    """Games take (Rng_BestPath) the AVX-512 path where /proc/cpuinfo lists avx2 and
    avx512f, AVX2 where it lists avx2 alone, else the scalar one: so that the test above
    skips a vector path only on a processor that lacks it (.ci/run says which paths its
    processor lacks)."""
    listed = processor_paths()
    if listed is None:
        pytest.skip("no /proc/cpuinfo to read the processor's flags from")
    best = int(subprocess.run([str(driver), "best"], capture_output=True, text=True,
                              check=True).stdout)
    wanted = "avx512" if "avx512" in listed else "avx2" if "avx2" in listed else "scalar"
    assert best == PATHS[wanted]


def driver_run(binary, games, rules, path, prefix=()):
    """bench/driver.c on games of rules from seed 7, on a path (its name): the finished
    process."""
    numbers = [str(number) for number in c_numbers(rules).values()]
    return subprocess.run([*prefix, str(binary), str(games), "7", *numbers, "0",
                           str(RNG_PATHS.index(path))], capture_output=True, text=True)


def fold_of(run):
    """The fold of every game's fields that the driver printed."""
    assert run.returncode == 0, run.stderr
    words = run.stdout.split()
    return words[words.index("fold") + 1]


@pytest.mark.parametrize("name", list(GAMES))
def test_the_engine_plays_the_same_games_on_every_path(c_program, name):
    """The engine on every path this processor has, each named by the caller (the driver
    passes PywarRules.rng_path, as pywar does from PYWAR_RNG_PATH), folds every game's
    fields as a build with the scalar path alone (-DPYWAR_RNG_SCALAR) does; a path the
    processor lacks is refused (exit 2), not played on another."""
    vector = bench_driver(c_program, [])
    expected = fold_of(driver_run(bench_driver(c_program, ["-DPYWAR_RNG_SCALAR"]), 400,
                                  GAMES[name], "scalar"))
    listed, played = processor_paths(), set()
    for path in PATHS:
        run = driver_run(vector, 400, GAMES[name], path)
        if run.returncode == 2 and "generator path" in run.stderr:
            assert listed is None or path not in listed, f"{path} refused, yet listed"
            continue
        assert fold_of(run) == expected, path
        played.add(path)
    assert listed is None or played == listed


# Functions that only a vector path calls: on AVX2, smu's draws are reduced eight at a
# time and its small piles swapped in a register (csrc/common/rng.c, engine/shuffle.h).
VECTOR_ONLY = {"avx2": ("Rng_ReduceAvx2", "Shuffle_SwapBytes"),
               "avx512": ("Rng_ReduceAvx512",)}


def called(binary, path, tmp_path):
    """The functions the driver called in 20 games of smu on a path, as callgrind counts
    them: their names (without gcc's .lto_priv and .isra suffixes)."""
    out = tmp_path / f"callgrind.{path}"
    run = driver_run(binary, 20, PRESETS["smu"], path,
                     prefix=["valgrind", "--tool=callgrind", "--compress-strings=no",
                             f"--callgrind-out-file={out}"])
    fold_of(run)
    return {line.split("=", 1)[1].split(".")[0].strip()
            for line in out.read_text().splitlines() if line.startswith(("fn=", "cfn="))}


def test_a_game_is_played_on_the_path_it_is_named(c_program, tmp_path):
    """Named the scalar path, smu's games call none of a vector path's functions; named
    AVX2 (where the processor has it), they call AVX2's; named best, the best path's.
    (Valgrind hides AVX-512 from the program: there only AVX2 and the scalar path.)"""
    if not shutil.which("valgrind"):
        pytest.skip("needs valgrind")
    binary = bench_driver(c_program, ["-g"])
    vector = {name for names in VECTOR_ONLY.values() for name in names}
    assert not called(binary, "scalar", tmp_path) & vector
    if "avx2" in (processor_paths() or ()):
        assert set(VECTOR_ONLY["avx2"]) <= called(binary, "avx2", tmp_path)
        assert set(VECTOR_ONLY["avx2"]) <= called(binary, "best", tmp_path)


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
@pytest.mark.parametrize("path", ["scalar", "avx2"])
def test_the_engine_on_each_path_is_clean_under_valgrind(c_program, path):
    """The engine on the scalar and the AVX2 path (valgrind hides AVX-512), 200 games of
    each preset under valgrind memcheck, and the transcripts of every 10th (tests/
    test_memory.py checks the best path)."""
    if not shutil.which("valgrind"):
        pytest.skip("needs valgrind")
    if path not in (processor_paths() or {"scalar"}):
        pytest.skip(f"this processor cannot run the {path} path")
    binary = bench_driver(c_program, ["-g"])
    for name in PRESETS:
        numbers = [str(number) for number in c_numbers(PRESETS[name]).values()]
        checked = subprocess.run(["valgrind", "--error-exitcode=99", "--leak-check=full",
                                  str(binary), "200", "1", *numbers, "10",
                                  str(RNG_PATHS.index(path))],
                                 capture_output=True, text=True)
        assert checked.returncode == 0, checked.stderr[-3000:]
        assert "ERROR SUMMARY: 0 errors" in checked.stderr


@needs_c
def test_pywar_names_the_path_of_PYWAR_RNG_PATH(monkeypatch, capsys):
    """The C core's games are made on the path PYWAR_RNG_PATH names (read at each call),
    a caller's own (bench/) before it, else the best; the paths offered are those the
    processor lists; another is refused in one line naming them, exit 2 in the command
    line, before any game."""
    usable, best = _checked.rng_paths()
    listed = processor_paths()
    assert listed is None or set(usable) == listed | {"best"}
    assert best in usable and best != "best"
    smu, twin = PRESETS["smu"], pywar.play(17455, engine="python").digest
    monkeypatch.delenv(RNG_PATH_VARIABLE, raising=False)
    monkeypatch.setattr(_checked, "rng_path", _checked.rng_path.__wrapped__)  # uncached
    assert _checked.c_rules(smu).rng_path == 0
    for name in usable:
        monkeypatch.setenv(RNG_PATH_VARIABLE, name)
        assert _checked.c_rules(smu).rng_path == RNG_PATHS.index(name)
        assert _checked.c_rules(smu, "scalar").rng_path == RNG_PATHS.index("scalar")
        assert pywar.play(17455, engine="c").digest == twin
    for name in [path for path in RNG_PATHS if path not in usable] + ["sse", "AVX2"]:
        monkeypatch.setenv(RNG_PATH_VARIABLE, name)
        with pytest.raises(RngPathError, match=f"{name}'.*paths {', '.join(usable)}$"):
            pywar.play(1, engine="c")
        assert main(["simulate", "-n", "10", "--engine", "c"]) == 2
        out, err = capsys.readouterr()
        assert out == "" and err.count("\n") == 1 and RNG_PATH_VARIABLE in err
