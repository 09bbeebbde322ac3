"""An assignment file read and checked: FIELDS is every field it may hold (docs/grading.md,
section 8, is written from it and a test holds the two together); load() reads one into
an Assignment, or raises AssignmentError, one line naming the field and what is valid,
before any work.

    >>> smu = builtin("smu")
    >>> smu.name, smu.rules.name, smu.build
    ('smu', 'smu', 'g++ -std=c++17 -O1 -o {program} ./*.cpp')
    >>> smu.wording.line("plays", player=0, card=38)
    'Player A plays ace of spades'
    >>> smu.wording.card_name(7)
    'nine of hearts'
    >>> loads('format = "pywar-assignment"\\nversion = 2\\n')
    Traceback (most recent call last):
    ...
    pywar.check.assignment.file.AssignmentError: version 2: this pywar reads version 1
"""

import hashlib
import math
import re
import string
import sys
from dataclasses import dataclass, replace
from functools import cached_property, lru_cache
from importlib import resources

if sys.version_info >= (3, 11):
    import tomllib
else:                                   # pragma: no cover (Python 3.10: pyproject's tomli)
    import tomli as tomllib

from ...rules import DIMENSIONS, PRESETS, RulesError, make_rules, parse_deck
from ..referee.rubric import NAMES as ITEMS

FORMAT = "pywar-assignment"         # the file's `format`, what it is
VERSION = 1                         # the `version` this pywar reads
BUILTIN = ("smu", "cecs325")                 # the assignments that ship in the package (NAME.toml)
ACES = ("high", "low")
DEALS = ("piles", "deck", "none")   # what the deal lists: each player's pile, the shuffled
                                    # deck, nothing

# Each line's template: the fields it may name, and those it must (the line says nothing
# the referee can place without them).
LINES = {
    "round": (("number",), ("number",)),
    "pile": (("player",), ("player",)),
    "size": (("count",), ("count",)),
    "listed": (("place", "card"), ("card",)),
    "plays": (("player", "card"), ("player", "card")),
    "wins": (("player",), ("player",)),
    "tie": ((), ()),
    "refill": (("player",), ()),
    "counts": (("player", "to_play", "played"), ("player", "to_play", "played")),
    "lost": (("player",), ("player",)),
}
# A one-card game's lines (rules game = "one-card", wording deal = "deck"): the deck listed
# as made and as shuffled, in rows; each battle's header lines, its plays and verdict;
# the statistics at the end.  A stats number may be padded as C++'s setw pads it:
# {wins1:<12}, left-aligned in 12 columns.
STATS_FIELDS = ("player1", "player2", "wins1", "wins2", "losses1", "losses2", "ties1",
                "ties2")
ONE_CARD_LINES = {
    "unshuffled": ((), ()),
    "shuffled": ((), ()),
    "row": (("cards",), ("cards",)),
    "battle": (("number",), ()),
    "plays": (("player", "card"), ("player", "card")),
    "wins": (("player",), ("player",)),
    "tie": ((), ()),
    "stats": (STATS_FIELDS, ()),
}
ONE_CARD_LEFT_OUT = ("pickup", "refill")  # the rubric's items a one-card game has not
BLANK_KINDS = ("round", "pile", "size", "listed", "plays", "wins", "tie", "counts", "lost")
SMU_BLANKS = ("listed", "wins", "tie", "counts", "lost")   # SMU's blank lines: after
                    # a pile's last card, a verdict, the last player's counts, the loser (a
                    # refill's is its template's last line, an opening's among its lines)
LISTS = ("refill", "battle", "stats")   # kinds of more than one line: a list of templates
PADDED = STATS_FIELDS[2:]               # fields that may be padded ({wins1:<12})
PAD = re.compile(r"[<>]([1-9][0-9]?)")  # a padding: left (<) or right (>), 1 to 99 columns
CARD_FIELDS = ("rank", "suit")


def lines_of(game):
    """The line kinds of a game of the rules ("war" or "one-card"): {kind: (may, must)}."""
    return ONE_CARD_LINES if game == "one-card" else LINES


