"""The counters, the digest and the trace of a game told event by event.
C: csrc/common/observer.c.

The port calls an Observer method at each event of the reference's code: it is the
port's one addition to the reference.  A trace that keeps places (the stepper's, in
pywar.step.model) is also told where in the port each event was made; no other trace is, and
the check costs one comparison an event.  The observer reads the piles it needs through
the port's own read_pile, so the port keeps the reference's types, and it counts what
the engine counts as it plays (docs/rules.md, 7.9 and 11).  The port's games are smu
games: two players, two piles each, a shuffled deal.
"""

from . import digest
from .fields import OUTCOMES, Counts
from .tally import (Lead, new_record, tally_battle, tally_end, tally_pot, tally_refill,
                    tally_round)
from .trace import event_line

PLAYERS = 2
POT = 4


def to_play(player):
    """The number read_pile gives a player's 'to play' pile. C: OBSERVER_TO_PLAY."""
    return 2 * player


def played(player):
    """The number read_pile gives a player's 'played' pile. C: OBSERVER_PLAYED."""
    return 2 * player + 1


class Observer:
    """Counts, digests and traces a game from its events. C: struct Observer."""

    def __init__(self, read_pile, trace=None, count_pile=None):
        """read_pile(pile) gives a pile's card ids, bottom first, and count_pile(pile) its
        size (the port's get_num_cards; without it, the length of what read_pile gives):
        the cards are read only for the events that name them.  trace, if given, takes
        the trace's lines with .append. C: Observer_Init."""
        self.read_pile = read_pile
        self.count_pile = count_pile or (lambda pile: len(read_pile(pile)))
        self.trace = trace
        self.places = getattr(trace, "places", None)     # the stepper's hook; None: off
        self.result = Counts(record=new_record(PLAYERS))
        self.streak = 0
        self.last_was_tie = False
        self.lost = [False, False]
        self.pickup = None               # a pickup being told card by card
        self.wars = 0                    # wars in this round
        self.lead = Lead(PLAYERS)    # who leads, and each one's deficit

    def sizes(self):
        """The sizes of every pile now: (piles, pot). C: Observer_ReadSizes."""
        piles = [[self.count_pile(to_play(p)), self.count_pile(played(p))]
                 for p in range(PLAYERS)]
        return piles, self.count_pile(POT)

    def here(self):
        """Where the port is now, for a trace that keeps places (trace.locate(): the
        stepper's `code` command); None for any other. Python only: the C observer has
        no such hook."""
        return None if self.places is None else self.trace.locate()

    def write(self, kind, own, sizes=None, place=None):
        """Write an event's line, with the counters and the sizes now, and, for a trace
        that keeps places, where the port made it (place, or here). C: Observer_Start,
        Trace_Write."""
        if self.trace is not None:
            piles, pot = sizes or self.sizes()
            self.trace.append(event_line(kind, self.result.rounds, self.result.battles,
                                         own, piles, pot))
        if self.places is not None:
            self.places.append(place or self.here())

    def flush(self):
        """Write a pickup told card by card, once its last card is taken.
        C: Observer_Flush."""
        if self.pickup is not None:
            player, cards, sizes, place = self.pickup
            self.pickup = None
            self.write("pickup", {"player": player, "cards": cards}, sizes, place)

    def tally(self):
        """After the deal and after each round, as the engine's Game_Tally: the round's
        statistics (common.tally), from the cards each player holds. C: Observer_Tally."""
        held = [self.count_pile(to_play(p)) + self.count_pile(played(p))
                for p in range(PLAYERS)]
        tally_round(self.lead, self.result, self.wars, held)
        self.wars = 0

    def deal(self):
        """The hands dealt; the digest folds the cards in the order they were dealt:
        the bottom cards of A's and B's piles first, one each in turn. C: Observer_Deal."""
        hands = [self.read_pile(to_play(p)) for p in range(PLAYERS)]
        for i in range(max(len(hand) for hand in hands)):
            for player, hand in enumerate(hands):
                if i < len(hand):
                    self.result.digest = digest.fold_card(self.result.digest, digest.DEAL,
                                                          player, hand[i])
        self.write("deal", {"hands": [hand[::-1] for hand in hands]})
        self.tally()

    def round(self):
        """A round begins. C: Observer_Round."""
        self.flush()
        if self.result.rounds > 0:
            self.tally()
        self.result.rounds += 1
        self.streak = 0
        self.last_was_tie = False
        self.write("round", {})

    def face_up(self):
        """Both face-up cards are on top of the pot, A's then B's: one event each. The
        reference takes both cards before it puts either down, so A's event gives the
        sizes as they would be with A's card down and B's not yet taken.
        C: Observer_FaceUp."""
        self.flush()
        cards = self.read_pile(POT)[-PLAYERS:]
        self.result.battles += 1
        if self.last_was_tie:
            self.result.wars += 1
            self.wars += 1
        piles, pot = self.sizes()
        for player, card in enumerate(cards):
            self.result.digest = digest.fold_card(self.result.digest, digest.FACE_UP,
                                                  player, card)
            not_yet = range(player + 1, PLAYERS)        # players whose card is not down
            before = [[to_play + (p in not_yet), kept] for p, (to_play, kept) in enumerate(piles)]
            self.write("face_up", {"player": player, "card": card},
                       (before, pot - len(not_yet)))

    def battle(self, winner):
        """The face-up cards compared: a winner, or None for a tie. C: Observer_Battle."""
        result = self.result
        self.flush()
        self.last_was_tie = winner is None
        if winner is None:
            result.ties += 1
            self.streak += 1
            result.longest_tie_streak = max(result.longest_tie_streak, self.streak)
        tally_battle(result, range(PLAYERS), winner, range(PLAYERS) if winner is None else ())
        code = digest.TIE if winner is None else winner
        result.digest = digest.fold(result.digest, digest.BATTLE | code)
        tied = list(range(PLAYERS)) if winner is None else []
        self.write("battle", {"winner": winner, "tied": tied})

    def take(self, player):
        """One card of the pot has gone on top of the player's 'played' pile.
        C: Observer_Take."""
        card = self.read_pile(played(player))[-1]
        cards = ([] if self.pickup is None else self.pickup[1]) + [card]
        self.pickup = (player, cards, self.sizes(), self.here())   # as after the last card
        tally_pot(self.result, len(cards))

    def refill(self, player):
        """The player's 'to play' pile was refilled and shuffled. C: Observer_Refill."""
        self.flush()
        hand = self.read_pile(to_play(player))
        tally_refill(self.result)
        self.result.digest = digest.fold(self.result.digest,
                                         digest.REFILL | player << digest.PLAYER_SHIFT | len(hand))
        self.write("refill", {"player": player, "cards": hand[::-1]})

    def run_out(self, player):
        """A player has run out of cards. C: Observer_RunOut."""
        self.flush()
        self.lost[player] = True
        self.write("run_out", {"player": player})

    def end(self):
        """The game is over: who won, what is left where, and the end of the digest.
        C: Observer_End."""
        result = self.result
        self.flush()
        self.tally()
        if all(self.lost):
            result.outcome = "both-lose"
        else:
            result.outcome = "win"
            result.winner = 1 if self.lost[0] else 0
        (piles, pot) = self.sizes()
        result.piles = piles
        result.stranded = pot
        tally_end(self.lead, result)
        winner_code = 0 if result.winner is None else result.winner + 1
        result.digest = digest.fold(result.digest, digest.END
                                    | OUTCOMES.index(result.outcome) << digest.OUTCOME_SHIFT
                                    | winner_code)
        self.write("end", {"outcome": result.outcome, "winner": result.winner})
