"""What a line of a student's transcript means, whatever its words: docs/grading.md,
"What the referee understands".

    >>> meaning("Player A plays the Ace of Spades!")
    ('plays', 0, 38)
    >>> meaning("It's a tie... battle again!")
    ('tie',)
    >>> meaning("Player B wins the loot!")
    ('wins', 1)
    >>> meaning("Player A has 12 in their 'to play' pile and 3 in their 'played' pile.")
    ('counts', 0, 12, 3)
    >>> meaning("DEBUG: i = 3") is None
    True

A line is first normalised (lower case, every run of other characters than letters and
digits one space), then matched against one pattern per kind of line, in order.  The
reference's own words for each kind (pywar.check.referee) tell a departure from its format.
"""

import re

from .referee import (NAME_OF, OPENING, RANKS, SUITS, TIE_LINE, counts_line, lost_line,
                       plays_line, refill_lines, wins_line)

RANK_WORDS = {**{rank: number for number, rank in enumerate(RANKS)},
              **{str(number + 2): number for number in range(9)},
              "j": 9, "q": 10, "k": 11, "a": 12, "deuce": 0}
SUIT_WORDS = {**{suit: number for number, suit in enumerate(SUITS)},
              **{suit + "s": number for number, suit in enumerate(SUITS)}}
CARD = (rf"(?:the |a |an )?({'|'.join(sorted(RANK_WORDS, key=len, reverse=True))}) "
        rf"of ({'|'.join(sorted(SUIT_WORDS, key=len, reverse=True))})")
PLAYER = r"player ([ab])"
PATTERNS = (   # (kind, pattern on the normalised line), tried in this order
    ("welcome", r".*\bwelcome\b.*"),
    ("deck", r"shuffl\w*(?: the)?(?: initial)? deck\b.*"),
    ("initial", r"(?:the )?initial\b.*\bpiles?\b.*"),
    ("round", r"round (\d+)"),
    ("refill", PLAYER + r" (?:ran|runs|is) out of cards in (?:their|his|her|its|the) "
               r"to play pile.*"),
    ("refill", r"shuffl\w* (?:the )?" + PLAYER + r"(?: s)? (?:cards|pile|played pile).*"),
    ("refill", PLAYER + r" (?:refills|refilled|is refilling|gets cards from|takes (?:the )?"
               r"cards from) .*"),
    ("lost", r"both players (?:have )?(?:lost|lose)\b.*"),
    ("lost", PLAYER + r" (?:.* )?(?:has lost|lost|loses)\b.*"),
    ("counts", PLAYER + r"\D*?(\d+)\D*?\bto play\b\D*?(\d+)\D*?\bplayed\b.*"),
    ("counts", PLAYER + r"\D*?\bto play\b\D*?(\d+)\D*?\bplayed\b\D*?(\d+).*"),
    ("size", r"there (?:are|is) (\d+) cards?\b.*"),
    ("listed", r"(?:card )?(?:number |no )?(\d+) (?:is )?" + CARD),
    ("pile", PLAYER + r"(?: s)?(?: (?:initial|cards|pile|hand|deck|to play))*"),
    ("announce", r".*\b(?:wins|won) the game\b.*|.*\bis the winner\b.*|game over.*"),
    ("wins", PLAYER + r" (?:wins?|won|takes)\b.*"),
    ("tie", r".*\b(?:tie|tied|draw)\b.*"),
    ("plays", PLAYER + r" (?:.* )?" + CARD + r"(?: .*)?"),
)
COMPILED = tuple((kind, re.compile(pattern)) for kind, pattern in PATTERNS)


def normalised(line):
    """A line in lower case, each run of other characters than letters and digits one
    space."""
    return re.sub(r"[^a-z0-9]+", " ", line.lower()).strip()


def card_of(rank_word, suit_word):
    """The card's id (suit * 13 + rank) of a rank word and a suit word."""
    return SUIT_WORDS[suit_word] * 13 + RANK_WORDS[rank_word]


def fields(kind, groups):
    """The meaning's fields: players as 0 or 1, numbers as ints, cards as ids."""
    values = [group for group in groups if group is not None]
    if kind == "lost" and not values:
        return (0, 1)
    if kind in ("plays", "listed"):
        head, (rank, suit) = values[:-2], values[-2:]
        return tuple(" ab".index(v) - 1 if v in "ab" else int(v) for v in head) + (
            card_of(rank, suit),)
    return tuple("ab".index(v) if v in ("a", "b") else int(v) for v in values)


def meaning(line):
    """(kind, fields...) of a line, ('blank',) for a blank one, None for a line the
    referee does not understand."""
    text = normalised(line)
    if not text:
        return ("blank",)
    for kind, pattern in COMPILED:
        match = pattern.fullmatch(text)
        if match:
            return (kind, *fields(kind, match.groups()))
    return None


def reference_words(found, number=None):
    """The reference's own line for a meaning (number: a listed card's place), or None
    where the reference has no single line for it."""
    kind, *values = found
    words = {
        "welcome": lambda: OPENING[0], "deck": lambda: OPENING[2], "initial": lambda: OPENING[4],
        "round": lambda: f"======== Round {values[0]} ========",
        "pile": lambda: f"Player {'AB'[values[0]]}:",
        "size": lambda: f"There are {values[0]} cards in the pile.",
        "listed": lambda: f"Card {values[0]}, {NAME_OF[values[1]]}",
        "plays": lambda: plays_line(*values), "wins": lambda: wins_line(values[0]),
        "tie": lambda: TIE_LINE, "counts": lambda: counts_line(*values),
        "lost": lambda: lost_line(values[0]) if len(values) == 1 else None,
        "blank": lambda: "",
    }
    if kind == "refill":
        return None
    return words[kind]() if kind in words else None


def refill_words(player):
    """The reference's two refill lines of a player."""
    return refill_lines(player)[:2]
