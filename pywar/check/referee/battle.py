"""One battle of a transcript: its lines sorted by what they say (Battle), and the battle
played on the table by a Policy (play_battle), step by step as the reference plays it:
the face-up cards, the verdict, the pickup, the refills and the counts, the end.  Each
step notes what the file does not show (a Finding at its Event) and which rules the
battle put to the test."""

from dataclasses import dataclass, field
from functools import cached_property
from typing import NamedTuple

from .finding import Finding
from .lines import KIND
from .mistakes import ROW
from .rubric import GAME_ITEMS, RUBRIC
from .words import ACE, DECK, a_rank, both, cards, player, rank_of, the_card


TO_PLAY, PLAYED = 0, 1            # a player's piles, as Table.count holds them
DOWN = (3, 1, 2)                  # cards face down in a war of other books, the likelier
                                  # first: three (Wikipedia's, iofall's, Lehigh's), one, two
FOUR = 4                          # then four each, tried after every pair of those


class Down(NamedTuple):
    """The cards each player puts face down in a war where no line says: how many of
    each, and from which of its piles (TO_PLAY, or PLAYED: the top of the cards won)."""
    counts: tuple
    pile: int = TO_PLAY


NO_DOWN = Down((0, 0))


class Battle:
    """One battle's lines, sorted by what they say."""

    def __init__(self, events):
        self.events = events
        self.plays = first_by_player(events, KIND.plays)
        self.downs = [e for e in events if e.kind == KIND.down]
        self.verdict = next((e for e in events if e.kind in (KIND.wins, KIND.tie)), None)
        self.refills = first_by_player(events, KIND.refill)
        self.counts = first_by_player(events, KIND.counts)
        self.lost = [e for e in events if e.kind == KIND.lost]
        self.announced = [e for e in events if e.kind == KIND.announce]

    @cached_property
    def downs_of(self):
        """{player: its face-down lines}, sorted once: a battle is tried many times."""
        return {number: [e for e in self.downs if e.player == number] for number in (0, 1)}

    @cached_property
    def down_count(self):
        """{player: (the cards its face-down lines name, how many more they count)}."""
        return {number: down_count(self.downs_of[number]) for number in (0, 1)}

    def after_plays(self):
        """The index of the line after the battle's last play: where its verdict is due."""
        return max(event.index for event in self.plays.values()) + 1

    def said_losers(self):
        """The players the file says lost here, by a run-out line or a winner named."""
        said = {e.player for e in self.lost}
        if not said:
            said = {1 - e.player for e in self.announced if e.player is not None}
        return tuple(sorted(said))

    def refills_before_counts(self, number):
        """Whether a player's refill lines come before the first counts line."""
        if not self.counts:
            return True
        first_counts = min(e.index for e in self.counts.values())
        return self.refills[number].index < first_counts


def down_count(downs):
    """(the cards a player's face-down lines name, the deck's worth at most; how many
    more they count unnamed)."""
    named = [e.card for e in downs if e.card is not None]
    return named[:DECK], sum(e.said.number or 0 for e in downs if e.card is None)


def first_by_player(events, kind):
    """{player: the first Event of a kind naming that player}."""
    found = {}
    for event in events:
        if event.kind == kind:
            found.setdefault(event.player, event)
    return found


@dataclass
class BattleOutcome:
    """One battle played by a Policy: the table after it, what the file does not match
    (Findings at their Events), which rules it put to the test, and what the rules
    required at each step (for the example of a deviation adopted there)."""
    table: object
    mismatches: list = field(default_factory=list)
    tested: dict = field(default_factory=lambda: dict.fromkeys(GAME_ITEMS, 0))
    winner: object = None
    losers: tuple = ()
    rule: dict = field(default_factory=dict)    # step -> (where, what the rules require)
    lazy: set = field(default_factory=set)      # players refilled when a card was needed

    def miss(self, item, at, required, said=None):
        """A step whose outcome the file does not show."""
        self.mismatches.append(Finding(item=item, at=at, required=required, said=said))


def rank_under(card, policy):
    """A card's rank under the policy: the ace high, or low."""
    rank = rank_of(card)
    return -1 if rank == ACE and policy.follows(ROW.ace_low) else rank


