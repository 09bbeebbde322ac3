"""Rules as data: the dimensions of a game of War, and the named presets.

Each dimension's values are listed in the order of the C core's enums
(csrc/pywar.h), so a value's index is its C number.  docs/rules.md says what
every value means.
"""

from collections import Counter
from dataclasses import asdict, dataclass, replace
from functools import partial

from .common.fields import OUTCOMES  # noqa: F401 (the rules module has always offered it)

SHORT_WARS = ("lose", "last-card", "all-but-one", "iofall")
PICKUPS = ("smu", "pot-order", "random", "winner-first", "loser-first",
           "seat-interleaved", "seat-block", "natural", "sorted")
PILES = ("to-play+played", "queue")
SHUFFLES = ("smu", "swap-each", "fisher-yates")
NARRATIONS = ("smu", "lehigh", "iofall")
REFILLS = ("shuffle", "keep")
GAMES = ("war", "one-card")
MAX_FACE_DOWN = 25
MAX_PLAYERS = 8
MAX_ROUNDS_LIMIT = 100_000_000
MAX_CARDS = 52
DECK_HELP = f"RxS: R ranks times S suits, at most {MAX_CARDS} cards (13x4 is the standard deck)"
DIMENSIONS = ("face_down", "short_war", "pickup", "piles", "shuffle", "max_rounds",
              "detect_cycles", "deck", "players", "refill", "game")

CHOICES = {
    "short_war": SHORT_WARS,
    "pickup": PICKUPS,
    "piles": PILES,
    "shuffle": SHUFFLES,
    "narration": NARRATIONS,
    "refill": REFILLS,
    "game": GAMES,
}

# What a one-card game leaves at its default, as it plays no war and wins no cards back
# (docs/rules.md 7.10): any other value of these is refused.  (detect_cycles=False is
# refused by check: with these, no game can repeat.)
ONE_CARD_FIXED = {"face_down": 0, "short_war": "lose", "pickup": "smu",
                  "piles": "to-play+played", "refill": "shuffle"}


def python_name(setting):
    """How a message names a setting in Python: as itself, but detect_cycles, which is
    refused only when off, by that value, detect_cycles=False."""
    return "detect_cycles=False" if setting == "detect_cycles" else setting


@dataclass(frozen=True)
class Setting:
    """A setting and a value for it, in a RulesError's message: spelled engine='python'
    in Python's words, --engine python in the command line's."""
    name: str
    value: object

    def spelled(self, naming):
        """The setting as naming names it, with its value."""
        named = naming(self.name)
        return f"{named} {self.value}" if named.startswith("-") else f"{named}={self.value!r}"


class RulesError(ValueError):
    """A refused rule setting, in one line.  Its template names the settings (the
    dimensions, engine and stack) as fields, {face_down}; str() names them as Python
    does, named(naming) as a caller does (the command line: --face-down).  A value that
    is a Setting is spelled the same way (engine='python', --engine python)."""

    def __init__(self, template, **values):
        self.template = template
        self.values = values
        super().__init__(self.named(python_name))

    def named(self, naming):
        """The message with each setting named by naming(setting)."""
        settings = {setting: naming(setting) for setting in (*DIMENSIONS, "engine", "stack")}
        values = {key: value.spelled(naming) if isinstance(value, Setting) else value
                  for key, value in self.values.items()}
        return self.template.format(**settings, **values)

    def __reduce__(self):
        return partial(type(self), **self.values), (self.template,)


def is_whole_number(value):
    """True for an integer (an int, or a NumPy integer) that is not a bool."""
    return hasattr(value, "__index__") and not isinstance(value, (bool, str))


def parse_deck(deck):
    """(ranks, suits) of a deck named 'RxS', or a ValueError saying what is valid."""
    try:
        ranks, suits = (int(part) for part in deck.split("x"))
    except (AttributeError, ValueError):
        ranks = suits = 0
    if ranks < 1 or suits < 1 or ranks * suits > MAX_CARDS or f"{ranks}x{suits}" != deck:
        raise RulesError("{deck} must be {valid}, not {given!r}", valid=DECK_HELP, given=deck)
    return ranks, suits


def can_cycle(rules):
    """True when nothing random happens after the deal, so a game can repeat itself:
    a fixed pickup order, and no refill that shuffles (queue piles, or refill 'keep')."""
    fixed_refills = rules.piles == "queue" or rules.refill == "keep"
    return fixed_refills and rules.pickup != "random"


