"""A referee that keeps going: every rule a transcript breaks, each judged on the file's
own story, so that one mistake costs one rubric item (docs/grading.md).

    >>> import pywar
    >>> judged = judge(pywar.play(17455, transcript=True).transcript)
    >>> judged.broken(), judged.finished, judged.rounds, judged.tested["ties"] > 0
    ([], True, 29, True)

It reads what each line says (pywar.check.referee.lines), whatever its words, and plays the game
as the file tells it: the deal as listed, the cards as played, the winner the file
names.  Each battle is explained by the rules plus the fewest named deviations
(pywar.check.referee.mistakes): where the rules alone do not give what the file printed, the
referee tries each deviation, then each pair, and adopts the first that does; the
deviation's item is charged once and the game is played by it from then on.  Where none
explains the battle, the item of the step that broke is charged, the program's own
counts are taken as the new state, and the referee goes on.  Each item also counts how
often its rule was put to the test: an item never put to the test is not checked.
"""

from dataclasses import dataclass, field
from itertools import combinations

from .mistakes import DEVIATION, DEVIATIONS
from .lines import Reader, reference_words, refill_words
from .quote import LINE, line_shown
from .rubric import GAME_ITEMS, NAMES
from .exact import DECK, HAND, NAME_OF, OPENING, PLAYERS, RANKS

BLANK_AFTER = {"welcome", "deck", "initial", "wins", "tie"}
BATTLE_KINDS = {"plays", "wins", "tie", "refill", "counts", "lost", "announce"}
ACE = 12
SEARCHES = 8                      # battles no deviation explains before the search stops:
                                  # past them the file's story is beyond the table, and
                                  # each battle costs one try, not 92 (docs/grading.md)
CONTEXT = 1                       # lines shown on each side of an example's line


# ---- Words

def article(word):
    """'a' or 'an' before a word."""
    return "an" if word[0] in "aeiou" else "a"


def the_card(card):
    """A card in words: 'the eight of hearts'."""
    return f"the {NAME_OF[card]}"


def a_rank(card):
    """A card's rank with its article: 'an eight'."""
    rank = RANKS[card % 13]
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


@dataclass
class Finding:
    """One broken rule: where (line, round), what the rules require, what the file says,
    the lines around it, and the named deviation that explains it, if one does."""
    item: str
    line: object
    round: int
    required: str
    said: str
    context: list = field(default_factory=list)
    deviation: object = None

    def to_json(self, seed=None):
        """The finding as a JSON-ready dict."""
        found = {"line": self.line, "round": self.round, "required": self.required,
                 "said": self.said, "context": self.context, "deviation": self.deviation}
        return found if seed is None else {"seed": seed, **found}

    def text(self):
        """The finding in one line."""
        where = "" if self.line is None else f"line {self.line}" + (
            f" (round {self.round})" if self.round else " (before round 1)")
        asks = "the reference's format has" if self.item == "format" else "the rules require"
        said = f"{asks} {self.required}; the file says {self.said}"
        return f"{where}: {said}" if where else said


@dataclass
class Judgement:
    """Everything the referee found in one transcript."""
    findings: dict = field(default_factory=dict)    # item -> [first Finding, count]
    tested: dict = field(default_factory=lambda: dict.fromkeys(GAME_ITEMS, 0))
    deviations: list = field(default_factory=list)  # the names adopted, in order
    rounds: int = 0
    losers: tuple = ()
    finished: bool = False
    last_lines: list = field(default_factory=list)

    def broken(self):
        """The items broken, in rubric order."""
        return [item for item in NAMES if item in self.findings]

    def first(self, item):
        """The first Finding of an item, or None."""
        return self.findings[item][0] if item in self.findings else None

    def checked(self, item):
        """Whether an item's rule was put to the test (or broken)."""
        return item in self.findings or self.tested.get(item, 0) > 0

    def progress(self):
        """How far the game got, in words."""
        if self.finished:
            return f"the game ended in round {self.rounds}: {both(self.losers)} ran out"
        return f"the game got to round {self.rounds}" if self.rounds else "the game never began"


