"""A game's trace checked against the rules its header names (docs/rules.md, docs/trace.md),
from the trace alone: pywar replay.

    >>> import pywar
    >>> from pywar.check.implementations.replay import check_trace
    >>> game = pywar.play(17455, trace=True)
    >>> check_trace(game.trace).fault is None
    True

The checker plays the game by the rules as docs/rules.md states them, on its own: at
each point it says what the next event must be (its kind, its player and cards, where
it stands), reads the next line, and compares.  The cards move on a pywar.common.table_state.TableState,
which also checks the sizes each line states.  What the rules leave to chance (a shuffled
deal, a shuffled refill, a 'random' pickup) is taken from the trace, once checked to be
a legal outcome (the right cards, in any order).  It uses no engine: neither the C core,
nor the Python twin, nor the port, so that it can check them.
"""

import json
from dataclasses import dataclass, field

from ...common.fields import OUTCOMES, SEED_LIMIT
from ...common.table_state import NAMES, TableState
from ...common.trace import StrictJSONError, TraceError, parse_header, spell, strict_loads
from ...rules import Rules, check_deal, parse_deck
from ...twin.narrator import Narrator, narrate_steps  # noqa: F401 (for pywar replay)
from ..referee.finding import Finding, RuleBroken
from ..referee.quote import shown

HEADER_KEYS = ("trace", "version", "engine", "stack", "seed", "deal", "rules")
OWN_KEYS = {"deal": ("hands",), "round": (), "face_up": ("player", "card"),
            "take_back": ("player", "card"), "battle": ("winner", "tied"),
            "pickup": ("player", "cards"), "refill": ("player", "cards"),
            "face_down": ("player", "cards"), "run_out": ("player",), "cap": (),
            "cycle": ("start", "period"), "end": ("outcome", "winner")}
NUMBER_KEYS = ("round", "battle", "player", "card", "start", "period", "pot")
LIST_KEYS = ("tied", "cards")


class NotATrace(ValueError):
    """A file whose first line is not the header of a pywar trace this checker reads."""


class TableFault(Exception):
    """What pywar.common.table_state found wrong with an event: a card that is not where the event
    takes it from, or sizes that are not the rebuilt ones."""


class CheckedTableState(TableState):
    """A pywar.common.table_state.TableState that reports what it finds wrong as a TableFault."""

    def fail(self, event, reason):
        """Raise the reason alone: the checker says where."""
        raise TableFault(reason)


@dataclass
class Result:
    """What check_trace found: the header, the events that follow the rules (in order),
    and the first fault, or None."""
    header: dict
    events: list = field(default_factory=list)
    fault: object = None


# ---- The lines

def is_number(value):
    """True for a JSON integer (a bool's type is bool, a float's float)."""
    return type(value) is int


def is_numbers(value):
    """True for a JSON list of integers."""
    return type(value) is list and all(type(item) is int for item in value)


def header_of(line):
    """The header of a trace's first line, or NotATrace saying why it is not one."""
    try:
        header = parse_header(line)
    except TraceError as error:
        raise NotATrace(str(error)) from None
    if tuple(header) != HEADER_KEYS:
        raise NotATrace(f"the header's keys are {', '.join(header)}, not "
                        f"{', '.join(HEADER_KEYS)}")
    rules_of(header)
    check_header_values(header)
    return header


def rules_of(header):
    """The header's rules, once Rules accepts them, or NotATrace."""
    given = header["rules"]
    if not isinstance(given, dict):
        raise NotATrace("the header's rules are not a JSON object")
    try:
        rules = Rules(**given)
    except (TypeError, ValueError) as error:
        raise NotATrace(f"the header's rules are not rules pywar knows: {error}") from None
    if list(given) != list(rules.to_dict()):
        raise NotATrace(f"the header's rules have the keys {', '.join(given)}, not "
                        f"{', '.join(rules.to_dict())}")
    return rules