def game_of(rules):
    """The rules' game: "war", or "one-card" (single battles, nothing won back)."""
    return getattr(rules, "game", "war")


@dataclass(frozen=True)
class Entry:
    """A field of an assignment file (a row of FIELDS): its dotted path, its kind,
    whether it must be given, and what it means."""
    path: str
    kind: str
    required: bool
    meaning: str


def line_field(kind, table=LINES, game="war"):
    """The Entry of a line's template, of a game's table of kinds."""
    may, must = table[kind]
    names = ", ".join(f"`{{{name}}}`" for name in may) or "no field"
    needs = f"; it must name {', '.join(f'`{{{n}}}`' for n in must)}" if must else ""
    what = "a list of templates, a line each" if kind in LISTS else "a template"
    where = "" if game == "war" else f" (a {game} game's)"
    return Entry(f"wording.lines.{kind}", "list of strings" if kind in LISTS else
                 "string", True, f"the {kind} line{where}, {what}: it may name {names}{needs}")


ONE_CARD_ONLY = tuple(kind for kind in ONE_CARD_LINES if kind not in LINES)


FIELDS = (
    Entry("format", "string", True, f'what the file is: `"{FORMAT}"`'),
    Entry("version", "integer", True, f"the version of this format: `{VERSION}`"),
    Entry("assignment.name", "string", True, "a short name (letters, digits, `-`, `_`)"),
    Entry("assignment.title", "string", True, "the assignment's title, for a person"),
    Entry("assignment.source", "string", False, "where the assignment comes from: its "
          "handout, course and term"),
    Entry("rules.preset", "string", True, "a preset of `pywar rules`: " +
          ", ".join(f"`{name}`" for name in PRESETS)),
    Entry("rules.DIMENSION", "as `pywar rules`", False, "a rule dimension set over the "
          "preset: " + ", ".join(f"`{name}`" for name in DIMENSIONS)),
    Entry("wording.players", "list of strings", True, "each player's name as the lines "
          "write it, the first player's first (one a player of the rules)"),
    Entry("wording.ranks", "list of strings", True, "the ranks' names, from the two to the "
          "ace (one a rank of the rules' deck)"),
    Entry("wording.suits", "list of strings", True, "the suits' names, in the deck's order "
          "of suits (one a suit of the rules' deck)"),
    Entry("wording.card", "string", True, "a card's name, a template naming `{rank}` and "
          "`{suit}`"),
    Entry("wording.ace", "string", True, "the ace ranks " + " or ".join(
        f"`{value}`" for value in ACES)),
    Entry("wording.deal", "string", True, "what the deal lists: `piles` (each player's "
          "pile: its heading, its size and its cards), `deck` (the shuffled deck) or `none`"),
    Entry("wording.opening", "list of strings", True, "the lines before the deal, as "
          "printed (no template)"),
    Entry("wording.between", "string", False, "what separates the cards of a row of the "
          "deck's listing (`deal = \"deck\"`; default `\", \"`)"),
    Entry("wording.blank_after", "list of strings", False, "a war game's: the kinds of "
          "line a blank line follows (`listed`: a pile's last card; `counts`: the last "
          "player's counts; a refill's blank line is its template's, an opening's among its "
          "lines), of " + ", ".join(f"`{kind}`" for kind in BLANK_KINDS) + "; default "
          "SMU's, " + ", ".join(f"`{kind}`" for kind in SMU_BLANKS)),
    Entry("wording.per_row", "integer", False, "the cards of a full row of the deck's "
          "listing (`deal = \"deck\"`; default all the deck's, one row)"),
    *(line_field(kind) for kind in LINES),
    *(line_field(kind, ONE_CARD_LINES, "one-card") for kind in ONE_CARD_ONLY),
    Entry("build.command", "string", True, "the shell command that builds `{program}` in "
          "a copy of the submission (as `--build`)"),
    Entry("run.command", "string", True, "the command of one run, naming `{program}` (and "
          "`{seed}` for a program that takes it; as `--run`)"),
    Entry("run.stdin", "string", False, "what each run reads on its standard input "
          '(default `""`, nothing)'),
    Entry("rubric.memory", "boolean", True, "whether the memory item is graded (valgrind "
          "memcheck on the seed keyed to the submission's files; `false` is `--no-memory`)"),
    Entry("rubric.weights", "table of numbers", True, "each item's points, every item of "
          "the rubric named: " + ", ".join(f"`{item}`" for item in ITEMS)),
)
FIELD = {field.path: field for field in FIELDS}


