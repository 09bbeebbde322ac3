"""The referee of a one-card game (rules `game = "one-card"`: CSULB CECS 325's One Card
WAR, docs/rules.md): the deck is listed, shuffled; battle i plays its cards (i-1)P+1 to iP
in listed order, one a player, the first player first; the single highest rank wins, a
highest rank shared is a tie; nothing is won back, so the game is the deck's battles,
then the statistics (each player's wins, losses and ties).  docs/grading.md, section 8.

    >>> from pywar.check.assignment.file import builtin
    >>> wording = builtin("cecs325").wording
    >>> said = read_line(wording, "        Aquaman=>9C")
    >>> said.kind, said.exact, said.values
    ('plays', True, {'player': 0, 'card': 7})
    >>> read_line(wording, "Aquaman plays the 9 of clubs").plays
    [(0, 7)]

Each line is read by the assignment's templates first (the format item: every line as
its template prints it, in the order the wording lays them out), else by what it carries
(its cards, the players it names, its cue words), so that a program in words of its own
is judged on its game.  The game is judged on the file's own story: the deal as it lists
it, each battle by the cards it says were played, the statistics by the verdicts it gave;
so that one mistake costs one item.
"""

import re
from dataclasses import dataclass, field, replace
from functools import lru_cache

from .judge import Judgement, Notes
from .mistakes import ROW
from .quote import LINE
from .rubric import RUBRIC

STANDARD_RANKS = (("2", "two", "deuce"), ("3", "three"), ("4", "four"), ("5", "five"),
                  ("6", "six"), ("7", "seven"), ("8", "eight"), ("9", "nine"),
                  ("10", "t", "ten"), ("j", "jack"), ("q", "queen"), ("k", "king"),
                  ("a", "ace", "1"))         # other names of each rank, from the two
SUIT_SYMBOLS = {"♣": "c", "♠": "s", "♦": "d", "♥": "h", "♧": "c", "♤": "s", "♢": "d",
                "♡": "h"}
SUIT_NAMES = {"c": ("club", "clubs"), "s": ("spade", "spades"), "d": ("diamond", "diamonds"),
              "h": ("heart", "hearts")}          # a suit's usual names, by its initial
ROW_CARDS = 4                   # a line of this many cards or more is a row of the deck
ONE_CARD_KINDS = ("unshuffled", "shuffled", "row", "battle", "plays", "wins", "tie", "stats",
                  "blank", "other")     # what a one-card game's line says: the assignment
                                        # file's line kinds, a blank line, anything else
HEARD = type("HeardKinds", (), {"__slots__": (), **{kind: kind for kind in ONE_CARD_KINDS}})()
                                        # HEARD.plays: a kind by attribute, never a string
STATS = WINS, LOSSES, TIES = ("wins", "losses", "ties")     # a player's statistics
TIED = "tied"                           # a battle's verdict, a tie (else the winner)
WIN_WORDS = {"wins", "win", "won", "winner", "winning", "beats", "takes"}
TIE_WORDS = {"tie", "tied", "ties", "draw", "tying", "even"}
LOSS_WORDS = {"loss", "losses", "lose", "loses", "lost", "loser", "losing"}
STAT_WORDS = {**dict.fromkeys(WIN_WORDS - {"beats", "takes", "winner"}, WINS),
              **dict.fromkeys(LOSS_WORDS, LOSSES), **dict.fromkeys(TIE_WORDS, TIES)}
COLUMN_WORDS = {"w": WINS, "l": LOSSES, "t": TIES}    # a table's heading: W L T
BATTLE_WORDS = {"game", "round", "battle", "hand", "turn"}
SHUFFLED_WORDS = {"shuffled", "shuffle", "shuffling"}
DECK_WORDS = {"deck", "cards", "pile"}


@dataclass
class Heard:
    """What one line says, as the one-card referee hears it: its kind (of ONE_CARD_KINDS,
    asked as HEARD.plays), whether its template reads it (exact) and which of a list
    kind's lines it is, and its values (a player's number, a card's id, a row's cards'
    ids, numbers)."""
    kind: str
    exact: bool = False
    part: int = 0
    values: dict = field(default_factory=dict)
    plays: list = field(default_factory=list)      # (player or None, card) of a line of plays


