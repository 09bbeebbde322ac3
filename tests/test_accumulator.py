"""Streaming statistics: accumulators of chunks merge exactly into the accumulator of
all the games, whatever the chunk boundaries, and the merge is associative; the digest
is sha256 of the packed per-game digests for any chunking; a streamed run's summary
equals the summary over its kept games, field for field; the CSV rows are those that
Python's csv module writes; memory does not grow with the number of games."""

import csv
import hashlib
import io
import random
import struct
import tracemalloc

import numpy as np
import pytest

import pywar
from conftest import needs_c
from pywar.sim import simulation as stats
from pywar.common.fields import BATCH_FIELDS
from pywar.sim import accumulator
from pywar.sim.accumulator import Accumulator, accumulate

FIELD_DTYPES = BATCH_FIELDS          # every batch array, from the one table of fields


def random_games(count, rng):
    """Arrays of count hand-made games: small values that tie often, and rounds of a wide
    span (up to 10 million, as capped smu games reach) so both histogram paths run."""
    small = lambda top: np.array([rng.randrange(top) for _ in range(count)], np.int32)
    rounds = [rng.choice([rng.randrange(20, 60), rng.randrange(10_000_000)])
              for _ in range(count)]
    arrays = {name: small(6) for name in FIELD_DTYPES}
    arrays["rounds"] = np.array(rounds, np.int32)
    arrays["winner"] = np.array([rng.randrange(-1, 8) for _ in range(count)], np.int8)
    arrays["outcome"] = np.array([rng.randrange(4) for _ in range(count)], np.int8)
    arrays["digest"] = np.array([rng.randrange(2 ** 64) for _ in range(count)], np.uint64)
    return arrays


def cut(arrays, bounds):
    """The arrays of each chunk between consecutive bounds."""
    return [{name: array[start:end] for name, array in arrays.items()}
            for start, end in zip(bounds, bounds[1:])]


def random_bounds(count, rng, pieces):
    """0, some random cut points (empty chunks allowed), count."""
    return [0] + sorted(rng.randrange(count + 1) for _ in range(pieces - 1)) + [count]


def chunk_accumulators(arrays, bounds, seed):
    """One Accumulator per chunk, each with its own random war depths."""
    return [accumulate(part, seed, start, np.arange(64) * (start % 5))
            for part, start in zip(cut(arrays, bounds), bounds)]


def plain_state(arrays, seed, war_depths):
    """What the accumulator of all the games must hold, worked out with loops here."""
    count = len(arrays["rounds"])
    histograms, sums, squares, minima, maxima = {}, {}, {}, {}, {}
    for name in accumulator.FIELDS:
        values = arrays[name].tolist()
        histograms[name] = {value: values.count(value) for value in sorted(set(values))}
        sums[name] = sum(values)
        squares[name] = sum(value * value for value in values)
        minima[name] = (min(values), values.index(min(values)))
        maxima[name] = (max(values), values.index(max(values)))
    winners = [0] * 9
    for winner in arrays["winner"].tolist():
        winners[winner + 1] += 1
    outcomes = [arrays["outcome"].tolist().count(kind) for kind in range(5)]   # rules.md 6
    by_outcome = {name: {} for name in pywar.rules.OUTCOMES}
    for rounds, kind in zip(arrays["rounds"].tolist(), arrays["outcome"].tolist()):
        lengths = by_outcome[pywar.rules.OUTCOMES[kind]]
        lengths[rounds] = lengths.get(rounds, 0) + 1
    by_outcome = {name: dict(sorted(lengths.items())) for name, lengths in by_outcome.items()}
    packed = struct.pack(f"<{count}Q", *arrays["digest"].tolist())
    return {"seed": seed, "start": 0, "games": count, "histograms": histograms,
            "rounds_by_outcome": by_outcome,
            "sums": sums, "squares": squares, "minima": minima, "maxima": maxima,
            "outcomes": outcomes, "winners": winners, "war_depths": list(war_depths),
            "digest": hashlib.sha256(packed).hexdigest()}


@pytest.mark.parametrize("trial", range(6))
def test_chunk_by_chunk_equals_all_at_once(trial):
    rng = random.Random(trial)
    count = rng.randrange(1, 400)
    arrays = random_games(count, rng)
    bounds = random_bounds(count, rng, rng.randrange(1, 12))
    chunks = chunk_accumulators(arrays, bounds, seed=2 ** 32 - 100)
    merged = accumulator.accumulate_all(chunks)
    depths = sum(np.arange(64) * (start % 5) for start in bounds[:-1])
    assert merged.state() == plain_state(arrays, 2 ** 32 - 100, depths)


def test_the_merge_is_associative():
    rng = random.Random(11)
    arrays = random_games(300, rng)
    first, second, third = chunk_accumulators(arrays, [0, 90, 91, 300], seed=7)
    left = first.merge(second).merge(third)
    right = first.merge(second.merge(third))
    assert left.state() == right.state()
    later = second.merge(third)                  # not starting at game 0: digests as bytes
    assert later.digest() == hashlib.sha256(
        struct.pack("<210Q", *arrays["digest"][90:].tolist())).hexdigest()


def test_a_merge_out_of_seed_order_is_refused():
    rng = random.Random(12)
    first, second, third = chunk_accumulators(random_games(30, rng), [0, 10, 20, 30], seed=0)
    with pytest.raises(ValueError, match="seed order"):
        first.merge(third)
    with pytest.raises(ValueError, match="seed order"):
        second.merge(first)