def check_header_values(header):
    """Raise NotATrace for a seed, deal, engine or stack the header cannot hold."""
    seed = header["seed"]
    if not is_number(seed) or not 0 <= seed < SEED_LIMIT:
        raise NotATrace(f"the header's seed is {seed!r}, not an integer from 0 to {SEED_LIMIT - 1}")
    if not isinstance(header["engine"], str):
        raise NotATrace("the header's engine is not a string")
    if header["stack"] not in (None, "pile", "adt"):
        raise NotATrace(f"the header's stack is {header['stack']!r}, not null, pile or adt")
    if header["deal"] is not None:
        try:
            check_deal(header["deal"], Rules(**header["rules"]))
        except ValueError as error:
            raise NotATrace(f"the header's deal is not a deal: {error}") from None


def shape_fault(event, players):
    """What is wrong with the keys and values of an event, or None."""
    kind = event.get("event")
    if not isinstance(kind, str) or kind not in OWN_KEYS:
        return f"{shown(kind if isinstance(kind, str) else json.dumps(kind))} is not an " \
               "event of the trace"
    keys = ("event", "round", "battle") + OWN_KEYS[kind] + ("piles", "pot")
    if tuple(event) != keys:
        return f"a {kind} event has the keys {', '.join(keys)}, in that order"
    wrong = [key for key in keys if not value_fits(key, event[key], players)]
    if wrong:
        return f"the value of {wrong[0]!r} is not what the trace format allows"
    return None


def value_fits(key, value, players):
    """True when an event's value has the type and range docs/trace.md gives its key."""
    if key in NUMBER_KEYS:
        return is_number(value) and value >= 0
    if key in LIST_KEYS:
        return is_numbers(value)
    if key == "winner":
        return value is None or is_number(value)
    if key == "outcome":
        return value in OUTCOMES
    if key == "hands":
        return isinstance(value, list) and all(is_numbers(hand) for hand in value)
    if key == "piles":
        return (isinstance(value, list) and len(value) == players
                and all(is_numbers(pile) and len(pile) == 2 for pile in value))
    return True


# ---- The checker

class TraceReader:
    """A trace's event lines read one at a time, each checked against what the rules
    require next; the table they build; the words of its faults."""

    def __init__(self, header, lines):
        """A checker for the event lines of a trace (the lines after its header)."""
        self.header = header
        self.rules = Rules(**header["rules"])
        self.players = self.rules.players
        self.ranks, suits = parse_deck(self.rules.deck)
        self.deck_size = self.ranks * suits
        self.queue = self.rules.piles == "queue"
        self.lines = lines
        self.table = CheckedTableState(header, [])
        self.events = []
        self.rounds = 0
        self.battles = 0
        self.in_game = set(range(self.players))
        self.face_up_cards = {}
        self.battle_of = {}              # a card's battle while face up in the pot, else 0
        self.over = False
        self.outcome = "win"
        self.winner = None
        self.namer = Narrator(None, self.rules.narration, self.rules.deck)

    # ---- Reading and comparing

    @property
    def line(self):
        """The number, in the file, of the next line to read (the header is line 1)."""
        return len(self.events) + 2

    def fault(self, reason):
        """Raise a RuleBroken at the next line, where the game stands now."""
        raise RuleBroken(Finding(self.line, self.rounds, reason=reason, battle=self.battles))

    def next_event(self, required):
        """The next line's event, checked for its format, or a RuleBroken."""
        if len(self.events) == len(self.lines):
            self.fault(f"the trace ends here, where the rules require {required}")
        line = self.lines[len(self.events)]
        try:
            event = strict_loads(line)
        except StrictJSONError as error:
            self.fault(f"not a JSON line ({error}), where the rules require {required}")
        if not isinstance(event, dict):
            self.fault(f"not a JSON object, where the rules require {required}")
        problem = shape_fault(event, self.players)
        if problem:
            self.fault(problem)
        if spell(event) != line + "\n":
            self.fault(f"not spelled as docs/trace.md spells it (no spaces): {spell(event)!r}")
        return event

    def expect(self, kind, required, **fixed):
        """The next event, which the rules say is a kind with these keys' values: a RuleBroken
        if it is not.  required says the event in words."""
        event = self.next_event(required)
        wanted = {"event": kind, **fixed}
        if any(event.get(key) != value for key, value in wanted.items()):
            self.fault(f"the rules require {required}; the trace says {says(event)}")
        where = (event["round"], event["battle"])
        if where != (self.rounds, self.battles):
            self.fault(f"the rules require this {kind} in round {self.rounds}, battle "
                       f"{self.battles}; the trace says round {where[0]}, battle {where[1]}")
        return event

    def accept(self, event):
        """Move the event's cards on the table, which checks the sizes the line states."""
        try:
            self.table.apply(event)
        except TableFault as error:
            self.fault(str(error))
        self.events.append(event)

    def take(self, kind, required, **fixed):
        """expect() an event whose every key the rules fix, and accept it."""
        event = self.expect(kind, required, **fixed)
        self.accept(event)
        return event

    # ---- Words

    def name(self, player):
        """A player's letter."""
        return NAMES[player]

    def card(self, card):
        """A card as the message says it: its id and its name."""
        return f"card {card} ({self.namer.card(card)})"

    def rank(self, card):
        """A card's rank: the higher wins."""
        return card % self.ranks

    # ---- The piles

    def to_play(self, player):
        """A player's 'to play' pile, top first."""
        return self.table.to_play[player]

    def played(self, player):
        """A player's 'played' pile, top first."""
        return self.table.played[player]

    def holds(self, player):
        """All the cards a player holds."""
        return len(self.to_play(player)) + len(self.played(player))

    def pot(self):
        """The pot as (card, player) pairs, bottom first."""
        return self.table.pot

    def state(self):
        """The hands between rounds, as bytes: every pile of every player in order."""
        cards = []
        for player in range(self.players):
            cards += self.to_play(player) + [255] + self.played(player) + [255]
        return bytes(cards)


