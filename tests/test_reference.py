"""Fidelity: the smu rules reproduce the SMU reference program byte for byte."""

import hashlib

import pytest

import pywar
from conftest import needs_c, reference_digests, reference_transcript

ENGINES = [pytest.param("c", marks=needs_c), "python"]


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("seed", [1, 1553, 17455])
def test_transcript_is_the_reference_one(seed, engine):
    game = pywar.play(seed, "smu", engine=engine, transcript=True)
    assert game.transcript == reference_transcript(seed)


@pytest.mark.parametrize("engine", ENGINES)
def test_digests_of_seeds_0_to_100(engine):
    for seed, sha, rounds in reference_digests():
        game = pywar.play(seed, engine=engine, transcript=True)
        assert hashlib.sha256(game.transcript.encode()).hexdigest() == sha, seed
        assert game.rounds == rounds, seed


@pytest.mark.parametrize("engine", ENGINES)
def test_reference_facts_of_seed_1(engine):
    """The README's facts: 450 rounds, B loses, 2 cards stranded, 28 + 22 left."""
    game = pywar.play(1, engine=engine)
    assert (game.rounds, game.winner, game.outcome, game.stranded) == (450, "A", "win", 2)
    assert game.piles == {"A": {"to_play": 28, "played": 22},
                          "B": {"to_play": 0, "played": 0}}


@pytest.mark.parametrize("engine", ENGINES)
def test_seed_0_is_seed_1(engine):
    zero = pywar.play(0, engine=engine, transcript=True)
    one = pywar.play(1, engine=engine, transcript=True)
    assert zero.transcript == one.transcript and zero.digest == one.digest


@pytest.mark.parametrize("engine", ENGINES)
def test_five_ties_in_a_row_in_seed_1553(engine):
    game = pywar.play(1553, engine=engine, transcript=True)
    rounds = game.transcript.split("======== Round ")[1:]
    ties_per_round = [text.count("There is a tie") for text in rounds]
    assert game.longest_tie_streak == max(ties_per_round) == 5
    assert game.ties == sum(ties_per_round)
    assert len(rounds) == game.rounds


@needs_c
def test_statistics_of_seeds_0_to_59999():
    """The reference's figures over seeds 0..59999 (its README)."""
    games = [pywar.play(seed, engine="c") for seed in range(60000)]
    rounds = [game.rounds for game in games]
    winners = [game.winner for game in games]
    assert min(rounds) == 29 and max(rounds) == 5424
    assert round(sum(rounds) / len(rounds), 1) == 572.5
    assert (winners.count("A"), winners.count("B"), winners.count(None)) == (30104, 29896, 0)
    assert max(game.longest_tie_streak for game in games) == 5
