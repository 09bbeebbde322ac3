"""Rule presets and dimensions: hand-checked games, short wars, cycles and caps.

Card ids are suit * 13 + rank, suits heart 0, diamond 1, spade 2, club 3 and ranks
two 0 .. ace 12.  A deal lists each hand top first.
"""

import pytest

import pywar
from conftest import needs_c
from pywar.rules import PRESETS, Rules, RulesError, make_rules

ENGINES = [pytest.param("c", marks=needs_c), "python"]

HEARTS, DIAMONDS, SPADES, CLUBS = 0, 13, 26, 39
TWO, THREE, FOUR, FIVE, NINE, TEN, JACK, QUEEN, KING, ACE = 0, 1, 2, 3, 7, 8, 9, 10, 11, 12


def both_engines(seed, rules, **options):
    """Play in both engines, check that they agree, and return the C game."""
    games = [pywar.play(seed, rules, engine=engine, transcript=True, **options)
             for engine in ("c", "python") if engine != "c" or pywar._checked.available()]
    first = games[0]
    for game in games[1:]:
        assert (game.to_json() | {"engine": 0}) == (first.to_json() | {"engine": 0})
        assert game.transcript == first.transcript
    return first


def cards(game, player):
    """All the cards a player holds at the end."""
    return sum(game.piles[player].values())


def test_presets_are_as_documented():
    assert PRESETS["smu"] == Rules(name="smu")
    lehigh, iofall, single = PRESETS["lehigh"], PRESETS["iofall"], PRESETS["iofall-single"]
    assert (lehigh.face_down, lehigh.short_war, lehigh.pickup, lehigh.piles, lehigh.shuffle) \
        == (3, "all-but-one", "pot-order", "queue", "swap-each")
    assert (iofall.face_down, iofall.short_war, iofall.pickup, iofall.piles, iofall.shuffle) \
        == (3, "iofall", "random", "queue", "fisher-yates")
    assert (single.face_down, iofall.max_rounds) == (1, 100_000)


def test_smu_narration_of_a_short_game():
    game = both_engines(0, "smu", deal=([HEARTS + ACE], [HEARTS + TWO]))
    assert game.transcript == (
        "Welcome to the Game of War!\n\n"          # a given deal is not shuffled
        "Initial 'to play' piles:\n\n"
        "Player A:\nThere are 1 cards in the pile.\nCard 1, ace of hearts\n\n"
        "Player B:\nThere are 1 cards in the pile.\nCard 1, two of hearts\n\n"
        "======== Round 1 ========\n"
        "Player A plays ace of hearts\nPlayer B plays two of hearts\n"
        "Player A wins the 'currently in play' pile.\n\n"
        "Player A ran out of cards in their 'to play' pile.  "
        "Getting cards from the 'played' pile.\nShuffling player A cards...\n\n"
        "Player A has 2 in their 'to play' pile and 0 in their 'played' pile.\n"
        "Player B has 0 in their 'to play' pile and 0 in their 'played' pile.\n\n"
        "Player B ran out of cards.  Player B has lost.\n")


def test_lehigh_narration_of_a_short_war():
    """A has 2 cards for the war: 1 goes down, the Ace is played face up;
    B has none left but one: the Deuce is its face-up card."""
    deal = ([CLUBS + KING, SPADES + FOUR, HEARTS + ACE], [DIAMONDS + KING, CLUBS + TWO])
    game = both_engines(0, "lehigh", deal=deal)
    assert game.transcript == (
        "Dealing deck into two piles\n"             # a given deal is not shuffled
        "King of Clubs against King of Diamonds\nWar!\n"
        "Ace of Hearts against Deuce of Clubs\nAce of Hearts wins\n"
        "player 1 gets King of Clubs\nplayer 1 gets King of Diamonds\n"
        "player 1 gets 4 of Spades\nplayer 1 gets Ace of Hearts\n"
        "player 1 gets Deuce of Clubs\nPlayer 1 wins\n")
    assert (game.winner, game.rounds, game.battles, game.wars) == ("A", 1, 2, 1)


@pytest.mark.parametrize("name", ["iofall", "iofall-single"])
def test_iofall_narration_of_a_lost_war(name):
    """User has one card after the tie: it goes down, and User has none to show."""
    deal = ([HEARTS + FIVE, HEARTS + NINE], [DIAMONDS + FIVE, CLUBS + TWO, CLUBS + THREE])
    game = both_engines(0, name, deal=deal)
    assert game.transcript == (
        "Welcome to War, let's begin...\n1. User: 0 Comp:5, Total: 5\n\n"
        "--------------------\nWinner is Computer!\n--------------------\n")
    assert (game.winner, game.stranded) == ("B", 0)


def test_iofall_prints_a_line_per_round():
    game = both_engines(7, "iofall")
    lines = game.transcript.splitlines()
    assert lines[0] == "Welcome to War, let's begin..."
    assert lines[game.rounds].startswith(f"{game.rounds}. User: ")
    assert all(line.endswith("Total: 52") for line in lines[1:game.rounds + 1])
    assert lines[-3:] == ["-" * 20, f"Winner is {'User' if game.winner == 'A' else 'Computer'}!",
                          "-" * 20]


