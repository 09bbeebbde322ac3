"""The game board (SMU's TableTop, the "GameBoard"). C: csrc/tabletop.c.

Two players, the pot ('currently in play'), the deck, the random generator, and
what the game has counted so far.  docs/rules.md states every step; the C core
takes the same steps and draws the same random numbers in the same order.
"""

from dataclasses import dataclass, field

from . import narrator
from .card import CLUB, DIAMOND, HEART, NUM_RANKS, SPADE, Card
from .cycle import Cycle, find_start
from .pile import MAXCARDS, Pile
from .player import Player
from ..common.rng import Rng
from ..rules import can_cycle

A, B = 0, 1
OUTCOMES = ("win", "both-lose", "cycle", "capped")

# Event codes for the digest (docs/rules.md, "The digest").
EVENT_DEAL = 0x1000
EVENT_FACE_UP = 0x2000
EVENT_FACE_DOWN = 0x3000
EVENT_BATTLE = 0x4000
EVENT_REFILL = 0x5000
EVENT_TAKE_BACK = 0x6000
EVENT_END = 0x7000
BATTLE_TIE = 2
FNV_OFFSET = 0xCBF29CE484222325
FNV_PRIME = 0x100000001B3
LEHIGH_SUITS = (CLUB, DIAMOND, HEART, SPADE)   # Lehigh's Card(n) numbers its suits so


def check_deal(deal):
    """(A's ids, B's ids) as two tuples: distinct ids 0..51, at least one card each,
    or a ValueError. C: TableTop_SetDeal."""
    try:
        hand_a, hand_b = (tuple(card_id.__index__() for card_id in hand) for hand in deal)
    except (AttributeError, TypeError, ValueError):
        raise ValueError("a deal is two sequences of card ids (integers 0 to 51)") from None
    if any(isinstance(card_id, bool) for hand in deal for card_id in hand):
        raise ValueError("a deal is two sequences of card ids (integers 0 to 51), not bools")
    ids = hand_a + hand_b
    if not hand_a or not hand_b:
        raise ValueError("a deal gives each player at least one card")
    if any(not 0 <= card_id < MAXCARDS for card_id in ids) or len(set(ids)) != len(ids):
        raise ValueError("a deal holds distinct card ids from 0 to 51")
    return hand_a, hand_b


@dataclass
class Counts:
    """What a game counts, and how it ended. C: struct PywarResult."""
    winner: object = None            # A, B or None
    outcome: str = "win"
    rounds: int = 0
    battles: int = 0
    ties: int = 0
    wars: int = 0
    longest_tie_streak: int = 0
    stranded: int = 0
    piles: list = field(default_factory=list)
    cycle_start: object = None
    cycle_period: object = None
    digest: int = FNV_OFFSET


@dataclass
class WarPlan:
    """How a player meets a war: cards to put face down, and whether it runs out
    or takes back its last face-up card to play it again. C: struct WarPlan."""
    down: int
    loses: bool = False
    takes_back: bool = False


