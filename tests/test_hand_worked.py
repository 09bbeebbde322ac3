"""Hand-worked deals: every pickup order and every short-war rule, played out on paper
from docs/rules.md (sections 5 to 7) and checked in each engine on its own.

The games use the lehigh narration, which names each card of a won pot in the order it
is picked up ("player 1 gets ..."), queue piles and face_down = 2.  A deal lists each
hand top first; card ids are suit * 13 + rank (suits hearts 0, diamonds 1, spades 2,
clubs 3; ranks two 0 .. ace 12).
"""

import json

import pytest

import pywar
from conftest import needs_c
from pywar.common.rng import Rng

ENGINES = [pytest.param("c", marks=needs_c), "python"]

TWO_H, THREE_H, FIVE_H = 0, 1, 3
FOUR_D, FIVE_D, SIX_D = 15, 16, 17
KING_S, NINE_C = 37, 46
NAMES = {TWO_H: "Deuce of Hearts", THREE_H: "3 of Hearts", FIVE_H: "5 of Hearts",
         FOUR_D: "4 of Diamonds", FIVE_D: "5 of Diamonds", SIX_D: "6 of Diamonds",
         KING_S: "King of Spades", NINE_C: "9 of Clubs"}
TABLE = dict(face_down=2, piles="queue")       # over the lehigh preset


def test_the_card_ids_are_the_cards_named():
    for card_id, name in NAMES.items():
        face, suit = name.split(" of ")
        assert "Hearts Diamonds Spades Clubs".split().index(suit) == card_id // 13
        assert "Deuce 3 4 5 6 7 8 9 10 Jack Queen King Ace".split().index(face) == card_id % 13


def narration(*lines):
    """A given deal's lehigh transcript: no shuffling line, then these lines."""
    return "".join(line + "\n" for line in ("Dealing deck into two piles",) + lines)


def gets(player, cards):
    """The lines of a pot picked up by player (1 = A, 2 = B), in pickup order."""
    return tuple(f"player {player} gets {NAMES[card]}" for card in cards)


def play(engine, deal, seed=0, **dimensions):
    """The game of a given deal under lehigh with TABLE and the dimensions, with text."""
    return pywar.play(seed, "lehigh", engine=engine, transcript=True, deal=deal,
                      **TABLE, **dimensions)


def hands(game):
    """Cards held at the end: (A's to play, A's played, B's to play, B's played)."""
    return (game.piles["A"]["to_play"], game.piles["A"]["played"],
            game.piles["B"]["to_play"], game.piles["B"]["played"])


