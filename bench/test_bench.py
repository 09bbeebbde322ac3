"""pywar's benchmarks (pytest-benchmark), side by side in one run:

    pytest bench --benchmark-group-by=group --benchmark-json=bench.json
    python bench/report.py bench.json        # docs/performance.md's table: games/s and ratios

Groups: batch-<preset> (the C engine against the twin, games per second), yardstick-iofall
and yardstick-smu (the engine through `pywar simulate --jobs 1` and in plain C, against a
single-purpose loop of the same rules: bench/tight_iofall.c, and the naive
bench/tight_smu.c, one rand() at a time and '%'), rng-paths-<rules> (whole games of smu,
iofall and rustwar's wars and refills on each of the generator's paths the processor
has: the figures that choose the path, Rng_BestPath), play-call (one game through
each layer, and through the port), jobs-smu (threads), binding-smu (the batch through
cffi against the same batch in the plain-C driver).  Each ratio is kept as a figure in
extra_info.  CI runs them once each with --benchmark-disable as a smoke test.  No test
here asserts a time.
"""

import json
import subprocess
import sys
import time
from statistics import median

import numpy as np
import pytest

import pywar
from pywar import _checked, twin
from pywar.sim import batch
from pywar.rules import PEERS, PRESETS, c_numbers, make_rules

C_GAMES = {"smu": 4000, "lehigh": 10000, "iofall": 20000, "iofall-single": 10000,
           "cecs325": 100000}
TWIN_GAMES = {"smu": 10, "lehigh": 40, "iofall": 60, "iofall-single": 30, "cecs325": 300}
BINDING_GAMES = 10000
BINDING_ROUNDS = 5
needs_c = pytest.mark.skipif(not _checked.available(), reason="the C core is not built")


def games_per_second(benchmark, games):
    """Record the games a round plays, for bench/report.py."""
    benchmark.extra_info["games"] = games


def c_batch(rules, games):
    """One C batch call on one thread, into fresh arrays."""
    arrays = batch.empty_arrays(games)
    _checked.play_batch(1, rules, arrays)
    return arrays


@needs_c
@pytest.mark.parametrize("name", list(PRESETS))
def test_batch_c(benchmark, name):
    benchmark.group = f"batch-{name}"
    games = C_GAMES[name]
    games_per_second(benchmark, games)
    arrays = benchmark.pedantic(c_batch, args=(PRESETS[name], games), rounds=5, iterations=1,
                                warmup_rounds=1)
    assert arrays["rounds"].min() > 0


@pytest.mark.parametrize("name", list(PRESETS))
def test_batch_twin(benchmark, name):
    benchmark.group = f"batch-{name}"
    games = TWIN_GAMES[name]
    games_per_second(benchmark, games)
    rules = PRESETS[name]
    result = benchmark.pedantic(lambda: [twin.play(seed, rules) for seed in range(1, games + 1)],
                                rounds=3, iterations=1)
    assert len(result) == games


@needs_c
@pytest.mark.parametrize("layer", ["raw lib", "checked", "facade"])
def test_play_call_c(benchmark, layer):
    """One smu game (seed 17455, 29 rounds) through each layer over the C core."""
    benchmark.group = "play-call"
    rules = PRESETS["smu"]
    if layer == "raw lib":
        struct = _checked.c_rules(rules)
        result = _checked.ffi.new("PywarResult *")
        null = _checked.ffi.NULL
        call = lambda: _checked.lib.pywar_play(17455, struct, null, null, result,  # noqa: E731
                                               null, null, null)
    elif layer == "checked":
        call = lambda: _checked.play(17455, rules)  # noqa: E731
    else:
        call = lambda: pywar.play(17455, engine="c")  # noqa: E731
    benchmark(call)


def test_play_call_twin(benchmark):
    benchmark.group = "play-call"
    game = benchmark(lambda: pywar.play(17455, engine="python"))
    assert game.rounds == 29


@pytest.mark.parametrize("engine", [pytest.param("port-c", marks=needs_c), "port-python"])
def test_play_call_port(benchmark, engine):
    """One smu game through the port, the reference's code in C and in Python."""
    benchmark.group = "play-call"
    game = benchmark(lambda: pywar.play(17455, engine=engine))
    assert game.rounds == 29


