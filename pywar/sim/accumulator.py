"""Streaming, exact statistics of games: one Accumulator per chunk of games, built in
bulk from the chunk's arrays, and merged in seed order into the statistics of a run.

Everything an Accumulator holds is exact: integer histograms (so medians and quantiles
are exact; the game lengths also one per outcome), counts, integer sums and sums of squares (Python ints, so means and
variances do not drift however many merges), and minima and maxima with the index of
the first game that gives them.  Two accumulators of adjacent ranges of games merge
(merge) into the accumulator of their union; the merge is associative, and merging
chunk by chunk gives what one accumulator over all the games would.

The run's digest is sha256 over every game's 64-bit digest, little-endian, in seed
order (docs/rules.md section 11).  An accumulator that starts at the run's first game
holds a running sha256; any other holds its games' digests as bytes until it is merged
onto the run's beginning.  That keeps a merge exact whatever the chunk sizes.
"""

import hashlib
from dataclasses import dataclass, field, replace

import numpy as np

from ..common.fields import COUNTS, OUTCOMES, SEED_LIMIT
from ..rules import MAX_PLAYERS

FIELDS = COUNTS              # the per-game counts, whose statistics are kept
WAR_DEPTHS = 64              # C: PYWAR_WAR_DEPTHS; index d counts rounds with d wars
WINNER_SLOTS = MAX_PLAYERS + 1   # winner + 1: 0 nobody, 1 A, 2 B, ...
INT64_LIMIT = 2 ** 63


@dataclass(frozen=True)
class Histogram:
    """Exact counts of integer values: values increasing, counts positive (int64)."""
    values: np.ndarray
    counts: np.ndarray

    @property
    def total(self):
        """How many values were counted."""
        return int(self.counts.sum())

    def as_dict(self):
        """{value: count} as Python ints."""
        return dict(zip(self.values.tolist(), self.counts.tolist()))


EMPTY = Histogram(np.zeros(0, np.int64), np.zeros(0, np.int64))
NO_OUTCOMES = (EMPTY,) * len(OUTCOMES)


def histogram_of(array):
    """The histogram of an integer array: a bincount when its span is small, else sorted."""
    if len(array) == 0:
        return EMPTY
    low, high = int(array.min()), int(array.max())
    if high - low <= 4 * len(array) + 1024:
        counts = np.bincount(np.asarray(array, np.int64) - low)
        present = np.flatnonzero(counts)
        return Histogram(present + low, counts[present].astype(np.int64))
    values, counts = np.unique(array, return_counts=True)
    return Histogram(values.astype(np.int64), counts.astype(np.int64))


def outcome_histograms(rounds, outcomes):
    """The histogram of the rounds of the games of each outcome, in the order of OUTCOMES."""
    return tuple(histogram_of(rounds[outcomes == index]) for index in range(len(OUTCOMES)))


def merge_histograms(first, second):
    """The histogram of both histograms' values."""
    if len(first.values) == 0:
        return second
    if len(second.values) == 0:
        return first
    low = min(int(first.values[0]), int(second.values[0]))
    high = max(int(first.values[-1]), int(second.values[-1]))
    if high - low <= 4 * (len(first.values) + len(second.values)) + 1024:
        dense = np.zeros(high - low + 1, np.int64)
        dense[first.values - low] += first.counts        # values are distinct in each
        dense[second.values - low] += second.counts
        present = np.flatnonzero(dense)
        return Histogram(present + low, dense[present])
    values, inverse = np.unique(np.concatenate([first.values, second.values]),
                                return_inverse=True)
    counts = np.zeros(len(values), np.int64)
    np.add.at(counts, inverse, np.concatenate([first.counts, second.counts]))
    return Histogram(values, counts)


def power_sum(histogram, power):
    """Sum of value ** power over the counted values, exactly, as a Python int."""
    values, counts = histogram.values, histogram.counts
    if len(values) == 0:
        return 0
    largest = max(abs(int(values[0])), abs(int(values[-1])))
    if largest ** power * histogram.total < INT64_LIMIT:
        return int(np.dot(values ** power, counts))
    return sum(value ** power * count for value, count in zip(values.tolist(), counts.tolist()))


def ranked(histogram, rank):
    """The rank-th smallest counted value (rank from 1)."""
    position = int(np.searchsorted(np.cumsum(histogram.counts), rank))
    return int(histogram.values[position])


