"""A pile of cards in a fixed array (SMU's Pile class). C: csrc/pile.c.

SMU's Pile is a stack: add_card_to_pile puts a card on top and remove_top_card
takes the top one.  A queue also puts cards at the bottom, so the array is a ring:
position 0 is the bottom card, at cards[bottom], and the top is position
num_cards - 1.  A pile that is only used as a stack keeps bottom at 0.
"""

MAXCARDS = 52


class Pile:
    """MAXCARDS slots, a count and the slot of the bottom card. C: struct Pile."""

    def __init__(self):
        """An empty pile. C: Pile_New, Pile_Init."""
        self.cards = [None] * MAXCARDS
        self.num_cards = 0
        self.bottom = 0

    def index(self, position):
        """The slot of a position counted from the bottom. C: Pile_Index."""
        return (self.bottom + position) % MAXCARDS

    def add_card_to_pile(self, card):
        """Put a card on top. C: Pile_AddCardToPile."""
        self.cards[self.index(self.num_cards)] = card
        self.num_cards += 1

    def add_card_to_bottom(self, card):
        """Put a card at the bottom. C: Pile_AddCardToBottom."""
        self.bottom = (self.bottom - 1) % MAXCARDS
        self.cards[self.bottom] = card
        self.num_cards += 1

    def remove_top_card(self):
        """Take the top card; like the reference, callers check for an empty pile.
        C: Pile_RemoveTopCard."""
        self.num_cards -= 1
        card = self.cards[self.index(self.num_cards)]
        if self.num_cards == 0:
            self.bottom = 0
        return card

    def remove_card_at(self, position):
        """Take out the card at a position; the cards above move down. C: Pile_RemoveCardAt."""
        card = self.get_card(position)
        for i in range(position, self.num_cards - 1):
            self.cards[self.index(i)] = self.cards[self.index(i + 1)]
        self.num_cards -= 1
        return card

    def get_num_cards(self):
        """How many cards are in the pile. C: Pile_GetNumCards."""
        return self.num_cards

    def get_card(self, position):
        """The card at a position counted from the bottom. C: Pile_GetCard."""
        return self.cards[self.index(position)]

    def make_flat(self):
        """Rotate the ring so that the bottom card is in slot 0. C: Pile_MakeFlat."""
        flat = [self.get_card(i) for i in range(self.num_cards)]
        self.cards[:self.num_cards] = flat
        self.bottom = 0

    def swap(self, i, j):
        """Swap the cards in slots i and j. C: Pile_Swap."""
        self.cards[i], self.cards[j] = self.cards[j], self.cards[i]

    def shuffle(self, rng, method):
        """Shuffle by the rules' method ('smu', 'swap-each' or 'fisher-yates'). C: Pile_Shuffle."""
        if self.num_cards == 0:
            return
        self.make_flat()
        if method == "swap-each":
            self.shuffle_swap_each(rng)
        elif method == "fisher-yates":
            self.shuffle_fisher_yates(rng)
        else:
            self.shuffle_smu(rng)

    def shuffle_smu(self, rng):
        """SMU: MAXCARDS * 2 times swap two cards drawn as rand() % n, c1 first.
        C: Pile_ShuffleSmu."""
        n = self.num_cards
        for _ in range(MAXCARDS * 2):
            c1 = rng.below(n)
            c2 = rng.below(n)
            self.swap(c1, c2)

    def shuffle_swap_each(self, rng):
        """Lehigh: swap each card, bottom up, with the card at rand() % n.
        C: Pile_ShuffleSwapEach."""
        n = self.num_cards
        for i in range(n):
            self.swap(i, rng.below(n))

    def shuffle_fisher_yates(self, rng):
        """Fisher-Yates from the top down: swap slot i with rand() % (i + 1).
        C: Pile_ShuffleFisherYates."""
        for i in range(self.num_cards - 1, 0, -1):
            self.swap(i, rng.below(i + 1))

    def print_cards(self, out):
        """SMU's listing of the pile, bottom card first. C: Pile_PrintCards."""
        out.append(f"There are {self.num_cards} cards in the pile.\n")
        for i in range(self.num_cards):
            card = self.get_card(i)
            out.append(f"Card {i + 1}, {card.get_rank_string()} of {card.get_suit_string()}s\n")
        out.append("\n")