@dataclass
class Event:
    """One thing a line of the file says."""
    index: int                    # the line's index, 0-based
    text: str
    kind: str
    values: tuple


@dataclass
class Table:
    """The game as the file has told it so far."""
    order: list                   # each 'to play' pile top first while its order is known
    to_play: list                 # the cards that may be in each 'to play' pile
    played: list
    count: list                   # [to play, played] of each player
    pot: list = field(default_factory=list)         # (card, player), in the order played
    floating: set = field(default_factory=set)      # cards whose pile is unknown
    over: bool = False                              # the rules ended the game
    stranded: int = 0                               # cards lost from pots (pot_lost)

    def copy(self):
        """A copy to play a battle on (a battle tried is not yet the story)."""
        return Table([None if pile is None else list(pile) for pile in self.order],
                     [set(pile) for pile in self.to_play], [set(pile) for pile in self.played],
                     [list(pair) for pair in self.count], list(self.pot), set(self.floating),
                     self.over, self.stranded)

    def take(self, card):
        """Take a card out of wherever it may be."""
        self.floating.discard(card)
        for number in (0, 1):
            self.to_play[number].discard(card)
            self.played[number].discard(card)
            if self.order[number] is not None and card in self.order[number]:
                self.order[number].remove(card)

    def refill(self, number):
        """'played' turned over into 'to play' (shuffled: its order unknown)."""
        self.to_play[number] |= self.played[number]
        self.played[number] = set()
        self.count[number] = [self.count[number][0] + self.count[number][1], 0]
        self.order[number] = None


@dataclass
class Mismatch:
    """A step of one battle whose outcome the file does not show."""
    item: str
    at: object                    # an Event, a line index or None
    required: str
    said: object = None


@dataclass
class BattleOutcome:
    """One battle played by a set of rules: the table after it, what the file does not
    match, and which rules it put to the test."""
    table: Table
    mismatches: list
    tested: dict
    winner: object = None
    losers: tuple = ()
    rule: dict = field(default_factory=dict)    # step -> (where, what the rules require)


class Battle:
    """One battle's lines, sorted by what they say."""

    def __init__(self, events):
        self.events = events
        self.plays = {}
        for event in events:
            if event.kind == "plays" and event.values[0] not in self.plays:
                self.plays[event.values[0]] = event
        self.verdict = next((e for e in events if e.kind in ("wins", "tie")), None)
        self.refills = {}
        for event in events:
            if event.kind == "refill":
                self.refills.setdefault(event.values[0], event)
        self.counts = {}
        for event in events:
            if event.kind == "counts":
                self.counts.setdefault(event.values[0], event)
        self.lost = [e for e in events if e.kind == "lost"]
        self.announced = [e for e in events if e.kind == "announce"]

    def after_plays(self):
        """The index of the line after the battle's last play: where its verdict is due."""
        return max(event.index for event in self.plays.values()) + 1

    def said_losers(self):
        """The players the file says lost here, by a run-out line or a winner named."""
        said = {e.values[0] for e in self.lost}
        if not said:
            said = {1 - e.values[0] for e in self.announced if e.values[0] is not None}
        return tuple(sorted(said))

    def refills_before_counts(self, number):
        """Whether a player's refill lines come before the first counts line."""
        if not self.counts:
            return True
        first_counts = min(e.index for e in self.counts.values())
        return self.refills[number].index < first_counts


def rank_of(card, rules):
    """A card's rank under the rules: the ace high, or low under ace_low."""
    rank = card % 13
    return -1 if rank == ACE and "ace_low" in rules else rank


