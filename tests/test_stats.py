"""The summary's statistics against plain computations written here: loops over lists,
no NumPy, and the README's definitions (the sample standard deviation, the median as
the middle value or the mean of the two middle ones, the percentile as the smallest
length that at least that share of games do not exceed, the digest as sha256 over the
games' digests packed little-endian)."""

import hashlib
import json
import math
import re
import statistics
import struct

import numpy as np
import pytest

import pywar
from pywar import cli

Z95 = statistics.NormalDist().inv_cdf(0.975)
OUTCOME_NAMES = ("win", "both-lose", "cycle", "capped", "draw")
DTYPES = {"rounds": "int32", "battles": "int32", "ties": "int32", "wars": "int32",
          "longest_tie_streak": "int32", "stranded": "int32", "winner": "int8",
          "outcome": "int8", "cycle_start": "int32", "cycle_period": "int32",
          "digest": "uint64", "lead_changes": "int32", "biggest_pot": "int32",
          "comeback": "int32", "deepest_war": "int32", "refills": "int32",
          "war_rounds": "int32"}
PLAYER_NAMES = "ABCDEFGH"
SPREAD = ("lead_changes", "biggest_pot", "comeback", "refills", "war_rounds")   # mean, most
# Hand-built war depths: [d] is the rounds that had d wars (index 0 unused).
WAR_DEPTHS = [0, 412, 37, 5, 0, 1] + [0] * 58


def plain_mean(values):
    """The arithmetic mean, summed in a loop."""
    total = 0
    for value in values:
        total += value
    return total / len(values)


def plain_sd(values):
    """The sample standard deviation (n - 1 in the denominator); 0 for one value."""
    if len(values) < 2:
        return 0.0
    centre = plain_mean(values)
    squares = 0.0
    for value in values:
        squares += (value - centre) ** 2
    return math.sqrt(squares / (len(values) - 1))


def plain_median(values):
    """The middle value, or the mean of the two middle values."""
    ordered = sorted(values)
    half = len(ordered) // 2
    if len(ordered) % 2:
        return ordered[half]
    return (ordered[half - 1] + ordered[half]) / 2


def plain_percentile(values, percent):
    """The smallest value that at least percent% of the values do not exceed."""
    for candidate in sorted(values):
        at_most = sum(1 for value in values if value <= candidate)
        if at_most * 100 >= percent * len(values):
            return candidate
    raise AssertionError("unreachable")


def first_seed_of(values, seeds, target):
    """The seed of the first game whose value is target."""
    for value, seed in zip(values, seeds):
        if value == target:
            return seed
    raise AssertionError("unreachable")


def plain_digest(digests):
    """sha256 of the 64-bit digests, packed little-endian in seed order."""
    return hashlib.sha256(struct.pack(f"<{len(digests)}Q", *digests)).hexdigest()


def plain_max_and_seed(games, seeds, name):
    """The greatest value of a field, and the seed of the first game that has it."""
    values = [game[name] for game in games]
    return max(values), first_seed_of(values, seeds, max(values))


def plain_new_statistics(seeds, games, war_depths):
    """The means and maxima of lead changes, biggest pot, comeback, refills and war rounds, the war
    depths as a dict, and the notable games, worked out here."""
    expected = {}
    for name in SPREAD:
        expected[f"mean_{name}"] = plain_mean([game[name] for game in games])
        expected[f"max_{name}"] = max(game[name] for game in games)
    expected["war_depths"] = {depth: rounds for depth, rounds in enumerate(war_depths)
                              if depth >= 1 and rounds > 0}
    notable = {}
    for key, name, unit in (("longest", "rounds", "rounds"), ("deepest_war", "deepest_war", "wars"),
                            ("biggest_comeback", "comeback", "cards"),
                            ("most_lead_changes", "lead_changes", "changes")):
        value, seed = plain_max_and_seed(games, seeds, name)
        notable[key] = {"seed": seed, unit: value}
    expected["notable_games"] = notable
    return expected


