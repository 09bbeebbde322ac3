"""A simulation's results: its statistics (an exact Accumulator, pywar/sim/accumulator.py),
its games as NumPy arrays when they were kept, and its summary, CSV rows and plot."""

import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from .accumulator import FIELDS, WAR_DEPTHS, accumulate, median, percentile
from ..common.fields import COUNTS, CSV_COLUMNS, NOTABLE, OUTCOMES, PLAYER_NAMES, SPREADS

Z95 = 1.959963984540054        # the normal distribution's two-sided 95% point
CSV_HEADER = (",".join(CSV_COLUMNS) + "\r\n").encode("ascii")


@dataclass
class Simulation:
    """The games of a simulation in seed order: their statistics (totals, an
    Accumulator), and, if they were kept, one array per field (winner: 0 A, 1 B, ...,
    -1 nobody; outcome: an index into OUTCOMES; cycle_start and cycle_period: -1 for
    none).  Without kept games, seeds and arrays are None."""
    rules: str
    engine: str
    jobs: int
    first_seed: int
    requested: int           # games asked for; more than games if interrupted
    seconds: float
    seeds: np.ndarray = None     # uint32, when the games were kept
    arrays: dict = None          # field name: array, one entry per game, when kept
    war_depths: np.ndarray = None    # [d]: rounds with d wars, summed over the games
    players: int = 2
    totals: object = None        # the Accumulator of the games, when streamed
    scheduler: object = None     # the Dask scheduler's address, for a run on a cluster

    def __repr__(self):
        return (f"<Simulation of {self.games:,} games of {self.rules} from seed "
                f"{self.first_seed}, {self.engine} engine"
                f"{'' if self.complete else ', interrupted'}>")

    def __getattr__(self, name):
        arrays = self.__dict__.get("arrays") or {}
        if name in arrays:
            return arrays[name]
        raise AttributeError(name)

    @property
    def kept(self):
        """True when the games' arrays were kept."""
        return self.arrays is not None

    @property
    def games(self):
        """How many games were played."""
        return len(self.seeds) if self.kept else self.totals.games

    @property
    def complete(self):
        """False when the run was interrupted before all its games were played."""
        return self.games == self.requested

    def statistics(self):
        """The Accumulator of the games: the streamed one, or one over the kept arrays."""
        if self.totals is not None:
            return self.totals
        depths = np.zeros(WAR_DEPTHS, np.int64) if self.war_depths is None else self.war_depths
        return accumulate(self.arrays, self.first_seed, 0, depths)

    def combined_digest(self):
        """One digest over all the games: sha256 of their 64-bit digests, little-endian,
        in seed order. The same for any jobs, chunks, workers and either engine."""
        return self.statistics().digest()

    def summary(self):
        """The summary as a JSON-ready dict (war_depths has int keys, as
        GameResult.war_depths has; JSON spells them as strings)."""
        counted = {
            "rules": self.rules, "games": self.games, "seed": self.first_seed,
            "engine": self.engine, "jobs": self.jobs, "scheduler": self.scheduler,
            "requested": self.requested, "complete": self.complete,
            "interrupted": not self.complete,       # the key pywar check uses
        }
        totals = self.statistics()
        if totals.games == 0:
            return {**counted, "games_per_second": 0.0, "digest": totals.digest()}
        speed = self.games / self.seconds if self.seconds > 0 else None
        return {**counted, **summarize(totals, self.players), "games_per_second": speed,
                "digest": totals.digest()}

    def plot(self, path, format=None):
        """Draw the histogram of game lengths and the war depths to path, or to a binary
        file in format ('png'; needs pywar[plot])."""
        from ..arguments import check_binary_file
        from .plot import plot_simulation
        plot_simulation(self, check_binary_file("path", path), format)

    def write_csv(self, path):
        """One row per game, with a header, to a path (written beside itself and put in
        place when complete: pywar.atomic) or a binary file; only for kept games
        (simulate(csv=...) streams the rows of any run)."""
        if not self.kept:
            raise ValueError("the games were not kept: pass csv= to pywar.simulate to "
                             "stream their rows, or keep_games=True")
        from ..arguments import check_binary_file
        from ..atomic import written
        path = check_binary_file("path", path)
        if hasattr(path, "write"):
            path.write(CSV_HEADER + csv_rows(self.seeds, self.arrays))
            return
        with written(path) as handle:
            handle.write(CSV_HEADER)
            handle.write(csv_rows(self.seeds, self.arrays))


class SimulationInterrupted(KeyboardInterrupt):
    """Ctrl-C during simulate(): .simulation holds the games finished from the first
    seed on, with no gap (a game after an unfinished one is left out)."""

    def __init__(self, simulation):
        super().__init__("simulation interrupted")
        self.simulation = simulation