# ---- Reading a line

def read_line(wording, line):
    """What a line says: by its template, else by what it carries."""
    for kind, part, texts in wording.read_parts(line):
        return Heard(kind, True, part, valued(wording, texts))
    return meaning(wording, line)


def valued(wording, texts):
    """A template's texts as values: players' numbers, cards' ids, numbers."""
    names = card_ids(wording)
    values = {}
    for name, text in texts.items():
        if name == "player":
            values[name] = wording.players.index(text)
        elif name == "card":
            values[name] = names[text]
        elif name == "cards":
            values[name] = [names[part.strip()] for part in
                            text.rstrip().rstrip(wording.between.strip()).split(
                                wording.between.strip())]
        elif name in ("player1", "player2"):
            values[name] = text
        else:
            values[name] = int(text)
    return values


@lru_cache(maxsize=64)
def card_ids(wording):
    """{a card's name: its id} in the assignment's words."""
    return {name: card for card, name in enumerate(wording.card_names)}


@lru_cache(maxsize=64)
def card_pattern(wording):
    """A card in the line by its assignment's name, or by other usual names ('9 of clubs',
    'TC', '9♣'): the groups rank and suit (a letter alone in capitals: 'AS', never 'as')."""
    ranks = sorted({name for names in STANDARD_RANKS for name in names} |
                   {rank.lower() for rank in wording.ranks}, key=len, reverse=True)
    suits = sorted({suit.lower() for suit in wording.suits} |
                   {form for suit in wording.suits for form in suit_forms(suit)},
                   key=len, reverse=True)
    words = "|".join(re.escape(rank) for rank in ranks if len(rank) > 1 or rank.isdigit())
    letters = "".join(rank.upper() for rank in ranks if len(rank) == 1 and rank.isalpha())
    suit_words = "|".join(re.escape(suit) for suit in suits if len(suit) > 1)
    suit_letters = "".join(re.escape(suit.upper() if suit.isalpha() else suit)
                           for suit in suits if len(suit) == 1)
    return re.compile(
        rf"(?<![A-Za-z0-9])(?:(?P<rank>(?i:{words})|[{letters}])\s?(?:(?i:of)\s+)?"
        rf"(?P<suit>(?i:{suit_words})|[{suit_letters}])|(?P<name>NAMES))(?![A-Za-z0-9])"
        .replace("NAMES", "|".join(map(re.escape, sorted(card_ids(wording), key=len,
                                                         reverse=True)))))


def suit_forms(suit):
    """Other names of a suit: its initial, its plural, its symbol ('C', 'clubs', '♣')."""
    initial = next((letter for symbol, letter in SUIT_SYMBOLS.items() if symbol == suit),
                   suit[0].lower())
    return {initial, suit.lower() + "s", suit.lower().rstrip("s"), *SUIT_NAMES.get(initial, ()),
            *(symbol for symbol, letter in SUIT_SYMBOLS.items() if letter == initial)}


def rank_number(wording, text):
    """A rank's number (0 for the two) from any of its names, or None."""
    text = text.lower()
    for number, rank in enumerate(wording.ranks):
        if text == rank.lower() or text in STANDARD_RANKS[number]:
            return number
    return None


def suit_number(wording, text):
    """A suit's number from any of its names, or None."""
    text = text.lower()
    for number, suit in enumerate(wording.suits):
        if text == suit.lower() or text in suit_forms(suit):
            return number
    return None


def cards_in(wording, line):
    """[(position, card id)] of the cards a line names."""
    found = []
    for match in card_pattern(wording).finditer(line):
        if match["name"]:
            found.append((match.start(), card_ids(wording)[match["name"]]))
            continue
        rank, suit = rank_number(wording, match["rank"]), suit_number(wording, match["suit"])
        if rank is not None and suit is not None:
            found.append((match.start(), suit * len(wording.ranks) + rank))
    return found


def players_in(wording, line):
    """[(position, player's number)] of the players a line names: by their names, or as
    'player 1', 'P2'."""
    found = [(match.start(), number) for number, name in enumerate(wording.players)
             for match in re.finditer(rf"(?<![A-Za-z0-9]){re.escape(name)}(?![A-Za-z0-9])",
                                      line, re.I)]
    found += [(match.start(), int(match[1]) - 1) for match in
              re.finditer(r"(?i)\b(?:player\s*|p)([1-9])\b", line)
              if int(match[1]) <= len(wording.players)]
    return sorted(found)