class Judge:
    """Plays the game as the file tells it, noting every rule broken."""

    def __init__(self, lines, complete=True):
        self.lines = lines
        self.complete = complete            # False: the program crashed or was stopped
        self.result = Judgement()
        self.events = []
        self.round = 0
        self.rules = frozenset()            # the deviations adopted
        self.table = None
        self.known = False                  # the deal was listed, 26 different cards each
        self.synced = False                 # the counts are known: from the deal or the file
        self.top_first = None               # the first listed Event, if listed top first
        self.piles = [[], []]
        self.numbered_from = []
        self.ace_as_one = None              # the first Event that names the ace 'one'
        self.rounds_at = []                 # (index of a battle's first line, its round)
        self.near_stop = False              # the run stopped within a battle of this one
        self.searches_failed = 0            # battles that no deviation explained
        self.misnamed = {}                  # index of a refill's line naming the other player

    # ---- Findings

    def note(self, item, at, required, said=None, deviation=None):
        """A rule broken at an Event (or a line index, or None)."""
        index = at.index if isinstance(at, Event) else at
        if said is None:
            said = self.quoted(index)
        line = None if index is None else index + 1
        round_ = self.round_of(index) if item == "format" else self.round
        context = [] if index is None else [
            [number + 1, self.lines[number][:LINE]]
            for number in range(max(0, index - CONTEXT), min(len(self.lines), index + CONTEXT + 1))]
        found = self.result.findings.setdefault(
            item, [Finding(item, line, round_, required, said, context, deviation), 0])
        found[1] += 1

    def round_of(self, index):
        """The round a line is in (0 for the deal), as the battles before it tell."""
        if index is None:
            return self.round
        before = [round_ for at, round_ in self.rounds_at if at <= index]
        return before[-1] if before else 0

    def test(self, item, times=1):
        """An item's rule put to the test."""
        self.result.tested[item] += times

    # ---- Reading

    def read(self):
        """Every line's events, in order."""
        reader = Reader()
        meanings = []
        for index, text in enumerate(self.lines):
            found = self.same_refill(reader.events(text), index)
            meanings.append(found)
            for kind, *values in found:
                if kind != "blank":
                    self.events.append(Event(index, text, kind, tuple(values)))
                if kind in ("plays", "listed") and values[-1] is True and self.ace_as_one is None:
                    self.ace_as_one = index
        return meanings

    def same_refill(self, found, index):
        """A refill's second line belongs to the refill just begun, whoever it names
        ('Shuffling player A cards...' after player B ran out is B's, misnamed)."""
        before = self.events[-1] if self.events else None
        if found[:1] and found[0][0] == "refill" and before and before.kind == "refill" \
                and before.index == index - 1 and before.values[0] != found[0][1] \
                and "shuffl" in self.lines[index].lower() \
                and "shuffl" not in before.text.lower():
            self.misnamed[index] = self.events[-1].values[0]
            return [("refill", self.events[-1].values[0])]
        return found

    # ---- The format: the reference's words and layout, at the first departure

    def format_departure(self, meanings):
        """The first line that departs from the reference's words or layout, as a finding."""
        if not self.lines:
            return self.note("format", 0, f"the reference's opening, {OPENING[0]!r}")
        self.test("format")
        blank_due = False
        listed = rounds = 0
        for index, (text, found) in enumerate(zip(self.lines, meanings)):
            if text == "":
                if not blank_due:
                    return self.note("format", index, "no blank line here")
                blank_due = False
                continue
            if blank_due:
                return self.note("format", index, "a blank line")
            if len(found) != 1:
                return self.note("format", index, "only the reference's lines (this line "
                                 "is not one the reference prints)" if not found else
                                 "one thing a line (the reference prints each on its own)")
            kind, *values = found[0]
            values = values[:3] if kind == "plays" else values
            if kind == "round":                 # the reference numbers its rounds from 1
                rounds += 1
                values = [rounds]
            words = reference_words((kind, *values))
            if kind == "refill":
                words = text if text in refill_words(values[0]) else None
                if index in self.misnamed:
                    words = refill_words(values[0])[1]
            if words != text:
                shown = "the reference's words" if words is None else repr(words)
                return self.note("format", index, shown)
            listed = listed + 1 if kind == "listed" else 0
            blank_due = kind in BLANK_AFTER or listed == HAND or (
                kind == "refill" and text.startswith("Shuffling")) or (
                kind == "counts" and values[0] == 1)
        if self.top_first is not None:
            self.note("format", self.top_first, "the piles listed bottom card first (Card 1 "
                      "is the bottom, Card 26 the first played)", "they are listed top card "
                      "first")
        elif self.numbered_from:
            self.note("format", self.numbered_from[0], "the cards of a pile numbered from 1")
        return None

    # ---- The deal

    def deal(self, seen, went_on=True):
        """Check the deal, listed in the lines before the first battle (went_on: the file
        goes on past it); set up the table."""
        piles, current, sizes = [[], []], None, {}
        for event in seen:
            if event.kind == "pile":
                current = event.values[0]
            elif event.kind == "size" and current is not None:     # a pile's own size
                sizes.setdefault(current, (event, event.values[0]))
            elif event.kind == "listed":
                owner = current if current is not None else (0 if len(piles[0]) < HAND else 1)
                piles[owner].append(event)
        self.table = Table([None, None], [set(), set()], [set(), set()], [[0, 0], [0, 0]])
        listed = [event.values[1] for pile in piles for event in pile]
        if not self.complete and not went_on and len(listed) < DECK:
            return None                     # it stopped before the deal was over: not checked
        self.test("deal")
        if not listed:
            return self.note("deal", seen[-1] if seen else None, "the deal listed: 26 cards "
                             "for each player", "no listing of the deal")
        sound = True
        for number, pile in enumerate(piles):
            if len(pile) != HAND:
                sound = False
                self.note("deal", pile[-1] if pile else seen[-1], f"{HAND} cards for each "
                          f"player", f"{cards(len(pile))} listed for {player(number)}")
        for number, (event, size) in sizes.items():
            if size != len(piles[number]):
                self.note("deal", event, f"the number of cards listed, "
                          f"{len(piles[number])}", line_shown(event.text))
        first_seen = {}
        for event in (event for pile in piles for event in pile):
            card = event.values[1]
            if card in first_seen:
                sound = False
                self.note("deal", event, f"{DECK} different cards", f"{the_card(card)} "
                          f"a second time (first on line {first_seen[card] + 1})")
            first_seen.setdefault(card, event.index)
        self.piles = piles
        for number, pile in enumerate(piles):
            cards_in = [event.values[1] for event in pile]
            self.table.order[number] = cards_in[::-1]          # bottom first, as the reference
            self.table.to_play[number] = set(cards_in)
            self.table.count[number] = [len(cards_in), 0]
        self.known = self.synced = sound
        self.numbered_from = [pile[0] for pile in piles
                              if pile and pile[0].values[0] not in (1, None)]
        return None

    def orient(self, battle):
        """Tell from the first battle whether the piles were listed top first."""
        for number, event in battle.plays.items():
            order = self.table.order[number]
            card = event.values[1]
            if order and card == order[-1] and card != order[0]:
                self.top_first = self.piles[number][0].index
                self.table.order = [pile[::-1] if pile else pile for pile in self.table.order]
                return

    # ---- One battle under a set of rules

    def play_battle(self, battle, rules, last, kept=None):
        """The battle played by the rules plus the deviations in rules: an BattleOutcome."""
        table = self.table.copy()
        out = BattleOutcome(table, [], dict.fromkeys(GAME_ITEMS, 0))
        cards_up = []
        for number in (0, 1):
            event = battle.plays.get(number)
            if event is None:
                if not last:
                    out.mismatches.append(Mismatch("plays", battle.events[0],
                                                   f"a face-up card of {player(number)}"))
                return out
            cards_up.append(self.face_up(table, number, event, rules, out))
        if battle.verdict is None and last:
            return out
        winner = self.verdict(cards_up, battle, rules, out)
        tie = winner is None
        self.state_rules(table, battle, winner, out)
        self.pickup(table, winner, tie, rules, out, kept)
        shown = self.refills_and_counts(table, battle, rules, out, last)
        self.end(table, battle, rules, out, last, tie)
        out.winner = winner
        if winner is not None and shown:
            out.tested["pickup"] += 1
        return out

    @staticmethod
    def state_rules(table, battle, winner, out):
        """What the rules require of the pickup, a tie and the refills, in words, for the
        example of a deviation adopted here."""
        verdict = battle.verdict or battle.events[-1]
        if winner is not None:
            out.rule["pickup"] = (battle.counts.get(winner, verdict),
                                  f"{player(winner)} to take the whole pot, "
                                  f"{cards(len(table.pot))}, into its 'played' pile")
        else:
            out.rule["tie"] = (next(iter(battle.counts.values()), verdict),
                               "the tied cards kept in the pot for the next battle")

    def face_up(self, table, number, event, rules, out):
        """Check and take the face-up card a line says a player plays."""
        card = event.values[1]
        if table.count[number][0] == 0 and table.count[number][1] > 0 and \
                "refill_lazy" in rules:
            table.refill(number)
        order = table.order[number]
        if self.known:
            out.tested["plays"] += 1
            wrong = self.wrong_card(table, number, card, order)
            if wrong:
                out.mismatches.append(Mismatch("plays", event, wrong[0], wrong[1]))
        table.take(card)
        table.count[number][0] = max(0, table.count[number][0] - 1)
        table.pot.append((card, number))
        return card

    def wrong_card(self, table, number, card, order):
        """(what the rules require, what the file did) if a face-up card is not one the
        player may play, else None."""
        if any(card == in_pot for in_pot, _ in table.pot):
            return (f"the top card of {player(number)}'s 'to play' pile",
                    f"{the_card(card)}, which is in the pot already")
        if card in table.floating:
            return None
        if table.count[number][0] == 0:
            return (f"a card of {player(number)}'s 'to play' pile, which is empty",
                    f"{the_card(card)}, which is {self.place_of(table, card)}")
        if order is not None and order and card != order[0]:
            return (f"the top card of {player(number)}'s 'to play' pile, {the_card(order[0])}",
                    f"{the_card(card)}, which is {self.place_of(table, card)}")
        if card not in table.to_play[number]:
            return (f"a card of {player(number)}'s 'to play' pile",
                    f"{the_card(card)}, which is {self.place_of(table, card)}")
        return None

    @staticmethod
    def place_of(table, card):
        """Where a card may be now, in words."""
        for number in (0, 1):
            if card in table.to_play[number]:
                return f"in {player(number)}'s 'to play' pile"
            if card in table.played[number]:
                return f"in {player(number)}'s 'played' pile"
        return "in no pile (it was never dealt)"

    def verdict(self, cards_up, battle, rules, out):
        """Check the verdict line against the ranks: the winner the file names, or None
        for a tie."""
        said = battle.verdict
        ranks = [rank_of(card, rules) for card in cards_up]
        higher = 0 if ranks[0] > ranks[1] else 1
        if ranks[0] == ranks[1]:
            out.tested["ties"] += 1
            if said is None:
                out.mismatches.append(Mismatch("ties", battle.after_plays(), "a tie line: both "
                                               f"play {a_rank(cards_up[0])}"))
                return None
            if said.kind == "wins" and "tie_decided" not in rules:
                out.mismatches.append(Mismatch("ties", said, "another battle: both play "
                                               f"{a_rank(cards_up[0])}, a tie"))
            return said.values[0] if said.kind == "wins" else None
        out.tested["ranks"] += 1
        ace = "ace low" if "ace_low" in rules else "ace high"
        beats = (f"{player(higher)} to win: {the_card(cards_up[higher])} beats "
                 f"{the_card(cards_up[1 - higher])} ({ace})")
        if said is None:
            out.mismatches.append(Mismatch("ranks", battle.after_plays(), beats,
                                           "no verdict line"))
            return higher
        if said.kind == "wins" and said.values[0] != higher and "winner_misnamed" in rules:
            return higher
        if said.kind == "tie" or said.values[0] != higher:
            out.mismatches.append(Mismatch("ranks", said, beats))
        return said.values[0] if said.kind == "wins" else None

    @staticmethod
    def pickup(table, winner, tie, rules, out, kept):
        """The pot taken by the winner, as the rules (and the deviations) say."""
        pot = [card for card, _ in table.pot]
        if tie or not pot:
            return
        if "tie_returned" in rules and len(pot) > 2:    # the tied cards back to their owners
            for card, owner in table.pot[:-2]:
                table.played[owner].add(card)
                table.count[owner][1] += 1
            table.pot = table.pot[-2:]
            pot = pot[-2:]
        war = len(pot) > 2
        if kept is None:
            kept = len(pot)
        else:                                # pot_lost: cards left on the table, or taken later
            table.stranded += len(pot) - kept
        if "pot_to_loser" in rules:
            to, pile = 1 - winner, 1
        elif "pot_to_play" in rules or ("war_pot_to_play" in rules and war):
            to, pile = winner, 0
            table.order[winner] = None
        else:
            to, pile = winner, 1
        (table.to_play if pile == 0 else table.played)[to].update(pot)
        if kept != len(pot):
            table.floating.update(pot)
        table.count[to][pile] += kept
        table.pot = []

    def refills_and_counts(self, table, battle, rules, out, last):
        """The refills after the battle, then the counts: True if counts were printed."""
        due = [n for n in (0, 1) if table.count[n][0] == 0 and table.count[n][1] > 0]
        empty = [n for n in (0, 1) if table.count[n][0] == 0 and table.count[n][1] == 0]
        out.tested["refill"] += len(due)
        for number in due[:1]:
            out.rule["refill"] = (
                battle.refills.get(number) or battle.counts.get(number) or battle.events[-1],
                f"a refill of {player(number)}'s empty 'to play' pile from its 'played' pile "
                f"({cards(table.count[number][1])}), shuffled, with its two lines, before "
                "the counts")
        silent = rules & {"refill_silent", "refill_lazy", "refill_never"}
        late = "counts_before_refill" in rules
        wanted = set() if silent else set(due) | (set(empty) if "refill_from_empty" in rules
                                                 else set())
        before = [list(pair) for pair in table.count]
        if not rules & {"refill_lazy", "refill_never"}:
            for number in due:
                table.refill(number)
        out_now = [n for n in (0, 1) if table.count[n] == [0, 0]]
        if table.pot and "pot_to_survivor" in rules and len(out_now) == 1:
            survivor = 1 - out_now[0]
            table.played[survivor].update(card for card, _ in table.pot)
            table.count[survivor][1] += len(table.pot)
            table.pot = []
        cut = last
        for number in (0, 1):
            event = battle.refills.get(number)
            if number in wanted and event is None and not cut:
                out.mismatches.append(Mismatch(
                    "refill", battle.counts.get(number) or battle.events[-1],
                    f"a refill of {player(number)}'s empty 'to play' pile from its 'played' "
                    f"pile ({cards(table.count[number][0])}), shuffled, before the counts",
                    "no refill lines" if not battle.counts.get(number) else None))
            elif event is not None and number not in wanted:
                holds = (f"{player(number)}'s 'to play' pile holds "
                         f"{cards(table.count[number][0])}" if table.count[number][0] else
                         f"{player(number)}'s 'played' pile is empty")
                out.mismatches.append(Mismatch("refill", event, f"no refill: {holds}"))
            elif event is not None and battle.refills_before_counts(number) == late:
                out.mismatches.append(Mismatch(
                    "refill", event, f"{player(number)}'s refill " +
                    ("after the counts" if late else "before the counts")))
        shown = before if late else table.count
        printed = False
        for number in (0, 1):
            event = battle.counts.get(number)
            if event is None:
                continue
            printed = True
            out.tested["counts"] += 1
            to_play, played = shown[number]
            if list(event.values[1:]) != [to_play, played]:
                out.mismatches.append(Mismatch("counts", event, f"{player(number)}'s counts: "
                                               f"{to_play} to play and {played} played"))
        if not printed and not cut:
            out.mismatches.append(Mismatch("counts", battle.events[-1].index + 1,
                                           "the pile counts after each battle"))
        return printed

    def end(self, table, battle, rules, out, last, tie):
        """The game ends exactly when a 'to play' pile is still empty after the refills."""
        if "refill_lazy" in rules:
            empty = tuple(n for n in (0, 1) if sum(table.count[n]) == 0)
        else:
            empty = tuple(n for n in (0, 1) if table.count[n][0] == 0)
        said = battle.said_losers()
        cut = last or (self.near_stop and not said)
        if (empty or said) and not cut:
            out.tested["end"] += 1
        if said == empty or (cut and not said):
            out.losers = said
            table.over = bool(empty)
            return
        if empty and not said and tie and table.pot and "play_after_out" in rules:
            table.over = True                # the rules ended it; the file plays on
            return
        at = battle.lost[0] if battle.lost else (
            battle.announced[0] if battle.announced else battle.events[-1].index + 1)
        holds = [n for n in said if n not in empty]
        if holds:
            required = (f"the game to go on: {player(holds[0])} still holds "
                        f"{cards(table.count[holds[0]][0])} to play")
        else:
            required = (f"the end: {both(empty)} {'has' if len(empty) == 1 else 'have'} no "
                        "card left to play and lost")
        out.mismatches.append(Mismatch("end", at, required))
        out.losers = said
        table.over = bool(empty)

    # ---- Explaining a battle

    def candidates(self, rules):
        """The sets of rules to try after the rules adopted: the adopted with some left
        out (a program may deviate only sometimes: on a tie, say), then each deviation
        more, then each pair more."""
        names = sorted(rules)
        fewer = [frozenset(c) for size in range(len(names) - 1, -1, -1)
                 for c in combinations(names, size)] if len(names) <= 5 else \
            [rules - {name} for name in names]
        yield from fewer
        left = [d.name for d in DEVIATIONS if d.name not in rules]
        for base in [rules] + fewer:
            yield from (base | {name} for name in left)
        yield from (rules | set(pair) for pair in combinations(left, 2))

    def explain(self, battle, last):
        """The BattleOutcome of a battle under the rules adopted, or the fewest deviations more
        that explain it; (outcome, the deviations added or None if nothing explains)."""
        plain = self.tried(battle, self.rules, last)
        if not plain.mismatches:
            return plain, ()
        if self.searches_failed >= SEARCHES:
            return plain, None
        for rules in self.candidates(self.rules):
            found = self.tried(battle, frozenset(rules), last)
            if not found.mismatches:
                return found, tuple(sorted(set(rules) - self.rules,
                                           key=[d.name for d in DEVIATIONS].index))
        self.searches_failed += 1
        return plain, None

    def tried(self, battle, rules, last):
        """The battle under a set of rules; with pot_lost, each number of cards lost."""
        if "pot_lost" not in rules:
            return self.play_battle(battle, rules, last)
        best = None
        most = len(self.table.pot) + 2 + self.table.stranded     # the pot, and what lay lost
        for kept in range(most, -1, -1):
            found = self.play_battle(battle, rules, last, kept)
            if not found.mismatches:
                return found
            best = best or found
        return best

    def adopt(self, battle, plain, added):
        """Charge each deviation added, once, at the line where the rules broke."""
        for name in added:
            deviation = DEVIATION[name]
            step = deviation.step
            if step in plain.rule:
                at, required = plain.rule[step]
            else:
                where = next((m for m in plain.mismatches if m.item == deviation.item),
                             plain.mismatches[0])
                at, required = where.at, where.required
            said = self.sentence(name)
            self.note(deviation.item, at, required, f"{self.quoted(at)}: {said}", name)
            self.result.deviations.append(name)
        self.rules = self.rules | set(added)

    def sentence(self, name):
        """A deviation's sentence, with the ace printed as 'one' where the file did."""
        said = DEVIATION[name].sentence
        if name == "ace_low" and self.ace_as_one is not None:
            said += f" (printed as 'one', line {self.ace_as_one + 1})"
        return said

    def quoted(self, at):
        """The line of an Event or index, quoted."""
        index = at.index if isinstance(at, Event) else at
        if index is None or index >= len(self.lines):
            return "nothing more (the file ends)"
        return line_shown(self.lines[index])

    def unexplained(self, battle, plain):
        """No deviation explains a battle: charge the first step that broke, take the
        file's counts as the new state, and go on."""
        first = plain.mismatches[0]
        self.note(first.item, first.at, first.required, first.said)
        table = plain.table
        table.over = False                  # an end the file's own counts do not show
        for number, event in battle.counts.items():
            if list(event.values[1:]) != table.count[number]:
                table.floating |= table.to_play[number] | table.played[number]
                table.floating.update(card for card, _ in table.pot)
                table.count[number] = list(event.values[1:])
                table.order[number] = None
        for number in battle.refills:
            if table.order[number] is not None:
                table.refill(number)
        return plain

    def sync(self, battle, last):
        """A battle before the counts are known (the deal was not listed, or not as the
        rules require): only its verdict is judged, and its counts are taken as the state."""
        outcome = self.play_battle(battle, self.rules, last)
        verdicts = [m for m in outcome.mismatches if m.item in ("ranks", "ties")]
        if verdicts:
            self.note(verdicts[0].item, verdicts[0].at, verdicts[0].required, verdicts[0].said)
        for item in ("ranks", "ties"):
            self.test(item, outcome.tested[item])
        table = outcome.table
        table.over = False                  # the rules' end needs counts this battle lacked
        for number, event in battle.counts.items():
            table.count[number] = list(event.values[1:])
            table.order[number] = None
        self.table = table
        self.synced = len(battle.counts) == 2
        if battle.said_losers():
            self.result.finished, self.result.losers = True, battle.said_losers()

    # ---- The game

    def battle(self, battle, last):
        """Judge one battle: the lines from its first face-up card to the next one."""
        if not self.table.pot:
            self.round += 1
        self.rounds_at.append((battle.events[0].index, self.round))
        if self.round == 1 and not self.table.pot and self.known and self.top_first is None:
            self.orient(battle)
        if not self.synced:
            return self.sync(battle, last)
        outcome, added = self.explain(battle, last)
        if added is None:
            outcome = self.unexplained(battle, outcome)
        elif added:
            plain = self.tried(battle, self.rules, last)
            self.adopt(battle, plain, added)
        for item, times in outcome.tested.items():
            self.test(item, times)
        self.table = outcome.table
        if outcome.losers:
            self.result.finished, self.result.losers = True, outcome.losers

    def run(self):
        """Judge the whole file; the Judgement."""
        meanings = self.read()
        start = next((n for n, e in enumerate(self.events)
                      if e.kind in ("plays", "round")), len(self.events))
        self.deal(self.events[:start], start < len(self.events))
        battles = self.battles(self.events[start:])
        for number, battle in enumerate(battles):
            # last: the file ends inside this battle, so its missing lines are the end's
            last = number == len(battles) - 1 and (not self.complete or not (
                battle.counts or battle.lost or battle.announced))
            # a crash or a stop soon after: the end is the run's fault, not checked here
            self.near_stop = not self.complete and number >= len(battles) - 2
            if self.result.finished:
                self.note("end", battle.events[0], "nothing after the end: the game was over")
                break
            if self.table.over:                 # play_after_out: the file plays on
                said = battle.said_losers()
                if said:
                    self.result.finished, self.result.losers = True, said
                continue
            self.battle(battle, last)
        self.close()
        self.format_departure(meanings)
        self.result.rounds = self.round
        self.result.last_lines = self.lines[-3:]
        return self.result

    def close(self):
        """A complete file must play its game to the end."""
        if self.result.finished or not self.complete or "end" in self.result.findings \
                or self.table.over:
            return
        self.test("end")
        stops = f"in round {self.round}" if self.round else "before the first round"
        self.note("end", len(self.lines), "the game played until a player runs out",
                  f"nothing more: it stops {stops}")

    @staticmethod
    def battles(events):
        """The battles: runs of events from a face-up card to the next battle's first."""
        found, block = [], []
        for event in events:
            if event.kind == "round":
                continue
            starts = event.kind == "plays" and any(
                seen.kind != "plays" or seen.values[0] == event.values[0] for seen in block)
            if starts and block:
                found.append(Battle(block))
                block = []
            if event.kind in BATTLE_KINDS:
                block.append(event)
        if block:
            found.append(Battle(block))
        return found


def judge(text, complete=True):
    """Judge a transcript's text (complete: False when the program that printed it crashed
    or was stopped, whose unfinished last line is left out): a Judgement."""
    lines = text.split("\n")
    if lines and (lines[-1] == "" or not complete):
        lines.pop()
    return Judge(lines, complete).run()
