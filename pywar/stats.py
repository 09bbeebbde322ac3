"""A simulation's results: one NumPy array per counted field, and their summary."""

import csv
import hashlib
from dataclasses import dataclass

import numpy as np

from .rules import OUTCOMES

PLAYERS = ("A", "B")
WINNER_NAMES = {0: "A", 1: "B", -1: None}
Z95 = 1.959963984540054        # the normal distribution's two-sided 95% point
CSV_COLUMNS = ("seed", "winner", "outcome", "rounds", "battles", "ties", "wars",
               "longest_tie_streak", "stranded", "cycle_start", "cycle_period", "digest")


@dataclass
class Simulation:
    """The games of a simulation, in seed order, as arrays (winner: 0 A, 1 B, -1 nobody;
    outcome: an index into OUTCOMES; cycle_start and cycle_period: -1 for none)."""
    rules: str
    engine: str
    jobs: int
    first_seed: int
    requested: int           # games asked for; more than len(seeds) if interrupted
    seconds: float
    seeds: np.ndarray        # uint32
    arrays: dict             # field name: array, one entry per game

    def __repr__(self):
        return (f"<Simulation of {self.games:,} games of {self.rules} from seed "
                f"{self.first_seed}, {self.engine} engine"
                f"{'' if self.complete else ', interrupted'}>")

    def __getattr__(self, name):
        arrays = self.__dict__.get("arrays", {})
        if name in arrays:
            return arrays[name]
        raise AttributeError(name)

    @property
    def games(self):
        """How many games were played."""
        return len(self.seeds)

    @property
    def complete(self):
        """False when the run was interrupted before all its games were played."""
        return self.games == self.requested

    def combined_digest(self):
        """One digest over all the games: sha256 of their 64-bit digests, little-endian,
        in seed order. The same for any jobs and either engine."""
        data = np.ascontiguousarray(self.arrays["digest"], dtype="<u8").tobytes()
        return hashlib.sha256(data).hexdigest()

    def summary(self):
        """The summary as a JSON-ready dict."""
        rounds = self.arrays["rounds"]
        counted = {
            "rules": self.rules, "games": self.games, "seed": self.first_seed,
            "engine": self.engine, "jobs": self.jobs, "complete": self.complete,
        }
        if self.games == 0:
            return {**counted, "games_per_second": 0.0, "digest": self.combined_digest()}
        return {**counted, **round_statistics(rounds, self.seeds), **self.shares(),
                "mean_ties": mean(self.arrays["ties"]),
                "mean_wars": mean(self.arrays["wars"]),
                "mean_battles": mean(self.arrays["battles"]),
                "longest_tie_streak": int(self.arrays["longest_tie_streak"].max()),
                "mean_stranded": mean(self.arrays["stranded"]),
                "games_with_stranded": int(np.count_nonzero(self.arrays["stranded"])),
                "games_per_second": self.games / self.seconds if self.seconds > 0 else None,
                "digest": self.combined_digest()}

    def shares(self):
        """Wins by player (None: nobody), their shares, and counts of each outcome."""
        winner, outcome = self.arrays["winner"], self.arrays["outcome"]
        wins = {"A": int(np.count_nonzero(winner == 0)), "B": int(np.count_nonzero(winner == 1)),
                "nobody": int(np.count_nonzero(winner == -1))}
        outcomes = {name: int(np.count_nonzero(outcome == index))
                    for index, name in enumerate(OUTCOMES)}
        return {"wins": wins, "win_shares": {key: count / self.games for key, count in wins.items()},
                "outcomes": outcomes}

    def plot(self, path):
        """Draw the histogram of game lengths to path (needs pywar[plot])."""
        from .plot import plot_lengths
        plot_lengths(self, path)

    def write_csv(self, path):
        """One row per game, with a header."""
        columns = [self.seeds] + [self.arrays[name] for name in CSV_COLUMNS[1:]]
        with open(path, "w", newline="") as handle:
            writer = csv.writer(handle)
            writer.writerow(CSV_COLUMNS)
            for seed, winner, outcome, *counts, digest in zip(*(c.tolist() for c in columns)):
                writer.writerow([seed, WINNER_NAMES[winner] or "", OUTCOMES[outcome],
                                 *[("" if value < 0 else value) for value in counts],
                                 f"{digest:016x}"])


def mean(values):
    """The mean of an array as a float."""
    return float(np.mean(values, dtype=np.float64))


def round_statistics(rounds, seeds):
    """Mean (with a normal 95% interval), median, 90th and 99th percentiles, and the
    shortest and longest games with the first seeds that give them."""
    count = len(rounds)
    average = mean(rounds)
    spread = float(np.std(rounds, ddof=1)) if count > 1 else 0.0
    margin = Z95 * spread / np.sqrt(count)
    shortest, longest = int(np.argmin(rounds)), int(np.argmax(rounds))
    return {
        "mean_rounds": average,
        "ci95_rounds": [average - margin, average + margin],
        "median_rounds": float(np.median(rounds)),
        "p90_rounds": int(np.percentile(rounds, 90, method="inverted_cdf")),
        "p99_rounds": int(np.percentile(rounds, 99, method="inverted_cdf")),
        "min_rounds": int(rounds[shortest]), "min_seed": int(seeds[shortest]),
        "max_rounds": int(rounds[longest]), "max_seed": int(seeds[longest]),
    }