class AssignmentError(ValueError):
    """A bad assignment file, in one line naming the field and what is valid."""


@dataclass(frozen=True)
class Wording:
    """How the assignment's program words its game: the players', ranks' and suits'
    names, a card's template, the ace's rank, what the deal lists, the opening lines
    and each line's template."""
    players: tuple
    ranks: tuple
    suits: tuple
    card: str
    ace: str
    deal: str
    opening: tuple
    lines: tuple                        # (kind, template or tuple of templates) in the
                                        # order of its game's kinds (LINES, ONE_CARD_LINES)
    between: str = ", "                 # between a deck row's cards (deal "deck")
    blank_after: tuple = SMU_BLANKS     # a war game's kinds of line a blank one follows
    per_row: int = None                 # a full row's cards (None: the whole deck)

    def card_name(self, card):
        """A card's name (its id, as pywar numbers cards: suit * ranks + rank)."""
        suit, rank = divmod(card, len(self.ranks))
        return self.card.format(rank=self.ranks[rank], suit=self.suits[suit])

    def line(self, kind, **values):
        """A line of a kind (of its game's kinds) with its values: a player's number, a
        card's id, a number, a row's cards' ids; a list kind's lines as a tuple."""
        named = dict(values)
        if "player" in named:
            named["player"] = self.players[named["player"]]
        if "card" in named:
            named["card"] = self.card_name(named["card"])
        if "cards" in named:
            named["cards"] = self.between.join(map(self.card_name, named["cards"]))
        template = dict(self.lines)[kind]
        if isinstance(template, tuple):
            return tuple(part.format(**named) for part in template)
        return template.format(**named)

    @cached_property
    def card_names(self):
        """Every card's name, by its id (made once a wording)."""
        return tuple(self.card_name(card) for card in range(len(self.ranks) * len(self.suits)))

    def names(self):
        """{field: the texts it may be} of the fields that name a player, rank, suit or card."""
        cards = self.card_names
        card = "|".join(map(re.escape, sorted(cards, key=len, reverse=True)))
        return {"player": self.players, "rank": self.ranks, "suit": self.suits,
                "card": cards, "player1": self.players[:1], "player2": self.players[1:2],
                "cards": (f"(?:{card})(?:{re.escape(self.between)}(?:{card}))*"
                          f"(?:{re.escape(self.between.rstrip())})?",)}

    @property
    def patterns(self):
        """[(kind, which of its lines, template, compiled pattern)] of each line's template
        (a list kind's each, but a blank one): each field a named group."""
        return compiled_patterns(self)

    def read(self, line):
        """[(kind, {field: text})] of each template that reads the whole line."""
        return [(kind, values) for kind, _, values in self.read_parts(line)]

    def read_parts(self, line):
        """[(kind, which of its lines: 0 but for a list kind's, {field: text})] of each
        template that reads the whole line, as that template prints it (padding too)."""
        found = []
        for kind, number, part, compiled in self.patterns:
            match = compiled.fullmatch(line)
            if match and (PAD_FIELD.search(part) is None or
                          part.format(**padded(match.groupdict())) == line):
                found.append((kind, number, match.groupdict()))
        return found


PAD_FIELD = re.compile(r"\{\w+:")         # a template with a padded field


def padded(values):
    """A match's values, its numbers as numbers (for a padded field's format)."""
    return {name: int(text) if text and re.fullmatch(NUMBER, text) else text
            for name, text in values.items()}


