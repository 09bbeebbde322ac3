"""Published counts that pywar exact reproduces (the project's notes on published
anchors, sections 1 and 2): OEIS A400411 (endless deals of n distinct cards, winner-first), Okwor's
loser-first counts and longest games, Spivey's and Delahaye & Mathieu's cycles, the
mean lengths, Norvig's probabilities that A wins every battle, and Delahaye & Mathieu's
tables of open war with 4 suits (docs/exact.md).

A deck of n distinct cards is nx1: ranks 0 .. n-1, the higher wins; deals are the n!
orderings, dealt alternately from position 0, A first (docs/rules.md section 14)."""

import itertools
import math
from fractions import Fraction

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


# ---- Delahaye and Mathieu's open war: 4 suits, 2 to 4 values, two pickup orders
#
# J.-P. Delahaye and P. Mathieu, "Les défis du jeu de la bataille", Pour la Science 565
# (November 2024), and their code, github.com/cristal-smac/bataille: bataille.py plays
# open war (no face-down cards; a tie is played on until broken; a player who runs out
# in a tie loses, both lose if both do) and puts the pot under the winner's hand
# 'naturelle' or 'optimisee' (pywar's natural and sorted, docs/rules.md 7.4);
# testPlusieurs.py plays every deal once up to swapping the players (hands 1 and 2
# split the deck in halves, and only hand 1 <= hand 2 is played, so a deal with equal
# hands counts once) and reports the number of deals, the mean length of the games that
# end, the first deal met with the most cards laid ("Nouveau record" on a strictly
# greater length), the deals that fall into a cycle ("cycles détectés") and the cycles
# that differ, a cycle and its player-swapped twin once ("cycles différents").
# records_C4_naturelle.py and records_C4_optimisee.py give the figures below.  Their
# length is "cartes posées", the cards each player lays face up: pywar's battles; a
# "pli" is a round.  Values 1 .. V are pywar's ranks 0 .. V - 1; a hand is top first.
#
# values: (deals, (cards laid, tricks, hand 1, hand 2, winner) of the record,
#          mean cards laid to 2 decimals, deals into cycles, {cycle length}, distinct)
NATURELLE = {
    2: (38, (8, 4, [1, 1, 2, 2], [1, 2, 2, 1], "A"), "5.26", 0, set(), 0),
    3: (17_370, (54, 37, [2, 1, 3, 1, 3, 2], [2, 3, 3, 1, 1, 2], "A"), "13.43", 360,
        {19}, 1),
    4: (31_532_760, (192, 142, [2, 1, 3, 3, 4, 2, 3, 4], [4, 1, 3, 1, 4, 2, 2, 1], "A"),
        "28.61", 8_545, {24}, 4),
}
OPTIMISEE = {
    2: (38, (8, 5, [2, 2, 1, 1], [1, 1, 2, 2], None), "5.26", 0, set(), 0),
    3: (17_370, (48, 34, [3, 2, 2, 2, 3, 3], [1, 1, 2, 3, 1, 1], "B"), "12.07", 0, set(), 0),
    4: (31_532_760, (138, 100, [2, 4, 2, 2, 1, 1, 4, 1], [2, 3, 4, 3, 1, 3, 3, 4], "B"),
        "24.03", 0, set(), 0),
}
PUBLISHED = {"natural": NATURELLE, "sorted": OPTIMISEE}
# records_C4_naturelle.py: a state of each of the four cycles of 4 values
CYCLES_OF_4 = [([4, 2, 4, 1, 3, 1, 3, 3], [2, 1, 4, 4, 3, 2, 2, 1]),
               ([3, 1, 3, 3, 2, 1, 4, 4], [3, 2, 2, 1, 4, 2, 4, 1]),
               ([3, 1, 3, 3, 4, 1, 4, 4], [3, 2, 2, 1, 4, 2, 2, 1]),
               ([2, 1, 4, 4, 2, 1, 3, 3], [4, 2, 4, 1, 3, 2, 3, 1])]
CYCLE_OF_3 = ([3, 2, 1, 1, 2, 1], [2, 1, 3, 2, 3, 3])      # "360 cycles ... de taille 19"


def open_war(values, pickup):
    """Their rules in pywar's dimensions: 4 suits, open war, a tie played on."""
    return pywar.make_rules("smu", deck=f"{values}x4", face_down=0, short_war="lose",
                            piles="queue", pickup=pickup)


def sequence_of(hand_1, hand_2):
    """Their two hands (values from 1) as pywar's rank sequence, dealt alternately."""
    return tuple(value - 1 for pair in zip(hand_1, hand_2) for value in pair)


