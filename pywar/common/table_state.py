"""The table of a game rebuilt from its trace alone (docs/trace.md): every pile, card by
card, and the counters, at any event.  The front ends (replay, diff, the stepper and the
page) read games through it, never through an engine.

    >>> import pywar
    >>> from pywar.common.table_state import TableState
    >>> game = pywar.play(17455, trace=True)
    >>> table = TableState.from_trace(game.trace.splitlines())
    >>> table.run()
    >>> table.state()["counters"]["rounds"], table.state()["winner"]
    (29, 1)

TableState.apply() moves the cards an event says moved and checks that the event could
happen at all (a face-up card is the top of its player's pile, a pickup takes exactly the
pot, the sizes on the line are the sizes of the rebuilt piles); it raises TraceError
naming the event otherwise.  Whether the rules allowed it is replay's business.
"""

from dataclasses import dataclass, field

from .fields import PLAYER_NAMES as NAMES
from .trace import TraceError, read



@dataclass
class Counters:
    """What the game has counted so far, read off its events."""
    rounds: int = 0
    battles: int = 0
    ties: int = 0
    wars: int = 0
    refills: int = 0


@dataclass
class TableState:
    """Every pile of a game, top first, rebuilt event by event."""
    header: dict
    events: list
    to_play: list = field(default_factory=list)     # per player, top first
    played: list = field(default_factory=list)      # per player, top first
    pot: list = field(default_factory=list)         # (card, player), bottom first
    out: set = field(default_factory=set)           # players who have run out
    counters: Counters = field(default_factory=Counters)
    step: int = 0                                    # events applied so far
    last_battle_tied: bool = False
    outcome: object = None
    winner: object = None

    @classmethod
    def from_trace(cls, lines):
        """A table at the start of the game of a trace's lines (header first)."""
        header, events = read(lines)
        return cls(header, events)

    @property
    def players(self):
        """How many players the game seats."""
        return self.header["rules"].get("players", 2)

    @property
    def queue(self):
        """True when each player's hand is one queue (won cards go to its bottom)."""
        return self.header["rules"]["piles"] == "queue"

    @property
    def over(self):
        """True once every event has been applied."""
        return self.step == len(self.events)

    def run(self, until=None):
        """Apply the events up to index until (all of them by default)."""
        stop = len(self.events) if until is None else until
        while self.step < stop:
            self.apply(self.events[self.step])

    def fail(self, event, reason):
        """Raise a TraceError naming the event (its line in the file) and the reason."""
        raise TraceError(f"line {self.step + 2} ({event['event']}, round {event['round']}, "
                         f"battle {event['battle']}): {reason}")

    def apply(self, event):
        """Move the cards the event moves, check the sizes it states, and go on."""
        kind = event["event"]
        handler = getattr(self, "apply_" + kind, None)
        if handler is not None:
            handler(event)
        self.check_sizes(event)
        self.step += 1

    def apply_deal(self, event):
        """The hands as dealt."""
        hands = event["hands"]
        if len(hands) != self.players:
            self.fail(event, f"{len(hands)} hands dealt to {self.players} players")
        self.to_play = [list(hand) for hand in hands]
        self.played = [[] for _ in hands]

    def apply_round(self, event):
        """A round begins."""
        self.counters.rounds += 1
        self.last_battle_tied = False
        if event["round"] != self.counters.rounds:
            self.fail(event, f"round {event['round']} follows round {self.counters.rounds - 1}")

    def start_battle(self, event):
        """The first face-up card of a battle starts it."""
        if event["battle"] == self.counters.battles + 1:
            self.counters.battles += 1
            if self.last_battle_tied:
                self.counters.wars += 1
            self.last_battle_tied = False

    def take_top(self, event, player, card):
        """Take a card that must be the top of the player's 'to play' pile."""
        hand = self.to_play[player]
        if not hand:
            self.fail(event, f"player {NAMES[player]} has no card to play")
        if hand[0] != card:
            self.fail(event, f"card {card} is not the top of player {NAMES[player]}'s pile "
                             f"(card {hand[0]} is)")
        hand.pop(0)

    def apply_face_up(self, event):
        """A player's face-up card goes on top of the pot."""
        self.start_battle(event)
        self.take_top(event, event["player"], event["card"])
        self.pot.append((event["card"], event["player"]))

    def apply_take_back(self, event):
        """A player plays its last face-up card again: it moves to the top of the pot."""
        self.start_battle(event)
        player, card = event["player"], event["card"]
        if (card, player) not in self.pot:
            self.fail(event, f"card {card} is not player {NAMES[player]}'s card in the pot")
        self.pot.remove((card, player))
        self.pot.append((card, player))

    def apply_face_down(self, event):
        """A player's face-down cards go on top of the pot, in order."""
        for card in event["cards"]:
            self.take_top(event, event["player"], card)
            self.pot.append((card, event["player"]))

    def apply_battle(self, event):
        """The face-up cards are compared."""
        self.last_battle_tied = event["winner"] is None
        if self.last_battle_tied:
            self.counters.ties += 1

    def apply_pickup(self, event):
        """The pot goes to a player, in the order the event lists."""
        player, cards = event["player"], event["cards"]
        if sorted(cards) != sorted(card for card, _ in self.pot):
            self.fail(event, "the cards taken are not the cards of the pot")
        if self.queue:
            self.to_play[player].extend(cards)                  # to the bottom, in order
        else:
            self.played[player] = list(reversed(cards)) + self.played[player]
        self.pot = []

    def apply_refill(self, event):
        """'played' becomes 'to play', in the order the event lists."""
        player, cards = event["player"], event["cards"]
        held = self.played[player] + self.to_play[player]
        if sorted(cards) != sorted(held):
            self.fail(event, f"the refill holds other cards than player {NAMES[player]}'s")
        self.to_play[player] = list(cards)
        self.played[player] = []
        self.counters.refills += 1

    def apply_run_out(self, event):
        """A player is out."""
        self.out.add(event["player"])

    def apply_end(self, event):
        """The game is over."""
        self.outcome, self.winner = event["outcome"], event["winner"]

    def check_sizes(self, event):
        """The sizes the event states are the sizes of the rebuilt piles."""
        piles = [[len(self.to_play[p]), len(self.played[p])] for p in range(len(self.to_play))]
        if (piles, len(self.pot)) != (event["piles"], event["pot"]):
            self.fail(event, f"it states piles {event['piles']} and pot {event['pot']}, "
                             f"but the cards make piles {piles} and pot {len(self.pot)}")

    def state(self):
        """The table as plain data: each pile top first, the pot top first with who put
        each card down, the players out, the counters, and how the game ended."""
        return {
            "event": self.step,
            "piles": {NAMES[p]: {"to_play": list(self.to_play[p]), "played": list(self.played[p])}
                      for p in range(len(self.to_play))},
            "pot": [{"card": card, "player": NAMES[player]} for card, player in reversed(self.pot)],
            "out": [NAMES[p] for p in sorted(self.out)],
            "counters": vars(self.counters).copy(),
            "outcome": self.outcome,
            "winner": self.winner,
        }
