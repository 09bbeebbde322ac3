"""A referee that keeps going: every rule a transcript breaks, each judged on the file's
own story, so that one mistake costs one rubric item (docs/grading.md).

    >>> import pywar
    >>> judged = judge(pywar.play(17455, transcript=True).transcript)
    >>> judged.broken(), judged.finished, judged.rounds, judged.tested[RUBRIC.ties] > 0
    ([], True, 29, True)

It reads what each line says (pywar.check.referee.lines), whatever its words, and plays
the game as the file tells it: the deal as listed (deal), the cards as played, the
winner the file names.  Each battle (battle) is explained by the rules plus the fewest
deviations of the table of mistakes (explain): the first set that makes the battle agree
is adopted, its item charged once, and the game played by its Policy from then on.
Where none explains the battle, the item of the step that broke is charged, the
program's own counts are taken as the new state, and the referee goes on.  The format
is judged at its first departure (layout).  Each item counts how often its rule was put
to the test: an item never put to the test is not checked.
"""

from bisect import bisect_right
from dataclasses import dataclass, field

from .battle import Battle, play_battle
from .deal import check_deal, top_first_listing
from .effort import Effort
from .endless import repeats
from .explain import LOOKAHEAD, Explainer, battle_work, policy_of, tried
from .finding import Finding
from .layout import judge_layout
from .lines import KIND, Reader
from .mistakes import MISTAKE, Policy, ROW
from .quote import LINE, line_shown
from .rubric import GAME_ITEMS, NAMES, RUBRIC
from .table import Event, Table
from .shuffled import unshuffled
from .words import both, cards, player

AFTER_PLAYS = {KIND.wins, KIND.tie, KIND.counts, KIND.lost, KIND.announce}   # a battle's
                                                            # lines after its plays
BATTLE_KINDS = {KIND.plays, KIND.down, KIND.refill} | AFTER_PLAYS
CONTEXT = 1                       # lines shown on each side of an example's line
REFILL_LINES = 3                  # a refill's lines, a blank among them: its later ones
BATTLE_LINES = 10                 # a battle's lines at most, its refills' but one among them


@dataclass
class Judgement:
    """Everything the referee found in one transcript."""
    findings: dict = field(default_factory=dict)    # item -> [first Finding, count]
    tested: dict = field(default_factory=lambda: dict.fromkeys(GAME_ITEMS, 0))
    mistakes: dict = field(default_factory=dict)    # a row's name -> its first Finding or None
    rounds: int = 0
    losers: tuple = ()
    finished: bool = False
    last_lines: list = field(default_factory=list)
    dealt: tuple = None                 # each pile's cards as listed, when the deal was sound
    repeats: tuple = None               # (first round, period) of a game told endlessly
    playing: bool = False               # the file's last lines are its game's battle

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


class Notes:
    """The findings of one file, each placed at its line with the lines around it."""

    def __init__(self, lines):
        self.lines = lines
        self.result = Judgement()
        self.round = 0
        self.rounds_at = []                 # (index of a battle's first line, its round)
        self.headers = ([], [])             # each round header's line index, its number

    def note(self, item, at, required, said=None, mistake=None):
        """A rule broken at an Event (or a line index, or None), charged to an item (and
        to a mistake's row, when one names it)."""
        index = at.index if isinstance(at, Event) else at
        if item in self.result.findings and (
                mistake is None or self.result.mistakes.get(mistake.name) is not None):
            self.result.findings[item][1] += 1      # its first Finding is kept, made once
            return
        if said is None:
            said = self.quoted(index)
        line = None if index is None else index + 1
        round_ = self.round_of(index) if item == RUBRIC.format else self.round
        context = [] if index is None else [
            [number + 1, self.lines[number][:LINE]]
            for number in range(max(0, index - CONTEXT), min(len(self.lines), index + CONTEXT + 1))]
        finding = Finding(line, round_, required, said, item=item, context=context,
                          mistake=mistake and mistake.name, file_round=self.header_at(index))
        found = self.result.findings.setdefault(item, [finding, 0])
        found[1] += 1
        if mistake is not None:
            self.found(mistake, finding)

    def found(self, mistake, finding=None):
        """A mistake's row seen in the file (its first Finding kept)."""
        if self.result.mistakes.get(mistake.name) is None:
            self.result.mistakes[mistake.name] = finding

    def round_of(self, index):
        """The round a line is in (0 for the deal), as the battles before it tell."""
        if index is None:
            return self.round
        before = [round_ for at, round_ in self.rounds_at if at <= index]
        return before[-1] if before else 0

    def header_at(self, index):
        """The number of the file's own round header at or above a line ('Round 6': 6), or
        None (no header above it, or one with no number)."""
        at, numbers = self.headers
        found = bisect_right(at, len(self.lines) if index is None else index)
        return numbers[found - 1] if found else None

    def test(self, item, times=1):
        """An item's rule put to the test."""
        self.result.tested[item] += times

    def quoted(self, at):
        """The line of an Event or index, quoted."""
        index = at.index if isinstance(at, Event) else at
        if index is None or index >= len(self.lines):
            return "nothing more (the file ends)"
        return line_shown(self.lines[index])


