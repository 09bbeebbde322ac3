"""A referee that keeps going: every rule a transcript breaks, each judged on the file's
own story, so that one mistake costs one rubric item (docs/grading.md).

    >>> import pywar
    >>> judged = judge(pywar.play(17455, transcript=True).transcript)
    >>> judged.broken(), judged.finished, judged.rounds
    ([], True, 29)

It reads the lines by their meaning (pywar.check.lines), skips what it does not
understand (a departure from the format, no broken rule), and plays the game as the file
tells it: the deal as listed, the cards as played, the winner the file names, the piles
the file's counts show.  At each battle it asks what the rules require of that story and
notes a finding under the item the rule belongs to: the first example of each item, and
how many times it was broken.
"""

from dataclasses import dataclass, field

from .referee import DECK, HAND, NAME_OF, OPENING, PLAYERS, RANKS
from .lines import meaning, reference_words, refill_words

ITEMS = ("builds", "runs", "format", "deal", "plays", "ranks", "ties", "pickup", "refill",
         "counts", "end", "memory")
GAME_ITEMS = ITEMS[2:11]          # judged from what the program printed
BLANK_AFTER = {"welcome", "deck", "initial", "wins", "tie"}
BATTLE_KINDS = {"plays", "wins", "tie", "refill", "counts", "lost"}


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


@dataclass
class Finding:
    """One broken rule: where (line, round), what the rules require, what the file says."""
    item: str
    line: object
    round: int
    required: str
    said: str

    def to_json(self, seed=None):
        """The finding as a JSON-ready dict."""
        found = {"line": self.line, "round": self.round, "required": self.required,
                 "said": self.said}
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
    rounds: int = 0
    losers: tuple = ()
    finished: bool = False
    last_lines: list = field(default_factory=list)

    def broken(self):
        """The items broken, in rubric order."""
        return [item for item in ITEMS if item in self.findings]

    def first(self, item):
        """The first Finding of an item, or None."""
        return self.findings[item][0] if item in self.findings else None

    def progress(self):
        """How far the game got, in words."""
        if self.finished:
            losers = " and ".join(player(p) for p in self.losers)
            return f"the game ended in round {self.rounds}: {losers} ran out"
        return f"the game got to round {self.rounds}" if self.rounds else "the game never began"


@dataclass
class Line:
    """A line of the file that the referee understood."""
    index: int                    # 0-based
    text: str
    kind: str
    values: tuple