def meaning(wording, line):
    """What a line says by what it carries, not by its template."""
    words = re.findall(r"[a-z0-9]+", line.lower())
    if not words:
        return Heard(HEARD.blank if not line.strip() else HEARD.other)
    cards, players = cards_in(wording, line), players_in(wording, line)
    numbers = [int(word) for word in words if word.isdigit() and len(word) < 9]
    if len(cards) >= ROW_CARDS:
        return Heard(HEARD.row, values={"cards": [card for _, card in cards]})
    if cards:
        return Heard(HEARD.plays, plays=[(owner(players, at), card) for at, card in cards])
    said = set(words)
    columns = [COLUMN_WORDS.get(word, STAT_WORDS.get(word)) for word in words
               if word in COLUMN_WORDS or word in STAT_WORDS]
    if len(columns) >= 2 and not numbers:
        return Heard(HEARD.stats, values={"columns": columns})
    if said & DECK_WORDS and not numbers:
        return Heard(HEARD.shuffled if said & SHUFFLED_WORDS else HEARD.unshuffled)
    stats = stats_said(words, players, numbers)
    if stats:
        return Heard(HEARD.stats, values=stats)
    if said & TIE_WORDS:
        return Heard(HEARD.tie)
    if said & WIN_WORDS and players:
        return Heard(HEARD.wins, values={"player": players[0][1]})
    if said & BATTLE_WORDS and numbers:
        return Heard(HEARD.battle, values={"number": numbers[0]})
    return Heard(HEARD.other)


def table_row(wording, line, columns):
    """A row of a table of statistics under its heading's columns ('Aquaman 13 12 1'
    under 'Player W L T'), or None."""
    players = {number for _, number in players_in(wording, line)}
    numbers = [int(word) for word in re.findall(r"[0-9]+", line)]
    if len(players) != 1 or len(numbers) != len(columns):
        return None
    player = players.pop()
    return Heard(HEARD.stats, values={(player, stat): value for stat, value in
                                 zip(columns, numbers)})


def owner(players, at):
    """The player named nearest before a position (else the first after it), or None."""
    before = [number for place, number in players if place < at]
    after = [number for place, number in players if place > at]
    return before[-1] if before else after[0] if after else None


def stats_said(words, players, numbers):
    """{(player or None, 'wins'|'losses'|'ties'): numbers} a line of statistics gives, by
    its stat words and the numbers nearest them; {} for a line that gives none."""
    if not numbers or not any(word in STAT_WORDS for word in words):
        return {}
    named = sorted({number for _, number in players})
    found = {}
    for at, word in enumerate(words):
        stat = STAT_WORDS.get(word)
        if stat is None:
            continue
        after = [int(w) for w in words[at + 1:] if w.isdigit()]
        before = [int(w) for w in words[:at] if w.isdigit()]
        if len(named) == 1:
            value = (after or before[-1:])[:1]
            if value:
                found[(named[0], stat)] = value[0]
        elif after:
            found[(None, stat)] = after[:2]
    return found


# ---- The file read whole

class SingleJudgement(Judgement):
    """A one-card game's Judgement: its rounds are its battles."""

    def progress(self):
        """How far the game got, in words."""
        if self.finished:
            return f"the game ended after battle {self.rounds}, its statistics printed"
        return f"the game got to battle {self.rounds}" if self.rounds else \
            "the game never began"


@dataclass
class Told:
    """One battle as the file tells it (a one-card game's): each player's card, the
    verdict (a player's number, TIED or None) and the line of each."""
    cards: dict = field(default_factory=dict)
    first: int = None
    verdict: object = None
    verdict_at: int = None


