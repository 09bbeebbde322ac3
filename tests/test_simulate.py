"""Simulations: the same arrays from either engine and any jobs, a right summary,
clear errors, and no finished game lost to an interrupt."""

import numpy as np
import pytest

import pywar
import pywar.cli
from conftest import needs_c
from pywar.sim import batch

ISSUE_KEYS = {"rules", "games", "seed", "engine", "jobs", "mean_rounds", "ci95_rounds",
              "median_rounds", "p90_rounds", "p99_rounds", "min_rounds", "max_rounds",
              "max_seed", "wins", "outcomes", "mean_wars", "games_per_second", "digest"}


def same_arrays(first, second):
    """True when two simulations hold equal seeds and arrays."""
    return (np.array_equal(first.seeds, second.seeds)
            and all(np.array_equal(first.arrays[name], second.arrays[name])
                    for name in first.arrays))


def comparable(summary):
    """A summary without the fields that depend on the run, not the games."""
    return {key: value for key, value in summary.items()
            if key not in ("engine", "jobs", "games_per_second")}


SIMULATIONS = [("smu", 0, 300), ("smu", 2 ** 32 - 150, 300), ("lehigh", 1000, 300),
               ("iofall", 77, 400), ("iofall-single", 5, 300)]
# The default run plays the first 100 games of each (the second smu run from 2^32 - 50,
# so that its seeds still wrap): they reach every branch of pywar/ that the full runs
# reach (measured with coverage's branch mode); the slow run plays the full runs.
SHORT_SIMULATIONS = [(rules, seed if seed < 2 ** 31 else 2 ** 32 - 50, 100)
                     for rules, seed, _ in SIMULATIONS]


@needs_c
@pytest.mark.parametrize("rules, seed, games", SHORT_SIMULATIONS + [
    pytest.param(*case, marks=pytest.mark.slow) for case in SIMULATIONS])
def test_c_and_twin_give_the_same_simulation(rules, seed, games):
    c = pywar.simulate(games, rules, seed=seed, engine="c")
    twin = pywar.simulate(games, rules, seed=seed, engine="python")
    assert same_arrays(c, twin)
    assert comparable(c.summary()) == comparable(twin.summary())
    assert c.seeds[-1] == (seed + games - 1) % 2 ** 32


@needs_c
@pytest.mark.parametrize("rules", ["smu", "iofall", "lehigh"])
def test_jobs_do_not_change_the_result(rules):
    runs = [pywar.simulate(3000, rules, seed=11, engine="c", jobs=jobs) for jobs in (1, 2, 3, 7)]
    for run in runs[1:]:
        assert same_arrays(runs[0], run)
        assert run.combined_digest() == runs[0].combined_digest()
    assert [run.jobs for run in runs] == [1, 2, 3, 7]


def test_arrays_are_the_games_of_play():
    simulation = pywar.simulate(40, "iofall", seed=123, engine="python")
    for i, seed in enumerate(simulation.seeds.tolist()):
        game = pywar.play(seed, "iofall", engine="python")
        assert simulation.rounds[i] == game.rounds
        assert simulation.digest[i] == game.digest
        assert simulation.winner[i] == {"A": 0, "B": 1, None: -1}[game.winner]
        assert simulation.stranded[i] == game.stranded


def test_one_game_has_no_interval(capsys):
    """A 95% interval needs a standard error, which one game does not give (numpy's
    sample deviation of one value is nan): null in the summary, said in words by the CLI."""
    one = pywar.simulate(1, "smu", seed=9)
    assert one.games == 1
    with pytest.warns(RuntimeWarning):
        assert np.isnan(one.rounds.astype(float).std(ddof=1))
    assert one.summary()["ci95_rounds"] is None
    assert pywar.cli.main(["simulate", "-n", "1", "--seed", "9"]) == 0
    assert "95% CI: needs two games" in capsys.readouterr().out


def test_summary_against_numpy():
    simulation = pywar.simulate(500, "smu", seed=9, engine="auto")
    summary = simulation.summary()
    rounds = simulation.rounds.astype(float)
    assert set(summary) >= ISSUE_KEYS
    assert summary["games"] == 500 and summary["complete"]
    assert summary["mean_rounds"] == pytest.approx(rounds.mean())
    low, high = summary["ci95_rounds"]
    assert (high - low) / 2 == pytest.approx(1.96 * rounds.std(ddof=1) / np.sqrt(500), rel=1e-3)
    assert summary["median_rounds"] == np.median(rounds)
    assert summary["max_rounds"] == rounds.max()
    assert summary["max_seed"] == simulation.seeds[rounds.argmax()]
    assert summary["min_seed"] == simulation.seeds[rounds.argmin()]
    assert (rounds <= summary["p90_rounds"]).mean() >= 0.9 > (rounds < summary["p90_rounds"]).mean()
    assert sum(summary["wins"].values()) == sum(summary["outcomes"].values()) == 500
    assert summary["mean_wars"] == pytest.approx(simulation.wars.mean())