SHORT_WAR_RULES = dict(face_down=3, pickup="pot-order", piles="queue", narration="lehigh")
B_HAND = [DIAMONDS + FIVE, DIAMONDS + KING, DIAMONDS + QUEEN, DIAMONDS + JACK, DIAMONDS + TEN]
A_EXTRA = [HEARTS + NINE, HEARTS + TWO]


@pytest.mark.parametrize("left, short_war, expected", [
    # left: A's cards after the tie; expected: stranded, A's cards, B's cards, wars
    (0, "lose", (2, 0, 4, 0)), (0, "last-card", (2, 0, 4, 0)),
    (0, "all-but-one", (0, 0, 6, 1)), (0, "iofall", (0, 0, 6, 0)),
    (1, "lose", (2, 1, 4, 0)), (1, "last-card", (0, 0, 7, 1)),
    (1, "all-but-one", (0, 0, 7, 1)), (1, "iofall", (0, 0, 7, 0)),
    (2, "lose", (2, 2, 4, 0)), (2, "last-card", (0, 0, 8, 1)),
    (2, "all-but-one", (0, 0, 8, 1)), (2, "iofall", (0, 0, 8, 1)),
])
def test_short_war(left, short_war, expected):
    """A ties with too few cards for a war of 3 down and 1 up; B has plenty."""
    rules = Rules(name="short", short_war=short_war, **SHORT_WAR_RULES)
    deal = ([HEARTS + FIVE] + A_EXTRA[:left], B_HAND)
    game = both_engines(0, rules, deal=deal)
    assert game.winner == "B" and game.outcome == "win"
    assert (game.stranded, cards(game, "A"), cards(game, "B"), game.wars) == expected


@pytest.mark.parametrize("short_war, outcome, winner, stranded", [
    ("lose", "both-lose", None, 2), ("last-card", "both-lose", None, 2),
    ("all-but-one", "both-lose", None, 2), ("iofall", "win", "B", 0)])
def test_both_run_out_in_one_tie(short_war, outcome, winner, stranded):
    rules = Rules(name="both", short_war=short_war, **SHORT_WAR_RULES)
    game = both_engines(0, rules, deal=([HEARTS + FIVE], [DIAMONDS + FIVE]))
    assert (game.outcome, game.winner, game.stranded) == (outcome, winner, stranded)


def test_smu_both_lose_in_a_tie_streak():
    """SMU's "26 draws in a row": both players run out inside one tie streak."""
    deal = ([HEARTS + FIVE, HEARTS + NINE], [DIAMONDS + FIVE, DIAMONDS + NINE])
    game = both_engines(0, "smu", deal=deal)
    assert (game.outcome, game.winner, game.stranded, game.ties) == ("both-lose", None, 4, 2)
    assert game.transcript.endswith("Player A ran out of cards.  Player A has lost.\n"
                                    "Player B ran out of cards.  Player B has lost.\n")


# A known cycle, checked by hand (lehigh rules: a queue, winnings in pot order, A's first):
#   deal      A: 2 4        B: 5 3
#   round 1   2 v 5, B wins  A: 4        B: 3 2 5
#   round 2   4 v 3, A wins  A: 4 3      B: 2 5      <- this state comes back
#   round 3   4 v 2, A wins  A: 3 4 2    B: 5
#   round 4   3 v 5, B wins  A: 4 2      B: 3 5
#   round 5   4 v 3, A wins  A: 2 4 3    B: 5
#   round 6   2 v 5, B wins  A: 4 3      B: 2 5      <- the state after round 2
# So the cycle starts after round 2 and has period 4.
CYCLING_DEAL = ([HEARTS + TWO, HEARTS + FOUR], [HEARTS + FIVE, HEARTS + THREE])


def test_a_hand_built_cycle():
    game = both_engines(0, "lehigh", deal=CYCLING_DEAL)
    assert (game.outcome, game.winner) == ("cycle", None)
    assert (game.cycle_start, game.cycle_period) == (2, 4)
    assert game.rounds >= game.cycle_start + game.cycle_period
    assert game.transcript.endswith("The game repeats every 4 rounds from round 3 on\n"
                                    "Nobody wins\n")


def test_without_cycle_detection_the_cap_ends_it():
    game = both_engines(0, "lehigh", deal=CYCLING_DEAL, detect_cycles=False, max_rounds=101)
    assert (game.outcome, game.rounds, game.cycle_start) == ("capped", 101, None)
    # after 101 rounds the hands are those after round 5: A holds 3 cards, B 1
    assert game.winner == "A"


def test_the_cap_with_equal_hands_has_no_winner():
    game = both_engines(0, "lehigh", deal=CYCLING_DEAL, detect_cycles=False, max_rounds=102)
    assert (game.outcome, game.winner) == ("capped", None)


@needs_c
def test_cycles_happen_with_a_fixed_pickup_but_never_with_a_shuffled_one():
    def outcomes(pickup):
        return [pywar.play(seed, "lehigh", engine="c", face_down=1, pickup=pickup,
                           max_rounds=5000).outcome for seed in range(500)]
    fixed, shuffled = outcomes("pot-order"), outcomes("random")
    assert fixed.count("cycle") > 50
    assert shuffled.count("cycle") == 0
    assert shuffled.count("win") > 400