YARDSTICK_GAMES = {"iofall": 200_000, "smu": 40_000}    # about a second each
YARDSTICK_PAIRS = 15    # rounds of a run: on a shared host one round's ratio moves by 20%,
                        # and the median of 15 rounds is a steadier estimate than that of 7


def timed_run(command, clocks):
    """Run a plain-C program (bench/driver.c or a bench/tight_*.c loop), note its own
    clock in clocks, and return what its one line prints after each name: games, seconds,
    games_per_second, rounds, fold and fold_NAME for each column."""
    words = subprocess.run(command, capture_output=True, text=True, check=True).stdout.split()
    printed = dict(zip(words[::2], words[1::2]))
    clocks.append(float(printed["seconds"]))
    return printed


def simulated(name, games, clocks):
    """`pywar simulate --jobs 1 --engine c` in a process of its own: note the seconds its
    games took by its own figure (games / games_per_second, which leaves out Python's
    start), and return the total of rounds it played."""
    command = [sys.executable, "-m", "pywar", "simulate", "-n", str(games), "--seed", "1",
               "--jobs", "1", "--engine", "c", "--rules", name, "--json", "--no-progress"]
    summary = json.loads(subprocess.run(command, capture_output=True, text=True,
                                        check=True).stdout)
    clocks.append(games / summary["games_per_second"])
    return round(summary["mean_rounds"] * games)


@needs_c
@pytest.mark.parametrize("name", list(YARDSTICK_GAMES))
def test_yardstick(benchmark, driver, tight, name):
    """The engine's batch of name's games through `pywar simulate --jobs 1 --engine c`,
    the same batch in plain C (bench/driver.c), and the same games in the single-purpose
    loop (bench/tight_iofall.c, or for smu the naive bench/tight_smu.c), run in turn
    (simulate, driver, loop, simulate, ...), as a paired timing of two commands does, so that a
    drift in the machine's speed (another job starting on a shared host) touches all
    three alike.  extra_info keeps each program's own clock for every round (which
    leaves out the process's start) and the folds the two C programs printed of the
    columns the loop counts;
    bench/report.py takes the median of the rounds' ratios."""
    benchmark.group = f"yardstick-{name}"
    games = YARDSTICK_GAMES[name]
    games_per_second(benchmark, games)     # each program's, not the round's
    engine = [str(driver), str(games), "1", *map(str, c_numbers(PRESETS[name]).values())]
    loop = [str(tight[name]), str(games), "1"]
    clocks = {"simulate": [], "engine": [], "tight": []}
    folds, rounds = set(), set()

    def turn():
        rounds.add(simulated(name, games, clocks["simulate"]))
        printed = timed_run(engine, clocks["engine"])
        rounds.add(int(printed["rounds"]))
        looped = timed_run(loop, clocks["tight"])
        counted = sorted(name for name in looped if name.startswith("fold_"))
        folds.add(" ".join(printed[name] for name in counted))    # the loop's columns
        folds.add(" ".join(looped[name] for name in counted))

    benchmark.pedantic(turn, rounds=YARDSTICK_PAIRS, iterations=1, warmup_rounds=1)
    for program, seconds in clocks.items():
        benchmark.extra_info[f"{program}_seconds"] = seconds[-YARDSTICK_PAIRS:]
    for program in ("simulate", "engine"):     # the loop's time over the program's, by round
        benchmark.extra_info[f"{program}_over_tight"] = median(
            tight / mine for mine, tight in zip(clocks[program], clocks["tight"]))
    benchmark.extra_info["folds"] = sorted(folds)
    assert len(folds) == 1, f"the engine and the loop played different games: {folds}"
    assert len(rounds) == 1, f"simulate and the driver played different games: {rounds}"


