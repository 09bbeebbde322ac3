"""The reference's Pile (pile.h, pile.cpp): a stack of cards, in the course's two forms
side by side. C: csrc/port/pile.c.

Program 4 keeps the cards in an array of MAXCARDS slots with a count, the top card
last: stack="pile".  Program 6 ("Game of War Part 2") refactors the Pile onto the
standard stack ADT: here a Python list used only as a stack (append to push, pop,
[-1] for the top, len for the size): stack="adt".  Each operation shows Program 4's
way and then Program 6's.
"""

from ..rules import MAX_CARDS

MAXCARDS = MAX_CARDS            # the reference's name for the deck's 52 cards
STACKS = ("pile", "adt")       # Program 4's array, Program 6's stack ADT


def text_printf(text, line):
    """Print a line where the reference writes to cout: append it to text (a list, or
    anything with .append); a text of None prints nothing. C: Text_Printf."""
    if text is not None:
        text.append(line)


class Pile:
    """Pile (pile.h): the cards, bottom first. C: struct Pile."""

    def __init__(self, stack="pile"):
        """Pile::Pile: an empty pile, Program 4's ("pile") or Program 6's ("adt").
        C: Pile_Init (and Pile_New, for 'new Pile')."""
        self.cards = [None] * MAXCARDS                  # Program 4: an array of cards
        self.num_cards = 0
        self.stack = [] if stack == "adt" else None     # Program 6: the stack ADT

    def add_card_to_pile(self, card):
        """Pile::AddCardToPile: put a card on top. C: Pile_AddCardToPile."""
        if self.stack is None:                  # Program 4: at the end of the array
            self.cards[self.num_cards] = card
            self.num_cards += 1
        else:                                   # Program 6: push
            self.stack.append(card)

    def remove_top_card(self):
        """Pile::RemoveTopCard: take the top card (the pile must not be empty).
        C: Pile_RemoveTopCard."""
        if self.stack is None:                  # Program 4: from the end of the array
            card_to_return = self.cards[self.num_cards - 1]
            self.num_cards -= 1
        else:                                   # Program 6: pop
            card_to_return = self.stack.pop()
        return card_to_return

    def get_num_cards(self):
        """Pile::GetNumCards. C: Pile_GetNumCards."""
        return self.num_cards if self.stack is None else len(self.stack)

    def get_array(self):
        """The cards as an array, bottom first: Program 4's own, or Program 6's stack
        popped into a new one (a stack has no index); put_array pushes them back.
        C: Pile_GetArray."""
        if self.stack is None:
            return self.cards
        popped = [None] * MAXCARDS
        i = len(self.stack)
        while self.stack:                       # until the stack is empty
            i -= 1
            popped[i] = self.stack.pop()
        return popped

    def put_array(self, cards, num_cards):
        """Program 6: push back the array of get_array, bottom first. C: Pile_PutArray."""
        if self.stack is not None:
            for i in range(num_cards):
                self.stack.append(cards[i])

    def shuffle(self, rng):
        """Pile::Shuffle: 104 random swaps; rng.rand() is the table's rand().
        C: Pile_Shuffle."""
        num_cards = self.get_num_cards()
        cards = self.get_array()
        n = MAXCARDS * 2
        for i in range(n):
            c1 = rng.rand() % num_cards
            c2 = rng.rand() % num_cards
            cards[c1], cards[c2] = cards[c2], cards[c1]
        self.put_array(cards, num_cards)

    def print_cards(self, text):
        """Pile::PrintCards: the count, then every card, bottom first. C: Pile_PrintCards."""
        num_cards = self.get_num_cards()
        cards = self.get_array()
        text_printf(text, f"There are {num_cards} cards in the pile.\n")
        for i in range(num_cards):
            card = cards[i]
            text_printf(text, f"Card {i + 1}, {card.get_rank_string()} of "
                              f"{card.get_suit_string()}s\n")
        self.put_array(cards, num_cards)

    def __repr__(self):
        """As <Pile: 25 cards, top: ace of spades>."""
        num_cards = self.get_num_cards()
        if num_cards == 0:
            return "<Pile: 0 cards>"
        top = self.cards[num_cards - 1] if self.stack is None else self.stack[-1]
        plural = "" if num_cards == 1 else "s"
        return f"<Pile: {num_cards} card{plural}, top: {top}>"