def test_an_empty_accumulator_merges_as_nothing():
    rng = random.Random(13)
    (chunk,) = chunk_accumulators(random_games(40, rng), [0, 40], seed=3)
    nothing = Accumulator(seed=3)
    assert nothing.merge(chunk).state() == chunk.state() == chunk.merge(
        Accumulator(seed=3, start=40)).state()
    assert nothing.digest() == hashlib.sha256(b"").hexdigest()


def kept_summary(simulation):
    """The summary computed at once over a run's kept arrays (no streamed totals)."""
    at_once = pywar.Simulation(
        rules=simulation.rules, engine=simulation.engine, jobs=simulation.jobs,
        first_seed=simulation.first_seed, requested=simulation.requested,
        seconds=simulation.seconds, seeds=simulation.seeds, arrays=simulation.arrays,
        war_depths=simulation.war_depths, players=simulation.players)
    return at_once.summary()


def without_speed(summary):
    """A summary without the fields that depend on the run, not the games."""
    return {key: value for key, value in summary.items()
            if key not in ("jobs", "engine", "games_per_second")}


@needs_c
@pytest.mark.parametrize("rules, players, seed, chunk, jobs", [
    ("smu", 2, 2 ** 32 - 3000, 777, 2), ("lehigh", 2, 5, 256, 1), ("iofall", 3, 0, 1000, 2),
    ("smu", 5, 9, 300, 2)])
def test_a_streamed_summary_equals_the_summary_of_the_kept_games(rules, players, seed,
                                                                  chunk, jobs):
    kept = pywar.simulate(6000, rules, seed=seed, players=players, jobs=2)
    streamed = pywar.simulate(6000, rules, seed=seed, players=players, keep_games=False,
                              chunk=chunk, jobs=jobs)
    assert streamed.arrays is None and streamed.seeds is None
    assert without_speed(streamed.summary()) == without_speed(kept_summary(kept))
    assert streamed.summary()["digest"] == hashlib.sha256(
        kept.digest.astype("<u8").tobytes()).hexdigest()


@needs_c
def test_the_digest_is_the_same_for_any_chunks_jobs_and_engine():
    digests = {pywar.simulate(400, "iofall", seed=3, keep_games=False, chunk=chunk, jobs=jobs,
                              engine=engine).combined_digest()
               for chunk, jobs, engine in [(1, 1, "c"), (7, 2, "c"), (400, 2, "c"),
                                           (64, 3, "c"), (33, 1, "python")]}
    played = [pywar.play(seed, "iofall").digest for seed in range(3, 403)]
    assert digests == {hashlib.sha256(struct.pack("<400Q", *played)).hexdigest()}


@needs_c
def test_the_lengths_of_each_outcome_are_those_of_the_kept_games():
    """lehigh ends in cycles often: its lengths by outcome, streamed in chunks, are the
    kept games' counted one by one."""
    from collections import Counter
    kept = pywar.simulate(3000, "lehigh", seed=0)
    streamed = pywar.simulate(3000, "lehigh", seed=0, keep_games=False, chunk=333, jobs=2)
    outcomes = [pywar.rules.OUTCOMES[kind] for kind in kept.outcome.tolist()]
    lengths = {name: Counter() for name in pywar.rules.OUTCOMES}
    for name, rounds in zip(outcomes, kept.rounds.tolist()):
        lengths[name][rounds] += 1
    assert streamed.statistics().state()["rounds_by_outcome"] == \
        {name: dict(counts) for name, counts in lengths.items()}
    assert lengths["cycle"] and lengths["win"]


def plain_csv(simulation):
    """The CSV of kept games, written row by row with Python's csv module."""
    out = io.StringIO(newline="")
    writer = csv.writer(out)
    writer.writerow(stats.CSV_COLUMNS)
    arrays = simulation.arrays
    for i, seed in enumerate(simulation.seeds.tolist()):
        winner = int(arrays["winner"][i])
        row = [seed, "" if winner < 0 else "ABCDEFGH"[winner],
               pywar.rules.OUTCOMES[arrays["outcome"][i]]]
        row += [int(arrays[name][i]) for name in stats.CSV_COLUMNS[3:-3]]    # the counts
        row += ["" if arrays[name][i] < 0 else int(arrays[name][i])
                for name in ("cycle_start", "cycle_period")]
        row.append(f"{int(arrays['digest'][i]):016x}")
        writer.writerow(row)
    return out.getvalue().encode("ascii")


@pytest.mark.parametrize("rules, players, engine", [
    pytest.param("lehigh", 2, "c", marks=needs_c), pytest.param("smu", 4, "c", marks=needs_c),
    ("iofall", 3, "python")])
def test_streamed_csv_rows_are_the_csv_modules(tmp_path, rules, players, engine):
    games = 2500 if engine == "c" else 60
    kept = pywar.simulate(games, rules, seed=2 ** 32 - 30, players=players, engine=engine)
    path = tmp_path / "games.csv"
    pywar.simulate(games, rules, seed=2 ** 32 - 30, players=players, engine=engine,
                   keep_games=False, csv=str(path), chunk=97, jobs=2)
    assert path.read_bytes() == plain_csv(kept)
    if rules == "lehigh":
        assert b",cycle," in path.read_bytes()          # cycle_start and period filled in


@needs_c
def test_memory_does_not_grow_with_the_games():
    """Peak traced memory of a streamed run of 20 times the games stays within a small
    margin of the shorter run's; a kept run needs its arrays."""
    def peak(games, keep):
        tracemalloc.start()
        pywar.simulate(games, "iofall", keep_games=keep, chunk=4096, jobs=2)
        _, top = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        return top
    short, long = peak(10_000, False), peak(200_000, False)
    assert long < short + 2 * 2 ** 20
    assert peak(200_000, True) > 200_000 * 60
