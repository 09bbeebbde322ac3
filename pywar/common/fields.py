"""The fields of a game's result, one row each, and the facts every layer shares: the
outcomes, the players' names, the seed limit, the rules under which the seats are alike,
and text written to a stream as it goes.

C: struct PywarResult and struct PywarBatch, which pywar/_build.py writes from FIELDS
into csrc/fields.h when the core is built, with PYWAR_COLUMNS, the batch's columns that
Pywar_Store and the C drivers loop over, and PYWAR_SEATLESS from SEATLESS_PICKUPS.  The
batch arrays, the checked layer's result dict, the accumulator's statistics, the
summary and the CSV columns are built from FIELDS; Counts (below) and pywar.GameResult
are written out, and tests/test_fields.py holds them to it.  Standard library only, so
that the port can use it.
"""

from dataclasses import dataclass, field

from . import digest

OUTCOMES = ("win", "both-lose", "cycle", "capped", "draw")   # C: enum PywarOutcome
PLAYER_NAMES = "ABCDEFGH"                                # player 0 is A
SEED_LIMIT = 2 ** 32                                     # seeds are 32-bit: 0 to 2^32 - 1

# Swapping the players maps every game to its mirror image (docs/rules.md section 14)
# under a pickup by who won or by rank, not by seat (natural only without face-down
# cards, which it takes B's first), and a short war that favours no seat (iofall's gives
# B the game when both run out).  C: PYWAR_SEATLESS, which pywar/_build.py writes from
# these into csrc/fields.h; Python: pywar.twin.exact.seatless.
SEATLESS_PICKUPS = ("winner-first", "loser-first", "sorted")
SEATLESS_WITHOUT_FACE_DOWN = ("natural",)
SEATED_SHORT_WARS = ("iofall",)


@dataclass(frozen=True)
class Field:
    """One field of a game's result.  kind says how the layers treat it:
    'count' a per-game count that the statistics sum; 'winner', 'outcome', 'cycle' (-1
    in C and in a batch array for none), 'digest', 'piles' and 'depths' each their own.
    dtype is its batch array's NumPy dtype (None: not a batch array).  spread, if given,
    names it in the summary's mean and max; notable, if given, is (place, summary key,
    unit, line) of the game that gives its maximum: its place among the notable games,
    and the line that pywar simulate prints of it."""
    name: str
    dtype: object
    kind: str
    meaning: str
    spread: str = None
    notable: tuple = None


FIELDS = (
    Field("winner", "int8", "winner", "the winner's player number (0 is A), or None "
          "(C and batch: -1, PYWAR_NOBODY)"),
    Field("outcome", "int8", "outcome", "how the game ended: a name of OUTCOMES (C and "
          "batch: its index)"),
    Field("rounds", "int32", "count", "rounds played",
          notable=(1, "longest", "rounds", "longest seed {seed} ({value:,} rounds)")),
    Field("battles", "int32", "count", "face-up comparisons"),
    Field("ties", "int32", "count", "comparisons of equal ranks"),
    Field("wars", "int32", "count", "ties after which play went on into a war"),
    Field("longest_tie_streak", "int32", "count", "the most ties in a row"),
    Field("stranded", "int32", "count", "cards left in the pot at the end"),
    Field("piles", None, "piles", "each player's [to play, played] cards at the end"),
    Field("cycle_start", "int32", "cycle", "rounds before the repeating part, or None "
          "(C and batch: -1)"),
    Field("cycle_period", "int32", "cycle", "rounds in one repetition, or None (C and "
          "batch: -1)"),
    Field("digest", "uint64", "digest", "64-bit FNV-1a over the game's events "
          "(docs/rules.md)"),
    Field("lead_changes", "int32", "count", "times the player holding the most cards "
          "changed", spread="lead changes",
          notable=(4, "most_lead_changes", "changes", "most lead changes seed {seed} "
                   "({value:,})")),
    Field("biggest_pot", "int32", "count", "the most cards won in one round",
          spread="biggest pot"),
    Field("comeback", "int32", "count", "the largest deficit the winner came back from",
          spread="comeback", notable=(3, "biggest_comeback", "cards",
                   "biggest comeback seed {seed} ({value} cards)")),
    Field("deepest_war", "int32", "count", "the most wars in one round",
          notable=(2, "deepest_war", "wars", "deepest war seed {seed} ({value} wars)")),
    Field("refills", "int32", "count", "times a 'played' pile became 'to play'",
          spread="refills"),
    Field("war_rounds", "int32", "count", "rounds with at least one war (kbWar's single, "
          "double, triple ... wars added up)", spread="war rounds"),
    Field("war_depths", None, "depths", "{wars in a round: rounds with that many}; a batch "
          "sums them over its games"),
    Field("record", None, "record", "each player's [won, lost, tied] battles (one-card: "
          "the game's score)"),
)

