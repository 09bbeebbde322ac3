"""More than two players, refills that keep the played pile as it lies, and the per-game
statistics: hand-worked games, and the engines agreeing on N-player games.

Card ids are suit * 13 + rank: hearts 0..12, diamonds 13..25, spades 26..38, rank 0 is
a two and 12 an ace.  A deal lists each hand top first (the card played next first).
"""

import json
import random

import pytest

import pywar
from conftest import WAR_PRESETS, needs_c

ENGINES = [pytest.param("c", marks=needs_c), "python"]


def events(game, kind):
    """The trace's events of one kind."""
    return [event for event in map(json.loads, game.trace.splitlines()[1:])
            if event["event"] == kind]


@pytest.mark.parametrize("engine", ENGINES)
def test_a_refill_that_keeps_the_played_pile_as_it_lies(engine):
    """Two piles, pot-order pickup, refill 'keep':
    deal  A: K♥ 3♥        B: Q♥ 4♥ 2♦        (after the deal B leads, 3 to 2)
    1. K♥ beats Q♥: A's played pile is K♥ then Q♥ on top.     A 3, B 2: A leads (change 1)
    2. 4♥ beats 3♥: B's played is 3♥, 4♥ on top.  A refills as it lies: Q♥ on top, then K♥.
                                                              A 2, B 3: B leads (change 2)
    3. Q♥ beats 2♦: A's played is Q♥, 2♦.  B refills: 4♥ on top, then 3♥.
                                                              A 3, B 2: A leads (change 3)
    4. K♥ beats 4♥: A's played is Q♥, 2♦, K♥, 4♥.  A refills: 4♥ on top.   A 4, B 1
    5. 4♥ beats 3♥: B is out.  Three refills; the biggest pot 2; A was at most 1 behind."""
    deal = ([11, 1], [10, 2, 13])
    game = pywar.play(1, "smu", engine=engine, deal=deal, refill="keep", pickup="pot-order",
                      trace=True)
    assert (game.winner, game.outcome, game.rounds, game.battles, game.ties) == ("A", "win", 5, 5, 0)
    assert (game.lead_changes, game.refills, game.biggest_pot, game.comeback) == (3, 3, 2, 1)
    assert (game.deepest_war, game.war_depths) == (0, {})
    assert [event["cards"] for event in events(game, "refill")] == [[10, 11], [2, 1], [2, 11, 13, 10]]
    assert game.piles["A"] == {"to_play": 3, "played": 2}


@pytest.mark.parametrize("engine", ENGINES)
def test_a_war_with_a_war_and_the_winner_behind(engine):
    """One queue each, pot order, one card down (lehigh's pickup, face_down=1):
    deal  A: A♥ 2♥ 7♥     B: 3♦ 2♦ 7♦ 9♦          (after the deal B leads, 4 to 3)
    1. A♥ beats 3♦; A takes A♥ 3♦.                            A 4, B 3: A leads (change 1)
    2. 2♥ ties 2♦: a war.  7♥ and 7♦ go down; A♥ beats 9♦, and A takes all six:
       2♥ 2♦ 7♥ 7♦ A♥ 9♦.  B has none left.  One war of depth 1; the biggest pot 6;
       A, the winner, was 1 behind after the deal."""
    deal = ([12, 0, 5], [14, 13, 18, 20])
    game = pywar.play(1, "lehigh", engine=engine, deal=deal, face_down=1, trace=True)
    assert (game.winner, game.outcome, game.rounds, game.battles, game.ties, game.wars) \
        == ("A", "win", 2, 3, 1, 1)
    assert (game.lead_changes, game.biggest_pot, game.comeback, game.refills) == (1, 6, 1, 0)
    assert (game.deepest_war, game.war_depths) == (1, {1: 1})
    assert [event["cards"] for event in events(game, "pickup")] == [[12, 14], [0, 13, 5, 18, 12, 20]]


@pytest.mark.parametrize("engine", ENGINES)
def test_two_players_the_lead_through_even_counts(engine):
    """One queue each, pot order (A's card, then B's), no ties (docs/rules.md 15):
    deal  A: Q♥ K♥ 10♥    B: 7♥ A♥ 2♥               3 to 3 after the deal: nobody leads
    1. Q♥ beats 7♥.  A: K♥ 10♥ Q♥ 7♥  B: A♥ 2♥       4 to 2: A leads (the first: no change)
    2. A♥ beats K♥.  A: 10♥ Q♥ 7♥     B: 2♥ K♥ A♥    3 to 3: even, A is still the last
    3. 10♥ beats 2♥. A: Q♥ 7♥ 10♥ 2♥  B: K♥ A♥       4 to 2: A again, no change
    4. K♥ beats Q♥.  A: 7♥ 10♥ 2♥     B: A♥ Q♥ K♥    3 to 3: even
    5. A♥ beats 7♥.  A: 10♥ 2♥        B: Q♥ K♥ 7♥ A♥ 2 to 4: B leads (change 1)
    6. Q♥ beats 10♥, 7. K♥ beats 2♥: A is out.  One lead change; B was at most 2 behind."""
    deal = ([10, 11, 8], [5, 12, 0])
    game = pywar.play(1, "lehigh", engine=engine, deal=deal, face_down=1, trace=True)
    assert (game.winner, game.outcome, game.rounds, game.battles, game.ties) \
        == ("B", "win", 7, 7, 0)
    assert [(event["player"], event["cards"]) for event in events(game, "pickup")] == [
        (0, [10, 5]), (1, [11, 12]), (0, [8, 0]), (1, [10, 11]), (1, [5, 12]), (1, [8, 10]),
        (1, [0, 11])]
    assert (game.lead_changes, game.comeback, game.biggest_pot) == (1, 2, 2)


