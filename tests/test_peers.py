"""Other programs' published figures, reproduced by matching their rules with pywar's
dimensions (docs/rules.md, 12.1).  Each bound is a number of standard errors computed
here from the games played, so a test fails only on a real difference."""

import math

import numpy as np
import pytest

import pywar
from conftest import needs_c
from pywar.rules import PEERS

pytestmark = needs_c

RUSTWAR, KBWAR = PEERS["rustwar"], PEERS["kbwar"]     # over smu (docs/rules.md 12.1)


def finished_mean(simulation):
    """The mean length of the games that ended, and its standard error."""
    rounds = simulation.arrays["rounds"][simulation.arrays["outcome"] <= 1].astype(float)
    return rounds.mean(), rounds.std(ddof=1) / math.sqrt(len(rounds))


def unfinished_per_finished(simulation):
    """Games that did not end (a cycle or the cap) per game that ended, and its
    standard error (the binomial error of the fraction, carried to the ratio)."""
    outcome = simulation.arrays["outcome"]
    unfinished = np.count_nonzero(outcome >= 2) / len(outcome)
    error = math.sqrt(unfinished * (1 - unfinished) / len(outcome))
    return unfinished / (1 - unfinished), error / (1 - unfinished) ** 2


@pytest.mark.parametrize("games", [20_000, pytest.param(100_000, marks=pytest.mark.slow)])
def test_rustwar_unshuffled(games):
    """rustwar's README: 565.19 rounds on average over the games that ended, and 8.15%
    'indeterminate' games, counted per finished game, of 100,000 (a second run of its
    own gave 563.28 and 8.10%)."""
    simulation = pywar.simulate(games, "smu", seed=0, refill="keep", **RUSTWAR)
    mean, error = finished_mean(simulation)
    assert abs(mean - 565.19) < 4 * math.hypot(error, 550 / math.sqrt(100_000))
    ratio, ratio_error = unfinished_per_finished(simulation)
    assert abs(ratio - 0.0815) < 4 * math.hypot(ratio_error, 0.0009)


def test_rustwar_shuffled():
    """rustwar's README: 233.32 and 232.75 rounds in two runs of 100,000, none unfinished."""
    simulation = pywar.simulate(20_000, "smu", seed=0, refill="shuffle", **RUSTWAR)
    mean, error = finished_mean(simulation)
    assert abs(mean - 233.0) < 4 * math.hypot(error, 0.6)
    assert np.count_nonzero(simulation.arrays["outcome"] >= 2) == 0


def test_kbwar_shuffled():
    """kbWar's Results.md: 270.62 turns on average over 1,000,000 games, 16.93 wars a
    game, and 15.96 rounds with a war (its single to sextuple wars, added up)."""
    simulation = pywar.simulate(20_000, "smu", seed=0, **KBWAR)
    rounds = simulation.arrays["rounds"].astype(float)
    error = rounds.std(ddof=1) / math.sqrt(len(rounds))
    assert abs(rounds.mean() - 270.62) < 4 * math.hypot(error, 0.22)
    wars = simulation.arrays["wars"].astype(float)
    assert abs(wars.mean() - 16.93) < 4 * wars.std(ddof=1) / math.sqrt(len(wars))
    # its single, double, triple ... wars a game added up: rounds with a war (war_rounds)
    war_rounds = simulation.arrays["war_rounds"].astype(float)
    kbwar = 15.053125 + 0.860591 + 0.047073 + 0.00245 + 0.000087 + 0.000007
    assert abs(war_rounds.mean() - kbwar) < 4 * war_rounds.std(ddof=1) / math.sqrt(len(war_rounds))


def test_game_length_hardly_grows_with_the_players():
    """Adjei, Krishnan and Mossel (arXiv 2409.05201): with n cards the game lasts of the
    order of n^2 rounds for any number of players.  With 52 cards and kbWar's rules, 3 to
    8 players play games of about the same length, within 15% of two players'."""
    means = [pywar.simulate(4_000, "smu", seed=0, players=players, **KBWAR).arrays["rounds"].mean()
             for players in (2, 3, 5, 8)]
    assert max(means) / min(means) < 1.15