RECORD_KEYS = ("won", "lost", "tied")    # a player's record of battles, in its order
BY_NAME = {row.name: row for row in FIELDS}
COUNTS = tuple(row.name for row in FIELDS if row.kind == "count")
BATCH_FIELDS = {row.name: row.dtype for row in FIELDS if row.dtype is not None}
SPREADS = tuple(row.name for row in FIELDS if row.spread)
NOTABLE_ROWS = sorted((row for row in FIELDS if row.notable), key=lambda row: row.notable)
NOTABLE = {row.notable[1]: (row.name, row.notable[2]) for row in NOTABLE_ROWS}
NOTABLE_LINES = {row.notable[1]: row.notable[3] for row in NOTABLE_ROWS}
CSV_COLUMNS = ("seed", "winner", "outcome", *COUNTS, "cycle_start", "cycle_period", "digest")


@dataclass
class Counts:
    """What a game counts, and how it ended, as it goes: C's zeroed struct PywarResult,
    as Python values (no winner, a win, no cycle, the digest's offset basis, empty
    piles).  One field a row of FIELDS, in its order (tests/test_fields.py)."""
    winner: object = None
    outcome: str = "win"
    rounds: int = 0
    battles: int = 0
    ties: int = 0
    wars: int = 0
    longest_tie_streak: int = 0
    stranded: int = 0
    piles: list = field(default_factory=list)
    cycle_start: object = None
    cycle_period: object = None
    digest: int = digest.OFFSET
    lead_changes: int = 0
    biggest_pot: int = 0
    comeback: int = 0
    deepest_war: int = 0
    refills: int = 0
    war_rounds: int = 0
    war_depths: dict = field(default_factory=dict)
    record: list = field(default_factory=list)


class StreamText:
    """Text that is written to a text stream as it is said. C: a PywarText with a sink."""

    def __init__(self, stream):
        self.stream = stream

    def append(self, words):
        """Write one piece of the text."""
        self.stream.write(words)


def text_target(wanted):
    """Where a transcript or trace goes: None for False, a list (to join) for True, a
    StreamText for a text stream."""
    if wanted is True:
        return []
    if wanted is False:
        return None
    return StreamText(wanted)


def check_seed(seed):
    """The seed as an int from 0 to 2^32 - 1, or a TypeError or ValueError."""
    if isinstance(seed, bool) or not hasattr(seed, "__index__"):
        raise TypeError(f"seed must be an integer from 0 to {SEED_LIMIT - 1}, "
                        f"not {type(seed).__name__}")
    seed = seed.__index__()
    if not 0 <= seed < SEED_LIMIT:
        raise ValueError(f"seed must be from 0 to {SEED_LIMIT - 1} (32 bits), not {seed}")
    return seed


def check_count(name, value, low=1, high=None):
    """value as an int from low to high, or a TypeError or ValueError naming them."""
    limit = "" if high is None else f" to {high:,}"
    if isinstance(value, bool) or not hasattr(value, "__index__"):
        raise TypeError(f"{name} must be an integer from {low}{limit}, "
                        f"not {type(value).__name__}")
    value = value.__index__()
    if value < low or (high is not None and value > high):
        raise ValueError(f"{name} must be an integer from {low}{limit}, not {value}")
    return value