@pytest.mark.parametrize("engine", ENGINES)
def test_three_players_and_a_war_among_two(engine):
    """Three players, one queue each, pot order, one card down, capped after one round:
    deal  A: 7♥ 2♥ K♥     B: 7♦ 3♦ 4♦     C: 5♠ 9♠
    1. 7♥, 7♦ and 5♠: A and B tie for the highest, so they alone go to war; C's 5♠ stays
       in the pot.  2♥ and 3♦ go down, then K♥ beats 4♦.  A takes the pot in the order
       it was put down: 7♥ 7♦ 5♠ 2♥ 3♦ K♥ 4♦.  B has no card left and is out.
    The cap ends the game: A holds 7, C 1, and A wins."""
    deal = ([5, 0, 11], [18, 14, 15], [29, 33])
    game = pywar.play(1, "lehigh", engine=engine, deal=deal, face_down=1, players=3,
                      max_rounds=1, trace=True, transcript=True)
    assert (game.winner, game.outcome, game.rounds, game.battles, game.ties, game.wars) \
        == ("A", "capped", 1, 2, 1, 1)
    assert [event["tied"] for event in events(game, "battle")] == [[0, 1], []]
    assert [(event["player"], event["cards"]) for event in events(game, "face_down")] \
        == [(0, [0]), (1, [14])]
    assert events(game, "pickup")[0]["cards"] == [5, 18, 29, 0, 14, 11, 15]
    assert [event["player"] for event in events(game, "run_out")] == [1]
    assert game.piles == {"A": {"to_play": 7, "played": 0}, "B": {"to_play": 0, "played": 0},
                          "C": {"to_play": 1, "played": 0}}
    assert (game.biggest_pot, game.war_depths, game.lead_changes) == (7, {1: 1}, 0)
    assert "7 of Hearts against 7 of Diamonds against 5 of Spades\nWar!\n" in game.transcript


@pytest.mark.parametrize("players", range(2, 9))
def test_the_deal_gives_the_extra_cards_to_the_first_seats(players):
    game = pywar.play(3, "iofall", engine="python", players=players, trace=True)
    hands = events(game, "deal")[0]["hands"]
    sizes = [len(hand) for hand in hands]
    assert sizes == [52 // players + (seat < 52 % players) for seat in range(players)]
    assert sorted(card for hand in hands for card in hand) == list(range(52))


@needs_c
@pytest.mark.parametrize("part", [range(8), pytest.param(range(8, 12), marks=pytest.mark.slow)],
                         ids=["first-8", "other-4"])
@pytest.mark.parametrize("players", range(2, 9))
def test_the_engines_agree_with_more_players(players, part):
    """Seeds 0 to 11 of each preset, each with dimensions of its own: the default run plays
    the first 8 of each, which reach every branch of pywar/twin and pywar/common that the
    12 reach (measured with coverage's branch mode), the slow run the other 4."""
    rng = random.Random(players)
    for name in WAR_PRESETS:       # one-card refuses the war's dimensions (test_onecard.py)
        for seed in range(12):
            dimensions = {"pickup": rng.choice(["smu", "pot-order", "random", "winner-first",
                                                "loser-first", "seat-interleaved",
                                                "seat-block"]),
                          "face_down": rng.randint(0, 3),
                          "short_war": rng.choice(["lose", "last-card", "all-but-one", "iofall"])}
            if seed not in part:                # drawn all the same: a seed keeps its own
                continue
            options = dict(players=players, transcript=True, trace=True, max_rounds=2000,
                           **dimensions)
            c = pywar.play(seed, name, engine="c", **options)
            py = pywar.play(seed, name, engine="python", **options)
            assert (c.to_json() | {"engine": 0}) == (py.to_json() | {"engine": 0})
            assert c.transcript == py.transcript
            assert c.trace.split("\n", 1)[1] == py.trace.split("\n", 1)[1]
            cards = sum(sum(pile.values()) for pile in c.piles.values()) + c.stranded
            assert cards == 52


def test_two_player_games_are_as_before():
    """players=2 is the default: the same game, the same digest."""
    for seed in range(20):
        assert pywar.play(seed, engine="python", players=2).digest == pywar.play(seed, engine="python").digest


@needs_c
@pytest.mark.slow
@pytest.mark.parametrize("players", range(2, 9))
def test_the_twins_agree_on_thousands_of_games_with_more_players(players):
    """Every preset at every player count: 300 seeds each, C against the twin, every
    per-game field (the digest covers every event).  1,000 took 12 minutes of CPU on the
    2-core VM, a third of CI's slow run."""
    for name in pywar.PRESETS:
        start = 1000 * players
        c = pywar.simulate(300, name, seed=start, engine="c", players=players)
        py = pywar.simulate(300, name, seed=start, engine="python", players=players)
        for field, values in c.arrays.items():
            assert (values == py.arrays[field]).all(), (name, field)
