"""The reference program's vocabulary: its cards, its players and its lines, and the
plain words the referee's findings use.  The one place the check package names a card
(the referee keeps its own words and uses no engine; docs/rules.md cites the reference);
the words themselves are read from SMU's assignment file, pywar/check/assignment/smu.toml.

    >>> NAME_OF[38], CARD_NAMES["ace of spades"], ACE, rank_of(38), suit_of(38)
    ('ace of spades', 38, 12, 12, 2)
    >>> plays_line(0, 38)
    'Player A plays ace of spades'
    >>> the_card(7), a_rank(6), cards(1), both((0, 1))
    ('the nine of hearts', 'an eight', '1 card', 'player A and player B')
"""

import re
import sys
from importlib import resources

if sys.version_info >= (3, 11):
    import tomllib
else:                                   # pragma: no cover (Python 3.10: pyproject's tomli)
    import tomli as tomllib

REFERENCE_FILE = ("pywar.check.assignment", "smu.toml")    # SMU's assignment file


def reference_wording():
    """The [wording] of SMU's assignment file, the one place the reference's words are
    written (pywar.check.assignment.file checks the file; tests/test_assignment.py holds
    these words to the reference's transcripts)."""
    package, name = REFERENCE_FILE
    text = resources.files(package).joinpath(name).read_text(encoding="utf-8")
    return tomllib.loads(text)["wording"]


WORDING = reference_wording()
LINES = WORDING["lines"]            # each line's template
RANKS = tuple(WORDING["ranks"])     # from the two to the ace
SUITS = tuple(WORDING["suits"])
ACE = len(RANKS) - 1              # a card's rank (rank_of), the ace highest
PLAYERS = tuple(WORDING["players"])     # the reference's two players
DECK = len(RANKS) * len(SUITS)    # the reference's deck: 52 cards
HAND = DECK // len(PLAYERS)
OPENING = tuple(WORDING["opening"])
TIE_LINE = LINES["tie"]
ROUND_HEADER = LINES["round"]


def card_id(suit, rank):
    """A card's id by its suit and rank (numbers from 0: the heart, the two)."""
    return suit * len(RANKS) + rank


def rank_of(card):
    """A card's rank: 0 for the two, ACE for the ace."""
    return card % len(RANKS)


def suit_of(card):
    """A card's suit, as SUITS numbers them."""
    return card // len(RANKS)


def card_names():
    """Every card's name in the reference's words, and its id (card_id)."""
    return {WORDING["card"].format(rank=rank, suit=suit): card_id(suit_number, rank_number)
            for suit_number, suit in enumerate(SUITS)
            for rank_number, rank in enumerate(RANKS)}


CARD_NAMES = card_names()           # a card's name -> its id (rubric.NAMES are the items')
NAME_OF = {card: name for name, card in CARD_NAMES.items()}


# ---- The reference's lines

def round_line(number):
    """A round's header."""
    return ROUND_HEADER.format(number=number)


def pile_line(player):
    """The heading of a player's pile in the deal."""
    return LINES["pile"].format(player=PLAYERS[player])


def size_line(size):
    """A pile's size in the deal."""
    return LINES["size"].format(count=size)


def listed_line(place, card):
    """A card of the deal's listing (place 1 is the bottom of the pile)."""
    return LINES["listed"].format(place=place, card=NAME_OF[card])


def plays_line(player, card):
    """The line of a player's face-up card."""
    return LINES["plays"].format(player=PLAYERS[player], card=NAME_OF[card])


def wins_line(player):
    """The line of a won battle."""
    return LINES["wins"].format(player=PLAYERS[player])


def refill_lines(player):
    """The lines of a refill (the reference's three)."""
    return tuple(line.format(player=PLAYERS[player]) for line in LINES["refill"])


def counts_line(player, to_play, played):
    """A player's pile counts after a battle."""
    return LINES["counts"].format(player=PLAYERS[player], to_play=to_play, played=played)


def lost_line(player):
    """The line of a player who has run out."""
    return LINES["lost"].format(player=PLAYERS[player])


def line_pattern(kind, **fields):
    """A line's template as a regular expression, each field named a group of the
    pattern given ({player} as the players' names: line_pattern("plays", player="A|B",
    card=".*"))."""
    regex = re.escape(LINES[kind])
    for name, pattern in fields.items():
        regex = regex.replace(re.escape(f"{{{name}}}"), f"(?P<{name}>{pattern})", 1)
    return re.compile(regex)


# ---- Plain words for findings

def article(word):
    """'a' or 'an' before a word."""
    return "an" if word[0] in "aeiou" else "a"


def the_card(card):
    """A card in words: 'the eight of hearts'."""
    return f"the {NAME_OF[card]}"


def a_rank(card):
    """A card's rank with its article: 'an eight'."""
    rank = RANKS[rank_of(card)]
    return f"{article(rank)} {rank}"


def cards(count):
    """'1 card', '12 cards'."""
    return f"{count} card" + ("" if count == 1 else "s")


def player(number):
    """'player A'."""
    return f"player {PLAYERS[number]}"


def both(numbers):
    """'player A', 'player A and player B'."""
    return " and ".join(player(n) for n in numbers)