# Pickup.  Three deals, each one round: 5 of Hearts ties 5 of Diamonds; the war puts
# each player's face-down cards in the pot (A's, then B's); the new face-up pair decides;
# the loser then holds no card and the winner takes all (docs/rules.md 7.3, 7.6, 7.7).
#
# A_WINS  A: 5H 2H 3H KS   B: 5D 4D 6D 9C   (both hold 3 after the tie: 2 down, 1 up)
#   pot   0:5H(A) 1:5D(B) 2:2H(A) 3:3H(A) 4:4D(B) 5:6D(B) 6:KS(A) 7:9C(B); KS beats 9C
# B_WINS  A: 5H 2H 3H 9C   B: 5D 4D 6D KS   (the same, the face-up cards swapped)
#   pot   0:5H(A) 1:5D(B) 2:2H(A) 3:3H(A) 4:4D(B) 5:6D(B) 6:9C(A) 7:KS(B); KS beats 9C
# SHORT   A: 5H 2H KS      B: 5D 4D 6D 9C   (short_war last-card: A holds 2 after the
#   tie, so puts 2 - 1 = 1 down and plays its last card face up; the seats are uneven)
#   pot   0:5H(A) 1:5D(B) 2:2H(A) 3:4D(B) 4:6D(B) 5:KS(A) 6:9C(B); KS beats 9C
#
# The orders (section 7.4), as pot positions, then as cards:
#   smu               n-1 .. 0
#   pot-order         0 .. n-1
#   winner-first      the winner's cards in pot order, then the loser's
#   loser-first       the loser's, then the winner's
#   seat-interleaved  A's 1st, B's 1st, A's 2nd, ...; the rest of the longer seat last
#   seat-block        A's cards, then B's
#   natural           n-1 .. 0, but each battle's face-up cards highest rank first (a
#                     tied pair stays top first); face-down cards where smu takes them
#   sorted            n-1 .. 0 sorted by rank, highest first (one rank's cards top first)
A_WINS = ([FIVE_H, TWO_H, THREE_H, KING_S], [FIVE_D, FOUR_D, SIX_D, NINE_C])
B_WINS = ([FIVE_H, TWO_H, THREE_H, NINE_C], [FIVE_D, FOUR_D, SIX_D, KING_S])
SHORT = ([FIVE_H, TWO_H, KING_S], [FIVE_D, FOUR_D, SIX_D, NINE_C])
PICKUPS = {
    "A_WINS": {   # A's positions 0 2 3 6, B's 1 4 5 7
        "smu": [NINE_C, KING_S, SIX_D, FOUR_D, THREE_H, TWO_H, FIVE_D, FIVE_H],
        "pot-order": [FIVE_H, FIVE_D, TWO_H, THREE_H, FOUR_D, SIX_D, KING_S, NINE_C],
        "winner-first": [FIVE_H, TWO_H, THREE_H, KING_S, FIVE_D, FOUR_D, SIX_D, NINE_C],
        "loser-first": [FIVE_D, FOUR_D, SIX_D, NINE_C, FIVE_H, TWO_H, THREE_H, KING_S],
        "seat-interleaved": [FIVE_H, FIVE_D, TWO_H, FOUR_D, THREE_H, SIX_D, KING_S, NINE_C],
        "seat-block": [FIVE_H, TWO_H, THREE_H, KING_S, FIVE_D, FOUR_D, SIX_D, NINE_C],
        "natural": [KING_S, NINE_C, SIX_D, FOUR_D, THREE_H, TWO_H, FIVE_D, FIVE_H],
        "sorted": [KING_S, NINE_C, SIX_D, FIVE_D, FIVE_H, FOUR_D, THREE_H, TWO_H],
    },
    "B_WINS": {   # A's positions 0 2 3 6, B's 1 4 5 7
        "smu": [KING_S, NINE_C, SIX_D, FOUR_D, THREE_H, TWO_H, FIVE_D, FIVE_H],
        "pot-order": [FIVE_H, FIVE_D, TWO_H, THREE_H, FOUR_D, SIX_D, NINE_C, KING_S],
        "winner-first": [FIVE_D, FOUR_D, SIX_D, KING_S, FIVE_H, TWO_H, THREE_H, NINE_C],
        "loser-first": [FIVE_H, TWO_H, THREE_H, NINE_C, FIVE_D, FOUR_D, SIX_D, KING_S],
        "seat-interleaved": [FIVE_H, FIVE_D, TWO_H, FOUR_D, THREE_H, SIX_D, NINE_C, KING_S],
        "seat-block": [FIVE_H, TWO_H, THREE_H, NINE_C, FIVE_D, FOUR_D, SIX_D, KING_S],
        "natural": [KING_S, NINE_C, SIX_D, FOUR_D, THREE_H, TWO_H, FIVE_D, FIVE_H],
        "sorted": [KING_S, NINE_C, SIX_D, FIVE_D, FIVE_H, FOUR_D, THREE_H, TWO_H],
    },
    "SHORT": {    # A's positions 0 2 5, B's 1 3 4 6
        "smu": [NINE_C, KING_S, SIX_D, FOUR_D, TWO_H, FIVE_D, FIVE_H],
        "pot-order": [FIVE_H, FIVE_D, TWO_H, FOUR_D, SIX_D, KING_S, NINE_C],
        "winner-first": [FIVE_H, TWO_H, KING_S, FIVE_D, FOUR_D, SIX_D, NINE_C],
        "loser-first": [FIVE_D, FOUR_D, SIX_D, NINE_C, FIVE_H, TWO_H, KING_S],
        "seat-interleaved": [FIVE_H, FIVE_D, TWO_H, FOUR_D, KING_S, SIX_D, NINE_C],
        "seat-block": [FIVE_H, TWO_H, KING_S, FIVE_D, FOUR_D, SIX_D, NINE_C],
        "natural": [KING_S, NINE_C, SIX_D, FOUR_D, TWO_H, FIVE_D, FIVE_H],
        "sorted": [KING_S, NINE_C, SIX_D, FIVE_D, FIVE_H, FOUR_D, TWO_H],
    },
}
DEALS = {"A_WINS": (A_WINS, "A", "King of Spades against 9 of Clubs"),
         "B_WINS": (B_WINS, "B", "9 of Clubs against King of Spades"),
         "SHORT": (SHORT, "A", "King of Spades against 9 of Clubs")}