def plain_summary(seeds, games, war_depths=WAR_DEPTHS, players=2):
    """The summary of games (dicts of the counted fields), worked out here."""
    count = len(games)
    rounds = [game["rounds"] for game in games]
    centre = plain_mean(rounds)
    margin = Z95 * plain_sd(rounds) / math.sqrt(count) if count > 1 else None
    wins = {**{PLAYER_NAMES[seat]: 0 for seat in range(players)}, "nobody": 0}
    outcomes = dict.fromkeys(OUTCOME_NAMES, 0)
    for game in games:
        wins["nobody" if game["winner"] == -1 else PLAYER_NAMES[game["winner"]]] += 1
        outcomes[OUTCOME_NAMES[game["outcome"]]] += 1
    return {
        "games": count,
        "mean_rounds": centre, "ci95_rounds": None if margin is None else [centre - margin, centre + margin],
        "median_rounds": plain_median(rounds),
        "p90_rounds": plain_percentile(rounds, 90), "p99_rounds": plain_percentile(rounds, 99),
        "min_rounds": min(rounds), "min_seed": first_seed_of(rounds, seeds, min(rounds)),
        "max_rounds": max(rounds), "max_seed": first_seed_of(rounds, seeds, max(rounds)),
        "wins": wins, "win_shares": {key: value / count for key, value in wins.items()},
        "outcomes": outcomes,
        "mean_ties": plain_mean([game["ties"] for game in games]),
        "mean_wars": plain_mean([game["wars"] for game in games]),
        "mean_battles": plain_mean([game["battles"] for game in games]),
        "longest_tie_streak": max(game["longest_tie_streak"] for game in games),
        "mean_stranded": plain_mean([game["stranded"] for game in games]),
        "games_with_stranded": sum(1 for game in games if game["stranded"] > 0),
        **plain_new_statistics(seeds, games, war_depths),
        "digest": plain_digest([game["digest"] for game in games]),
    }


def approximately(expected):
    """expected, with its floats (and lists of floats) compared to 1e-12."""
    loose = (float, list)
    return {key: pytest.approx(value, rel=1e-12) if isinstance(value, loose) else
            {inner: pytest.approx(share, rel=1e-12) for inner, share in value.items()}
            if key == "win_shares" else value
            for key, value in expected.items()}


# Hand-built game lengths.  ROUNDS_20 sorted is
#   3 3 5 8 9 11 12 14 17 20 | 21 23 26 30 31 36 40 44 51 60
# so its median is (20 + 21) / 2 = 20.5, not the 21 at position n // 2; its p90 is the
# 18th smallest, 44 (18 of 20 games do not exceed it); its p99 the 20th, 60; its
# shortest game, 3, comes twice, first at index 4.  With a 19 added (21 games) the
# median is the 11th smallest, 20, and p90 the 19th (19 >= 18.9), still 44.
# SQUARES_25 is 1, 4, ..., 625 in a shuffled order: median 13^2 = 169, p90 the 23rd
# smallest (22.5 rounds up to 23), 529, and p99 the 25th, 625; an interpolating
# percentile would give 466 and 564 instead.
ROUNDS_20 = [31, 12, 60, 5, 3, 44, 20, 9, 23, 8, 51, 14, 36, 21, 26, 40, 3, 17, 30, 11]
SQUARES_25 = [((i * 7) % 25 + 1) ** 2 for i in range(25)]