@pytest.mark.parametrize("engine", ENGINES)
def test_cycle_periods_are_real(engine):
    """Replaying a detected cycle's start and period in the twin shows the repeat."""
    from pywar.twin.game import Game
    rules = pywar.make_rules("lehigh", face_down=1, max_rounds=3000)
    games = [pywar.play(seed, rules, engine=engine) for seed in range(40)]
    cycles = [game for game in games if game.outcome == "cycle"]
    assert cycles
    for game in cycles[:4]:
        table = Game(game.seed, rules)
        spec = table.spec()
        table.new_game(game.seed)
        table.deal(spec)
        for _ in range(game.cycle_start):
            table.play_round(spec)
        start_state = table.get_state()
        states = []
        for _ in range(game.cycle_period):
            table.play_round(spec)
            states.append(table.get_state())
        assert states[-1] == start_state and start_state not in states[:-1]


def test_every_round_is_battles_minus_wars():
    for name in PRESETS:
        for seed in range(30):
            game = pywar.play(seed, name, engine="python")
            assert game.battles == game.rounds + game.wars
            assert game.ties >= game.wars and game.longest_tie_streak <= game.ties


def test_overridden_rules_say_what_changed():
    game = pywar.play(3, "smu", engine="python", face_down=2, pickup="pot-order")
    assert game.rules == "smu,face_down=2,pickup=pot-order"
    assert pywar.play(3, "smu", engine="python", face_down=0).rules == "smu"
    assert pywar.make_rules("lehigh", detect_cycles=False).name == "lehigh,detect_cycles=False"


def test_a_meaningless_combination_is_refused():
    """Cycle detection can be turned off only where a game can repeat."""
    with pytest.raises(ValueError, match="piles 'queue' or refill 'keep' can repeat"):
        pywar.play(1, "smu", detect_cycles=False)
    with pytest.raises(ValueError, match="a queue is never refilled"):
        pywar.play(1, "lehigh", refill="keep")
    with pytest.raises(ValueError, match="can repeat"):
        pywar.play(1, "iofall", detect_cycles=False)
    assert pywar.play(1, "lehigh", engine="python", detect_cycles=False).outcome in (
        "win", "capped")


def test_dimensions_are_checked_before_they_are_compared():
    import numpy as np
    with pytest.raises(TypeError, match="face_down"):
        pywar.play(1, face_down=True)
    with pytest.raises(TypeError, match="face_down"):
        pywar.play(1, face_down=0.0)
    game = pywar.play(1, "iofall", engine="python", face_down=np.int64(2))
    assert game.rules == "iofall,face_down=2"
    with pytest.raises(TypeError, match="preset name"):
        pywar.play(1, rules=["smu"])


@pytest.mark.parametrize("deal", [([1.5], [2]), ("ab", [1]), ([True], [2]), ([0], None)])
def test_deals_of_the_wrong_type(deal):
    with pytest.raises(ValueError, match="card ids"):
        pywar.play(1, deal=deal)


@pytest.mark.parametrize("name", ["iofall", "iofall-single"])
def test_iofall_narration_of_a_war_that_user_wins(name):
    """5 v 5 ties; iofall: 3 down each, Ace v Queen; iofall-single: 1 down each, 3 v 3
    ties again, then 1 down each, Ace v Queen. Either way User takes 10 cards, then
    its King beats Computer's last card."""
    deal = ([HEARTS + FIVE, HEARTS + TWO, HEARTS + THREE, HEARTS + FOUR, HEARTS + ACE,
             SPADES + KING],
            [DIAMONDS + FIVE, DIAMONDS + TWO, DIAMONDS + THREE, DIAMONDS + FOUR,
             DIAMONDS + QUEEN, CLUBS + TWO])
    game = both_engines(0, name, deal=deal)
    assert game.transcript == (
        "Welcome to War, let's begin...\n"
        "1. User: 11 Comp:1, Total: 12\n2. User: 12 Comp:0, Total: 12\n\n"
        "--------------------\nWinner is User!\n--------------------\n")
    assert (game.winner, game.rounds, game.wars) == ("A", 2, 1 if name == "iofall" else 2)


def test_a_refused_setting_names_it_as_python_does_or_as_a_caller_does():
    """RulesError: str() says face_down; named() lets the command line say --face-down."""
    import pickle
    with pytest.raises(RulesError) as caught:
        make_rules("smu", face_down=26)
    assert str(caught.value) == "face_down must be from 0 to 25, not 26"
    assert caught.value.named(str.upper) == "FACE_DOWN must be from 0 to 25, not 26"
    with pytest.raises(RulesError) as caught:
        make_rules("smu", detect_cycles=False)
    assert str(caught.value).startswith("detect_cycles=False means nothing here")
    copy = pickle.loads(pickle.dumps(caught.value))
    assert (str(copy), copy.named(str.upper)) == (str(caught.value), caught.value.named(str.upper))