class Judge(Notes):
    """Plays the game as the file tells it, noting every rule broken."""

    def __init__(self, lines, complete=True, effort=None, wording=None):
        super().__init__(lines)
        self.wording = wording              # an assignment's words for the format (None:
                                            # the reference's)
        self.complete = complete            # False: the program crashed or was stopped
        self.effort = effort or Effort()    # the steps taken, and the deadline
        self.events = []
        self.adopted = frozenset()          # the deviations adopted
        self.policy = Policy()
        self.table = Table.empty()
        self.known = False                  # the deal was listed, 26 different cards each
        self.synced = False                 # the counts are known: from the deal or the file
        self.deal = None
        self.top_first = None               # the first listed Event, if listed top first
        self.numbered_from = []
        self.ace_as_one = None              # the first line that names the ace 'one'
        self.near_stop = False              # the run stopped within a battle of this one
        self.explainer = Explainer()
        self.round_cards = []               # the cards played in each round, in order
        self.misnamed = {}                  # index of a refill's line naming the other player

    # ---- Reading

    def read(self):
        """Every line's events, in order."""
        reader = Reader()
        meanings = []
        for index, text in enumerate(self.lines):
            self.effort.step()
            found = self.same_refill(reader.events(text), index)
            meanings.append(found)
            for said in found:
                if said.kind != KIND.blank:
                    self.events.append(Event(index, text, said))
                if said.kind == KIND.round:
                    self.headers[0].append(index)
                    self.headers[1].append(said.number)
                if said.ace_as_one and self.ace_as_one is None:
                    self.ace_as_one = index
        return meanings

    def same_refill(self, found, index):
        """A refill's later line belongs to the refill just begun, whoever it names
        ('Shuffling player A cards...' after player B ran out is B's, misnamed), or if it
        names nobody ('Shuffling...'); such a line with no refill before it says nothing."""
        if not found or found[0].kind != KIND.refill:
            return found
        before = self.events[-1] if self.events else None
        begun = before is not None and before.kind == KIND.refill and \
            index - before.index <= REFILL_LINES
        if found[0].player is None:
            return [found[0]._replace(player=before.player)] if begun else []
        if begun and before.index == index - 1 and before.player != found[0].player \
                and "shuffl" in self.lines[index].lower() \
                and "shuffl" not in before.text.lower():
            self.misnamed[index] = before.player
            return [found[0]._replace(player=before.player)]
        return found

    # ---- The game

    def run(self):
        """Judge the whole file; the Judgement."""
        meanings = self.read()
        start = next((n for n, e in enumerate(self.events)
                      if e.kind in (KIND.plays, KIND.round)), len(self.events))
        self.set_deal(self.events[:start], start < len(self.events))
        battles = self.battles(self.events[start:], self.effort)
        for number, battle in enumerate(battles):
            # last: the file ends inside this battle, so its missing lines are the end's
            last = number == len(battles) - 1 and (not self.complete or not (
                battle.counts or battle.lost or battle.announced))
            # a crash or a stop soon after: the end is the run's fault, not checked here
            self.near_stop = not self.complete and number >= len(battles) - 2
            if self.result.finished:
                self.note(RUBRIC.end, battle.events[0], "nothing after the end: the game was over",
                          mistake=ROW.after_the_end)
                break
            if self.table.over:                 # play goes on after a run-out: the file's
                said = battle.said_losers()
                if said:
                    self.result.finished, self.result.losers = True, said
                continue
            self.battle(battle, last, battles[number + 1:number + 1 + LOOKAHEAD])
        self.close()
        judge_layout(self, meanings)
        if not self.complete:
            played = {card for cards_up in self.round_cards for card in cards_up}
            self.result.repeats = repeats(self.round_cards, len(played))
            self.result.playing = bool(battles) and \
                battles[-1].events[-1].index >= len(self.lines) - BATTLE_LINES
        self.result.rounds = self.round
        self.result.last_lines = [line[:LINE] for line in self.lines[-3:]]
        return self.result

    def set_deal(self, seen, went_on):
        """Check the deal listed before the first battle; set up the table by it."""
        self.deal = check_deal(seen, self.note, self.complete, went_on)
        if self.deal.checked:
            self.test(RUBRIC.deal)
        self.table = self.deal.table
        self.known = self.synced = self.deal.sound
        if self.deal.sound:
            self.result.dealt = (tuple(self.deal.cards_of(0)), tuple(self.deal.cards_of(1)))
        self.numbered_from = self.deal.numbered_from()

    def battle(self, battle, last, following=()):
        """Judge one battle: the lines from its first face-up card to the next one (the
        following battles choose between explanations alike)."""
        if not self.table.pot:
            self.round += 1
            self.round_cards.append([])
        self.round_cards[-1].extend(event.card for event in battle.plays.values())
        self.rounds_at.append((battle.events[0].index, self.round))
        if self.round == 1 and not self.table.pot and self.known and self.top_first is None:
            self.top_first = top_first_listing(self.deal, self.table, battle)
        if not self.synced:
            return self.sync(battle, last)
        outcome, added = self.explainer.explain(self, battle, last, following)
        if added is None:
            outcome = self.unexplained(battle, outcome)
        elif added:
            self.adopt(tried(self, battle, self.policy, last), added)
        for item, times in outcome.tested.items():
            self.test(item, times)
        self.table = outcome.table
        self.check_refills(battle)
        if outcome.losers:
            self.result.finished, self.result.losers = True, outcome.losers

    def check_refills(self, battle):
        """Each refilled pile played to its last card: were its cards shuffled?  (Not asked
        of a deal not shuffled: its refills' order is the same mistake's.)"""
        for number, blocks, played in self.table.played_out:
            came = unshuffled(blocks, played)
            if came and ROW.deal_unshuffled.name not in self.result.mistakes:
                self.note(RUBRIC.refill, battle.plays.get(number, battle.events[0]),
                          f"{player(number)}'s refilled 'to play' pile shuffled",
                          f"its {cards(len(played))} played in the order they were won, "
                          f"{came}", ROW.refill_unshuffled)
        self.table.played_out = []

    def adopt(self, plain, added):
        """Charge each deviation added, once, at the line where the rules broke."""
        for name in added:
            mistake = MISTAKE[name]
            if mistake.step in plain.rule:
                at, required = plain.rule[mistake.step]
            else:
                where = next((m for m in plain.mismatches if m.item == mistake.item),
                             plain.mismatches[0])
                at, required = where.at, where.required
            self.note(mistake.item, at, required, f"{self.quoted(at)}: {self.sentence(mistake)}",
                      mistake)
        self.adopted = self.adopted | set(added)
        self.policy = policy_of(self.adopted)

    def sentence(self, mistake):
        """A mistake's sentence, with the ace printed as 'one' where the file did."""
        said = mistake.sentence
        if mistake.effects.get("ace") == "low" and self.ace_as_one is not None:
            said += f" (printed as 'one', line {self.ace_as_one + 1})"
        return said

    def unexplained(self, battle, plain):
        """No deviation explains a battle: charge the first step that broke, take the
        file's counts as the new state, and go on."""
        first = plain.mismatches[0]
        self.note(first.item, first.at, first.required, first.said)
        table = plain.table
        for number, counts in file_counts(battle).items():
            if counts != table.count[number]:
                table.lose_track(number)
                table.count[number] = counts
        # an end that is all the battle broke stays the end: the lines after it are that
        # one mistake's (the end's), not new ones
        table.over = table.over and all(m.item == RUBRIC.end for m in plain.mismatches)
        for number in battle.refills:               # a refill its counts show
            if table.order[number] is not None and battle.refills_before_counts(number):
                table.refill(number)
        return plain

    def sync(self, battle, last):
        """A battle before the counts are known (the deal was not listed, or not as the
        rules require): only its verdict is judged, and its counts are taken as the state."""
        self.effort.step(battle_work(self.table, battle))
        outcome = play_battle(self.table, battle, self.policy, last, self.known,
                              self.near_stop)
        verdicts = [m for m in outcome.mismatches if m.item in (RUBRIC.ranks, RUBRIC.ties)]
        if verdicts:
            self.note(verdicts[0].item, verdicts[0].at, verdicts[0].required, verdicts[0].said)
        for item in (RUBRIC.ranks, RUBRIC.ties):
            self.test(item, outcome.tested[item])
        table = outcome.table
        table.over = False                  # the rules' end needs counts this battle lacked
        for number, counts in file_counts(battle).items():
            table.count[number] = counts
            table.order[number] = None
        self.table = table
        self.synced = len(battle.counts) == 2
        if battle.said_losers():
            self.result.finished, self.result.losers = True, battle.said_losers()

    def close(self):
        """A complete file must play its game to the end."""
        if self.result.finished or not self.complete or RUBRIC.end in self.result.findings \
                or self.table.over:
            return
        self.test(RUBRIC.end)
        stops = f"in round {self.round}" if self.round else "before the first round"
        at, said, row = len(self.lines), f"nothing more: it stops {stops}", ROW.cut_short
        named = next((e for e in self.events if e.kind in (KIND.announce, KIND.lost, KIND.wins)), None)
        if not self.round and named is not None:    # a game played whole, only its end told
            at, said, row = named, f"{self.quoted(named)}: its end, and no battle before " \
                "it: its game is not shown", ROW.game_not_shown
        self.note(RUBRIC.end, at, "the game played until a player runs out", said, row)

    @staticmethod
    def battles(events, effort=None):
        """The battles: runs of events from a face-up card to the next battle's first;
        cards put face down after a battle's verdict belong to the next battle.  One pass:
        what a block holds (a verdict's lines, the players who played) kept as it grows."""
        effort = effort or Effort()
        found, block, held = [], [], []
        decided, played = False, set()      # block holds an AFTER_PLAYS event; its players
        for event in events:
            effort.step()
            if event.kind == KIND.round:
                continue
            if event.kind == KIND.down and decided:
                held.append(event)
                continue
            starts = event.kind == KIND.plays and (decided or event.player in played)
            if starts and block:
                found.append(Battle(block))
                block, held = held, []
                decided, played = False, set()
            if event.kind in BATTLE_KINDS:
                block.append(event)
                decided = decided or event.kind in AFTER_PLAYS
                if event.kind == KIND.plays:
                    played.add(event.player)
        if block or held:
            found.append(Battle(block + held))
        return found


def file_counts(battle):
    """The counts a battle's lines print, taken as the state where the rules cannot say
    it; a negative count, which no pile can hold, says nothing of the state."""
    return {number: event.counts for number, event in battle.counts.items()
            if min(event.counts) >= 0}


def judge(text, complete=True, effort=None, wording=None):
    """Judge a transcript's text (complete: False when the program that printed it crashed
    or was stopped, whose unfinished last line is left out): a Judgement.  effort: an
    Effort that counts the steps and bounds them by its deadline (OutOfTime past it).
    wording: an assignment's Wording whose words the format is held to (None: the
    reference's)."""
    lines = text.split("\n")
    if lines and (lines[-1] == "" or not complete):
        lines.pop()
    return Judge(lines, complete, effort, wording).run()