def refills_after_the_battle(policy):
    """Whether a pile emptied in a battle is refilled after it, as the rules say (not when
    a card is needed, nor never)."""
    return not (policy.follows(ROW.refill_lazy_told) or policy.follows(ROW.refill_never))


def play_battle(table, battle, policy, last, known, near_stop=False, kept=None, down=None):
    """The battle played on a copy of the table by the policy: a BattleOutcome.  last:
    the file ends inside this battle; known: the deal's order is known; near_stop: the
    run stopped soon after; kept: the cards of the pot the winner keeps (pot_kept part);
    down: the cards each player puts face down first, where the file does not say (Down)."""
    out = BattleOutcome(table.copy())
    table = out.table
    cards_up = []
    war = bool(table.pot)
    if war:
        out.rule["war"] = (battle.events[0], "after a tie, the next battle at once, with no "
                           "card face down")
    for number in (0, 1):
        event = battle.plays.get(number)
        if event is None:
            if not last:
                out.miss(RUBRIC.plays, battle.events[0], f"a face-up card of {player(number)}")
            return out
        downs = battle.downs_of[number] if battle.downs else ()
        if war and policy.follows(ROW.face_down_war):
            face_down(table, number, battle, down or NO_DOWN, out)
        elif downs:
            out.miss(RUBRIC.ties, downs[0], "after a tie, the next battle at once, with no card "
                     "face down" if war else "no card face down: no tie came before")
        cards_up.append(face_up(table, number, event, policy, known, out))
    table.told = [False, False]                 # a refill told early is this battle's
    if battle.verdict is None and last:
        return out
    winner = verdict(cards_up, battle, policy, out)
    tie = winner is None
    state_rules(table, battle, winner, out)
    pickup(table, winner, tie, policy, kept)
    shown = refills_and_counts(table, battle, policy, out, last)
    end(table, battle, policy, out, last or (near_stop and not battle.said_losers()), tie)
    out.winner = winner
    if winner is not None and shown:
        out.tested[RUBRIC.pickup] += 1
    return out


def state_rules(table, battle, winner, out):
    """What the rules require of the pickup, in words, for the example of a deviation
    adopted there."""
    if winner is not None:
        verdict_line = battle.verdict or battle.events[-1]
        out.rule["pickup"] = (battle.counts.get(winner, verdict_line),
                              f"{player(winner)} to take the whole pot, "
                              f"{cards(len(table.pot))}, into its 'played' pile")


def face_up(table, number, event, policy, known, out):
    """Check and take the face-up card a line says a player plays."""
    card = event.card
    if table.count[number][0] == 0 and table.count[number][1] > 0 and \
            policy.follows(ROW.refill_lazy_told):
        refill_now(table, number, out)
    if known:
        out.tested[RUBRIC.plays] += 1
        wrong = wrong_card(table, number, card)
        if wrong:
            out.miss(RUBRIC.plays, event, *wrong)
    to_pot(table, number, card)
    return card


def to_pot(table, number, card):
    """A card from a player's 'to play' pile put in the pot (None: one no line names).
    The pot holds the deck at most: a card past its 52 (a file that plays cards it does
    not have) is counted off the pile but not held, so that a flood of such lines costs
    each battle a pot of 52, not one that grows with the file."""
    if card is not None:
        table.take(card)
    table.played_from(number, card)
    table.count[number][0] = max(0, table.count[number][0] - 1)
    if len(table.pot) < DECK:
        table.pot.append((card, number))


def face_down(table, number, battle, down, out):
    """A player's cards put face down before a war's battle: those the file names, or
    down's count of them (the file's number, where it gives one).  From 'to play': a pile
    that runs out among them, or before the face-up card that follows them, is refilled
    then, from 'played' (and told then).  From 'played': cards of it, which no line says."""
    named, said = battle.down_count[number]
    if battle.downs_of[number]:
        count = min(len(named) + said, DECK)
    elif down.pile == PLAYED:
        return take_played(table, number, down.counts[number])
    else:
        count = down.counts[number]
    if count + 1 <= table.count[number][0] or table.count[number][1] == 0:
        return put_down(table, number, named, count)
    first = min(count, table.count[number][0])
    put_down(table, number, named[:first], first)
    refill_now(table, number, out)
    return put_down(table, number, named[first:], count - first)