class Dealing(TraceReader):
    """The deal, the draws and the pot, by the rules (docs/rules.md sections 5 to 7.4)."""

    # ---- The deal (docs/rules.md section 5)

    def deal(self):
        """The deal: the header's deal, or every card of the deck dealt round the table."""
        event = self.expect("deal", "the deal")
        hands = event["hands"]
        if self.header["deal"] is not None:
            if hands != self.header["deal"]:
                self.fault(f"the rules require the header's deal {self.header['deal']}; "
                           f"the trace deals {hands}")
        else:
            self.check_shuffled_deal(hands)
        self.accept(event)

    def check_shuffled_deal(self, hands):
        """A shuffled deal holds every card of the deck once, dealt one at a time from
        A round the table, so the first seats hold one card more."""
        size = self.deck_size
        sizes = [len(range(player, size, self.players)) for player in range(self.players)]
        cards = sorted(card for hand in hands for card in hand)
        if len(hands) != self.players or [len(hand) for hand in hands] != sizes:
            self.fault(f"the rules require hands of {sizes} cards; the trace deals "
                       f"{[len(hand) for hand in hands]}")
        if cards != list(range(size)):
            self.fault(f"the rules require each card of the deck, 0 to {size - 1}, dealt "
                       "once; the trace deals others")

    # ---- Drawing

    def refill(self, player):
        """'played' becomes 'to play': shuffled, or as it lies under refill 'keep'."""
        played = list(self.played(player))
        required = (f"player {self.name(player)}'s refill (its 'to play' pile is empty and "
                    f"its 'played' pile holds {len(played)} cards)")
        if self.rules.refill == "keep":
            self.take("refill", f"{required}, the 'played' pile as it lies, {played}",
                      player=player, cards=played)
            return
        event = self.expect("refill", required, player=player)
        if sorted(event["cards"]) != sorted(played):
            self.fault(f"the rules require the cards of player {self.name(player)}'s "
                       f"'played' pile, {sorted(played)}, in any order; the trace says "
                       f"{event['cards']}")
        self.accept(event)

    def refill_if_empty(self, player):
        """With two piles, refill a player's empty 'to play' pile before a draw."""
        if not self.queue and not self.to_play(player):
            self.refill(player)

    def face_up(self, in_battle, takers=frozenset()):
        """A new battle: each player in it, in seat order, puts its top card face up, or
        plays its last face-up card again (takers)."""
        self.battles += 1
        for player in sorted(in_battle):
            if player in takers:
                card = self.last_card_in_pot(player)
                self.take("take_back", f"player {self.name(player)} to take back its last "
                          f"face-up card, {self.card(card)}", player=player, card=card)
            else:
                self.refill_if_empty(player)
                card = self.to_play(player)[0]
                self.take("face_up", f"player {self.name(player)}'s face-up card, "
                          f"{self.card(card)}, the top of its 'to play' pile",
                          player=player, card=card)
            self.face_up_cards[player] = card
            self.battle_of[card] = self.battles

    def last_card_in_pot(self, player):
        """The last card the player put into the pot."""
        return [card for card, owner in self.pot() if owner == player][-1]

    def face_down(self, player, down):
        """A player's face-down cards of a war, from the top of its pile; told in two
        events around a refill in the middle."""
        left = down
        while left > 0:
            self.refill_if_empty(player)
            cards = self.to_play(player)[:left]
            self.take("face_down", f"player {self.name(player)}'s {len(cards)} face-down "
                      f"cards {cards}, from the top of its 'to play' pile",
                      player=player, cards=cards)
            self.battle_of.update(dict.fromkeys(cards, 0))
            left -= len(cards)

    # ---- The pot (docs/rules.md 7.4)

    def seat_cards(self, seat):
        """One seat's cards in the pot, in the order they were put down."""
        return [card for card, owner in self.pot() if owner == seat]

    def by_seat(self, first_seat, interleave):
        """The pot's cards seat by seat from first_seat round the table: in blocks, or
        one of each seat in turn."""
        seats = [(first_seat + i) % self.players for i in range(self.players)]
        blocks = [self.seat_cards(seat) for seat in seats]
        if not interleave:
            return [card for block in blocks for card in block]
        most = max(len(block) for block in blocks)
        return [block[i] for i in range(most) for block in blocks if i < len(block)]

    def high_first(self, by_battle):
        """The pot from the top, the highest rank first: within each battle's face-up
        cards (natural; a face-down card alone) or over the whole pot (sorted); cards of
        one rank top first."""
        runs = []
        for card, _ in reversed(self.pot()):
            battle = self.battle_of.get(card, 0) if by_battle else None
            if runs and battle != 0 and battle == runs[-1][0]:
                runs[-1][1].append(card)
            else:
                runs.append((battle, [card]))
        return [card for _, run in runs for card in sorted(run, key=self.rank, reverse=True)]

    def pickup_order(self, winner):
        """The order in which the rules' pickup takes the pot, or None for 'random'."""
        pickup = self.rules.pickup
        cards = [card for card, _ in self.pot()]
        orders = {"smu": lambda: cards[::-1], "pot-order": lambda: cards,
                  "random": lambda: None,
                  "winner-first": lambda: self.by_seat(winner, False),
                  "loser-first": lambda: self.by_seat(winner + 1, False),
                  "seat-interleaved": lambda: self.by_seat(0, True),
                  "seat-block": lambda: self.by_seat(0, False),
                  "natural": lambda: self.high_first(True),
                  "sorted": lambda: self.high_first(False)}
        return orders[pickup]()

    def collect(self, winner):
        """The winner takes the pot in the pickup's order."""
        order = self.pickup_order(winner)
        pot = [card for card, _ in self.pot()]
        required = f"player {self.name(winner)} to take the pot"
        if order is not None:
            self.take("pickup", f"{required} in the order of pickup "
                      f"{self.rules.pickup}, {order}", player=winner, cards=order)
            return
        event = self.expect("pickup", f"{required}, in any order", player=winner)
        if sorted(event["cards"]) != sorted(pot):
            self.fault(f"the rules require the pot's cards, {sorted(pot)}, in any order "
                       f"(pickup random); the trace says {event['cards']}")
        self.accept(event)

    def after_battle(self):
        """With two piles, refill in seat order every player whose 'to play' pile is
        empty and whose 'played' pile is not."""
        if self.queue:
            return
        for player in range(self.players):
            if not self.to_play(player) and self.played(player):
                self.refill(player)