def war_narration(face_up, winner, picked_up):
    """One tie, its war, and the pot picked up in the given order; the loser is out."""
    player = "AB".index(winner) + 1
    return narration("5 of Hearts against 5 of Diamonds", "War!", face_up,
                     "King of Spades wins", *gets(player, picked_up), f"Player {player} wins")


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("deal_name", list(DEALS))
@pytest.mark.parametrize("pickup", list(PICKUPS["A_WINS"]))
def test_pickup_order_by_hand(engine, deal_name, pickup):
    deal, winner, face_up = DEALS[deal_name]
    order = PICKUPS[deal_name][pickup]
    game = play(engine, deal, pickup=pickup, short_war="last-card")
    assert game.transcript == war_narration(face_up, winner, order)
    assert (game.winner, game.outcome, game.rounds, game.battles, game.wars) == \
        (winner, "win", 1, 2, 1)
    held = len(order)
    assert hands(game) == ((held, 0, 0, 0) if winner == "A" else (0, 0, held, 0))


# natural with three players (docs/rules.md 7.4): a battle's face-up cards that did not
# tie go with it.  face_down = 1; A: 5H 4D KS, B: 5D 3H 9C, C: 2H 6D.  5H and 5D tie
# above 2H, so A and B go to war: 4D and 3H down, KS beats 9C.  One round (max_rounds).
#   pot   0:5H(A) 1:5D(B) 2:2H(C) | 3:4D(A) 4:3H(B) down | 5:KS(A) 6:9C(B)
# The face-down cards stay where smu takes them: 3H, then 4D, the lower first.
THREE_SEATS = ([FIVE_H, FOUR_D, KING_S], [FIVE_D, THREE_H, NINE_C], [TWO_H, SIX_D])
THREE_SEAT_ORDERS = {
    "smu": [NINE_C, KING_S, THREE_H, FOUR_D, TWO_H, FIVE_D, FIVE_H],
    "natural": [KING_S, NINE_C, THREE_H, FOUR_D, FIVE_D, FIVE_H, TWO_H],
    "sorted": [KING_S, NINE_C, FIVE_D, FIVE_H, FOUR_D, THREE_H, TWO_H],
}


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("pickup", list(THREE_SEAT_ORDERS))
def test_natural_with_three_players_by_hand(engine, pickup):
    game = pywar.play(0, "lehigh", engine=engine, deal=THREE_SEATS, players=3, face_down=1,
                      piles="queue", pickup=pickup, max_rounds=1, trace=True)
    events = [json.loads(line) for line in game.trace.splitlines()[1:]]
    pickups = [event for event in events if event["event"] == "pickup"]
    assert [(event["player"], event["cards"]) for event in pickups] == \
        [(0, THREE_SEAT_ORDERS[pickup])]


# The random pickup shuffles the pot with the rules' shuffle, then picks it up in
# (shuffled) pot order.  A given deal draws nothing, so the pot's shuffle makes the
# game's first draws.  Worked out here from the generator's rand() and '%' (section 4).

def fisher_yates(cards, rng):
    """For i = n - 1 down to 1: swap positions i and rand() % (i + 1)."""
    for i in range(len(cards) - 1, 0, -1):
        j = rng.rand() % (i + 1)
        cards[i], cards[j] = cards[j], cards[i]


def swap_each(cards, rng):
    """For i = 0 .. n - 1: swap positions i and rand() % n."""
    for i in range(len(cards)):
        j = rng.rand() % len(cards)
        cards[i], cards[j] = cards[j], cards[i]


def smu_shuffle(cards, rng):
    """104 times: c1 = rand() % n, then c2 = rand() % n; swap positions c1 and c2."""
    for _ in range(104):
        first = rng.rand() % len(cards)
        second = rng.rand() % len(cards)
        cards[first], cards[second] = cards[second], cards[first]


