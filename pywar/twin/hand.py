"""A pile of card ids: played from the top, added on top (a stack: two-pile games) or
at the bottom (a queue). C: csrc/engine/hand.h, a ring of 64 16-bit ids; here a deque, whose
index 0 is the bottom card."""

from collections import deque


class Hand:
    """A pile of card ids, bottom first. C: struct Hand."""

    def __init__(self):
        self.cards = deque()

    @property
    def count(self):
        """How many cards the hand holds. C: Hand.count."""
        return len(self.cards)

    def clear(self):
        """Empty the hand. C: Hand_Clear."""
        self.cards.clear()

    def at(self, position):
        """The card at a position counted from the bottom. C: Hand_At."""
        return self.cards[position]

    def push_top(self, card):
        """Put a card on top. C: Hand_PushTop."""
        self.cards.append(card)

    def push_bottom(self, card):
        """Put a card at the bottom. C: Hand_PushBottom."""
        self.cards.appendleft(card)

    def pop_top(self):
        """Take the top card. C: Hand_PopTop."""
        return self.cards.pop()

    def top_first(self):
        """The hand's cards from the top down. C: Hand_TopFirst."""
        return list(reversed(self.cards))