def test_a_sample_of_dimensions():
    for dimensions in ({"face_down": 1}, {"pickup": "random", "piles": "queue"},
                       {"short_war": "lose", "face_down": 2}):
        c = pywar.simulate(60, "smu", seed=3, engine="auto", **dimensions)
        twin = pywar.simulate(60, "smu", seed=3, engine="python", **dimensions)
        assert same_arrays(c, twin) and c.rules == twin.rules


@pytest.mark.parametrize("arguments, error, words", [
    ({"n": 0}, ValueError, "n must be an integer from 1"),
    ({"n": -5}, ValueError, "from 1"),
    ({"n": 2.5}, TypeError, "n must be an integer"),
    ({"n": 10, "jobs": 0}, ValueError, "jobs must be an integer from 1"),
    ({"n": 10, "jobs": "2"}, TypeError, "jobs must be an integer"),
    ({"n": 10, "seed": 2 ** 32}, ValueError, "0 to 4294967295"),
    ({"n": 10, "speed": 3}, TypeError, "unknown rule dimension 'speed'"),
    ({"n": 10, "rules": "poker"}, ValueError, "smu, lehigh"),
    ({"n": 10, "engine": "gpu"}, ValueError, "auto, c, python"),
])
def test_bad_input(arguments, error, words):
    with pytest.raises(error, match=words):
        pywar.simulate(**arguments)


@pytest.mark.parametrize("jobs", [1, 2, 3])
@pytest.mark.parametrize("engine", [pytest.param("c", marks=needs_c), "python"])
def test_an_interrupt_keeps_the_finished_games_from_the_first_seed(engine, jobs):
    """Chunks cut short leave no gap: the games kept are seeds 500, 501, ... only."""
    games = 20_000 if engine == "c" else 120

    def interrupt(finished, total):
        if finished >= total // 10:
            raise KeyboardInterrupt

    with pytest.raises(pywar.SimulationInterrupted) as caught:
        pywar.simulate(games, "smu", seed=500, engine=engine, jobs=jobs, progress=interrupt)
    partial = caught.value.simulation
    assert 0 < partial.games < games and not partial.complete
    assert not partial.summary()["complete"]
    assert partial.seeds.tolist() == list(range(500, 500 + partial.games))
    full = pywar.simulate(games, "smu", seed=500, engine=engine)
    for name in full.arrays:
        assert np.array_equal(full.arrays[name][:partial.games], partial.arrays[name]), name


@needs_c
def test_an_error_in_a_worker_reaches_the_caller(monkeypatch):
    """A chunk that fails stops the others, and its error is raised, not lost or hung."""
    from pywar import _checked
    real = _checked.play_batch
    calls = []

    def failing(first_seed, rules, arrays, stop):
        calls.append(first_seed)
        if len(calls) == 3:
            raise MemoryError("the C core ran out of memory")
        return real(first_seed, rules, arrays, stop)

    monkeypatch.setattr(_checked, "play_batch", failing)
    with pytest.raises(MemoryError, match="ran out of memory"):
        pywar.simulate(50_000, "smu", engine="c", jobs=2)
    assert 3 <= len(calls) < 50_000 // batch.chunk_size(50_000, 2)


def test_chunks_cover_the_games_in_order():
    assert batch.chunk_size(10, 2) == batch.SMALLEST_CHUNK
    assert batch.chunk_size(10 ** 9, 2) == batch.LARGEST_CHUNK
    seeds = batch.seeds_of(2 ** 32 - 2, 4)
    assert seeds.tolist() == [2 ** 32 - 2, 2 ** 32 - 1, 0, 1]


def test_an_empty_summary():
    arrays = batch.empty_arrays(0)
    simulation = pywar.Simulation("smu", "c", 1, 0, 10, 0.0, np.zeros(0, np.uint32), arrays)
    assert simulation.summary()["games"] == 0 and not simulation.complete


@needs_c
def test_a_stop_flag_ends_a_c_batch_early():
    from pywar import _checked
    arrays = batch.empty_arrays(50)
    stop = _checked.stop_flag()
    assert _checked.play_batch(1, pywar.PRESETS["smu"], arrays, stop) == 50
    stop[0] = 1
    assert _checked.play_batch(1, pywar.PRESETS["smu"], batch.empty_arrays(50), stop) == 0


def test_the_war_depths_have_int_keys_everywhere():
    """summary()["war_depths"] is the sum of the games' GameResult.war_depths, key for
    key (ints); JSON spells the keys as strings."""
    seeds = range(40)
    expected = {}
    for seed in seeds:
        for depth, rounds in pywar.play(seed, "iofall", engine="python").war_depths.items():
            expected[depth] = expected.get(depth, 0) + rounds
    summary = pywar.simulate(len(seeds), "iofall", engine="python").summary()
    assert summary["war_depths"] == expected and all(type(key) is int for key in expected)
    assert len(expected) >= 2