@lru_cache(maxsize=64)
def compiled_patterns(wording):
    """Wording.patterns, compiled once per wording."""
    names = wording.names()
    found = []
    for kind, template in wording.lines:
        for number, part in enumerate(template if isinstance(template, tuple) else
                                      (template,)):
            if part:
                found.append((kind, number, part, pattern(part, names)))
    return tuple(found)


@dataclass(frozen=True)
class Assignment:
    """An assignment, read and checked: its name, title and source, its Rules, its
    Wording, its build and run commands and stdin, whether memory is graded, and each
    item's weight; the sha256 of the file's text (a receipt names the file by it)."""
    name: str
    title: str
    source: str
    rules: object
    wording: Wording
    build: str
    run: str
    stdin: str
    memory: bool
    weights: dict
    sha256: str = None


NUMBER = r"-?[0-9]+"                # a number field's text: a count may be printed negative


def pattern(template, names):
    """A template as a regular expression: each field a named group, of one of its names
    (names: {field: the texts it may be}, longest first; a row's cards, a pattern) or a
    number (padded with spaces where its template pads it)."""
    regex, seen = "", set()
    for literal, field, spec, _ in string.Formatter().parse(template):
        regex += re.escape(literal)
        if field is None:
            continue
        if field in seen:
            regex += f"(?P={field})"
            continue
        seen.add(field)
        texts = sorted(names.get(field, ()), key=len, reverse=True)
        choice = texts[0] if field == "cards" else \
            "|".join(map(re.escape, texts)) if texts else NUMBER
        pad = {"<": "(?P<{0}>{1}) *", ">": " *(?P<{0}>{1})"}.get(spec[:1], "(?P<{0}>{1})")
        regex += pad.format(field, choice)
    return re.compile(regex)


# ---- Reading

@lru_cache(maxsize=None)
def builtin(name):
    """A built-in assignment (of BUILTIN) read and checked (once: do not change it)."""
    return loads(builtin_text(name), f"{name}.toml")


def builtin_text(name):
    """A built-in assignment's file, as shipped."""
    if name not in BUILTIN:
        raise AssignmentError(f"no built-in assignment {name!r}: choose {', '.join(BUILTIN)}")
    return resources.files(__package__).joinpath(f"{name}.toml").read_text(encoding="utf-8")


def load(path):
    """An assignment file read and checked: AssignmentError for a bad one; OSError for
    one that cannot be read; its one line starts with the file's name."""
    with open(path, encoding="utf-8") as file:
        try:
            text = file.read()
        except UnicodeDecodeError as error:
            raise AssignmentError(f"{path}: not UTF-8 text ({error.reason} at byte "
                                  f"{error.start})") from None
    return loads(text, path)


def loads(text, name=None):
    """An assignment from its text; AssignmentError (prefixed by name, where given)."""
    try:
        return replace(checked(parsed(text)),
                       sha256=hashlib.sha256(text.encode("utf-8")).hexdigest())
    except AssignmentError as error:
        if name is None:
            raise
        raise AssignmentError(f"{name}: {error}") from None


def parsed(text):
    """The file's TOML as a dict."""
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise AssignmentError(f"not TOML: {error}") from None


# ---- Checking

def checked(data):
    """The Assignment of a parsed file, every field checked."""
    top = table(data, "", ("format", "version", "assignment", "rules", "wording", "build",
                           "run", "rubric"))
    if value(top, "format", str) != FORMAT:
        raise AssignmentError(f"format {top['format']!r}: an assignment file says "
                              f'format = "{FORMAT}"')
    version = value(top, "version", int)
    if version != VERSION:
        raise AssignmentError(f"version {version}: this pywar reads version {VERSION}")
    about = table(top, "assignment", ("name", "title", "source"))
    name = value(about, "assignment.name", str)
    if not name or not name.replace("-", "").replace("_", "").isalnum():
        raise AssignmentError(f"assignment.name {name!r}: letters, digits, '-' and '_' only")
    rules = checked_rules(table(top, "rules", ("preset", *DIMENSIONS)))
    run = table(top, "run", ("command", "stdin"))
    rubric = table(top, "rubric", ("memory", "weights"))
    return Assignment(
        name=name, title=value(about, "assignment.title", str),
        source=value(about, "assignment.source", str, ""), rules=rules,
        wording=checked_wording(table(top, "wording", (
            "players", "ranks", "suits", "card", "ace", "deal", "opening", "between",
            "per_row", "blank_after", "lines")), rules),
        build=command(table(top, "build", ("command",)), "build.command"),
        run=command(run, "run.command"), stdin=value(run, "run.stdin", str, ""),
        memory=value(rubric, "rubric.memory", bool), weights=checked_weights(rubric))


