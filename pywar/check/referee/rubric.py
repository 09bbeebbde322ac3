"""The rubric: one row per item, read by the referee, the grader, the reports, the
command line, the docs and the tests alike (docs/grading.md, section 1, is generated from
it and a test holds the two together).

    >>> [item.name for item in ITEMS][:4]
    ['builds', 'runs', 'format', 'deal']
    >>> ITEM["pickup"].short, ITEM["pickup"].weight
    ('pick', 1.0)
    >>> GAME_ITEMS == NAMES[2:11]
    True
    >>> RUBRIC.ties, asks(RUBRIC.format)
    ('ties', "the reference's format has")

An item is judged from one source: the build, each run's ending, what each run printed
(the game items, by the referee, on each seed it referees within its time) or
valgrind's run on one seed.  An item never put to
the test is not checked, and its example says why (the row's `unchecked`); a submission
whose build failed has every item but `builds` not checked, as the row's `depends` says.

No item's name is written as a string outside this module: the code names an item by
attribute (RUBRIC.ties, which fails loudly if misspelt).
"""

from dataclasses import dataclass


@dataclass(frozen=True)
class Item:
    """One item of the rubric: its name, the table's short heading, what is checked,
    what puts it to the test, why it may not be checked, its default weight, the items
    it depends on, and where it is judged from (build, run, game or memcheck)."""
    name: str
    short: str
    checks: str
    tested_by: str
    unchecked: str
    depends: tuple = ("builds",)
    source: str = "game"
    weight: float = 1.0

    @property
    def asks(self):
        """How an example of this item names what is required."""
        return asks(self.name)


ITEMS = (
    Item("builds", "build", "the build command succeeds and makes `{program}`", "the build",
         "there was nothing to build", depends=(), source="build"),
    Item("runs", "runs", "every run ends by itself with status 0, with no signal, timeout "
         "or output flood (but a game that a mistake of its own keeps going for ever, "
         "charged to that mistake's item)", "each seed (one the "
         "submission's `--budget` left unrun fails it, as a timeout does)", "the program did not build",
         source="run"),
    Item("format", "form", "the reference's words and layout, line for line",
         "each run that printed a line", "the program printed nothing"),
    Item("deal", "deal", "52 different cards, 26 each, listed", "each run that printed "
         "past the deal", "no run printed before it stopped"),
    Item("plays", "plays", "each battle plays the top card of each 'to play' pile",
         "a battle after a deal listed as the rules require",
         "no card could be placed (no battle after a deal listed as the rules require)"),
    Item("ranks", "ranks", "the higher rank wins, ace high", "a battle of two ranks",
         "no battle between two ranks was played"),
    Item("ties", "ties", "a tie plays another battle until it is broken, the pot kept",
         "a tie", "no tie was played on these seeds"),
    Item("pickup", "pick", "the winner takes the whole pot into its 'played' pile",
         "a battle won, with its counts printed",
         "no battle was won with the counts printed after it"),
    Item("refill", "refill", "an empty 'to play' pile is refilled from 'played' and "
         "shuffled, exactly when it should be", "a refill that was due, or one printed",
         "no refill was due on these seeds"),
    Item("counts", "count", "the pile counts printed are right",
         "a counts line (or a battle without one)", "no battle was played"),
    Item("end", "end", "the game ends exactly when a player runs out, and says who lost; "
         "both lose when both run out in one tie streak (the reference's \"26 ties in a "
         "row\")", "a player running out, or a run that ends",
         "no run played to its end (each stopped or crashed first)"),
    Item("memory", "mem", "valgrind memcheck on one seed: no error in its ERROR "
         "SUMMARY: no leak (definite, indirect or possible), no invalid read or write, no "
         "mismatched `delete` of a `new[]`", "the seed keyed to the submission's files (the "
         "same at every grading of them; with `--fresh 0`, the first seed); where that "
         "seed's run crashed or did not finish in time, the first fixed seed whose run "
         "ended by itself (a crash costs `runs`, not `memory` too); where none did, not "
         "checked if it did not finish (valgrind's, slower, would not either), nor if "
         "valgrind's was killed by SIGKILL",
         "the program did not build", source="memcheck"),
)
ITEM = {item.name: item for item in ITEMS}
NAMES = tuple(item.name for item in ITEMS)
GAME_ITEMS = tuple(item.name for item in ITEMS if item.source == "game")
RUBRIC = type("Items", (), {"__slots__": (), **{name: name for name in NAMES}})()
                                    # RUBRIC.ties: an item's name by attribute


def asks(name):
    """How an example of the item named (or of none) names what is required."""
    return "the reference's format has" if name == "format" else "the rules require"


def default_weights():
    """Each item's default weight: {name: weight}."""
    return {item.name: item.weight for item in ITEMS}
