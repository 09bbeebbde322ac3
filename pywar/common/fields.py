"""The fields of a game's result, one row each, and the facts every layer shares: the
outcomes, the players' names, the seed limit, and text written to a stream as it goes.

C: struct PywarResult and struct PywarBatch (csrc/pywar.h); tests/test_fields.py holds
the table against both.  The batch arrays, the checked layer's result dict, the
accumulator's statistics, the summary, the CSV columns, the observer's and the twin's
Counts and pywar.GameResult are all built from FIELDS.  Standard library only, so that
the port can use it.
"""

from dataclasses import dataclass, field, make_dataclass

from . import digest

OUTCOMES = ("win", "both-lose", "cycle", "capped")       # C: enum PywarOutcome
PLAYER_NAMES = "ABCDEFGH"                                # player 0 is A
SEED_LIMIT = 2 ** 32                                     # seeds are 32-bit: 0 to 2^32 - 1
REQUIRED = object()                                      # a GameResult field without a default


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
    default: object = REQUIRED           # GameResult's default, for the fields added later


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
          "(C and batch: -1)", default=None),
    Field("cycle_period", "int32", "cycle", "rounds in one repetition, or None (C and "
          "batch: -1)", default=None),
    Field("digest", "uint64", "digest", "64-bit FNV-1a over the game's events "
          "(docs/rules.md)"),
    Field("lead_changes", "int32", "count", "times the player holding the most cards "
          "changed", spread="lead changes",
          notable=(4, "most_lead_changes", "changes", "most lead changes seed {seed} "
                   "({value:,})"), default=0),
    Field("biggest_pot", "int32", "count", "the most cards won in one round",
          spread="biggest pot", default=0),
    Field("comeback", "int32", "count", "the largest deficit the winner came back from",
          spread="comeback", notable=(3, "biggest_comeback", "cards",
                   "biggest comeback seed {seed} ({value} cards)"),
          default=0),
    Field("deepest_war", "int32", "count", "the most wars in one round",
          notable=(2, "deepest_war", "wars", "deepest war seed {seed} ({value} wars)"), default=0),
    Field("refills", "int32", "count", "times a 'played' pile became 'to play'",
          spread="refills", default=0),
    Field("war_depths", None, "depths", "{wars in a round: rounds with that many}; a batch "
          "sums them over its games", default=None),
)

BY_NAME = {row.name: row for row in FIELDS}
COUNTS = tuple(row.name for row in FIELDS if row.kind == "count")
BATCH_FIELDS = {row.name: row.dtype for row in FIELDS if row.dtype is not None}
SPREADS = tuple(row.name for row in FIELDS if row.spread)
NOTABLE_ROWS = sorted((row for row in FIELDS if row.notable), key=lambda row: row.notable)
NOTABLE = {row.notable[1]: (row.name, row.notable[2]) for row in NOTABLE_ROWS}
NOTABLE_LINES = {row.notable[1]: row.notable[3] for row in NOTABLE_ROWS}
CSV_COLUMNS = ("seed", "winner", "outcome", *COUNTS, "cycle_start", "cycle_period", "digest")


def count_default(row):
    """A field's starting value while a game is counted: C's zeroed struct, as Python
    values (no winner, a win, no cycle, the digest's offset basis, empty piles)."""
    starts = {"winner": None, "outcome": "win", "cycle": None, "digest": digest.OFFSET}
    if row.kind == "piles":
        return field(default_factory=list)
    if row.kind == "depths":
        return field(default_factory=dict)
    return field(default=starts.get(row.kind, 0))


Counts = make_dataclass("Counts", [(row.name, object, count_default(row)) for row in FIELDS])
Counts.__module__ = __name__                # where pickle finds it
Counts.__doc__ = "What a game counts, and how it ended. C: struct PywarResult."


def result_fields():
    """GameResult's fields from the table: those without a default first, in table order."""
    rows = sorted(FIELDS, key=lambda row: row.default is not REQUIRED)
    return [(row.name, object) if row.default is REQUIRED else
            (row.name, object, field(default=row.default)) for row in rows]


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