SHUFFLES = {"fisher-yates": fisher_yates, "swap-each": swap_each, "smu": smu_shuffle}


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("shuffle", list(SHUFFLES))
@pytest.mark.parametrize("seed", [1, 2, 17455, 2 ** 32 - 1])
def test_random_pickup_by_hand(engine, shuffle, seed):
    order = list(PICKUPS["A_WINS"]["pot-order"])
    SHUFFLES[shuffle](order, Rng(seed))
    game = play(engine, A_WINS, seed=seed, pickup="random", shuffle=shuffle)
    assert game.transcript == war_narration("King of Spades against 9 of Clubs", "A", order)
    assert hands(game) == (8, 0, 0, 0)


def test_the_random_pickups_differ():
    """The seeds above give different orders, so each one pins something down."""
    orders = set()
    for shuffle in SHUFFLES.values():
        for seed in (1, 2, 17455, 2 ** 32 - 1):
            order = list(PICKUPS["A_WINS"]["pot-order"])
            shuffle(order, Rng(seed))
            orders.add(tuple(order))
    assert len(orders) == 12


# Short wars (section 7.6), pickup pot-order.  B always holds 4D 6D 9C after the tie:
# enough (3 >= face_down + 1) for 2 down and 1 up.  A holds 0, 1 or 2 (= face_down).
#
# NONE  A: 5H        B: 5D 4D 6D 9C
# ONE   A: 5H KS     B: 5D 4D 6D 9C
# TWO   A: 5H 2H KS  B: 5D 4D 6D 9C     (the SHORT deal above)
#
# lose         every A: loses at once, before any card goes down; B wins and the
#              pot 5H 5D is stranded; A keeps what it holds.
# last-card    NONE: A loses at once, as under lose.
#              ONE: A puts 0 down and plays KS; B puts 4D 6D down and plays 9C; pot
#              5H 5D 4D 6D KS 9C; KS wins; A picks it up; B is out.
#              TWO: A puts 2H down and plays KS; pot 5H 5D 2H 4D 6D KS 9C; A wins it.
# all-but-one  NONE: A takes back 5H (out of pot position 0) and plays it again; B puts
#              4D 6D down and plays 9C: pot 5D 4D 6D 5H 9C; 9C wins; B picks it up.
#              ONE, TWO: as under last-card.
# iofall       NONE: A puts none down, B puts 4D 6D down, then A is out: B takes the
#              pot 5H 5D 4D 6D (no face-up pair, no war).
#              ONE: A puts max(1 - 1, 1) = 1 down (KS) and has none left: B takes
#              5H 5D KS 4D 6D.
#              TWO: n = face_down: A puts 2 down (2H KS) and is out: B takes
#              5H 5D 2H KS 4D 6D.
NONE = ([FIVE_H], [FIVE_D, FOUR_D, SIX_D, NINE_C])
ONE = ([FIVE_H, KING_S], [FIVE_D, FOUR_D, SIX_D, NINE_C])
TWO = SHORT
TIE = ("5 of Hearts against 5 of Diamonds", "War!")
A_OUT_AT_ONCE = narration(*TIE, "Player 2 wins")
A_WINS_ONE = narration(*TIE, "King of Spades against 9 of Clubs", "King of Spades wins",
                       *gets(1, [FIVE_H, FIVE_D, FOUR_D, SIX_D, KING_S, NINE_C]), "Player 1 wins")
A_WINS_TWO = narration(*TIE, "King of Spades against 9 of Clubs", "King of Spades wins",
                       *gets(1, [FIVE_H, FIVE_D, TWO_H, FOUR_D, SIX_D, KING_S, NINE_C]),
                       "Player 1 wins")