def summarize(totals, players=2):
    """The statistics of an Accumulator of at least one game, as summary fields."""
    histograms, sums, games = totals.histograms, totals.sums, totals.games
    means = {name: sums[name] / games for name in FIELDS}
    stranded = histograms["stranded"]
    without_stranded = stranded.as_dict().get(0, 0)
    return {
        **round_statistics(totals), **shares(totals, players),
        "mean_ties": means["ties"], "mean_wars": means["wars"],
        "mean_battles": means["battles"],
        "longest_tie_streak": totals.maxima["longest_tie_streak"][0],
        "mean_stranded": means["stranded"], "games_with_stranded": games - without_stranded,
        **{key: value for name in SPREADS
           for key, value in ((f"mean_{name}", means[name]),
                              (f"max_{name}", totals.maxima[name][0]))},
        "war_depths": {depth: int(count) for depth, count
                       in enumerate(totals.war_depths.tolist()) if depth and count},
        "notable_games": notable_games(totals),
    }


def round_statistics(totals):
    """Mean (with a normal 95% interval), median, 90th and 99th percentiles, and the
    shortest and longest games with the first seeds that give them."""
    games, histogram = totals.games, totals.histograms["rounds"]
    total, squares = totals.sums["rounds"], totals.squares["rounds"]
    average = total / games
    interval = None                 # one game gives no standard error
    if games > 1:
        variance = Fraction(games * squares - total * total, games * (games - 1))
        margin = Z95 * math.sqrt(variance) / math.sqrt(games)
        interval = [average - margin, average + margin]
    (shortest, first_short), (longest, first_long) = totals.minima["rounds"], totals.maxima["rounds"]
    return {
        "mean_rounds": average,
        "ci95_rounds": interval,
        "median_rounds": median(histogram, games),
        "p90_rounds": percentile(histogram, games, 90),
        "p99_rounds": percentile(histogram, games, 99),
        "min_rounds": shortest, "min_seed": totals.seed_of(first_short),
        "max_rounds": longest, "max_seed": totals.seed_of(first_long),
    }


def shares(totals, players):
    """Wins by player (nobody: -1), their shares, and counts of each outcome."""
    names = PLAYER_NAMES[:players]
    slots = totals.winners.tolist()
    wins = {**{name: slots[seat + 1] for seat, name in enumerate(names)}, "nobody": slots[0]}
    outcomes = dict(zip(OUTCOMES, totals.outcomes.tolist()))
    return {"wins": wins,
            "win_shares": {key: count / totals.games for key, count in wins.items()},
            "outcomes": outcomes}


def notable_games(totals):
    """The notable games of the table (pywar.common.fields), each with the first seed that
    gives its maximum."""
    notable = {}
    for key, (name, unit) in NOTABLE.items():
        value, index = totals.maxima[name]
        notable[key] = {"seed": totals.seed_of(index), unit: value}
    return notable


NUL = 0                      # a byte that no cell holds: the padding removed at the end
WINNER_TEXT = np.array([[NUL]] + [[ord(name)] for name in PLAYER_NAMES], np.uint8)


def text_table(words):
    """Words as rows of ASCII bytes, padded with NUL to one width."""
    width = max(len(word) for word in words)
    return np.array([list(word.encode("ascii")) + [NUL] * (width - len(word))
                     for word in words], np.uint8)


OUTCOME_TEXT = text_table(OUTCOMES)


def digit_cells(values, blank_negative=False):
    """Non-negative integers as rows of ASCII decimal digits, leading zeros (and, if
    blank_negative, negative values) turned into NUL padding: in bulk, one column of
    digits at a time."""
    numbers = np.asarray(values, np.int64)
    largest = int(numbers.max()) if len(numbers) else 0
    width = len(str(max(largest, 0)))
    cells = np.empty((len(numbers), width), np.uint8)
    rest = np.maximum(numbers, 0)
    for column in range(width - 1, -1, -1):
        cells[:, column] = 48 + rest % 10
        rest = rest // 10
    started = np.maximum.accumulate(cells != 48, axis=1)
    started[:, -1] = True                       # a zero is written "0"
    cells[~started] = NUL
    if blank_negative:
        cells[numbers < 0] = NUL
    return cells


def hex_cells(digests):
    """64-bit digests as rows of 16 lowercase hex digits, in bulk."""
    packed = np.ascontiguousarray(digests, dtype=">u8").tobytes().hex().encode("ascii")
    return np.frombuffer(packed, np.uint8).reshape(-1, 16)


def csv_rows(seeds, arrays):
    """The CSV rows of some games (no header), in bulk: seed, winner (blank for nobody),
    outcome, the counts, cycle_start and cycle_period (blank for none), the digest in hex;
    lines end in CRLF, as Python's csv module writes them.  Every cell is a block of
    bytes padded with NUL; the blocks are laid side by side with the commas, and the
    padding is dropped."""
    count = len(seeds)
    if count == 0:
        return b""
    cells = [digit_cells(seeds), WINNER_TEXT[np.asarray(arrays["winner"], np.int64) + 1],
             OUTCOME_TEXT[np.asarray(arrays["outcome"], np.int64)]]
    cells += [digit_cells(arrays[name]) for name in COUNTS]
    cells += [digit_cells(arrays[name], blank_negative=True)
              for name in ("cycle_start", "cycle_period")]
    cells.append(hex_cells(arrays["digest"]))
    comma = np.full((count, 1), ord(","), np.uint8)
    pieces = [piece for cell in cells for piece in (cell, comma)]
    pieces[-1] = np.full((count, 2), [13, 10], np.uint8)       # CRLF for the last comma
    lines = np.hstack(pieces)
    return lines[lines != NUL].tobytes()