def table(data, path, keys):
    """The table at a dotted path (a key of data, '' for data itself), every key of it
    one of keys."""
    found = data if not path else value(data, path, dict)
    for key in found:
        if key not in keys:
            where = f"{path}.{key}" if path else key
            raise AssignmentError(f"unknown field {where}: {path or 'the file'} may hold "
                                  f"{', '.join(keys)}")
    return found


KIND_WORDS = {str: "a string", int: "a whole number", bool: "true or false", dict: "a table",
              list: "a list"}


def value(data, path, kind, default=...):
    """The value at the last part of a dotted path in data, of a kind (a missing field
    with no default is an error)."""
    key = path.rsplit(".", 1)[-1]
    if key not in data:
        if default is ...:
            raise AssignmentError(f"missing field {path}: {describe(path)}")
        return default
    found = data[key]
    if not isinstance(found, kind) or (kind is int and isinstance(found, bool)):
        raise AssignmentError(f"{path} is {KIND_WORDS.get(type(found), type(found).__name__)}"
                              f": it must be {KIND_WORDS[kind]} ({describe(path)})")
    return found


def describe(path):
    """What a field holds, for a message."""
    field = FIELD.get(path)
    return field.meaning.replace("`", "") if field else "see docs/grading.md, section 8"


def strings(data, path, count=None):
    """A list of strings at path (count of them, where given), each different."""
    found = value(data, path, list)
    if not all(isinstance(item, str) for item in found):
        raise AssignmentError(f"{path} must be a list of strings ({describe(path)})")
    if count is not None and len(found) != count:
        raise AssignmentError(f"{path} has {len(found)}: the rules need {count} "
                              f"({describe(path)})")
    return tuple(found)


def distinct(names, path):
    """names, each non-empty and different (a line must tell them apart)."""
    for name in names:
        if not name.strip() or names.count(name) > 1:
            raise AssignmentError(f"{path}: {name!r} is empty or given twice: each must be "
                                  "a different name")
    return names


def checked_rules(rules):
    """The Rules of the file's preset and dimensions."""
    preset = value(rules, "rules.preset", str)
    if preset not in PRESETS:
        raise AssignmentError(f"rules.preset {preset!r}: choose {', '.join(PRESETS)}")
    dimensions = {key: item for key, item in rules.items() if key != "preset"}
    try:
        return make_rules(preset, **dimensions)
    except (TypeError, ValueError, RulesError) as error:
        raise AssignmentError(f"rules: {error}") from None


def checked_wording(wording, rules):
    """The Wording of the file, its lists as long as the rules' players and deck."""
    ranks, suits = parse_deck(rules.deck)
    ace = value(wording, "wording.ace", str)
    deal = value(wording, "wording.deal", str)
    for path, found, choices in (("wording.ace", ace, ACES), ("wording.deal", deal, DEALS)):
        if found not in choices:
            raise AssignmentError(f"{path} {found!r}: choose {', '.join(choices)}")
    game = game_of(rules)
    deals = DEALS_OF[game]
    if deal not in deals:
        raise AssignmentError(f"wording.deal {deal!r}: a {game} game's deal lists "
                              f"{' or '.join(deals)}")
    kinds = lines_of(game)
    return told_apart(Wording(
        players=distinct(strings(wording, "wording.players", rules.players), "wording.players"),
        ranks=distinct(strings(wording, "wording.ranks", ranks), "wording.ranks"),
        suits=distinct(strings(wording, "wording.suits", suits), "wording.suits"),
        card=template(value(wording, "wording.card", str), "wording.card", CARD_FIELDS,
                      CARD_FIELDS),
        ace=ace, deal=deal, opening=strings(wording, "wording.opening"),
        lines=checked_lines(table(wording, "wording.lines", tuple(kinds)), kinds),
        between=between(wording), per_row=per_row(wording, ranks * suits),
        blank_after=blank_after(wording)))


