"""One game of War in the engine, in Python (docs/rules.md section 7).
C: csrc/engine/game.c.

The twin takes the C engine's steps, with the same names, and draws the same random
numbers in the same order, so the two give the same results, digests, transcripts and
traces.  The C engine decides each rule once per game (its Spec) for speed; the twin
reads the same Spec, which keeps the two side by side.
"""

from collections import deque
from dataclasses import dataclass

from ..common import digest
from ..common.fields import OUTCOMES, Counts
from ..common.rng import Rng
from ..common.tally import (Lead, new_record, tally_battle, tally_end, tally_pot,
                            tally_record, tally_refill, tally_round)
from ..common.trace import spell
from ..rules import can_cycle, parse_deck
from .cycle import Cycle
from .hand import Hand
from .narrator import Narrator
from .shuffle import shuffle_cards, shuffle_fisher_yates

A, B = 0, 1
LEHIGH_SUITS = (3, 1, 0, 2)      # Lehigh's Card(n) builds clubs, diamonds, hearts, spades


@dataclass(frozen=True)
class Spec:
    """The rules as the loop reads them, decided once per game. C: struct Spec."""
    players: int
    face_down: int
    short_war: str
    pickup: str
    queue: bool
    shuffle: str
    keep: bool
    watching: bool
    observed: bool
    one_card: bool


@dataclass
class WarPlan:
    """How a player meets a war: cards to put face down, and whether it runs out or
    takes back its last face-up card to play it again. C: struct WarPlan."""
    down: int
    loses: bool = False
    takes_back: bool = False


WAR_GOES_ON, WAR_ENDS_ROUND = "goes on", "ends the round"


def battle_code(spec, winner, tied):
    """A battle's digest code: the winner; a tie 2 with two players, with more 0x100 and
    the tied players' bits, so that it cannot read as a win by player 2.
    C: Game_BattleCode."""
    if winner is not None:
        return digest.BATTLE | winner
    return digest.BATTLE | (digest.TIE if spec.players == 2
                            else 0x100 | sum(1 << p for p in tied))