class Replay(Dealing):
    """Plays a trace's game by the rules, line by line, and stops at the first line that
    departs from them (a RuleBroken): the rounds, the wars, running out and the end."""

    # ---- Running out and the end (7.7)

    def run_out(self, losers):
        """These players are out, in seat order."""
        for player in sorted(losers):
            self.take("run_out", f"player {self.name(player)} to run out (it holds "
                      f"{self.holds(player)} cards)", player=player)
            self.in_game.discard(player)

    def end_if_over(self, war_players):
        """Once at most one player holds cards, the game is over (True)."""
        if len(self.in_game) > 1:
            return False
        self.over = True
        iofall = self.rules.short_war == "iofall"
        if self.in_game:
            self.winner = min(self.in_game)
        elif iofall:
            self.winner = max(war_players)
        else:
            self.outcome = "both-lose"
            return True
        if iofall and self.pot():
            self.collect(self.winner)
        return True

    def check_out(self, winner, war_players):
        """The players left with no cards run out."""
        losers = {p for p in self.in_game if p != winner and self.holds(p) == 0}
        if losers:
            self.run_out(losers)
            self.end_if_over(war_players)

    # ---- The war (7.6)

    def plan(self, player):
        """(down, loses, takes_back) for a player at a war, from the cards it holds."""
        held, face_down, short_war = self.holds(player), self.rules.face_down, self.rules.short_war
        if held >= face_down + 1:
            return face_down, False, False
        if short_war == "lose":
            return 0, True, False
        if short_war == "last-card":
            return max(held - 1, 0), held == 0, False
        if short_war == "all-but-one":
            return max(held - 1, 0), False, held == 0
        down = 0 if held == 0 else face_down if held >= face_down else max(held - 1, 1)
        return down, held - down == 0, False

    def war_losses(self, war_players, losers):
        """The war's losers are out: (True if the war goes on, the players left in it)."""
        self.run_out(losers)
        left = war_players - losers
        if self.end_if_over(war_players):
            return False, left
        if len(left) > 1:
            return True, left
        if left:
            winner = min(left)
            self.collect(winner)
            self.after_battle()
            self.check_out(winner, left)
        else:
            self.check_out(None, war_players)
        return False, left

    def war(self, war_players):
        """After a tie: face-down cards, then a new battle.  (True if the round goes
        on, the players in the new battle)."""
        plans = {player: self.plan(player) for player in sorted(war_players)}
        losers = {p for p, (_, loses, _) in plans.items() if loses}
        takers = {p for p, (_, _, takes_back) in plans.items() if takes_back}
        iofall = self.rules.short_war == "iofall"
        if takers == war_players:
            losers = takers
        if losers and not iofall:
            goes_on, war_players = self.war_losses(war_players, losers)
            if not goes_on:
                return False, war_players
            takers &= war_players
        for player in sorted(war_players):
            self.face_down(player, plans[player][0])
        if losers and iofall:
            goes_on, war_players = self.war_losses(war_players, losers)
            if not goes_on:
                return False, war_players
        self.face_up(war_players, takers)
        return True, war_players

    # ---- A round (7.3)

    def battle(self, in_battle):
        """Compare the face-up cards: the one highest wins; the players sharing the
        highest rank tie.  (winner or None, the tied players)"""
        ranks = {player: self.rank(self.face_up_cards[player]) for player in in_battle}
        best = max(ranks.values())
        top = sorted(player for player, rank in ranks.items() if rank == best)
        if len(top) == 1:
            cards = ", ".join(self.card(self.face_up_cards[p]) for p in sorted(in_battle))
            self.take("battle", f"player {self.name(top[0])} to win the battle of {cards}",
                      winner=top[0], tied=[])
            return top[0], []
        names = " and ".join(self.name(player) for player in top)
        self.take("battle", f"a tie: {names} show the same rank", winner=None, tied=top)
        return None, top

    def play_round(self):
        """One round: battles until one is won, or a war ends the game."""
        self.rounds += 1
        self.take("round", f"round {self.rounds} to begin")
        in_battle = set(self.in_game)
        self.face_up(in_battle)
        while True:
            winner, tied = self.battle(in_battle)
            if winner is not None:
                self.collect(winner)
                self.after_battle()
                self.check_out(winner, {winner})
                return
            self.after_battle()
            goes_on, in_battle = self.war(set(tied))
            if not goes_on:
                return

    # ---- The whole game (7.2, 7.8, 8)

    def cap(self):
        """The round cap: the one player holding the most cards wins."""
        self.take("cap", f"the cap: {self.rounds} rounds played, max_rounds "
                  f"{self.rules.max_rounds}")
        held = [self.holds(player) for player in range(self.players)]
        self.over = True
        self.outcome = "capped"
        if held.count(max(held)) == 1:
            self.winner = held.index(max(held))

    def watching(self):
        """True when the rules look for a repeat: nothing random after the deal."""
        fixed = self.queue or self.rules.refill == "keep"
        return self.rules.detect_cycles and fixed and self.rules.pickup != "random"

    def cycle(self, history):
        """The game has repeated: check the start and period on the rebuilt states."""
        period = next(lam for lam in range(1, len(history))
                      if history[-1 - lam] == history[-1])
        start = next(r for r in range(len(history)) if history[r] == history[r + period])
        self.take("cycle", f"the cycle: the hands after round {self.rounds} were the "
                  f"hands after round {self.rounds - period}; {start} rounds come before the "
                  f"repeating part", start=start, period=period)
        self.over = True
        self.outcome = "cycle"

    def finish(self):
        """The end line, and nothing after it."""
        who = "nobody" if self.winner is None else f"player {self.name(self.winner)}"
        self.take("end", f"the end: outcome {self.outcome}, {who} the winner",
                  outcome=self.outcome, winner=self.winner)
        if len(self.events) < len(self.lines):
            self.fault("a line after the end, where the rules require nothing more")

    # ---- A one-card game (7.10)

    def one_card_game(self):
        """Rounds of one battle each, nothing won back, until a hand is empty; the most
        battles won wins, a most shared is a draw."""
        won = [0] * self.players
        while all(self.to_play(player) for player in range(self.players)):
            self.rounds += 1
            self.take("round", f"round {self.rounds} to begin")
            self.face_up(set(range(self.players)))
            winner, _ = self.battle(set(range(self.players)))
            if winner is not None:
                won[winner] += 1
        self.over = True
        most = [player for player, count in enumerate(won) if count == max(won)]
        self.winner = most[0] if len(most) == 1 else None
        self.outcome = "win" if len(most) == 1 else "draw"

    def run(self):
        """Check the whole game; raise the first RuleBroken."""
        self.deal()
        if self.rules.game == "one-card":
            self.one_card_game()
            return self.finish()
        watching = self.watching()
        history = [self.state()] if watching else None
        brent = Brent(self.state()) if watching else None
        while not self.over:
            if self.rounds >= self.rules.max_rounds:
                self.cap()
                break
            self.play_round()
            if self.over or not watching:
                continue
            history.append(self.state())
            if brent.saw(history[-1]):
                self.cycle(history)
        self.finish()