def hand_built_games(rounds):
    """Games with the given lengths and every other field varied, winners and outcomes
    of every kind, some stranded cards and digests across the whole 64-bit range."""
    games = []
    for i, length in enumerate(rounds):
        outcome = (0, 0, 1, 2, 3)[i % 5]
        winner = {0: i % 2, 1: -1, 2: -1, 3: (0, -1, 1)[i % 3]}[outcome]
        games.append({
            "rounds": length, "battles": length + i % 4, "ties": i % 4 + i % 3,
            "wars": i % 4, "longest_tie_streak": (i * 7) % 5, "stranded": (0, 2, 0, 0, 4)[i % 5],
            "winner": winner, "outcome": outcome, "cycle_start": -1, "cycle_period": -1,
            "digest": (0x9E3779B97F4A7C15 * (i + 1)) % 2 ** 64,
            "lead_changes": (i * 5) % 7, "biggest_pot": 2 + (i * 3) % 11,
            "comeback": (i * 11) % 13 if outcome == 0 else 0, "deepest_war": (i * 2) % 3,
            "refills": length // 9, "war_rounds": (i * 3) % 5})
    return games


def simulation_of(games, first_seed, players=2):
    """A Simulation built directly from hand-built games, with seeds from first_seed."""
    seeds = [(first_seed + i) % 2 ** 32 for i in range(len(games))]
    arrays = {name: np.array([game[name] for game in games], dtype)
              for name, dtype in DTYPES.items()}
    return pywar.Simulation(rules="smu", engine="c", jobs=2, first_seed=first_seed,
                            requested=len(games), seconds=0.5,
                            seeds=np.array(seeds, np.uint32), arrays=arrays,
                            war_depths=np.array(WAR_DEPTHS, np.int64), players=players), seeds


CASES = {
    "20 games": (ROUNDS_20, 2 ** 32 - 7),
    "21 games": (ROUNDS_20 + [19], 100),
    "25 games": (SQUARES_25, 2 ** 31),
    "2 games": ([30, 31], 5),
    "1 game": ([42], 2 ** 32 - 1),
}


def test_the_hand_built_arrays_are_what_the_comment_says():
    ordered = sorted(ROUNDS_20)
    assert ordered == [3, 3, 5, 8, 9, 11, 12, 14, 17, 20, 21, 23, 26, 30, 31, 36, 40, 44, 51, 60]
    assert ROUNDS_20.index(3) == 4
    assert plain_median(ROUNDS_20) == 20.5 != ordered[len(ordered) // 2]
    assert plain_median(ROUNDS_20 + [19]) == 20
    assert (plain_percentile(ROUNDS_20, 90), plain_percentile(ROUNDS_20, 99)) == (44, 60)
    assert (plain_percentile(ROUNDS_20 + [19], 90), plain_percentile(ROUNDS_20 + [19], 99)) \
        == (44, 60)
    assert plain_median([30, 31]) == 30.5
    assert sorted(SQUARES_25) == [k * k for k in range(1, 26)]
    assert (plain_median(SQUARES_25), plain_percentile(SQUARES_25, 90),
            plain_percentile(SQUARES_25, 99)) == (169, 529, 625)


@pytest.mark.parametrize("case", list(CASES))
def test_every_summary_field_of_hand_built_games(case):
    rounds, first_seed = CASES[case]
    games = hand_built_games(rounds)
    simulation, seeds = simulation_of(games, first_seed)
    expected = {"rules": "smu", "seed": first_seed, "engine": "c", "jobs": 2,
                "scheduler": None, "requested": len(games), "complete": True,
                "interrupted": False,
                "games_per_second": len(games) / 0.5, **plain_summary(seeds, games)}
    assert simulation.summary() == approximately(expected)


def test_the_combined_digest_is_sha256_of_the_packed_digests():
    games = hand_built_games(ROUNDS_20)
    simulation, _ = simulation_of(games, 0)
    assert simulation.combined_digest() == plain_digest([game["digest"] for game in games])


TABLE_PATTERNS = {
    "games": r"games +([\d,]+) of (\S+) \(seeds ([\d,]+) to ([\d,]+)\), (\w+) engine, "
             r"(\d+) job\(s\)",
    "rounds": r"rounds +mean ([\d,.]+) \(95% CI ([\d,.]+) to ([\d,.]+)\), median ([\d,.]+), "
              r"p90 ([\d,]+), p99 ([\d,]+)",
    "extremes": r"shortest ([\d,]+) \(seed (\d+)\), longest ([\d,]+) \(seed (\d+)\)",
    "winners": r"winners +A ([\d.]+)%, B ([\d.]+)%, nobody ([\d.]+)%",
    "outcomes": r"outcomes +win ([\d,]+), both-lose ([\d,]+), cycle ([\d,]+), capped ([\d,]+), "
                r"draw ([\d,]+)",
    "per game": r"per game +ties ([\d.]+), wars ([\d.]+), battles ([\d.]+), "
                r"stranded cards ([\d.]+) \(([\d,]+) games\)",
    "swings": r"swings +lead changes ([\d.]+) \(most ([\d,]+)\), biggest pot ([\d.]+) "
              r"\(most ([\d,]+)\)\n +comeback ([\d.]+) \(most ([\d,]+)\), refills ([\d.]+) "
              r"\(most ([\d,]+)\)\n +war rounds ([\d.]+) \(most ([\d,]+)\)",
    "war depths": r"war depths +(.*) \(rounds with so many wars\)",
    "notable": r"notable +longest seed (\d+) \(([\d,]+) rounds\), deepest war seed (\d+) "
               r"\((\d+) wars\)\n +biggest comeback seed (\d+) \((\d+) cards\), most lead "
               r"changes seed (\d+) \(([\d,]+)\)",
    "digest": r"digest +([0-9a-f]{64})",
}


def table_numbers(table):
    """The numbers printed in each line of the summary table, as floats (or text)."""
    numbers = {}
    for name, pattern in TABLE_PATTERNS.items():
        match = re.search(pattern, table)
        assert match, (name, table)
        numbers[name] = [float(cell.replace(",", "")) if re.fullmatch(r"[\d,.]+", cell)
                         else cell for cell in match.groups()]
    return numbers


def assert_printed(printed, values, decimals):
    """Each printed number is its value, rounded to decimals places."""
    assert len(printed) == len(values)
    for shown, value in zip(printed, values):
        assert abs(shown - value) <= 0.5 * 10 ** -decimals + 1e-9, (shown, value)


def assert_table_shows(table, expected, seeds, rules):
    """The summary table prints the expected values, to the places it shows."""
    numbers = table_numbers(table)
    count = expected["games"]
    assert numbers["games"][:5] == [count, rules, seeds[0], seeds[-1], "c"]
    low, high = expected["ci95_rounds"]
    assert_printed(numbers["rounds"][:4], [expected["mean_rounds"], low, high,
                                           expected["median_rounds"]], 1)
    assert numbers["rounds"][4:] == [expected["p90_rounds"], expected["p99_rounds"]]
    assert numbers["extremes"] == [expected["min_rounds"], expected["min_seed"],
                                   expected["max_rounds"], expected["max_seed"]]
    shares = expected["win_shares"]
    assert_printed(numbers["winners"], [100 * shares[key] for key in ("A", "B", "nobody")], 2)
    assert numbers["outcomes"] == [expected["outcomes"][name] for name in OUTCOME_NAMES]
    assert_printed(numbers["per game"][:2], [expected["mean_ties"], expected["mean_wars"]], 2)
    assert_printed(numbers["per game"][2:3], [expected["mean_battles"]], 1)
    assert_printed(numbers["per game"][3:4], [expected["mean_stranded"]], 3)
    assert numbers["per game"][4] == expected["games_with_stranded"]
    swings = numbers["swings"]
    for i, name in enumerate(SPREAD):
        assert_printed(swings[2 * i:2 * i + 1], [expected[f"mean_{name}"]], 2)
        assert swings[2 * i + 1] == expected[f"max_{name}"]
    assert numbers["war depths"] == [", ".join(f"{depth}: {rounds:,}" for depth, rounds
                                               in expected["war_depths"].items())]
    notable = expected["notable_games"]
    assert numbers["notable"] == [
        notable["longest"]["seed"], notable["longest"]["rounds"],
        notable["deepest_war"]["seed"], notable["deepest_war"]["wars"],
        notable["biggest_comeback"]["seed"], notable["biggest_comeback"]["cards"],
        notable["most_lead_changes"]["seed"], notable["most_lead_changes"]["changes"]]
    assert numbers["digest"] == [expected["digest"]]


def cli_output(capsys, *argv):
    """pywar simulate argv, in this process: its stdout, checked to exit 0."""
    status = cli.main(["simulate", *argv])
    out, err = capsys.readouterr()
    assert (status, err) == (0, ""), err
    return out


@pytest.mark.parametrize("case", ["20 games", "21 games"])
def test_the_command_prints_the_hand_built_values(capsys, monkeypatch, case):
    rounds, first_seed = CASES[case]
    games = hand_built_games(rounds)
    simulation, seeds = simulation_of(games, first_seed)
    monkeypatch.setattr(pywar, "simulate", lambda *args, **kwargs: simulation)
    expected = plain_summary(seeds, games)
    argv = ["-n", str(len(games)), "--seed", str(first_seed)]
    printed = json.loads(cli_output(capsys, *argv, "--json"))
    spelled = json.loads(json.dumps(expected))          # JSON's keys are strings
    assert printed == approximately({**printed, **spelled})
    assert_table_shows(cli_output(capsys, *argv), expected, seeds, "smu")


def played_games(seeds, rules):
    """Each seed's game, played one by one through pywar.play, as summary fields, and
    the war depths summed over them."""
    games, war_depths = [], [0] * 64
    for seed in seeds:
        game = pywar.play(seed, rules)
        games.append({"rounds": game.rounds, "battles": game.battles, "ties": game.ties,
                      "wars": game.wars, "longest_tie_streak": game.longest_tie_streak,
                      "stranded": game.stranded, "digest": game.digest,
                      "winner": {"A": 0, "B": 1, None: -1}[game.winner],
                      "outcome": OUTCOME_NAMES.index(game.outcome),
                      "lead_changes": game.lead_changes, "biggest_pot": game.biggest_pot,
                      "comeback": game.comeback, "deepest_war": game.deepest_war,
                      "refills": game.refills, "war_rounds": game.war_rounds})
        for depth, rounds in game.war_depths.items():
            war_depths[depth] += rounds
    return games, war_depths


@pytest.mark.parametrize("rules, first_seed, count", [("smu", 2 ** 32 - 150, 300),
                                                      ("lehigh", 77, 200)])
def test_the_command_prints_the_values_of_the_games_played(capsys, rules, first_seed, count):
    seeds = [(first_seed + i) % 2 ** 32 for i in range(count)]
    expected = plain_summary(seeds, *played_games(seeds, rules))
    argv = ["-n", str(count), "--seed", str(first_seed), "--rules", rules]
    printed = json.loads(cli_output(capsys, *argv, "--json"))
    spelled = json.loads(json.dumps(expected))          # JSON's keys are strings
    assert printed == approximately({**printed, **spelled})
    assert_table_shows(cli_output(capsys, *argv), expected, seeds, rules)
