"""Published counts that pywar exact reproduces (the project's notes on published
anchors, sections 1 and 2): OEIS A400411 (endless deals of n distinct cards, winner-first), Okwor's
loser-first counts and longest games, Spivey's and Delahaye & Mathieu's cycles, the
mean lengths, and Norvig's probabilities that A wins every battle.

A deck of n distinct cards is nx1: ranks 0 .. n-1, the higher wins; deals are the n!
orderings, dealt alternately from position 0, A first (docs/rules.md section 14)."""

import pytest

import pywar
from conftest import needs_c
from pywar.exact import enumeration as exhaustive

pytestmark = needs_c

# n: (endless deals, longest game that ends, {cycle length: deals}, distinct cycles,
#     mean length of the games that end, to 4 decimals or None where unpublished)
WINNER_FIRST = {
    2: (0, 1, {}, 0, None), 3: (0, 3, {}, 0, 1.6667), 4: (0, 6, {}, 0, 3.3333),
    5: (30, 8, {6: 30}, 2, 3.6111), 6: (0, 15, {}, 0, 6.4667),
    7: (2_304, 15, {8: 2_304}, 52, 5.7474), 8: (0, 26, {}, 0, 10.5274),
    9: (218_680, 28, {20: 98_503, 30: 120_177}, 336, 8.2218),
    10: (395_940, 49, {60: 395_940}, 48, 14.4708),
}
LOSER_FIRST = {               # n: (endless deals, longest, cycle lengths or None, distinct)
    2: (0, 1, {}, 0), 3: (2, 2, {2: 2}, 1), 4: (0, 6, {}, 0), 5: (64, 6, {4: 64}, 8),
    6: (72, 17, {12: 72}, 2), 7: (3_363, 12, {6: 2_715, 12: 648}, 108),
    8: (0, 38, {}, 0), 9: (273_156, 22, {8: 125_454, 24: 147_702}, 2_608),
    10: (322_940, 101, None, None),
}


def distinct_cards(n, pickup, jobs=None):
    """Every deal of n distinct cards, queue piles, the given pickup."""
    return pywar.exact_counts("smu", deck=f"{n}x1", piles="queue", pickup=pickup, jobs=jobs)


@pytest.mark.parametrize("n", WINNER_FIRST)
def test_a400411_and_the_cycles_under_winner_first(n):
    endless, longest, lengths, distinct, mean = WINNER_FIRST[n]
    result = distinct_cards(n, "winner-first")
    assert result.cycles == endless
    assert result.longest["rounds"] == longest
    assert result.cycle_lengths == lengths
    assert result.distinct_cycles == distinct
    assert result.ended + result.cycles == result.orderings
    if mean is not None:
        assert abs(result.mean_rounds - mean) < 5e-5


@pytest.mark.parametrize("n", LOSER_FIRST)
def test_okwors_counts_under_loser_first(n):
    endless, longest, lengths, distinct = LOSER_FIRST[n]
    result = distinct_cards(n, "loser-first")
    assert (result.cycles, result.longest["rounds"]) == (endless, longest)
    if lengths is not None:
        assert (result.cycle_lengths, result.distinct_cycles) == (lengths, distinct)


def test_a_deck_of_one_card_is_not_a_deck():
    """A400411's a(1) = 0: pywar needs a card for each player, so 1x1 is refused."""
    with pytest.raises(ValueError, match="too few cards"):
        pywar.exact_counts("smu", deck="1x1", piles="queue", pickup="winner-first")


def test_the_longest_games_replay_in_the_engine():
    """The longest game of n = 5, 7 and 9 under winner-first (Delahaye and Mathieu's
    records: 8, 15 and 28 rounds), its deal given to pywar.play."""
    for n, rounds in [(5, 8), (7, 15), (9, 28)]:
        result = distinct_cards(n, "winner-first")
        game = pywar.play(0, "smu", deck=f"{n}x1", piles="queue", pickup="winner-first",
                          deal=result.longest["deal"])
        assert (game.outcome, game.rounds) == ("win", rounds)


@pytest.mark.parametrize("deck, sweeps", [
    ("2x1", "1/2"), ("4x1", "1/4"), ("6x1", "1/8"), ("8x1", "1/16"),
    ("2x2", "1/6"), ("2x3", "1/20"), ("3x2", "1/15"), ("2x4", "1/70"), ("4x2", "1/28"),
])
def test_norvigs_chance_that_a_wins_every_battle(deck, sweeps):
    """Norvig's pytudes war.ipynb: dealt alternately, the chance that A wins all its
    battles (0.16667 for 2x2, 0.01429 for 2x4, 0.03571 for 4x2, ...).  A game that A
    wins in n/2 rounds with no tie is exactly such a sweep."""
    from fractions import Fraction
    rules = pywar.make_rules("smu", deck=deck, piles="queue", pickup="winner-first")
    games = exhaustive.listing(exhaustive.Part(rules, ()))
    cards = sum(exhaustive.remaining(rules, ()))
    swept = sum(1 for winner, outcome, rounds, battles, ties, wars, period in games
                if winner == 0 and rounds == cards // 2 and ties == 0)
    assert Fraction(swept, len(games)) == Fraction(sweeps)


@pytest.mark.slow
def test_a400411_for_11_cards():
    result = distinct_cards(11, "winner-first")
    assert result.cycles == 28_223_770
    assert result.cycle_lengths == {12: 19_702_562, 24: 8_521_208}
    assert result.distinct_cycles == 55_592
    assert result.longest["rounds"] == 41
    assert abs(result.mean_rounds - 10.8697) < 5e-5


@pytest.mark.slow
def test_loser_first_for_11_cards():
    result = distinct_cards(11, "loser-first")
    assert (result.cycles, result.longest["rounds"]) == (32_668_555, 34)


@pytest.mark.slow
@pytest.mark.parametrize("pickup, endless, longest", [("winner-first", 0, 74),
                                                      ("loser-first", 23_880_636, 118)])
def test_12_cards(pickup, endless, longest):
    result = distinct_cards(12, pickup)
    assert result.symmetry == "player-swap"
    assert (result.cycles, result.longest["rounds"]) == (endless, longest)