def judge_single(printed, wording, players=2, complete=True, effort=None):
    """The Judgement of a one-card game's transcript under its assignment's wording."""
    lines = printed.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    said, columns = [], None
    for line in lines:
        said.append(read_line(wording, line))
        if said[-1].kind == HEARD.stats and "columns" in said[-1].values:
            columns = said[-1].values.pop("columns")
        elif columns and said[-1].kind == HEARD.other:
            said[-1] = table_row(wording, line, columns) or said[-1]
        if effort is not None:
            effort.step()
    notes = Notes(lines)
    notes.result = SingleJudgement()
    listings, battles, stats = story(said, players)
    notes.rounds_at = [(battle.first, number + 1) for number, battle in enumerate(battles)]
    deck = len(wording.ranks) * len(wording.suits)
    judge_format(notes, wording, said, deck, len(battles) or deck // players, complete)
    listed = judge_deal(notes, listings, deck)
    for number, battle in enumerate(battles):
        judge_battle(notes, wording, battle, number, listed, players)
    judge_end(notes, battles, stats, deck // players, complete, lines)
    judge_counts(notes, battles, stats, players)
    judged = notes.result
    judged.rounds = len(battles)
    judged.finished = len(battles) == deck // players and bool(stats)
    judged.last_lines = [line[:LINE] for line in lines[-3:]]
    if listed is not None:
        judged.dealt = tuple(tuple(listed[player::players]) for player in range(players))
    return judged


def story(said, players):
    """The listings (each [(line, cards)]), the battles and the statistics' lines of a file."""
    listings, battles, stats = [], [], []
    battle = Told()
    for at, line in enumerate(said):
        if line.kind == HEARD.row:
            if not at or said[at - 1].kind != HEARD.row:        # a listing's rows are together
                listings.append([])
            listings[-1].append((at, line.values["cards"]))
        elif line.kind == HEARD.plays:
            for player, card in line.plays or [(line.values["player"], line.values["card"])]:
                if player is None:
                    player = len(battle.cards)
                if player in battle.cards or battle.verdict is not None:
                    battles.append(battle)
                    battle = Told()
                battle.cards[player] = card
                battle.first = at if battle.first is None else battle.first
        elif line.kind in (HEARD.wins, HEARD.tie) and battle.cards and battle.verdict is None:
            battle.verdict = TIED if line.kind == HEARD.tie else line.values["player"]
            battle.verdict_at = at
        elif line.kind == HEARD.stats:
            stats.append((at, line))
    if battle.cards:
        battles.append(battle)
    return listings, battles, [(at, line) for at, line in stats
                               if not battles or at > battles[-1].first]


def charge(notes, item, at, required, said=None, mistake=None):
    """A rule broken at a line (an index; past the last line: the file's end), charged
    to an item (and a mistake's row, where one names it), in the battle the line is in
    (judge's Notes: one Finding an item)."""
    if item not in notes.result.findings:           # round_of walks the battles: once
        notes.round = notes.round_of(at)
    notes.note(item, at, required, said, mistake)


def judge_format(notes, wording, said, deck, battles, complete):
    """The format: each line as the wording's template prints it, in its layout (the
    opening, each listing's heading and rows, each of the file's battles' lines, the
    statistics); the first departure is charged."""
    expected = list(layout(wording, deck, battles))
    if not said:                        # nothing printed: charged, as the war referee does
        return charge(notes, RUBRIC.format, 0, expected_words(wording, expected[0]),
                      mistake=ROW.no_output)
    notes.test(RUBRIC.format)
    at = 0
    for at, line in enumerate(said):
        if at >= len(expected):
            return charge(notes, RUBRIC.format, at, "the file to end after the statistics",
                          mistake=ROW.extra_lines)
        if not fits(wording, expected[at], line, notes.lines[at]):
            return charge(notes, RUBRIC.format, at, expected_words(wording, expected[at]),
                          mistake=format_row(line))
    if complete and len(said) < len(expected):
        charge(notes, RUBRIC.format, len(said), expected_words(wording, expected[len(said)]),
               mistake=ROW.other_words)


def format_row(heard):
    """The row of a line that departs from the layout: a blank line, a line the referee
    cannot read, or one in other words."""
    return {HEARD.blank: ROW.blank_lines, HEARD.other: ROW.extra_lines}.get(heard.kind,
                                                                   ROW.other_words)


def layout(wording, deck, battles):
    """The lines of a whole transcript of so many battles (the file's own count: a
    game too short or too long is the end's), in order: ('opening', text) or (kind,
    part), a battle's verdict as ('verdict', 0)."""
    lines = dict(wording.lines)
    rows = 1 if wording.per_row is None else -(-deck // wording.per_row)
    for text in wording.opening:
        yield "opening", text
    for heading in (HEARD.unshuffled, HEARD.shuffled):
        yield heading, 0
        for _ in range(rows):
            yield HEARD.row, 0
    for _ in range(battles):
        for part in range(len(lines[HEARD.battle])):
            yield HEARD.battle, part
        for _ in wording.players:
            yield HEARD.plays, 0
        yield "verdict", 0
    for part in range(len(lines[HEARD.stats])):
        yield HEARD.stats, part


def fits(wording, place, said, line):
    """Whether a line is the one its place in the layout expects, as its template prints it."""
    kind, part = place
    if kind == "opening":
        return line == part
    if kind == "verdict":
        return said.exact and said.kind in (HEARD.wins, HEARD.tie)
    if template_at(wording, kind, part) == "":
        return line == ""
    return said.exact and said.kind == kind and said.part == part


def template_at(wording, kind, part):
    """The template of a kind's line (a list kind's part)."""
    template = dict(wording.lines)[kind]
    return template[part] if isinstance(template, tuple) else template


def expected_words(wording, place):
    """What the layout expects at a place, in words: the line or its template."""
    kind, part = place
    if kind == "opening":
        return f"the opening line {part!r}"
    if kind == "verdict":
        lines = dict(wording.lines)
        return f"a verdict line ({lines['wins']!r} or {lines['tie']!r})"
    if kind == HEARD.row:
        full = f", {wording.per_row} to a full row" if wording.per_row else ""
        return f"a row of the deck: its cards' names joined by {wording.between!r}{full}"
    template = template_at(wording, kind, part)
    return f"the {kind} line {template!r}" if template else "a blank line"


def judge_deal(notes, listings, deck):
    """The deal: the deck listed as shuffled (the last listing before the first battle)
    holds the deck's cards, each once, and is not the order it was made in.  The listed
    order, or None where it is not sound."""
    if not listings:
        return None
    notes.test(RUBRIC.deal)
    first_at, _ = listings[-1][0]
    listed = [card for _, cards in listings[-1] for card in cards]
    if len(listed) != deck or len(set(listed)) != deck:
        doubled = len(listed) - len(set(listed))
        charge(notes, RUBRIC.deal, first_at, f"the shuffled deck's {deck} different cards "
               "listed", f"{len(listed)} cards" + (f", {doubled} of them twice or more"
                                                   if doubled else ""),
               ROW.deal_repeats if doubled else None)
        return None
    if len(listings) > 1 and listed == [card for _, cards in listings[0] for card in cards]:
        charge(notes, RUBRIC.deal, first_at, "the deck shuffled", "the deck in the order "
               "it was made", ROW.deal_unshuffled)
        return None
    return listed


def judge_battle(notes, wording, battle, number, listed, players):
    """One battle: its cards the listing's next (plays), its verdict the rules' (ranks,
    ties)."""
    at = battle.first
    if listed is not None and len(battle.cards) == players:
        notes.test(RUBRIC.plays)
        for player in range(players):
            place = number * players + player
            want = listed[place] if place < len(listed) else None
            if battle.cards.get(player) != want:
                required = (f"player {player + 1} to play card {place + 1} of the shuffled "
                            f"deck, {wording.card_name(want)}" if want is not None else
                            "no battle past the deck's cards")
                return charge(notes, RUBRIC.plays, at, required, mistake=dealt_row(
                    battle, number, listed, players)) or \
                    judge_verdict(notes, wording, battle, number, players)
    judge_verdict(notes, wording, battle, number, players)


def dealt_row(battle, number, listed, players):
    """The row of a battle that plays other cards than the listing's next: the deck dealt
    from its end, or each battle's cards to the players the other way round (None:
    neither)."""
    cards = [battle.cards.get(player) for player in range(players)]
    start = number * players
    if start + players > len(listed):               # a battle past the deck's cards
        return None
    if cards == [listed[-1 - start - player] for player in range(players)]:
        return ROW.dealt_from_end
    if cards == listed[start:start + players][::-1]:
        return ROW.dealt_swapped
    return None


def value_of(wording, card):
    """A card's rank as the rules compare it: the two lowest, the ace high or low."""
    rank = card % len(wording.ranks)
    return -1 if wording.ace == "low" and rank == len(wording.ranks) - 1 else rank


def judge_verdict(notes, wording, battle, number, players):
    """The battle's verdict: the single highest rank wins, a highest rank shared ties."""
    if len(battle.cards) != players or battle.verdict is None:
        return
    values = {player: value_of(wording, card) for player, card in battle.cards.items()}
    best = max(values.values())
    winners = [player for player, value in values.items() if value == best]
    at = battle.verdict_at
    if len(winners) > 1:
        notes.test(RUBRIC.ties)
        if battle.verdict != TIED:
            charge(notes, RUBRIC.ties, at, "a tie: the highest rank is shared",
                   mistake=ROW.tie_decided)
        return
    notes.test(RUBRIC.ranks)
    if battle.verdict != winners[0]:
        other = replace(wording, ace="high" if wording.ace == "low" else "low")
        by_other = {player: value_of(other, card) for player, card in battle.cards.items()}
        best_other = max(by_other.values())
        ace_end = battle.verdict != TIED and by_other[battle.verdict] == best_other and \
            list(by_other.values()).count(best_other) == 1
        charge(notes, RUBRIC.ranks, at, f"{wording.players[winners[0]]} to win: the higher "
               f"rank, {wording.card_name(battle.cards[winners[0]])} "
               f"(the ace {wording.ace})", mistake=ROW.ace_other_end if ace_end else None)


def judge_end(notes, battles, stats, hand, complete, lines):
    """The end: the deck's battles, then the statistics (a run that stopped is judged
    on what it printed alone)."""
    if len(battles) > hand:
        notes.test(RUBRIC.end)
        return charge(notes, RUBRIC.end, battles[hand].first, f"no battle after battle {hand} "
                          "(the deck's cards are all played)")
    if not complete:
        return None
    notes.test(RUBRIC.end)
    if len(battles) < hand:
        at = stats[0][0] if stats else len(lines)
        return charge(notes, RUBRIC.end, at, f"{hand} battles, one for each of a hand's cards",
                      f"{len(battles)} battles" + ("" if stats else ", then the file ends"),
                      ROW.cut_short)
    if not stats:
        charge(notes, RUBRIC.end, len(lines), "the statistics after the last battle")


def tallies(battles, players):
    """{(player, stat): count} of the verdicts the file gave."""
    counted = {(player, stat): 0 for player in range(players)
               for stat in STATS}
    for battle in battles:
        if battle.verdict == TIED:
            for player in battle.cards:
                counted[(player, TIES)] += 1
        elif battle.verdict is not None:
            for player in battle.cards:
                counted[(player, WINS if player == battle.verdict else LOSSES)] += 1
    return counted


def judge_counts(notes, battles, stats, players):
    """The statistics: each player's wins, losses and ties as the file's own verdicts
    count them."""
    if not stats or any(battle.verdict is None for battle in battles):
        return                          # a verdict not read: the file's count is not known
    counted = tallies(battles, players)
    for at, line in stats:
        for player, stat, value in stat_values(line, players):
            notes.test(RUBRIC.counts)
            if value != counted[(player, stat)]:
                charge(notes, RUBRIC.counts, at, f"player {player + 1}'s {stat}: "
                       f"{counted[(player, stat)]}, as the file's verdicts count them",
                       mistake=ROW.losses_from_wins if stat == LOSSES and value == len(
                           battles) - counted[(player, WINS)] else None)


def stat_values(line, players):
    """[(player, stat, value)] a line of statistics gives."""
    if line.exact:
        return [(int(name[-1]) - 1, name[:-1], value) for name, value in line.values.items()
                if name[:-1] in STATS and int(name[-1]) <= players]
    found = []
    for (player, stat), value in line.values.items():
        if player is not None:
            found.append((player, stat, value))
        elif len(value) == players:
            found += [(number, stat, each) for number, each in enumerate(value)]
        elif len(value) == 1 and stat == TIES:
            found += [(number, stat, value[0]) for number in range(players)]
    return found