SHORT_WARS = {
    # (rule, deal): (transcript, winner, stranded, wars, hands at the end)
    ("lose", "NONE"): (A_OUT_AT_ONCE, "B", 2, 0, (0, 0, 3, 0)),
    ("lose", "ONE"): (A_OUT_AT_ONCE, "B", 2, 0, (1, 0, 3, 0)),
    ("lose", "TWO"): (A_OUT_AT_ONCE, "B", 2, 0, (2, 0, 3, 0)),
    ("last-card", "NONE"): (A_OUT_AT_ONCE, "B", 2, 0, (0, 0, 3, 0)),
    ("last-card", "ONE"): (A_WINS_ONE, "A", 0, 1, (6, 0, 0, 0)),
    ("last-card", "TWO"): (A_WINS_TWO, "A", 0, 1, (7, 0, 0, 0)),
    ("all-but-one", "NONE"): (
        narration(*TIE, "5 of Hearts against 9 of Clubs", "9 of Clubs wins",
                  *gets(2, [FIVE_D, FOUR_D, SIX_D, FIVE_H, NINE_C]), "Player 2 wins"),
        "B", 0, 1, (0, 0, 5, 0)),
    ("all-but-one", "ONE"): (A_WINS_ONE, "A", 0, 1, (6, 0, 0, 0)),
    ("all-but-one", "TWO"): (A_WINS_TWO, "A", 0, 1, (7, 0, 0, 0)),
    ("iofall", "NONE"): (
        narration(*TIE, *gets(2, [FIVE_H, FIVE_D, FOUR_D, SIX_D]), "Player 2 wins"),
        "B", 0, 0, (0, 0, 5, 0)),
    ("iofall", "ONE"): (
        narration(*TIE, *gets(2, [FIVE_H, FIVE_D, KING_S, FOUR_D, SIX_D]), "Player 2 wins"),
        "B", 0, 0, (0, 0, 6, 0)),
    ("iofall", "TWO"): (
        narration(*TIE, *gets(2, [FIVE_H, FIVE_D, TWO_H, KING_S, FOUR_D, SIX_D]),
                  "Player 2 wins"),
        "B", 0, 0, (0, 0, 7, 0)),
}
SHORT_DEALS = {"NONE": NONE, "ONE": ONE, "TWO": TWO}


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("rule, deal_name", list(SHORT_WARS))
def test_short_war_by_hand(engine, rule, deal_name):
    transcript, winner, stranded, wars, held = SHORT_WARS[rule, deal_name]
    game = play(engine, SHORT_DEALS[deal_name], short_war=rule, pickup="pot-order")
    assert game.transcript == transcript
    assert (game.winner, game.outcome, game.rounds) == (winner, "win", 1)
    assert (game.stranded, game.wars, game.ties) == (stranded, wars, 1)
    assert hands(game) == held


# Both run out in one war, under iofall (sections 7.6, 7.7).  Each holds 1 card after
# the tie (5H against 5D): n = 1 < face_down = 2, so each puts max(1 - 1, 1) = 1 down
# (A's, then B's) and has none left.  Nobody is left in the game: the last of the war's
# players wins, B (the program's Computer), whatever the cards, and takes the pot in
# pot order: the tied pair, then A's card down, then B's.
#
# KING_A  A: 5H KS   B: 5D 9C     B wins although A's card down is the higher
# KING_B  A: 5D 9C   B: 5H KS     B wins, and the pot is 5D 5H 9C KS
BOTH_OUT = {
    "KING_A": (([FIVE_H, KING_S], [FIVE_D, NINE_C]), [FIVE_H, FIVE_D, KING_S, NINE_C]),
    "KING_B": (([FIVE_D, NINE_C], [FIVE_H, KING_S]), [FIVE_D, FIVE_H, NINE_C, KING_S]),
}


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("deal_name", list(BOTH_OUT))
def test_iofall_both_run_out_in_one_war_and_b_wins(engine, deal_name):
    deal, pot = BOTH_OUT[deal_name]
    game = play(engine, deal, short_war="iofall", pickup="pot-order")
    tie = f"{NAMES[deal[0][0]]} against {NAMES[deal[1][0]]}"
    assert game.transcript == narration(tie, "War!", *gets(2, pot), "Player 2 wins")
    assert (game.winner, game.outcome, game.rounds, game.ties) == ("B", "win", 1, 1)
    assert (game.stranded, hands(game)) == (0, (0, 0, 4, 0))


@pytest.mark.parametrize("engine", ENGINES)
def test_a_player_with_enough_cards_is_not_short(engine):
    """A holds 3 = face_down + 1 after the tie: a whole war under every rule."""
    for rule in ("lose", "last-card", "all-but-one", "iofall"):
        game = play(engine, A_WINS, short_war=rule, pickup="pot-order")
        assert game.transcript == war_narration("King of Spades against 9 of Clubs", "A",
                                                PICKUPS["A_WINS"]["pot-order"]), rule