def check_range(rules, name, low, high):
    """Raise TypeError for a dimension that is not a whole number, RulesError for one out
    of low .. high."""
    value = getattr(rules, name)
    if not is_whole_number(value):
        raise TypeError(f"{name} must be an int, not {type(value).__name__}")
    if not low <= value <= high:
        raise RulesError("{%s} must be from {low} to {high:,}, not {value}" % name,
                         low=low, high=high, value=value)


def check_one_card(rules):
    """Raise RulesError for a one-card game with a war's setting other than its default."""
    if rules.game != "one-card":
        return
    for name, default in ONE_CARD_FIXED.items():
        if getattr(rules, name) != default:
            kept = ", ".join(f"{{{key}}} {value!r}" for key, value in ONE_CARD_FIXED.items())
            raise RulesError("{game} 'one-card' plays no war and wins no cards back, so it "
                             "keeps " + kept + ", not {setting}",
                             setting=Setting(name, getattr(rules, name)))


def check(rules):
    """Raise TypeError or ValueError (a RulesError), naming what is valid, for a bad Rules
    value."""
    for name, choices in CHOICES.items():
        value = getattr(rules, name)
        if value not in choices:
            raise ValueError(f"unknown {name} {value!r}: choose one of {', '.join(choices)}")
    check_range(rules, "face_down", 0, MAX_FACE_DOWN)
    check_range(rules, "max_rounds", 1, MAX_ROUNDS_LIMIT)
    if not isinstance(rules.detect_cycles, bool):
        raise TypeError("detect_cycles must be True or False")
    check_range(rules, "players", 2, MAX_PLAYERS)
    check_one_card(rules)
    ranks, suits = parse_deck(rules.deck)
    if ranks * suits < rules.players:
        raise RulesError("{deck} {deck_name!r} has too few cards to deal one to each of "
                         "{count} players", deck_name=rules.deck, count=rules.players)
    if not rules.detect_cycles and not can_cycle(rules):
        raise RulesError("{detect_cycles} means nothing here: only games with a {pickup} "
                         "other than 'random' and {piles} 'queue' or {refill} 'keep' can "
                         "repeat")
    if rules.refill == "keep" and rules.piles == "queue":
        raise RulesError("{refill} 'keep' means nothing with {piles} 'queue': a queue is "
                         "never refilled")


@dataclass(frozen=True)
class Rules:
    """One way to play War. Build one with preset() or Rules(...); check() validates."""
    name: str = "custom"
    face_down: int = 0
    short_war: str = "lose"
    pickup: str = "smu"
    piles: str = "to-play+played"
    shuffle: str = "smu"
    narration: str = "smu"
    max_rounds: int = 10_000_000
    detect_cycles: bool = True
    deck: str = "13x4"
    players: int = 2
    refill: str = "shuffle"
    game: str = "war"

    def __post_init__(self):
        check(self)
        for name in ("face_down", "max_rounds", "players"):   # NumPy integers become ints
            object.__setattr__(self, name, getattr(self, name).__index__())

    def to_dict(self):
        """The rules as a plain dict, for JSON."""
        return asdict(self)


PRESETS = {
    "smu": Rules(name="smu"),
    "lehigh": Rules(name="lehigh", face_down=3, short_war="all-but-one", pickup="pot-order",
                    piles="queue", shuffle="swap-each", narration="lehigh",
                    max_rounds=1_000_000),
    "iofall": Rules(name="iofall", face_down=3, short_war="iofall", pickup="random",
                    piles="queue", shuffle="fisher-yates", narration="iofall",
                    max_rounds=100_000),
    "iofall-single": Rules(name="iofall-single", face_down=1, short_war="iofall",
                           pickup="random", piles="queue", shuffle="fisher-yates",
                           narration="iofall", max_rounds=100_000),
    "cecs325": Rules(name="cecs325", game="one-card"),
}

# Other programs' rules as dimensions over smu (docs/rules.md 12.1; tests/test_peers.py
# holds pywar to their published figures).  rustwar (sambecker/rustwar): two piles, the
# pot in draw order (A's and B's cards in turn), a war of three down and one up, a player
# who cannot draw loses, 10,000 turns at most; its won pile shuffled (refill "shuffle")
# or played as it lies ("keep").  kevinabrandon/kbWar, default settings: one queue each,
# the pot shuffled before it goes under, a war of min(cards, 4) - 1 down and one up,
# 20,000 turns at most.
PEERS = {
    "rustwar": dict(face_down=3, short_war="lose", pickup="seat-interleaved",
                    shuffle="fisher-yates", max_rounds=10_000),
    "kbwar": dict(piles="queue", pickup="random", shuffle="fisher-yates", face_down=3,
                  short_war="last-card", max_rounds=20_000),
}