# The rule sets whose whole games choose the generator's path (about half a second of
# each on one core): smu (its shuffles' 208 draws reduced in blocks), iofall (a word a
# battle, and the pot's shuffle) and rustwar's (docs/rules.md 12.1: wars of three face
# down, and refills shuffled by Fisher-Yates).
PATH_GAMES = {"smu": (PRESETS["smu"], 20_000), "iofall": (PRESETS["iofall"], 100_000),
              "rustwar": (make_rules("smu", refill="shuffle", **PEERS["rustwar"]), 20_000)}
PATH_ROUNDS = 9


@needs_c
@pytest.mark.parametrize("name", list(PATH_GAMES))
def test_rng_paths(benchmark, name):
    """A batch of name's games on each of the generator's paths the processor runs, in
    turn (the order turned round each round, on one thread, through cffi), each batch
    timed by the CPU time of the thread that plays it (time.thread_time: on a shared
    machine, the time another job held the core is not counted).  extra_info: the path
    "best" takes here (best), each path's seconds, and each path's time over best's,
    the median of the rounds' ratios (over_best): a path under 1.0 makes whole games
    faster than the one csrc/common/rng.c's Rng_BestPath chose.  pywar's own games are
    the same on every path (tests/test_rng_paths.py)."""
    rules, games = PATH_GAMES[name]
    usable, best = _checked.rng_paths()
    paths = [path for path in usable if path != "best"]
    benchmark.group = f"rng-paths-{name}"
    games_per_second(benchmark, games)
    clocks = {path: [] for path in paths}
    arrays = batch.empty_arrays(games)

    def turn():
        paths.append(paths.pop(0))
        for path in paths:
            start = time.thread_time()
            _checked.play_batch(1, rules, arrays, path=path)
            clocks[path].append(time.thread_time() - start)

    benchmark.pedantic(turn, rounds=PATH_ROUNDS, iterations=1, warmup_rounds=1)
    kept = {path: seconds[-PATH_ROUNDS:] for path, seconds in clocks.items()}
    benchmark.extra_info["best"] = best
    benchmark.extra_info["seconds"] = kept
    benchmark.extra_info["over_best"] = {
        path: median(mine / theirs for mine, theirs in zip(kept[path], kept[best]))
        for path in kept}
    assert arrays["rounds"].min() > 0


JOBS_GAMES = 40_000    # about 1 s of smu on one core: the last poll and chunk weigh little


@needs_c
@pytest.mark.parametrize("jobs", list(range(1, pywar.usable_cores() + 1)))
def test_jobs_scaling(benchmark, jobs):
    benchmark.group = "jobs-smu"
    games = JOBS_GAMES
    games_per_second(benchmark, games)
    benchmark.extra_info["jobs"] = jobs
    run = benchmark.pedantic(pywar.simulate, args=(games,), kwargs={"jobs": jobs, "seed": 1},
                             rounds=3, iterations=1, warmup_rounds=1)
    assert run.games == games


@needs_c
def test_binding_cffi(benchmark):
    benchmark.group = "binding-smu"
    games_per_second(benchmark, BINDING_GAMES)
    arrays = benchmark.pedantic(c_batch, args=(PRESETS["smu"], BINDING_GAMES),
                                rounds=BINDING_ROUNDS, iterations=1, warmup_rounds=1)
    benchmark.extra_info["rounds_sum"] = int(arrays["rounds"].sum())


def test_binding_plain_c(benchmark, driver):
    """The same batch in the plain-C driver (a process of its own: its start, a few
    milliseconds, is counted too; the median of the driver's own clocks is in extra_info)."""
    benchmark.group = "binding-smu"
    games_per_second(benchmark, BINDING_GAMES)
    command = [str(driver), str(BINDING_GAMES), "1",
               *map(str, c_numbers(PRESETS["smu"]).values())]

    clocks = []
    printed = benchmark.pedantic(timed_run, args=(command, clocks), rounds=BINDING_ROUNDS,
                                 iterations=1, warmup_rounds=1)
    rounds = int(printed["rounds"])
    benchmark.extra_info["driver_seconds"] = median(clocks[-BINDING_ROUNDS:])  # not the warm-up
    benchmark.extra_info["rounds_sum"] = rounds
    if _checked.available():
        assert rounds == int(np.sum(c_batch(PRESETS["smu"], BINDING_GAMES)["rounds"]))