def blank_after(wording):
    """The kinds of line a blank one follows: each of BLANK_KINDS, once."""
    found = strings(wording, "wording.blank_after") if "blank_after" in wording else SMU_BLANKS
    for kind in found:
        if kind not in BLANK_KINDS or found.count(kind) > 1:
            raise AssignmentError(f"wording.blank_after {kind!r}: each once, of "
                                  f"{', '.join(BLANK_KINDS)}")
    return tuple(found)


DEALS_OF = {"war": ("piles", "none"), "one-card": ("deck",)}    # what each game's referee
                                    # reads of the deal: a one-card game's, the deck's order


def between(wording):
    """What separates a deck row's cards: some characters, not all of them spaces."""
    found = value(wording, "wording.between", str, ", ")
    if not found.strip():
        raise AssignmentError(f"wording.between {found!r}: some characters that are not all "
                              "spaces (a row's cards are told apart by them)")
    return found


def per_row(wording, deck):
    """A full row's cards: 1 to the deck's cards (None: not given, the whole deck)."""
    found = value(wording, "wording.per_row", int, None)
    if found is not None and not 1 <= found <= deck:
        raise AssignmentError(f"wording.per_row {found}: a whole number from 1 to {deck}")
    return found


SAMPLE = {"player": 0, "card": 0, "number": 3, "count": 26, "place": 5, "to_play": 24,
          "played": 2, "cards": (0, 1, 2), "player1": "", "player2": "", "wins1": 14,
          "wins2": 10, "losses1": 10, "losses2": 14, "ties1": 2, "ties2": 2}
                                # the values a template is tried with (told_apart)


def told_apart(wording):
    """The wording, where each line's template, filled in, is read as its own kind alone
    and no opening line is read as one: else one line names the two that meet."""
    sample = {**SAMPLE, "player1": wording.players[0], "player2": wording.players[-1]}
    for kind, template in wording.lines:
        may = {**LINES, **ONE_CARD_LINES}[kind][0]
        filled = wording.line(kind, **{name: sample[name] for name in may})
        for line in filled if isinstance(filled, tuple) else (filled,):
            others = [other for other, _ in wording.read(line) if other != kind] if line else []
            if others:
                raise AssignmentError(
                    f"wording.lines.{kind} and wording.lines.{others[0]} both read {line!r}: "
                    "each kind of line must be told apart from the others")
    for line in wording.opening:
        found = [kind for kind, _ in wording.read(line)] if line else []
        if found:
            raise AssignmentError(f"wording.opening {line!r} reads as wording.lines."
                                  f"{found[0]}: an opening line must be told apart from them")
    return wording


def checked_lines(lines, kinds=LINES):
    """Each line's template checked, in the order of its game's kinds."""
    found = []
    for kind, (may, must) in kinds.items():
        path = f"wording.lines.{kind}"
        if kind in LISTS:
            parts = strings(lines, path)
            found.append((kind, tuple(template(part, path, may, ()) for part in parts)))
        else:
            found.append((kind, template(value(lines, path, str), path, may, must)))
    return tuple(found)