class Brent:
    """Brent's search for a repeat, as docs/rules.md section 8 codes it.  Written here
    again, not taken from pywar.twin.cycle: replay checks the engines' cycle events, so
    a fault in theirs must not be a fault in its own."""

    def __init__(self, state):
        self.saved = state
        self.power = 1
        self.lam = 0

    def saw(self, state):
        """True when this state, after a round, completes a cycle."""
        self.lam += 1
        if state == self.saved:
            return True
        if self.lam == self.power:
            self.saved = state
            self.power *= 2
            self.lam = 0
        return False


def says(event):
    """An event as the trace spells it, without its sizes."""
    own = {key: value for key, value in event.items() if key not in ("piles", "pot")}
    return spell(own).strip()


def split_lines(text):
    """A trace's lines, without their newlines (a last line without one counts too)."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def check_trace(text):
    """Check a trace's text against its rules: a Result.  NotATrace for a text whose
    first line is not a pywar trace header."""
    lines = split_lines(text)
    if not lines:
        raise NotATrace("not a pywar trace: the file is empty")
    header = header_of(lines[0])
    replay = Replay(header, lines[1:])
    result = Result(header)
    try:
        if spell(header) != lines[0] + "\n":
            raise RuleBroken(Finding(1, 0, battle=0, reason="the header is not spelled as "
                                     f"docs/trace.md spells it (no spaces): {spell(header)!r}"))
        replay.run()
        if not text.endswith("\n"):
            raise RuleBroken(Finding(len(lines), replay.rounds, battle=replay.battles,
                                     reason="the last line has no newline at its end"))
    except RuleBroken as fault:
        result.fault = fault
    result.events = replay.events
    return result


__all__ = ["NotATrace", "Result", "RuleBroken", "check_trace"]