def refill_now(table, number, out):
    """A refill when a card is needed (lazily, or among a war's cards face down), its
    lines due in this battle unless they were told as it began."""
    if not table.told[number]:
        out.lazy.add(number)
    table.refill(number)


def put_down(table, number, named, count):
    """count cards of a player's 'to play' pile put in the pot face down: those named,
    else cards of it that no line names (a war of other books takes them from the top or
    the bottom: the pile's order is not known after)."""
    for card in (named or [None] * count)[:count]:
        if card is None:
            table.floating |= table.to_play[number]       # which of them, no line says
            table.order[number] = None
        to_pot(table, number, card)


def take_played(table, number, count):
    """count cards of a player's 'played' pile put in the pot face down (a war of other
    books taken from the cards won): which of them, no line says, so any of the pile's
    cards may turn up anywhere (its blocks won then count more cards than it holds, and
    its next refill is not judged for its shuffle: Table.refill)."""
    if count:
        table.floating |= table.played[number]
    table.count[number][1] -= count
    table.pot.extend([(None, number)] * max(0, min(count, DECK - len(table.pot))))


def down_counts(table, battle):
    """The cards each player may have put face down before this battle (where no line
    says), likelier first (Down): from 'to play', three, one, two, fewer from a short pile,
    keeping one to play (short by its 'to play' pile, or by all its cards with a refill
    among them as pywar's engine plays it); none for both only where neither has a card
    of 'to play' to spare (none for both is no war of this kind); then four each; then as
    many each from the top of 'played' (a program treats both players alike: the pairs of
    one number only, fewer from a short pile)."""
    def choices(number, counts):
        to_play, played = table.count[number]
        return dict.fromkeys(max(0, min(n, left)) for n in counts
                             for left in (to_play + played - 1, to_play - 1))
    spare = [table.count[number][0] > 1 for number in (0, 1)]
    from_to_play = [Down((a, b)) for a in choices(0, DOWN) for b in choices(1, DOWN)
                    if a or b or not any(spare)]
    four = [Down((a, b)) for a in choices(0, (FOUR,)) for b in choices(1, (FOUR,)) if a or b]
    from_played = [Down(tuple(min(n, table.count[number][1]) for number in (0, 1)), PLAYED)
                   for n in DOWN + (FOUR,)]
    return list(dict.fromkeys(from_to_play + four +
                              [down for down in from_played if any(down.counts)]))


def wrong_card(table, number, card):
    """(what the rules require, what the file did) if a face-up card is not one the
    player may play, else None."""
    order = table.order[number]
    if any(card == in_pot for in_pot, _ in table.pot):
        return (f"the top card of {player(number)}'s 'to play' pile",
                f"{the_card(card)}, which is in the pot already")
    if card in table.floating:
        return None
    if table.count[number][0] == 0:
        return (f"a card of {player(number)}'s 'to play' pile, which is empty",
                f"{the_card(card)}, which is {table.place_of(card)}")
    if order is not None and order and card != order[0]:
        return (f"the top card of {player(number)}'s 'to play' pile, {the_card(order[0])}",
                f"{the_card(card)}, which is {table.place_of(card)}")
    if card not in table.to_play[number]:
        return (f"a card of {player(number)}'s 'to play' pile",
                f"{the_card(card)}, which is {table.place_of(card)}")
    return None