class Game:
    """The engine's game. C: struct Game."""

    # ---- Setting up

    def __init__(self, seed, rules, text=None, trace=None):
        """A game of these rules; text and trace, if given, take the transcript and the
        trace's event lines with .append. C: Game_Init."""
        self.rules = rules
        self.players = rules.players
        self.ranks, self.suits = parse_deck(rules.deck)
        self.deck_size = self.ranks * self.suits
        self.rank = [card % self.ranks for card in range(self.deck_size)]
        self.given = None
        self.observed = text is not None or trace is not None
        self.trace = trace
        self.narrator = Narrator(text, rules.narration, rules.deck, game=rules.game)
        self.seed = seed
        self.stop = None

    def new_game(self, seed):
        """Ready the table for a game with this seed: nothing dealt and nothing
        counted. C: Game_NewGame."""
        self.result = Counts(record=new_record(self.players))
        self.seed = seed
        self.over = False
        self.in_game = set(range(self.players))     # the players still holding cards
        self.lead = Lead(self.players)     # C: the Lead local of Game_PlayWith
        self.to_play = [Hand() for _ in range(self.players)]
        self.played = [Hand() for _ in range(self.players)]
        self.pot = []
        self.pot_owner = []
        self.pot_battle = []
        self.face_up_cards = [None] * self.players
        self.rng = Rng(seed)

    def set_deal(self, hands):
        """Use a given deal: a hand of card ids per player, each top first.
        C: Game_SetDeal (the facade checks the deal first)."""
        self.given = [list(hand) for hand in hands]
        self.narrator.shuffled = False

    def spec(self):
        """The rules as the loop reads them. C: Game_Spec."""
        rules = self.rules
        queue = rules.piles == "queue"
        return Spec(players=self.players, face_down=rules.face_down, short_war=rules.short_war,
                    pickup=rules.pickup, queue=queue, shuffle=rules.shuffle,
                    keep=rules.refill == "keep",
                    watching=rules.detect_cycles and can_cycle(rules),
                    observed=self.observed, one_card=rules.game == "one-card")

    # ---- Events: the digest always, the trace and the narrator when observed

    def fold(self, code):
        """Fold an event code into the digest. C: Game_Fold."""
        self.result.digest = digest.fold(self.result.digest, code)

    def fold_card(self, kind, player, card):
        """Fold an event about a player's card. C: Game_FoldCard."""
        self.result.digest = digest.fold_card(self.result.digest, kind, player, card)

    def tell(self, kind, **own):
        """Tell an observed game's event, with where it stands and the sizes after it.
        C: Game_Tell."""
        event = {"event": kind, "round": self.result.rounds, "battle": self.result.battles}
        event.update(own)
        event["piles"] = [[self.to_play[p].count, self.played[p].count]
                          for p in range(self.players)]
        event["pot"] = len(self.pot)
        if self.trace is not None:
            self.trace.append(spell(event))
        self.narrator.event(event)

    # ---- The deal

    def place(self, spec, player, card):
        """A dealt card joins a hand: on top of a stack, at the bottom of a queue.
        C: Game_Place."""
        if spec.queue:
            self.to_play[player].push_bottom(card)
        else:
            self.to_play[player].push_top(card)
        self.fold_card(digest.DEAL, player, card)

    def build_deck(self):
        """The deck in build order in the pot: card ids in order, Lehigh's suits clubs
        first. C: Game_BuildDeck."""
        lehigh = self.rules.narration == "lehigh" and (self.ranks, self.suits) == (13, 4)
        self.pot = [LEHIGH_SUITS[i // 13] * 13 + i % 13 if lehigh else i
                    for i in range(self.deck_size)]

    def deal_given(self, spec):
        """A given deal, placed as dealt cards are; cards not dealt stay out of play.
        C: Game_DealGiven."""
        for player, hand in enumerate(self.given):
            in_order = hand if spec.queue else reversed(hand)
            for card in in_order:
                self.place(spec, player, card)

    def deal(self, spec):
        """Shuffle the deck in the pot, then deal it from the top one card at a time, A
        first: card i goes to player i mod players, so the first seats get the extra
        cards. C: Game_Deal."""
        if self.given is not None:
            self.deal_given(spec)
        else:
            self.build_deck()
            shuffle_cards(self.pot, self.rng, spec.shuffle)
            for i in range(self.deck_size):
                self.place(spec, i % spec.players, self.pot[self.deck_size - 1 - i])
            self.pot = []
        if spec.observed:
            self.tell("deal", hands=[hand.top_first() for hand in self.to_play])

    # ---- Drawing and the pot

    def refill(self, spec, player):
        """'played' becomes 'to play': moved card by card (which reverses it) and
        shuffled, or under refill 'keep' taken as it lies, its top card played first.
        C: Game_Refill."""
        to_play = self.to_play[player]
        played = self.played[player]
        if spec.keep:
            to_play.cards = deque(played.cards)
        else:
            to_play.clear()
            while played.count > 0:
                to_play.push_top(played.pop_top())
            cards = list(to_play.cards)
            shuffle_cards(cards, self.rng, spec.shuffle)
            to_play.cards = deque(cards)
        played.clear()
        tally_refill(self.result)
        self.fold(digest.REFILL | player << digest.PLAYER_SHIFT | to_play.count)
        if spec.observed:
            self.tell("refill", player=player, cards=to_play.top_first())

    def draw(self, spec, player):
        """A player's next card, refilling 'to play' first if it is empty. C: Game_Draw."""
        if not spec.queue and self.to_play[player].count == 0:
            self.refill(spec, player)
        return self.to_play[player].pop_top()

    def put_in_pot(self, player, card, battle=0):
        """A card goes into the pot; remember whose it was, and its battle's number if
        it is face up (0: face down). C: Game_PutInPot."""
        self.pot.append(card)
        self.pot_owner.append(player)
        self.pot_battle.append(battle)

    def take_back(self, player):
        """Lehigh's "put top card back": the player's last face-up card leaves the pot.
        C: Game_TakeBack."""
        position = len(self.pot) - 1
        while self.pot_owner[position] != player:
            position -= 1
        card = self.pot.pop(position)
        del self.pot_owner[position]
        del self.pot_battle[position]
        self.fold_card(digest.TAKE_BACK, player, card)
        return card

    def face_up(self, spec, in_battle, takes_back=()):
        """Every player in the battle puts a card face up, in seat order: a new battle.
        takes_back holds the players who play their last face-up card again.
        C: Game_FaceUp."""
        self.result.battles += 1
        for p in sorted(in_battle):
            again = p in takes_back
            card = self.take_back(p) if again else self.draw(spec, p)
            self.put_in_pot(p, card, self.result.battles)
            self.face_up_cards[p] = card
            self.fold_card(digest.FACE_UP, p, card)
            if spec.observed:
                self.tell("take_back" if again else "face_up", player=p, card=card)

    # ---- Collecting the pot

    def seat_cards(self, seat):
        """One seat's pot cards, in the order they were put down. C: Game_SeatCards."""
        return [card for card, owner in zip(self.pot, self.pot_owner) if owner == seat]

    def order_by_seat(self, first_seat, interleave):
        """The pot's cards seat by seat, from first_seat round the table: each seat's
        cards in turn, or one card of each seat in turn (interleave).
        C: Game_OrderBySeat."""
        seats = [(first_seat + i) % self.players for i in range(self.players)]
        by_seat = [self.seat_cards(seat) for seat in seats]
        if not interleave:
            return [card for cards in by_seat for card in cards]
        most = max(len(cards) for cards in by_seat)
        return [cards[i] for i in range(most) for cards in by_seat if i < len(cards)]

    def order_high_first(self, by_battle):
        """The pot from the top, the highest rank first within each run: each battle's
        face-up cards (by_battle, the natural pickup; a face-down card is a run of its
        own) or the whole pot (the sorted pickup); cards of one rank in a run stay top
        first. C: Game_OrderHighFirst."""
        runs, last = [], None
        for card, battle in zip(reversed(self.pot), reversed(self.pot_battle)):
            if not runs or by_battle and (battle == 0 or battle != last):
                runs.append([])         # a new run: a face-down card, or another battle's
            runs[-1].append(card)
            last = battle
        return [card for run in runs
                for card in sorted(run, key=self.rank.__getitem__, reverse=True)]

    def pickup_order(self, spec, winner):
        """The pot's cards in the order the winner takes them (docs/rules.md 7.4).
        C: Game_PickupOrder."""
        pickup = spec.pickup
        if pickup == "smu":
            return self.pot[::-1]
        if pickup == "random":
            shuffle_cards(self.pot, self.rng, spec.shuffle)
            return list(self.pot)
        if pickup == "pot-order":
            return list(self.pot)
        if pickup == "winner-first":
            return self.order_by_seat(winner, interleave=False)
        if pickup == "loser-first":
            return self.order_by_seat(winner + 1, interleave=False)   # the winner last
        if pickup in ("natural", "sorted"):
            return self.order_high_first(by_battle=pickup == "natural")
        return self.order_by_seat(A, interleave=pickup == "seat-interleaved")

    def collect_shuffled(self, spec, winner):
        """The random pickup by Fisher-Yates: the pot shuffled, then pushed card by card.
        C: Game_CollectShuffled, which puts each card in its slot as the shuffle
        settles it (one loop, for speed), and its caller Game_Collect, which counts
        them (Game_GrowHands): the same cards in the same places."""
        shuffle_fisher_yates(self.pot, self.rng)
        self.push_all(spec, winner, self.pot)

    def push_all(self, spec, winner, taken):
        """Push the taken cards one by one: at the bottom of the queue, or on top of
        'played'. C: the loop in Game_Collect, which puts each card in the slot that
        pushing would give it (Game_Landing), then counts them at once (Game_GrowHands)."""
        for card in taken:
            if spec.queue:
                self.to_play[winner].push_bottom(card)
            else:
                self.played[winner].push_top(card)

    def collect(self, spec, winner):
        """The winner takes the whole pot: on top of 'played', or at the bottom of the
        queue. C: Game_Collect."""
        if spec.pickup == "random" and spec.shuffle == "fisher-yates":
            self.collect_shuffled(spec, winner)
            taken = list(self.pot)
        else:
            taken = self.pickup_order(spec, winner)
            self.push_all(spec, winner, taken)
        self.pot = []
        self.pot_owner = []
        self.pot_battle = []
        tally_pot(self.result, len(taken))
        if spec.observed:
            self.tell("pickup", player=winner, cards=taken)

    # ---- Battles, wars and the end

    def holds(self, player):
        """All the cards a player holds. C: Game_Holds."""
        return self.to_play[player].count + self.played[player].count

    def after_battle(self, spec):
        """After every battle: refill the players, in seat order, whose 'to play' is
        empty. C: Game_AfterBattle."""
        if spec.queue:
            return
        for p in range(spec.players):
            if self.to_play[p].count == 0 and self.played[p].count > 0:
                self.refill(spec, p)

    def run_out(self, spec, losers):
        """These players are out of the game, in seat order. C: Game_RunOut."""
        for p in sorted(losers):
            self.in_game.discard(p)
            if spec.observed:
                self.tell("run_out", player=p)

    def end_if_over(self, spec, war_players):
        """The game is over once at most one player holds cards. The last one wins; if
        nobody is left, everybody lost, except under iofall, where the last of the war's
        players wins (with two players, B). Under iofall the winner takes the pot;
        elsewhere it stays on the table, stranded. C: Game_EndIfOver."""
        iofall = spec.short_war == "iofall"
        if len(self.in_game) > 1:
            return False
        self.over = True
        self.result.outcome = "win"
        if self.in_game:
            self.result.winner = min(self.in_game)
        elif iofall:
            self.result.winner = max(war_players)
        else:
            self.result.outcome = "both-lose"
            return True
        if iofall and self.pot:
            self.collect(spec, self.result.winner)
        return True

    def check_out(self, spec, winner, war_players):
        """At the end of a round, the players with no cards left are out: after a battle
        won by winner (who has just taken the pot, so is never one of them), or after a
        war that left the pot to nobody (winner None) among war_players.
        C: Game_CheckOut."""
        losers = {p for p in self.in_game if p != winner and self.holds(p) == 0}
        if losers:
            self.run_out(spec, losers)
            self.end_if_over(spec, war_players)

    def plan_war(self, spec, player):
        """How a player with n cards meets a war (docs/rules.md 7.6). C: Game_PlanWar."""
        n = self.holds(player)
        face_down = spec.face_down
        if n >= face_down + 1:
            return WarPlan(face_down)
        if spec.short_war == "lose":
            return WarPlan(0, loses=True)
        if spec.short_war == "last-card":
            return WarPlan(max(n - 1, 0), loses=n == 0)
        if spec.short_war == "all-but-one":
            return WarPlan(max(n - 1, 0), takes_back=n == 0)
        # iofall: the whole war if it can, else all but one, but at least one
        down = face_down if n >= face_down else max(n - 1, 1)
        down = 0 if n == 0 else down
        return WarPlan(down, loses=n - down == 0)

    def face_down(self, spec, player, down):
        """A player's face-down cards of a war go into the pot. An observed game tells
        them in one event, or in two around a refill that comes in the middle.
        C: Game_FaceDown."""
        first = len(self.pot)
        for _ in range(down):
            refilling = not spec.queue and self.to_play[player].count == 0
            if spec.observed and refilling and len(self.pot) > first:
                self.tell("face_down", player=player, cards=self.pot[first:])
                first = len(self.pot)
            card = self.draw(spec, player)
            self.put_in_pot(player, card)
            self.fold_card(digest.FACE_DOWN, player, card)
        if spec.observed and len(self.pot) > first:
            self.tell("face_down", player=player, cards=self.pot[first:])

    def after_war_losses(self, spec, war_players, losers):
        """The war's losers are out; the war goes on if two or more of its players are
        left; one left takes the pot; none left (with others still playing) strands it.
        Returns (how the war ends, the players left in it). C: Game_AfterWarLosses."""
        self.run_out(spec, losers)
        left = war_players - losers
        if self.end_if_over(spec, war_players):
            return WAR_ENDS_ROUND, left
        if len(left) > 1:
            return WAR_GOES_ON, left
        if left:
            winner = min(left)
            self.collect(spec, winner)
            self.after_battle(spec)
            self.check_out(spec, winner, left)
        else:
            self.check_out(spec, None, war_players)
        return WAR_ENDS_ROUND, left

    def war(self, spec, war_players):
        """After a tie among war_players: face-down cards in seat order, then new
        face-up cards. Returns (how the war ends, the players left in it).
        C: Game_War."""
        plans = {p: self.plan_war(spec, p) for p in sorted(war_players)}
        losers = {p for p, plan in plans.items() if plan.loses}
        takers = {p for p, plan in plans.items() if plan.takes_back}
        if takers == war_players:
            losers = takers        # all would play their tied cards again, and tie forever
        if losers and spec.short_war != "iofall":
            # a player who cannot go on is out before anyone puts a card down
            ending, war_players = self.after_war_losses(spec, war_players, losers)
            if ending == WAR_ENDS_ROUND:
                return ending, war_players
            takers &= war_players
        for p in sorted(war_players):
            self.face_down(spec, p, plans[p].down)
        if losers and spec.short_war == "iofall":
            # iofall: a player runs out when it must show a card, after the face-down ones
            ending, war_players = self.after_war_losses(spec, war_players, losers)
            if ending == WAR_ENDS_ROUND:
                return ending, war_players
        self.result.wars += 1
        self.face_up(spec, war_players, takers)
        return WAR_GOES_ON, war_players

    def compare(self, in_battle):
        """The winner of the battle among in_battle, or None for a tie, and the players
        who share the highest rank. C: Game_Compare."""
        ranks = {p: self.rank[self.face_up_cards[p]] for p in in_battle}
        best = max(ranks.values())
        top = {p for p, rank in ranks.items() if rank == best}
        if len(top) > 1:
            return None, top
        return min(top), set()

    def tally(self, spec, wars):
        """After the deal and after each round: the round's statistics (common.tally),
        from the cards each player holds. C: Game_Tally."""
        held = [self.holds(p) for p in range(spec.players)]
        tally_round(self.lead, self.result, wars, held)

    def one_card_end(self, spec):
        """The end of a one-card game: the one player with the most battles won wins;
        the most shared is a draw. C: Game_OneCardEnd."""
        tally_record(self.result)
        won = [self.result.record[p][0] for p in range(spec.players)]
        self.over = True
        self.result.winner = won.index(max(won)) if won.count(max(won)) == 1 else None
        self.result.outcome = "draw" if self.result.winner is None else "win"

    def play_one_card(self, spec):
        """A round of a one-card game (docs/rules.md 7.10): every player's top card face
        up, one battle, no war; the cards stay in the pot, out of play.  The game ends
        once a hand is empty. C: Game_PlayOneCard."""
        result = self.result
        result.rounds += 1
        if spec.observed:
            self.tell("round")
        self.face_up(spec, self.in_game)
        winner, tied = self.compare(self.in_game)
        tally_battle(result, self.in_game, winner, tied)
        self.fold(battle_code(spec, winner, tied))
        if winner is None:
            result.ties += 1
            result.longest_tie_streak = 1
        if spec.observed:
            self.tell("battle", winner=winner, tied=sorted(tied))
        self.tally(spec, 0)
        if any(self.to_play[p].count == 0 for p in range(spec.players)):
            self.one_card_end(spec)
        return self.over

    def play_round(self, spec):
        """One round: battles until the pot is won or a war ends the round (a one-card
        game's: one battle). Returns True at the end of the game. C: Game_PlayRound."""
        if spec.one_card:
            return self.play_one_card(spec)
        result = self.result
        in_battle = set(self.in_game)
        streak = wars = 0
        result.rounds += 1
        if spec.observed:
            self.tell("round")
        self.face_up(spec, in_battle)
        while True:
            winner, tied = self.compare(in_battle)
            tally_battle(result, in_battle, winner, tied)
            if winner is not None:
                self.fold(battle_code(spec, winner, tied))
                if spec.observed:
                    self.tell("battle", winner=winner, tied=[])
                self.collect(spec, winner)
                self.after_battle(spec)
                self.check_out(spec, winner, {winner})
                break
            self.fold(battle_code(spec, None, tied))
            result.ties += 1
            streak += 1
            result.longest_tie_streak = max(result.longest_tie_streak, streak)
            if spec.observed:
                self.tell("battle", winner=None, tied=sorted(tied))
            self.after_battle(spec)
            ending, in_battle = self.war(spec, tied)
            if ending == WAR_ENDS_ROUND:
                break
            wars += 1
        self.tally(spec, wars)
        return self.over

    # ---- The whole game

    def get_state(self):
        """Between rounds the state is every hand in order. C: Game_GetState."""
        counts = tuple(hand.count for p in range(self.players)
                       for hand in (self.to_play[p], self.played[p]))
        cards = tuple(card for p in range(self.players)
                      for hand in (self.to_play[p], self.played[p]) for card in hand.cards)
        return counts + cards

    def find_cycle_start(self, spec, period):
        """The rounds before the cycle: replay the game twice, silently, one copy
        'period' rounds ahead, and step both until their states meet.
        C: Game_FindCycleStart."""
        quiet = Spec(**{**vars(spec), "observed": False})
        tortoise, hare = (Game(self.seed, self.rules) for _ in range(2))
        for copy in (tortoise, hare):
            if self.given is not None:
                copy.set_deal(self.given)
            copy.new_game(self.seed)
            copy.deal(quiet)
        for _ in range(period):
            hare.play_round(quiet)
        start = 0
        while tortoise.get_state() != hare.get_state():
            tortoise.play_round(quiet)
            hare.play_round(quiet)
            start += 1
        return start

    def cap(self, spec):
        """The round cap: the one player holding the most cards wins; a tie for the most
        wins for nobody. C: Game_Cap."""
        if spec.observed:
            self.tell("cap")
        held = [self.holds(p) for p in range(spec.players)]
        self.over = True
        self.result.outcome = "capped"
        if held.count(max(held)) == 1:
            self.result.winner = held.index(max(held))

    def cycle(self, spec, period):
        """The game repeats: it ends with no winner. C: Game_Cycle."""
        self.over = True
        self.result.outcome = "cycle"
        self.result.cycle_start = self.find_cycle_start(spec, period)
        self.result.cycle_period = period
        if spec.observed:
            self.tell("cycle", start=self.result.cycle_start, period=period)

    def finish(self, spec):
        """Count what is left where, close the digest, and tell the end. C: Game_Finish."""
        result = self.result
        result.piles = [[self.to_play[p].count, self.played[p].count]
                        for p in range(spec.players)]
        result.stranded = len(self.pot)
        winner_code = 0 if result.winner is None else result.winner + 1
        self.fold(digest.END | OUTCOMES.index(result.outcome) << digest.OUTCOME_SHIFT | winner_code)
        if spec.observed:
            self.tell("end", outcome=result.outcome, winner=result.winner)

    def play_with(self, spec):
        """The whole game: deal, rounds until an end, the cap, or a repeat.
        C: Game_PlayWith."""
        self.deal(spec)
        self.tally(spec, 0)                 # the leader after the deal
        cycle = Cycle(self.get_state()) if spec.watching else None
        while not self.over:
            if self.result.rounds >= self.rules.max_rounds:
                self.cap(spec)
                break
            if self.stop is not None and self.stop():
                raise KeyboardInterrupt("the game was stopped")
            if self.play_round(spec) or not spec.watching:
                continue
            if cycle.saw(self.get_state()):
                self.cycle(spec, cycle.lam)
        tally_end(self.lead, self.result)
        self.finish(spec)
        return self.result

    def play(self):
        """Play the game from its seed and return its Counts. C: Game_Play."""
        spec = self.spec()
        self.new_game(self.seed)
        return self.play_with(spec)