def template(text, path, may, must):
    """A template that names only fields of may, each of must, as plain {name}s (a stats
    number may be padded: {wins1:<12})."""
    try:
        parts = list(string.Formatter().parse(text))
    except ValueError as error:
        raise AssignmentError(f"{path} {text!r}: {error} (write a brace as {{{{ or }}}})") \
            from None
    named = set()
    for _, field, spec, conversion in parts:
        if field is None:
            continue
        if field not in may or conversion or (
                spec and not (field in PADDED and PAD.fullmatch(spec))):
            valid = ", ".join(f"{{{name}}}" for name in may) or "no field"
            raise AssignmentError(f"{path} names {{{field}{'!' + conversion if conversion else ''}"
                                  f"{':' + spec if spec else ''}}}: it may name {valid}")
        named.add(field)
    missing = [name for name in must if name not in named]
    if missing:
        raise AssignmentError(f"{path} {text!r} names no {{{missing[0]}}}: no line of it "
                              f"could say which {missing[0].replace('_', ' ')}; it must name "
                              + ", ".join(f"{{{name}}}" for name in must))
    return text


def command(data, path):
    """A build or run command, naming {program}."""
    found = value(data, path, str)
    if "{program}" not in found:
        raise AssignmentError(f"{path} {found!r} names no {{program}}: {describe(path)}")
    return found


def checked_weights(rubric):
    """Each item's weight, every item named, each a finite number from 0."""
    weights = table(rubric, "rubric.weights", ITEMS)
    for item in ITEMS:
        if item not in weights:
            raise AssignmentError(f"missing field rubric.weights.{item}: every item of the "
                                  f"rubric has its weight: {', '.join(ITEMS)}")
        weight = weights[item]
        if isinstance(weight, bool) or not isinstance(weight, (int, float)) or \
                not math.isfinite(weight) or weight < 0:
            raise AssignmentError(f"rubric.weights.{item} = {weight!r}: a number from 0")
    return {item: float(weights[item]) for item in ITEMS}


# ---- What pywar grade honours

def not_yet(assignment):
    """Why pywar grade cannot grade under an assignment yet, in one line, or None: the
    referee holds a transcript to SMU's rules and reads SMU's wording (the game items and
    the format) (docs/grading.md, section 8)."""
    smu = builtin("smu")
    if game_of(assignment.rules) == "one-card":
        return None                     # the one-card referee reads any wording (single)
    if assignment.rules != smu.rules:
        return (f"rules {assignment.rules.name!r}: the referee holds a transcript to the "
                f"rules of {smu.rules.name!r} only, so far")
    wording = assignment.wording
    for field, theirs in (("ace", "high"), ("deal", "piles")):
        if getattr(wording, field) != theirs:
            return (f"wording.{field} {getattr(wording, field)!r}: a war game's referee "
                    f"holds SMU's rules, whose deal lists {smu.wording.deal} and whose ace "
                    f"is {smu.wording.ace}")
    return unread(wording)


def unread(wording):
    """Why the war referee's reader, which reads a line by what it carries (docs/grading.md,
    section 3), would not read a war game's wording as it means, or None: each card's name
    must be read as that card, and each kind's line, filled in, as its kind."""
    from ..referee.lines import Reader
    reader = Reader()
    for player in (0, 1):                       # the reader learns the players' names
        reader.events(wording.line("plays", player=player, card=player))
    cards = len(wording.ranks) * len(wording.suits)
    for card in range(cards):
        line = wording.line("plays", player=0, card=card)
        said = reader.events(line)
        if [(s.kind, s.card) for s in said] != [("plays", card)]:
            return (f"wording.card: the referee does not read {line!r} as the "
                    f"{card_in_words(card, len(wording.ranks))}: name the cards as its "
                    "reader reads them (a rank's word or digit, 'of', a suit's word)")
    for kind, _ in wording.lines:
        filled = wording.line(kind, **{name: SAMPLE[name] for name in LINES[kind][0]})
        for line in filled if isinstance(filled, tuple) else (filled,):
            kinds = [said.kind for said in reader.events(line)] if line else ["blank"]
            if kinds and kinds[0] not in (kind, "blank") or not kinds:
                return (f"wording.lines.{kind}: the referee reads {line!r} as "
                        f"{' and '.join(kinds) or 'nothing'}, not as a {kind} line")
    return None


def card_in_words(card, ranks):
    """A card's number in words, for a message: 'card 38 (suit 2, rank 12)'."""
    return f"card {card} (suit {card // ranks}, rank {card % ranks}, from the two)"