def median(histogram, games):
    """The middle value, or the mean of the two middle values, as a float."""
    if games % 2:
        return float(ranked(histogram, (games + 1) // 2))
    return (ranked(histogram, games // 2) + ranked(histogram, games // 2 + 1)) / 2


def percentile(histogram, games, percent):
    """The smallest value that at least percent% of the games do not exceed."""
    return ranked(histogram, max(1, -(-percent * games // 100)))


def first_extremes(array, start):
    """((least value, index of its first game), (greatest value, index of its first game))
    of a chunk's array whose first game has index start."""
    low, high = int(np.argmin(array)), int(np.argmax(array))
    return (int(array[low]), start + low), (int(array[high]), start + high)


def earlier_min(first, second):
    """The lesser (value, index), the earlier game on a tie."""
    return min(first, second)


def earlier_max(first, second):
    """The greater (value, index), the earlier game on a tie."""
    return min(first, second, key=lambda pair: (-pair[0], pair[1]))


@dataclass
class Accumulator:
    """Exact statistics of the games with indices start .. start + games - 1 of a run
    whose first seed is seed (game i has seed (seed + i) mod 2^32)."""
    seed: int
    start: int = 0
    games: int = 0
    histograms: dict = field(default_factory=lambda: dict.fromkeys(FIELDS, EMPTY))
    rounds_by_outcome: tuple = NO_OUTCOMES       # a rounds histogram per outcome (OUTCOMES)
    sums: dict = field(default_factory=lambda: dict.fromkeys(FIELDS, 0))
    squares: dict = field(default_factory=lambda: dict.fromkeys(FIELDS, 0))
    minima: dict = field(default_factory=dict)       # field: (value, index of first game)
    maxima: dict = field(default_factory=dict)       # field: (value, index of first game)
    outcomes: np.ndarray = field(default_factory=lambda: np.zeros(len(OUTCOMES), np.int64))
    winners: np.ndarray = field(default_factory=lambda: np.zeros(WINNER_SLOTS, np.int64))
    war_depths: np.ndarray = field(default_factory=lambda: np.zeros(WAR_DEPTHS, np.int64))
    pending: bytes = b""     # the games' digests, little-endian, not yet hashed
    hasher: object = None    # a running sha256, only for a range that starts at 0

    @property
    def end(self):
        """The index just past the last game."""
        return self.start + self.games

    def seed_of(self, index):
        """The seed of the game with this index."""
        return (self.seed + index) % SEED_LIMIT

    def merge(self, other):
        """The accumulator of this range followed by other's, which must start where this
        one ends: a new Accumulator (neither is changed)."""
        if other.seed != self.seed or other.start != self.end:
            raise ValueError(f"accumulators merge in seed order: games {self.start} to "
                             f"{self.end - 1} of seed {self.seed} cannot take games from "
                             f"{other.start} of seed {other.seed}")
        if other.games == 0:
            return replace(self, hasher=self.copied_hasher())
        if self.games == 0:
            return replace(other, start=self.start, hasher=other.copied_hasher())
        merged = Accumulator(
            seed=self.seed, start=self.start, games=self.games + other.games,
            histograms={name: merge_histograms(self.histograms[name], other.histograms[name])
                        for name in FIELDS},
            rounds_by_outcome=tuple(map(merge_histograms, self.rounds_by_outcome,
                                        other.rounds_by_outcome)),
            sums={name: self.sums[name] + other.sums[name] for name in FIELDS},
            squares={name: self.squares[name] + other.squares[name] for name in FIELDS},
            minima={name: earlier_min(self.minima[name], other.minima[name]) for name in FIELDS},
            maxima={name: earlier_max(self.maxima[name], other.maxima[name]) for name in FIELDS},
            outcomes=self.outcomes + other.outcomes, winners=self.winners + other.winners,
            war_depths=self.war_depths + other.war_depths)
        merged.pending, merged.hasher = self.joined_digests(other)
        return merged

    def copied_hasher(self):
        """A copy of the running sha256, or None."""
        return None if self.hasher is None else self.hasher.copy()

    def joined_digests(self, other):
        """(pending bytes, running sha256) of this range's digests then other's: hashed
        when the range starts at the run's first game, else kept as bytes."""
        if self.start != 0:
            return self.pending + other.pending, None
        hasher = self.copied_hasher() or hashlib.sha256(self.pending)
        hasher.update(other.pending)
        return b"", hasher

    def digest(self):
        """sha256 of the games' 64-bit digests, little-endian, in seed order (hex)."""
        hasher = self.copied_hasher() or hashlib.sha256(self.pending)
        return hasher.hexdigest()

    def state(self):
        """Everything counted, as plain Python values (for comparing accumulators)."""
        return {"seed": self.seed, "start": self.start, "games": self.games,
                "histograms": {name: self.histograms[name].as_dict() for name in FIELDS},
                "rounds_by_outcome": {outcome: histogram.as_dict() for outcome, histogram
                                      in zip(OUTCOMES, self.rounds_by_outcome)},
                "sums": dict(self.sums), "squares": dict(self.squares),
                "minima": dict(self.minima), "maxima": dict(self.maxima),
                "outcomes": self.outcomes.tolist(), "winners": self.winners.tolist(),
                "war_depths": self.war_depths.tolist(), "digest": self.digest()}


def accumulate(arrays, seed, start=0, war_depths=None):
    """The Accumulator of a chunk of games, in bulk from its arrays (the fields of
    pywar.common.fields.BATCH_FIELDS, one entry per game): the chunk's first game has index
    start in a run from seed; war_depths, if given, is the chunk's summed war depths."""
    games = len(arrays["rounds"])
    totals = Accumulator(seed=seed, start=start, games=games)
    if games == 0:
        return totals
    for name in FIELDS:
        histogram = histogram_of(arrays[name])
        totals.histograms[name] = histogram
        totals.sums[name] = power_sum(histogram, 1)
        totals.squares[name] = power_sum(histogram, 2)
        totals.minima[name], totals.maxima[name] = first_extremes(arrays[name], start)
    totals.outcomes = np.bincount(arrays["outcome"], minlength=len(OUTCOMES)).astype(np.int64)
    totals.rounds_by_outcome = outcome_histograms(arrays["rounds"], arrays["outcome"])
    winner_slots = np.asarray(arrays["winner"], np.int64) + 1
    totals.winners = np.bincount(winner_slots, minlength=WINNER_SLOTS).astype(np.int64)
    if war_depths is not None:
        totals.war_depths = np.asarray(war_depths, np.int64).copy()
    totals.pending = np.ascontiguousarray(arrays["digest"], dtype="<u8").tobytes()
    return totals


def accumulate_all(chunks):
    """The merge of accumulators of adjacent ranges, in order."""
    chunks = list(chunks)
    total = chunks[0]
    for chunk in chunks[1:]:
        total = total.merge(chunk)
    return total