class TableTop:
    """The game. C: struct TableTop, TableTop_Init."""

    def __init__(self, seed, rules, text=None, deal=None):
        """Make the players and the 52 cards; text is a list for the transcript,
        and deal, if given, is (A's card ids, B's card ids), each hand top first.
        C: TableTop_Init, then TableTop_SetDeal."""
        self.rules = rules
        self.text = text
        self.players = (Player(), Player())
        self.currently_in_play = Pile()
        self.pot_owner = [None] * MAXCARDS
        self.face_up = [None, None]
        self.deck = [Card() for _ in range(MAXCARDS)]
        self.new_game(seed)
        self.given_deal = None if deal is None else check_deal(deal)

    def new_game(self, seed):
        """Ready the table for a game with this seed: the deck built in the pot,
        in order, and nothing counted. C: TableTop_NewGame."""
        self.result = Counts()
        self.seed = seed
        self.over = False
        self.lost = [False, False]
        self.given_deal = None
        self.rng = Rng(seed)
        for player in self.players:
            player.to_play = Pile()
            player.played = Pile()
        self.currently_in_play = Pile()
        for i, card in enumerate(self.deck):
            self.set_card(card, i)
            self.currently_in_play.add_card_to_pile(card)

    def set_card(self, card, i):
        """SMU and iofall build hearts, diamonds, spades, clubs; Lehigh clubs first.
        C: TableTop_SetCard."""
        suit = i // NUM_RANKS
        rank = i % NUM_RANKS
        if self.rules.narration == "lehigh":
            suit = LEHIGH_SUITS[suit]
        card.set_suit_and_rank(suit, rank)

    # The digest

    def event(self, code):
        """Fold one event into the digest (FNV-1a, 64 bits). C: TableTop_Event."""
        self.result.digest = ((self.result.digest ^ code) * FNV_PRIME) % 2 ** 64

    def card_event(self, kind, player, card):
        """An event about a player's card. C: TableTop_CardEvent."""
        self.event(kind | player << 8 | card.get_id())

    # Hands

    def get_winnings(self, player):
        """The pile a player's winnings go to. C: TableTop_GetWinnings."""
        owner = self.players[player]
        return owner.get_to_play() if self.rules.piles == "queue" else owner.get_played()

    def place(self, pile, card):
        """A card joins a pile of a hand: on top of a stack, at the bottom of a queue.
        C: TableTop_Place."""
        if self.rules.piles == "queue":
            pile.add_card_to_bottom(card)
        else:
            pile.add_card_to_pile(card)

    def give(self, player, card):
        """A won card joins the winner's hand. C: TableTop_Give."""
        self.place(self.get_winnings(player), card)

    def give_to_hand(self, player, card):
        """A dealt card joins a player's 'to play' pile. C: TableTop_GiveToHand."""
        self.place(self.players[player].get_to_play(), card)
        self.card_event(EVENT_DEAL, player, card)

    def find_card(self, card_id):
        """The deck's card with this id. C: TableTop_FindCard."""
        return next(card for card in self.deck if card.get_id() == card_id)

    def deal_given(self):
        """A given deal, placed as dealt cards are: a queue gets each hand top card
        first, a stack bottom card first. C: TableTop_DealGiven."""
        self.currently_in_play = Pile()
        for player, ids in zip((A, B), self.given_deal):
            in_order = ids if self.rules.piles == "queue" else reversed(ids)
            for card_id in in_order:
                self.give_to_hand(player, self.find_card(card_id))

    def deal(self):
        """Shuffle the deck in the pot, then deal it from the top, A first. C: TableTop_Deal."""
        deck = self.currently_in_play
        narrator.welcome(self)
        if self.given_deal is not None:
            self.deal_given()
        else:
            deck.shuffle(self.rng, self.rules.shuffle)
            for i in range(MAXCARDS):
                self.give_to_hand(A if i % 2 == 0 else B, deck.remove_top_card())
        narrator.dealt(self)

    def refill(self, player):
        """Move 'played' to 'to play' (reversing it) and shuffle it. C: TableTop_Refill."""
        to_play = self.players[player].get_to_play()
        played = self.players[player].get_played()
        narrator.refill(self, player)
        while played.get_num_cards() > 0:
            to_play.add_card_to_pile(played.remove_top_card())
        to_play.shuffle(self.rng, self.rules.shuffle)
        self.event(EVENT_REFILL | player << 8 | to_play.get_num_cards())

    def draw(self, player):
        """Take a player's next card, refilling 'to play' if it is empty. C: TableTop_Draw."""
        to_play = self.players[player].get_to_play()
        if to_play.get_num_cards() == 0:
            self.refill(player)
        return to_play.remove_top_card()

    # The pot

    def put_in_pot(self, player, card):
        """A card goes into the pot; remember whose it was. C: TableTop_PutInPot."""
        pot = self.currently_in_play
        self.pot_owner[pot.get_num_cards()] = player
        pot.add_card_to_pile(card)

    def take_back(self, player):
        """Lehigh's "put top card back": the player's last face-up card leaves the pot.
        C: TableTop_TakeBack."""
        pot = self.currently_in_play
        position = pot.get_num_cards() - 1
        while self.pot_owner[position] != player:
            position -= 1
        del self.pot_owner[position]
        self.pot_owner.append(None)
        return pot.remove_card_at(position)

    def play_face_up(self, takes_back=(False, False)):
        """A, then B, put a card face up in the pot. C: TableTop_FaceUp."""
        for player in (A, B):
            if takes_back[player]:
                card = self.take_back(player)
                self.card_event(EVENT_TAKE_BACK, player, card)
            else:
                card = self.draw(player)
            self.put_in_pot(player, card)
            self.face_up[player] = card
            self.card_event(EVENT_FACE_UP, player, card)
        narrator.face_up(self)

    def seat_cards(self, seat):
        """The pot positions of one seat's cards, in the order they were put down.
        C: TableTop_SeatCards."""
        count = self.currently_in_play.get_num_cards()
        return [i for i in range(count) if self.pot_owner[i] == seat]

    def pickup_order(self, winner):
        """The order in which the pot goes to the winner, as pot positions.
        C: TableTop_PickupOrder."""
        pickup = self.rules.pickup
        count = self.currently_in_play.get_num_cards()
        if pickup == "smu":
            return list(range(count - 1, -1, -1))
        if pickup == "random":
            self.currently_in_play.shuffle(self.rng, self.rules.shuffle)
        if pickup in ("random", "pot-order"):
            return list(range(count))
        first_seat = A
        if pickup == "winner-first":
            first_seat = winner
        elif pickup == "loser-first":
            first_seat = 1 - winner
        first = self.seat_cards(first_seat)
        second = self.seat_cards(1 - first_seat)
        if pickup == "seat-interleaved":
            order = []
            for i in range(max(len(first), len(second))):
                order += first[i:i + 1] + second[i:i + 1]
            return order
        return first + second

    def collect(self, winner):
        """The winner takes the whole pot, in the pickup rule's order. C: TableTop_Collect."""
        pot = self.currently_in_play
        for position in self.pickup_order(winner):
            card = pot.get_card(position)
            narrator.gets(self, winner, card)
            self.give(winner, card)
        self.currently_in_play = Pile()

    # Battles, wars and the end

    def after_battle(self):
        """Refill A, then B, where 'to play' is empty; then the counts.
        C: TableTop_AfterBattle."""
        if self.rules.piles == "to-play+played":
            for player in (A, B):
                owner = self.players[player]
                if owner.get_to_play().get_num_cards() == 0 and owner.get_played().get_num_cards() > 0:
                    self.refill(player)
        narrator.counts(self)

    def run_out(self, loses_a, loses_b):
        """The game ends with players out of cards; iofall's survivor takes the pot.
        C: TableTop_RunOut."""
        iofall = self.rules.short_war == "iofall"
        self.lost = [loses_a, loses_b]
        self.over = True
        self.result.outcome = "win"
        if loses_a and loses_b and not iofall:
            self.result.outcome = "both-lose"
            return
        self.result.winner = B if loses_a else A      # iofall: both out, B wins
        if iofall:
            self.collect(self.result.winner)

    def check_out(self):
        """After a decided battle, a player with no cards left has lost. C: TableTop_CheckOut."""
        out_a = self.players[A].get_num_cards() == 0
        out_b = self.players[B].get_num_cards() == 0
        if out_a or out_b:
            self.run_out(out_a, out_b)

    def plan_war(self, player):
        """How a player meets a war, from the cards it holds. C: TableTop_PlanWar."""
        n = self.players[player].get_num_cards()
        face_down = self.rules.face_down
        if n >= face_down + 1:
            return WarPlan(face_down)
        short_war = self.rules.short_war
        if short_war == "lose":
            return WarPlan(0, loses=True)
        if short_war == "last-card":
            return WarPlan(max(n - 1, 0), loses=n == 0)
        if short_war == "all-but-one":
            return WarPlan(max(n - 1, 0), takes_back=n == 0)
        # iofall: the whole war if it can, else all but one, but at least one
        down = face_down if n >= face_down else max(n - 1, 1)
        down = 0 if n == 0 else down
        return WarPlan(down, loses=n - down == 0)

    def war(self):
        """After a tie: face-down cards, A's then B's, then a new face-up pair.
        Returns True when a player runs out instead. C: TableTop_War."""
        plans = [self.plan_war(A), self.plan_war(B)]
        if plans[A].takes_back and plans[B].takes_back:
            # both would play their tied cards again, and tie forever
            plans[A].loses = plans[B].loses = True
        any_loses = plans[A].loses or plans[B].loses
        if any_loses and self.rules.short_war != "iofall":
            self.run_out(plans[A].loses, plans[B].loses)
            return True
        for player in (A, B):
            for _ in range(plans[player].down):
                card = self.draw(player)
                self.put_in_pot(player, card)
                self.card_event(EVENT_FACE_DOWN, player, card)
        if any_loses:
            self.run_out(plans[A].loses, plans[B].loses)
            return True
        self.result.wars += 1
        self.play_face_up((plans[A].takes_back, plans[B].takes_back))
        return False

    def play_round(self):
        """One round: battles until the pot is won or a player runs out.
        Returns True at the end of the game. C: TableTop_PlayRound."""
        result = self.result
        streak = 0
        result.rounds += 1
        narrator.round_start(self)
        self.play_face_up()
        while True:
            rank_a = self.face_up[A].get_rank()
            rank_b = self.face_up[B].get_rank()
            result.battles += 1
            if rank_a != rank_b:
                winner = A if rank_a > rank_b else B
                self.event(EVENT_BATTLE | winner)
                narrator.win(self, winner)
                self.collect(winner)
                self.after_battle()
                self.check_out()
                break
            self.event(EVENT_BATTLE | BATTLE_TIE)
            result.ties += 1
            streak += 1
            result.longest_tie_streak = max(result.longest_tie_streak, streak)
            narrator.tie(self)
            self.after_battle()
            if self.war():
                break
        narrator.round_end(self)
        return self.over

    # The whole game

    def can_cycle(self):
        """A game can repeat only when nothing random happens after the deal.
        C: TableTop_CanCycle."""
        return can_cycle(self.rules)

    def get_state(self):
        """Between rounds the state is both hands in order. C: TableTop_GetState."""
        hands = [player.get_to_play() for player in self.players]
        sizes = tuple(hand.get_num_cards() for hand in hands)
        cards = tuple(hand.get_card(i).get_id() for hand in hands
                      for i in range(hand.get_num_cards()))
        return sizes + cards

    def cap(self):
        """The round cap: whoever holds more cards wins; equal counts win for nobody.
        C: TableTop_Cap."""
        cards_a = self.players[A].get_num_cards()
        cards_b = self.players[B].get_num_cards()
        self.over = True
        self.result.outcome = "capped"
        if cards_a != cards_b:
            self.result.winner = A if cards_a > cards_b else B

    def finish(self):
        """Count the piles and the stranded cards, close the digest, say the end.
        C: TableTop_Finish."""
        result = self.result
        result.piles = [[player.get_to_play().get_num_cards(),
                         player.get_played().get_num_cards()] for player in self.players]
        result.stranded = self.currently_in_play.get_num_cards()
        winner_code = 0 if result.winner is None else result.winner + 1
        self.event(EVENT_END | OUTCOMES.index(result.outcome) << 4 | winner_code)
        narrator.game_over(self)

    def play_game(self):
        """Deal, then rounds until an end, the cap, or a repeat. C: TableTop_PlayGame."""
        watching = self.rules.detect_cycles and self.can_cycle()
        self.deal()
        cycle = Cycle(self.get_state()) if watching else None
        while not self.over:
            if self.result.rounds >= self.rules.max_rounds:
                self.cap()
                break
            if self.play_round() or not watching:
                continue
            if cycle.saw(self.get_state()):
                self.over = True
                self.result.outcome = "cycle"
                self.result.cycle_period = cycle.lam
                self.result.cycle_start = find_start(self, cycle.lam)
        self.finish()
        return self.result