class Judge:
    """Plays the game as the file tells it, noting every rule broken."""

    def __init__(self, lines, complete=True):
        self.lines = lines
        self.meanings = []                  # each line's meaning (lines.meaning)
        self.complete = complete            # False: the program crashed or was stopped
        self.result = Judgement()
        self.round = 0
        self.order = [None, None]           # the 'to play' pile top first, while known
        self.to_play = [set(), set()]       # the cards that may be in each pile
        self.played = [set(), set()]
        self.count = [[0, 0], [0, 0]]       # [to play, played] of each player, as told
        self.pot = []                       # (card, player), in the order played
        self.known = False                  # the deal was listed
        self.top_first = None               # the first listed Line, if listed top first
        self.oriented = False
        self.rounds_at = []                 # (index of a battle's first line, its round)
        self.piles = [[], []]               # the listing's Lines of each player
        self.numbered_from = []             # the first listed Line of a pile not numbered 1
        self.next_is_last = False

    # ---- Findings

    def note(self, item, at, required, said=None):
        """A rule broken at a Line (or a line index, or None)."""
        index = at.index if isinstance(at, Line) else at
        if said is None:
            said = repr(self.lines[index]) if index is not None and index < len(self.lines) \
                else "nothing more (the file ends)"
        line = None if index is None else index + 1
        round_ = self.round_of(index) if item == "format" else self.round
        found = self.result.findings.setdefault(
            item, [Finding(item, line, round_, required, said), 0])
        found[1] += 1

    def round_of(self, index):
        """The round a line is in (0 for the deal), as the battles before it tell."""
        if index is None:
            return self.round
        before = [round_ for at, round_ in self.rounds_at if at <= index]
        return before[-1] if before else 0

    # ---- The format: the reference's words and layout, at the first departure

    def format_departure(self):
        """The first line that departs from the reference's words or layout, as a finding."""
        blank_due = False
        listed = 0
        for index, (text, found) in enumerate(zip(self.lines, self.meanings)):
            if text == "":
                if not blank_due:
                    return self.note("format", index, "no blank line here")
                blank_due = False
                continue
            if blank_due:
                return self.note("format", index, "a blank line")
            if found is None:
                return self.note("format", index, "only the reference's lines (this line "
                                 "is not one the reference prints)")
            words = reference_words(found)
            kind = found[0]
            if kind == "refill":
                words = text if text in refill_words(found[1]) else None
            if words != text:
                shown = "the reference's words" if words is None else repr(words)
                return self.note("format", index, shown)
            listed = listed + 1 if kind == "listed" else 0
            blank_due = kind in BLANK_AFTER or listed == HAND or (
                kind == "refill" and text.startswith("Shuffling")) or (
                kind == "counts" and found[1] == 1)
        if not self.lines:
            return self.note("format", 0, f"the reference's opening, {OPENING[0]!r}")
        if self.top_first is not None:
            self.note("format", self.top_first, "the piles listed bottom card first (Card 1 "
                      "is the bottom, Card 26 the first played)", "they are listed top card "
                      "first")
        return None

    # ---- The deal

    def deal(self, seen):
        """Check the deal, listed in the lines before the first battle; set up the piles."""
        piles, current, sizes = [[], []], None, {}
        for line in seen:
            if line.kind == "pile":
                current = line.values[0]
            elif line.kind == "size":
                sizes.setdefault(0 if current is None else current, (line, line.values[0]))
            elif line.kind == "listed":
                owner = current if current is not None else (0 if len(piles[0]) < HAND else 1)
                piles[owner].append(line)
        listed = [line.values[1] for pile in piles for line in pile]
        if not listed:
            return self.note("deal", seen[-1] if seen else None, "the deal listed: 26 cards "
                             "for each player", "no listing of the deal")
        self.known = True
        for number, pile in enumerate(piles):
            if len(pile) != HAND:
                self.note("deal", pile[-1] if pile else seen[-1], f"{HAND} cards for each "
                          f"player", f"{cards(len(pile))} listed for {player(number)}")
        for number, (line, size) in sizes.items():
            if size != len(piles[number]):
                self.note("deal", line, f"the number of cards listed, "
                          f"{len(piles[number])}", repr(line.text))
        first_seen = {}
        for line in (line for pile in piles for line in pile):
            card = line.values[1]
            if card in first_seen:
                self.note("deal", line, f"{DECK} different cards", f"{the_card(card)} "
                          f"a second time (first on line {first_seen[card] + 1})")
            first_seen.setdefault(card, line.index)
        self.piles = piles
        for number, pile in enumerate(piles):
            cards_in = [line.values[1] for line in pile]
            self.order[number] = cards_in[::-1]          # bottom first, as the reference
            self.to_play[number] = set(cards_in)
            self.count[number] = [len(cards_in), 0]
        self.numbered_from = [pile[0] for pile in piles if pile and pile[0].values[0] != 1]

    def orient(self, plays):
        """Tell from the first battle whether the piles were listed top first."""
        for line in plays:
            number, card = line.values
            order = self.order[number]
            if order and card == order[-1] and card != order[0]:
                self.top_first = self.piles[number][0].index
                self.oriented = True
                self.order = [pile[::-1] if pile else pile for pile in self.order]
                return

    # ---- A battle

    def face_up(self, number, line):
        """Check and take the face-up card a line says a player plays."""
        card = line.values[1]
        order = self.order[number]
        where = self.place_of(card)
        if not self.known or "deal" in self.result.findings:
            pass                            # the piles are unknown: no card can be placed
        elif any(card == in_pot for in_pot, _ in self.pot):
            self.note("plays", line, f"the top card of {player(number)}'s 'to play' pile",
                      f"{the_card(card)}, which is in the pot already")
        elif card in self.played[number] and card not in self.to_play[number] \
                and self.count[number][0] == 0:
            self.note("refill", line, f"a refill of {player(number)}'s empty 'to play' pile "
                      "before it plays", f"{the_card(card)}, from its 'played' pile")
        elif order is not None and order and card != order[0]:
            self.note("plays", line, f"the top card of {player(number)}'s 'to play' pile, "
                      f"{the_card(order[0])}", f"{the_card(card)}, which is {where}")
        elif order is None and card not in self.to_play[number]:
            self.note("plays", line, f"a card of {player(number)}'s 'to play' pile",
                      f"{the_card(card)}, which is {where}")
        self.take(card)
        self.count[number][0] -= 1
        self.pot.append((card, number))
        return card

    def place_of(self, card):
        """Where a card may be now, in words."""
        for number in (0, 1):
            if card in self.to_play[number]:
                return f"in {player(number)}'s 'to play' pile"
            if card in self.played[number]:
                return f"in {player(number)}'s 'played' pile"
        return "in no pile (it was never dealt)"

    def take(self, card):
        """Take a card out of wherever it may be."""
        for number in (0, 1):
            self.to_play[number].discard(card)
            self.played[number].discard(card)
            if self.order[number] is not None and card in self.order[number]:
                self.order[number].remove(card)

    def verdict(self, cards, said):
        """Check the verdict line against the ranks: the winner the file names, or None."""
        ranks = [card % 13 for card in cards]
        higher = 0 if ranks[0] > ranks[1] else 1
        if said is None:
            return None if ranks[0] == ranks[1] else higher
        if ranks[0] == ranks[1]:
            if said.kind == "wins":
                self.note("ties", said, f"another battle: both play {a_rank(cards[0])}, a tie")
            return said.values[0] if said.kind == "wins" else None
        beats = (f"{player(higher)} to win: {the_card(cards[higher])} beats "
                 f"{the_card(cards[1 - higher])} (ace high)")
        if said.kind == "tie" or said.values[0] != higher:
            self.note("ranks", said, beats)
        return said.values[0] if said.kind == "wins" else None

    def candidates(self, winner):
        """(name, counts after the pickup) for each way the file may have taken the pot:
        the rules' own first."""
        size = len(self.pot)
        now = [list(pair) for pair in self.count]

        def moved(to, pile, amount):
            after = [list(pair) for pair in now]
            after[to][pile] += amount
            return after
        if winner is None:
            back = [list(pair) for pair in now]
            for _, owner in self.pot:
                back[owner][1] += 1
            return [("kept", now), ("returned", back)]
        ways = [("right", moved(winner, 1, size)), ("to play", moved(winner, 0, size)),
                ("loser", moved(1 - winner, 1, size))]
        ways += [(f"lost {size - kept}", moved(winner, 1, kept)) for kept in range(size)]
        return ways

    @staticmethod
    def refilled(counts, refills):
        """Counts after the refills the file shows."""
        after = [list(pair) for pair in counts]
        for number in refills:
            after[number] = [after[number][0] + after[number][1], 0]
        return after

    def explanation(self, ways, refills, shown):
        """(name, counts, silent refills) of the first way of taking the pot, with the
        fewest silent refills, that gives the counts the file shows; or None."""
        silent = [number for number in (0, 1) if number not in refills]
        for extra in ((),) + tuple((number,) for number in silent) + (tuple(silent),):
            for name, counts in ways:
                due = all(counts[n][0] == 0 and counts[n][1] > 0 for n in extra)
                after = self.refilled(counts, sorted(set(refills) | set(extra)))
                if due and all(after[n] == value for n, value in shown.items()):
                    return name, counts, extra
        return None

    def settle(self, winner, verdict_line, block, last):
        """The pickup, refills, counts and run-outs of one battle, from what the file says."""
        refills = sorted({line.values[0] for line in block if line.kind == "refill"})
        printed = {line.values[0]: line for line in block if line.kind == "counts"}
        shown = {number: list(line.values[1:]) for number, line in printed.items()}
        ways = self.candidates(winner)
        found = self.explanation(ways, refills, shown)
        if found is None:
            self.unexplained(winner, ways[0][1], refills, printed, shown)
        else:
            name, counts, silently = found
            self.explained(winner, name, verdict_line, printed)
            self.adopt(winner, name)
            self.count = [list(pair) for pair in counts]
            self.check_refills(refills, silently, block, next(iter(printed.values()), None))
        if not printed and not last:
            self.note("counts", block[-1].index + 1 if block else None,
                      "the pile counts after each battle")
        lost = [line for line in block if line.kind == "lost"]
        self.run_outs(lost, block, last or self.next_is_last)

    def unexplained(self, winner, counts, refills, printed, shown):
        """Counts no way of taking the pot explains: a counts fault; the file's counts
        are taken from here on."""
        expected = self.refilled(counts, [n for n in (0, 1) if counts[n][0] == 0])
        for number, line in sorted(printed.items()):
            if expected[number] != shown[number]:
                to_play, played = expected[number]
                self.note("counts", line, f"{player(number)}'s counts: {to_play} to play and "
                          f"{played} played")
                break
        self.adopt(winner, "right")
        for number in refills:
            self.to_play[number] |= self.played[number]
            self.played[number] = set()
            self.order[number] = None
        for number, value in shown.items():
            self.count[number] = list(value)

    def explained(self, winner, name, verdict_line, printed):
        """Note a way of taking the pot that is not the rules'."""
        counts_at = next(iter(printed.values()), None)
        size = len(self.pot)
        if name == "returned":
            self.note("ties", counts_at or verdict_line, "the tied cards kept in the pot for "
                      "the next battle", f"{counts_at.text!r}: they went back to their "
                      "players" if counts_at else None)
        elif name not in ("right", "kept"):
            taken = ("into its 'to play' pile" if name == "to play" else
                     f"into {player(1 - winner)}'s 'played' pile" if name == "loser" else
                     f"with {name.split()[1]} of its {cards(size)} lost")
            told = printed.get(winner, counts_at)
            self.note("pickup", told, f"{player(winner)} to take the whole pot, "
                      f"{cards(size)}, into its 'played' pile",
                      f"{told.text!r}: the pot went {taken}")

    def adopt(self, winner, name):
        """Move the pot's cards as the file's pickup did (lost cards stay possible)."""
        pot = [card for card, _ in self.pot]
        if name in ("kept",):
            return
        if name == "returned":
            for card, owner in self.pot:
                self.played[owner].add(card)
        elif name == "to play":
            self.to_play[winner].update(pot)
            self.order[winner] = None
        elif name == "loser":
            self.played[1 - winner].update(pot)
        else:
            self.played[winner].update(pot)
        self.pot = []

    def check_refills(self, refills, silently, block, counts_at):
        """A refill exactly when a 'to play' pile is empty and 'played' is not."""
        for number in (0, 1):
            to_play, played = self.count[number]
            due = to_play == 0 and played > 0
            shown = number in refills or number in silently
            line = next((line for line in block if line.kind == "refill"
                         and line.values[0] == number), counts_at)
            if due and number not in refills:
                self.note("refill", line or (block[-1].index + 1 if block else None),
                          f"a refill of {player(number)}'s empty 'to play' pile from its "
                          f"'played' pile ({cards(played)}), shuffled")
            elif number in refills and not due:
                self.note("refill", line, f"no refill: {player(number)}'s 'to play' pile "
                          f"holds {cards(to_play)}")
            if shown:
                self.count[number] = [to_play + played, 0]
                self.to_play[number] |= self.played[number]
                self.played[number] = set()
                self.order[number] = None

    def run_outs(self, lost, block, near_end):
        """The game ends exactly when a 'to play' pile is still empty after the refills."""
        empty = tuple(number for number in (0, 1) if self.count[number][0] <= 0)
        said = tuple(sorted({number for line in lost for number in line.values}))
        refill_missed = "refill" in self.result.findings
        if said and said != empty and not refill_missed:
            holds = [n for n in said if n not in empty]
            if holds:
                self.note("end", lost[0], f"the game to go on: {player(holds[0])} still "
                          f"holds {cards(self.count[holds[0]][0])} to play")
            else:
                self.note("end", lost[0], f"the loss of {' and '.join(map(player, empty))}")
        elif empty and not said and not (near_end and not self.complete) and not refill_missed:
            self.note("end", block[-1].index + 1 if block else None,
                      f"the end: {' and '.join(map(player, empty))} "
                      f"{'has' if len(empty) == 1 else 'have'} no card left to play "
                      f"and lost")
        if said:
            self.result.finished, self.result.losers = True, said

    # ---- The game

    def battle(self, block, last):
        """Judge one battle: the lines from its first face-up card to the next one."""
        plays = {}
        for line in block:
            if line.kind == "plays" and line.values[0] not in plays:
                plays[line.values[0]] = line
        said = next((line for line in block if line.kind in ("wins", "tie")), None)
        if not self.pot:
            self.round += 1
        self.rounds_at.append((block[0].index, self.round))
        if not self.oriented and self.known:
            self.orient(list(plays.values()))
            self.oriented = True
        if len(plays) < 2:
            if not (last and not self.complete):
                missing = [n for n in (0, 1) if n not in plays][0]
                self.note("plays", block[0], f"a face-up card of {player(missing)}")
            return
        cards_up = [self.face_up(number, plays[number]) for number in (0, 1)]
        if said is None and last and not self.complete:
            return
        winner = self.verdict(cards_up, said)
        self.settle(winner, said, block, last)

    def run(self):
        """Judge the whole file; the Judgement."""
        self.meanings = [meaning(text) for text in self.lines]
        understood = [Line(index, text, found[0], found[1:])
                      for index, (text, found) in enumerate(zip(self.lines, self.meanings))
                      if found is not None and found[0] != "blank"]
        start = next((n for n, line in enumerate(understood)
                      if line.kind in BATTLE_KINDS or line.kind == "round"), len(understood))
        self.deal(understood[:start])
        blocks = self.blocks(understood[start:])
        for number, block in enumerate(blocks):
            if self.result.finished:
                self.note("end", block[0], "nothing after the end: the game was over")
                break
            self.next_is_last = number == len(blocks) - 2
            self.battle(block, number == len(blocks) - 1)
        if not self.result.finished and self.complete and "end" not in self.result.findings:
            stops = f"in round {self.round}" if self.round else "before the first round"
            self.note("end", len(self.lines), "the game played until a player runs out",
                      f"nothing more: it stops {stops}")
        self.format_departure()
        if self.numbered_from and "format" not in self.result.findings:
            first = self.numbered_from[0]
            self.note("format", first, "the cards of a pile numbered from 1")
        self.result.rounds = self.round
        self.result.last_lines = self.lines[-3:]
        return self.result

    def blocks(self, understood):
        """The battles: runs of lines from a face-up card to the next battle's first."""
        blocks, block = [], []
        for line in understood:
            if line.kind == "round":
                continue
            starts = line.kind == "plays" and any(
                seen.kind != "plays" or seen.values[0] == line.values[0] for seen in block)
            if starts and block:
                blocks.append(block)
                block = []
            if line.kind in BATTLE_KINDS:
                block.append(line)
        if block:
            blocks.append(block)
        return blocks


def judge(text, complete=True):
    """Judge a transcript's text (complete: False when the program that printed it crashed
    or was stopped, whose unfinished last line is left out): a Judgement."""
    lines = text.split("\n")
    if lines and (lines[-1] == "" or not complete):
        lines.pop()
    return Judge(lines, complete).run()