def verdict(cards_up, battle, policy, out):
    """Check the verdict line against the ranks: the winner the file names, or None
    for a tie."""
    said = battle.verdict
    ranks = [rank_under(card, policy) for card in cards_up]
    higher = 0 if ranks[0] > ranks[1] else 1
    if ranks[0] == ranks[1]:
        out.tested[RUBRIC.ties] += 1
        if said is None:
            out.miss(RUBRIC.ties, battle.after_plays(), "a tie line: both play "
                     f"{a_rank(cards_up[0])}")
            return None
        if said.kind == KIND.wins and not policy.follows(ROW.tie_decided):
            out.miss(RUBRIC.ties, said, f"another battle: both play {a_rank(cards_up[0])}, a tie")
        return said.player if said.kind == KIND.wins else None
    out.tested[RUBRIC.ranks] += 1
    beats = (f"{player(higher)} to win: {the_card(cards_up[higher])} beats "
             f"{the_card(cards_up[1 - higher])} (ace {policy.ace})")
    if said is None:
        out.miss(RUBRIC.ranks, battle.after_plays(), beats, "no verdict line")
        return higher
    if said.kind == KIND.wins and said.player != higher and policy.follows(ROW.winner_misnamed):
        return higher
    if said.kind == KIND.tie or said.player != higher:
        out.miss(RUBRIC.ranks, said, beats)
    return said.player if said.kind == KIND.wins else None


def pickup(table, winner, tie, policy, kept):
    """The pot taken by the winner, as the policy says."""
    pot = [card for card, _ in table.pot]
    if tie or not pot:
        return
    if policy.follows(ROW.tie_returned) and len(pot) > 2:    # the tied cards back to their owners
        for card, owner in table.pot[:-2]:
            table.add_played(owner, [] if card is None else [card], 1)
        table.pot = table.pot[-2:]
        pot = pot[-2:]
    elif policy.follows(ROW.war_pot_split) and len(pot) > 2:
        tied = pot[:-2]
        table.to_play[winner].update(card for card in tied if card is not None)
        table.count[winner][0] += len(tied)
        if table.order[winner] is not None and None not in tied:
            table.order[winner] = tied + table.order[winner]       # the first tied on top
        else:
            table.order[winner] = None
        table.pot = table.pot[-2:]
        pot = pot[-2:]
    war = len(pot) > 2
    if kept is None:
        kept = len(pot)
    else:                                # cards left on the table, or taken later
        table.stranded = max(0, table.stranded + len(pot) - kept)
    to = 1 - winner if policy.follows(ROW.pot_to_loser) else winner
    cards_won = [card for card in pot if card is not None]
    if kept != len(pot):
        table.floating.update(cards_won)
    if policy.follows(ROW.war_pot_to_play if war else ROW.pot_to_play):
        table.order[to] = None
        table.to_play[to].update(cards_won)
        table.count[to][0] += kept
    else:
        table.add_played(to, cards_won, kept)
    table.pot = []


def refills_and_counts(table, battle, policy, out, last):
    """The refills after the battle, then the counts: True if counts were printed."""
    due = [n for n in (0, 1) if table.count[n][0] == 0 and table.count[n][1] > 0]
    empty = [n for n in (0, 1) if table.count[n][0] == 0 and table.count[n][1] == 0]
    out.tested[RUBRIC.refill] += len(due)
    for number in due[:1]:
        out.rule["refill"] = (
            battle.refills.get(number) or battle.counts.get(number) or battle.events[-1],
            f"a refill of {player(number)}'s empty 'to play' pile from its 'played' pile "
            f"({cards(table.count[number][1])}), shuffled, with its two lines, before "
            "the counts")
    late = policy.follows(ROW.counts_before_refill)
    now = (set(due) if refills_after_the_battle(policy) else set()) | out.lazy
    wanted = set() if policy.follows(ROW.refill_silent) else now | (
        set(empty) if policy.follows(ROW.refill_from_empty) else set())
    before = [list(pair) for pair in table.count]
    if refills_after_the_battle(policy):
        for number in due:
            table.refill(number)
    to_survivor(table, policy)
    told = not policy.follows(ROW.refill_silent) and (policy.follows(ROW.refill_lazy_told) or (
        policy.follows(ROW.face_down_war) and bool(table.pot)))
    for number in (0, 1):
        if told and told_early(table, battle, number, out):
            continue
        refill_lines_of(table, battle, number, wanted, late and number not in out.lazy, last,
                        out)
    return counts(shown_counts(before if late else table.count, policy), battle, out, last)


def shown_counts(count, policy):
    """The counts as the policy prints them: [to play, played] of each player."""
    if policy.follows(ROW.counts_less_one):
        return [[to_play - 1, played - 1] for to_play, played in count]
    if policy.follows(ROW.counts_swapped):
        return [[played, to_play] for to_play, played in count]
    if policy.follows(ROW.counts_total):
        return [[to_play + played] * 2 for to_play, played in count]
    if policy.follows(ROW.counts_other_player):
        return [count[1], count[0]]
    return count


