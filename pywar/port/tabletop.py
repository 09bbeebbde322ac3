"""The reference's TableTop (tabletop.h, tabletop.cpp), its "GameBoard": two players,
the 'currently in play' pile and the deck. C: csrc/port/tabletop.c.

Where the port departs from the reference, it says so: the seed replaces
srand(time(NULL)) and the generator (rng, glibc's rand()) belongs to the table, not to
the program; the transcript goes to text, where the reference writes to cout; and the
observer is told of each event (one line each), to count, digest and trace the game.
"""

from ..common.observer import POT, Observer
from ..common.rng import Rng
from .card import Card
from .pile import MAXCARDS, Pile, text_printf
from .player import Player

PLAYER_A = 0
PLAYER_B = 1


class TableTop:
    """TableTop (tabletop.h). C: struct TableTop."""

    def __init__(self, seed, stack="pile", text=None, trace=None):
        """TableTop::TableTop: the welcome, the deck, the shuffle and the deal.
        C: TableTop_Init."""
        self.player_a = Player(stack)
        self.player_b = Player(stack)
        self.currently_in_play = Pile(stack)
        self.deck = [None] * MAXCARDS
        self.text = text                                # cout
        self.observer = Observer(self.read_pile, trace, self.count_pile)
        self.rng = Rng(seed)                            # srand(seed), the table's own
        text_printf(text, "Welcome to the Game of War!\n\n")
        for i in range(MAXCARDS):
            card = Card()                               # a new card
            self.deck[i] = card                         # kept, to be let go at the end
            suit = i // 13
            rank = i % 13
            card.set_suit_and_rank(suit, rank)
            self.currently_in_play.add_card_to_pile(card)
        text_printf(text, "Shuffling initial deck...\n\n")
        self.currently_in_play.shuffle(self.rng)
        for i in range(MAXCARDS):                       # deal: A, B, A, ... off the top
            card = self.currently_in_play.remove_top_card()
            if i % 2 == 0:
                self.player_a.get_to_play_pile().add_card_to_pile(card)
            else:
                self.player_b.get_to_play_pile().add_card_to_pile(card)
        self.observer.deal()
        text_printf(text, "Initial 'to play' piles:\n\n")
        text_printf(text, "Player A:\n")
        self.player_a.get_to_play_pile().print_cards(text)
        text_printf(text, "\n")
        text_printf(text, "Player B:\n")
        self.player_b.get_to_play_pile().print_cards(text)
        text_printf(text, "\n")

    def destroy(self):
        """TableTop::~TableTop: delete the cards (Python's garbage collector frees them),
        then, as C++ does after its body, the players. C: TableTop_Destroy."""
        for i in range(MAXCARDS):
            self.deck[i] = None
        self.player_b.destroy()
        self.player_a.destroy()

    def do_battle(self):
        """TableTop::DoBattle: True once someone has run out of cards; after a tie, it
        calls itself. C: TableTop_DoBattle."""
        player_a, player_b = self.player_a, self.player_b
        currently_in_play = self.currently_in_play
        text = self.text
        # Each player turns up the top card of its 'to play' pile.
        card_a = player_a.get_to_play_pile().remove_top_card()
        card_b = player_b.get_to_play_pile().remove_top_card()
        currently_in_play.add_card_to_pile(card_a)
        currently_in_play.add_card_to_pile(card_b)
        self.observer.face_up()
        text_printf(text, f"Player A plays {card_a.get_rank_string()} of "
                          f"{card_a.get_suit_string()}s\n")
        text_printf(text, f"Player B plays {card_b.get_rank_string()} of "
                          f"{card_b.get_suit_string()}s\n")
        tie = False
        if card_a.get_rank() > card_b.get_rank():
            self.observer.battle(PLAYER_A)
            text_printf(text, "Player A wins the 'currently in play' pile.\n\n")
            while currently_in_play.get_num_cards() > 0:
                won_card = currently_in_play.remove_top_card()
                player_a.get_played_pile().add_card_to_pile(won_card)
                self.observer.take(PLAYER_A)
        elif card_a.get_rank() < card_b.get_rank():
            self.observer.battle(PLAYER_B)
            text_printf(text, "Player B wins the 'currently in play' pile.\n\n")
            while currently_in_play.get_num_cards() > 0:
                won_card = currently_in_play.remove_top_card()
                player_b.get_played_pile().add_card_to_pile(won_card)
                self.observer.take(PLAYER_B)
        else:
            self.observer.battle(None)
            text_printf(text, "There is a tie... Doing another battle.\n\n")
            tie = True

        # A player whose 'to play' pile is empty takes up its 'played' pile instead.
        if (player_a.get_to_play_pile().get_num_cards() == 0
                and player_a.get_played_pile().get_num_cards() > 0):
            text_printf(text, "Player A ran out of cards in their 'to play' pile.  "
                              "Getting cards from the 'played' pile.\n")
            while player_a.get_played_pile().get_num_cards() > 0:
                replacement_card = player_a.get_played_pile().remove_top_card()
                player_a.get_to_play_pile().add_card_to_pile(replacement_card)
            text_printf(text, "Shuffling player A cards...\n\n")
            player_a.get_to_play_pile().shuffle(self.rng)
            self.observer.refill(PLAYER_A)

        if (player_b.get_to_play_pile().get_num_cards() == 0
                and player_b.get_played_pile().get_num_cards() > 0):
            text_printf(text, "Player B ran out of cards in their 'to play' pile.  "
                              "Getting cards from the 'played' pile.\n")
            while player_b.get_played_pile().get_num_cards() > 0:
                replacement_card = player_b.get_played_pile().remove_top_card()
                player_b.get_to_play_pile().add_card_to_pile(replacement_card)
            text_printf(text, "Shuffling player B cards...\n\n")
            player_b.get_to_play_pile().shuffle(self.rng)
            self.observer.refill(PLAYER_B)

        # Show where everyone's cards are.
        text_printf(text, f"Player A has {player_a.get_to_play_pile().get_num_cards()} in their "
                          f"'to play' pile and {player_a.get_played_pile().get_num_cards()} "
                          f"in their 'played' pile.\n")
        text_printf(text, f"Player B has {player_b.get_to_play_pile().get_num_cards()} in their "
                          f"'to play' pile and {player_b.get_played_pile().get_num_cards()} "
                          f"in their 'played' pile.\n")
        text_printf(text, "\n")

        # Is anyone out of cards?
        someone_ran_out_of_cards = False
        if player_a.get_to_play_pile().get_num_cards() == 0:
            someone_ran_out_of_cards = True
            text_printf(text, "Player A ran out of cards.  Player A has lost.\n")
            self.observer.run_out(PLAYER_A)
        if player_b.get_to_play_pile().get_num_cards() == 0:
            someone_ran_out_of_cards = True
            text_printf(text, "Player B ran out of cards.  Player B has lost.\n")
            self.observer.run_out(PLAYER_B)

        # Answer main; after a tie with nobody out, battle again: the method calls itself.
        if not someone_ran_out_of_cards and tie:
            return self.do_battle()
        else:
            return someone_ran_out_of_cards

    def pile_of(self, number):
        """Not in the reference: the pile an observer's pile number names
        (pywar.common.observer). C: TableTop_PileOf."""
        if number == POT:
            return self.currently_in_play
        player = self.player_a if number // 2 == 0 else self.player_b
        return player.get_to_play_pile() if number % 2 == 0 else player.get_played_pile()

    def count_pile(self, number):
        """Not in the reference: the observer's count_pile, a pile's size, read with
        get_num_cards, so that counting disturbs no stack. C: TableTop_CountPile."""
        return self.pile_of(number).get_num_cards()

    def read_pile(self, number):
        """Not in the reference: the observer's read_pile, a pile's card ids
        (suit * 13 + rank), bottom first (pile numbers: pywar.common.observer).
        C: TableTop_ReadPile."""
        pile = self.pile_of(number)
        num_cards = pile.get_num_cards()
        cards = pile.get_array()
        ids = [cards[i].get_suit() * 13 + cards[i].get_rank() for i in range(num_cards)]
        pile.put_array(cards, num_cards)
        return ids

    def __repr__(self):
        """As <TableTop: A <Player: 25 to play, 3 played>, B <...>, <Pile: 2 cards, ...>>."""
        return (f"<TableTop: A {self.player_a!r}, B {self.player_b!r}, "
                f"currently in play {self.currently_in_play!r}>")