def equal_hands(values):
    """The rank sequences whose two hands are equal (2 of each value a hand): the deals
    they count once where pywar counts every rank sequence."""
    ranks = [rank for rank in range(values) for _ in range(2)]
    hands = sorted(set(itertools.permutations(ranks)))
    return [sequence_of([r + 1 for r in hand], [r + 1 for r in hand]) for hand in hands]


def in_their_units(result, rules, values):
    """Their deals, the deals into cycles and the mean cards laid (a Fraction) of a
    result: each rank sequence is half a deal of theirs, one with equal hands a whole
    one, so the equal-hand sequences are played again and counted a second time."""
    games = [exhaustive.listing(exhaustive.Part(rules, sequence))[0]
             for sequence in equal_hands(values)]
    ended = [game for game in games if game[1] != "cycle"]
    sequences = result.sequences
    ended_sequences = sequences["ended"] + len(ended)
    laid = Fraction(result.mean_battles_fraction) * sequences["ended"] + sum(
        game[3] for game in ended)
    return ((result.rank_sequences + len(games)) // 2,
            (sequences["cycles"] + len(games) - len(ended)) // 2,
            laid / ended_sequences)


def assert_their_table(values, pickup):
    """One table of theirs, from pywar exact's result in pywar's units (orderings of
    the 4V cards, each rank sequence standing for (4!)^V of them) and in theirs."""
    rules = open_war(values, pickup)
    deals, record, mean, cycling, lengths, distinct = PUBLISHED[pickup][values]
    result = pywar.exact_counts(rules)
    assert result.weight == math.factorial(4) ** values
    assert result.orderings == math.factorial(4 * values)
    assert in_their_units(result, rules, values)[:2] == (deals, cycling)
    assert f"{float(in_their_units(result, rules, values)[2]):.2f}" == mean
    assert result.cycles == 2 * cycling * result.weight     # no equal hands cycle
    assert set(result.cycle_lengths) == lengths and result.distinct_cycles == distinct
    laid, tricks, hand_1, hand_2, winner = record
    game = pywar.play(0, rules, deal=exhaustive.deal_of(sequence_of(hand_1, hand_2), 4,
                                                        values))
    assert (game.battles, game.rounds, game.winner) == (laid, tricks, winner)
    assert game.outcome == ("win" if winner else "both-lose")
    assert result.most_battles["battles"] == laid           # their record is the most
    return result


@pytest.mark.parametrize("pickup", ["natural", "sorted"])
@pytest.mark.parametrize("values", [2, 3])
def test_delahaye_and_mathieus_tables_of_2_and_3_values(values, pickup):
    assert_their_table(values, pickup)


def test_their_record_is_the_most_cards_laid_not_the_most_rounds():
    """2 values, natural: their record, the first deal they met with 8 cards laid, ends
    after 4 rounds; pywar's longest game has 5 rounds, and only 6 cards laid."""
    result = pywar.exact_counts(open_war(2, "natural"))
    assert (result.most_battles["battles"], result.longest["battles"]) == (8, 6)
    assert result.longest["rounds"] == 5 > NATURELLE[2][1][1] == 4


def on_its_cycle(state, values):
    """The length in rounds of the cycle a state of theirs (natural) lies on: on ranks,
    by the enumerator; the engine, on card ids, finds it from the first round (two cards
    of a rank may have changed places after one turn of it, so its period on ids is a
    multiple)."""
    rules = open_war(values, "natural")
    game = exhaustive.listing(exhaustive.Part(rules, sequence_of(*state)))[0]
    played = pywar.play(0, rules, deal=exhaustive.deal_of(sequence_of(*state), 4, values))
    assert (game[1], played.outcome, played.cycle_start) == ("cycle", "cycle", 0)
    assert played.cycle_period % game[6] == 0
    return game[6]


def test_their_cycle_of_3_values():
    """The deal they give for the cycle of 19 rounds lies on it."""
    assert on_its_cycle(CYCLE_OF_3, 3) == 19


@pytest.mark.slow
@pytest.mark.parametrize("pickup", ["natural", "sorted"])
def test_delahaye_and_mathieus_table_of_4_values(pickup):
    """63,063,000 rank sequences, about 5 s each order on 2 cores (docs/performance.md);
    their brute force in Python took 46 and 32 minutes."""
    result = assert_their_table(4, pickup)
    if pickup == "natural":
        assert result.cycle_lengths == {24: 2 * 8_545 * result.weight}
        for state in CYCLES_OF_4:
            assert on_its_cycle(state, 4) == 24