def to_survivor(table, policy):
    """The pot of a tie in which one player ran out, to the other (a deviation's)."""
    out_now = [n for n in (0, 1) if table.count[n] == [0, 0]]
    if table.pot and policy.follows(ROW.pot_to_survivor) and len(out_now) == 1:
        survivor = 1 - out_now[0]
        table.add_played(survivor, [card for card, _ in table.pot if card is not None],
                         len(table.pot))
        table.pot = []


def told_early(table, battle, number, out):
    """Whether a player's refill lines after this battle's counts are the refill of the
    next battle, told as it begins: a lazy refill (its 'to play' pile empty, 'played'
    not), or one among a war's cards face down (after a tie)."""
    event = battle.refills.get(number)
    short = table.count[number][0] == 0 or (table.pot and table.count[number][0] <= 3)
    if event is None or number in out.lazy or battle.refills_before_counts(number) or \
            table.count[number][1] == 0 or not short:
        return False
    table.told[number] = True
    return True


def refill_lines_of(table, battle, number, wanted, late, last, out):
    """A player's refill lines: printed exactly when wanted, and before the counts (after
    them where the policy prints the counts first)."""
    event = battle.refills.get(number)
    if number in wanted and event is None and not last:
        out.miss(RUBRIC.refill, battle.counts.get(number) or battle.events[-1],
                 f"a refill of {player(number)}'s empty 'to play' pile from its 'played' "
                 f"pile ({cards(table.count[number][0])}), shuffled, before the counts",
                 "no refill lines" if not battle.counts.get(number) else None)
    elif event is not None and number not in wanted:
        holds = (f"{player(number)}'s 'to play' pile holds "
                 f"{cards(table.count[number][0])}" if table.count[number][0] else
                 f"{player(number)}'s 'played' pile is empty")
        out.miss(RUBRIC.refill, event, f"no refill: {holds}")
    elif event is not None and number in out.lazy:
        play = battle.plays.get(number)
        if play is not None and event.index > play.index:
            out.miss(RUBRIC.refill, event, f"{player(number)}'s refill before its face-up card")
    elif event is not None and battle.refills_before_counts(number) == late:
        out.miss(RUBRIC.refill, event, f"{player(number)}'s refill " +
                 ("after the counts" if late else "before the counts"))


def counts(shown, battle, out, last):
    """Each counts line against the counts the rules give: True if any was printed."""
    printed = False
    for number in (0, 1):
        event = battle.counts.get(number)
        if event is None:
            continue
        printed = True
        out.tested[RUBRIC.counts] += 1
        to_play, played = shown[number]
        if event.counts != [to_play, played]:
            out.miss(RUBRIC.counts, event, f"{player(number)}'s counts: {to_play} to play and "
                     f"{played} played")
    if not printed and not last:
        out.miss(RUBRIC.counts, battle.events[-1].index + 1, "the pile counts after each battle")
    return printed


def end(table, battle, policy, out, cut, tie):
    """The game ends exactly when a 'to play' pile is still empty after the refills (cut:
    the file ends, or the run stopped, before the end could be told)."""
    if policy.follows(ROW.refill_lazy_told):
        empty = tuple(n for n in (0, 1) if sum(table.count[n]) == 0)
    else:
        empty = tuple(n for n in (0, 1) if table.count[n][0] == 0)
    said = battle.said_losers()
    if policy.follows(ROW.face_down_war) and tie:      # too few cards for a war of three down
        empty = tuple(sorted(set(empty) | {n for n in said if sum(table.count[n]) <= 3}))
    if (empty or said) and not cut:
        out.tested[RUBRIC.end] += 1
    if said == empty or (cut and not said):
        out.losers = said
        table.over = bool(empty)
        return
    if empty and not said and tie and table.pot and policy.follows(ROW.play_after_out):
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
    out.miss(RUBRIC.end, at, required)
    out.losers = said
    table.over = bool(empty)