PRESET_HELP = {
    "smu": "SMU CSE1342 reference: no face-down cards, two piles, byte-exact transcript",
    "lehigh": "Lehigh design: war of 3 down 1 up, a queue, winnings in pot order",
    "iofall": "iofall/War: war of 3 down 1 up, a queue, the pot shuffled for the winner",
    "iofall-single": "iofall/War's war_single_routine: war of 1 down 1 up",
    "cecs325": "CSULB CECS 325 One Card WAR: 26 single battles, no war, no cards won back",
}


def players(rules):
    """How many players the rules seat."""
    return rules.players


def deck_size(rules):
    """How many cards the rules' deck has."""
    ranks, suits = parse_deck(rules.deck)
    return ranks * suits


def check_deal(deal, rules):
    """A given deal as a tuple of hands (tuples of card ids), or a ValueError: one hand
    per player, each with at least one card, distinct ids of the deck."""
    size, seats = deck_size(rules), players(rules)
    shape = f"a deal is {seats} sequences of card ids (integers 0 to {size - 1}), one per player"
    try:
        hands = tuple(tuple(hand) for hand in deal)
    except TypeError:
        raise ValueError(shape) from None
    cards = [card for hand in hands for card in hand]
    if len(hands) != seats or not all(is_whole_number(card) for card in cards):
        raise ValueError(shape)
    cards = [card.__index__() for card in cards]
    if not all(hands):
        raise ValueError("a deal gives each player at least one card")
    outside = [card for card in cards if not 0 <= card < size]
    twice = [card for card, count in Counter(cards).items() if count > 1]
    if outside or twice:
        wrong = (f"{outside[0]} is not a card of the deck" if outside
                 else f"card {twice[0]} is dealt {cards.count(twice[0])} times")
        raise ValueError(f"a deal holds distinct card ids from 0 to {size - 1}: {wrong}")
    return tuple(tuple(card.__index__() for card in hand) for hand in hands)


DEAL_HELP = "A's cards/B's cards, each a comma-separated list of card ids, top first (e.g. 2,0/1)"


def parse_deal(text):
    """The hands of a deal written 'A's ids/B's ids', each top first ('2,0/1'), or a
    ValueError saying how to write one; check_deal checks the ids against a deck."""
    try:
        hands = tuple(tuple(int(card) for card in hand.split(",")) for hand in text.split("/"))
    except (AttributeError, ValueError):
        raise ValueError(f"a deal is {DEAL_HELP}, not {text!r}") from None
    if len(hands) != 2:
        raise ValueError(f"a deal is {DEAL_HELP}, not {text!r}")
    return hands


def c_numbers(rules):
    """The rules as the C core's PywarRules fields, by name, in struct order (pywar.h):
    a dict that cffi takes for the struct, and whose values the C drivers of tests/ and
    bench/ take as arguments."""
    ranks, suits = parse_deck(rules.deck)
    return {"face_down": rules.face_down, "short_war": SHORT_WARS.index(rules.short_war),
            "pickup": PICKUPS.index(rules.pickup), "piles": PILES.index(rules.piles),
            "shuffle": SHUFFLES.index(rules.shuffle),
            "narration": NARRATIONS.index(rules.narration), "max_rounds": rules.max_rounds,
            "detect_cycles": int(rules.detect_cycles), "players": rules.players,
            "ranks": ranks, "suits": suits, "refill": REFILLS.index(rules.refill),
            "game": GAMES.index(rules.game)}


def preset(name):
    """The Rules of a named preset."""
    if isinstance(name, Rules):
        return name
    if not isinstance(name, str):
        raise TypeError(f"rules must be a preset name ({', '.join(PRESETS)}) or a Rules "
                        f"value, not {type(name).__name__}")
    if name not in PRESETS:
        raise ValueError(f"unknown rules {name!r}: choose one of {', '.join(PRESETS)}")
    return PRESETS[name]


def make_rules(rules="smu", **dimensions):
    """A preset (or Rules value) with some dimensions set over it."""
    base = preset(rules)
    unknown = sorted(set(dimensions) - set(DIMENSIONS))
    if unknown:
        raise TypeError(f"unknown rule dimension {unknown[0]!r}: choose from "
                        f"{', '.join(DIMENSIONS)}")
    given = {key: value for key, value in dimensions.items() if value is not None}
    candidate = replace(base, **given)                      # checks every given value
    changed = [key for key in DIMENSIONS if key in given
               and getattr(candidate, key) != getattr(base, key)]
    if not changed:
        return base
    label = ",".join([base.name] + [f"{key}={getattr(candidate, key)}" for key in changed])
    return replace(candidate, name=label)
