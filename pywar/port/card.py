"""The reference's Card (card.h, card.cpp): one playing card. C: csrc/port/card.c.

C makes each card on the heap with malloc (Card_New, the reference's 'new Card') and
frees it (Card_Delete); Python's Card() makes one and the garbage collector frees it.
"""

from enum import IntEnum


class SUIT(IntEnum):
    """enum SUIT: the four suits, in the reference's order. C: enum SUIT."""
    HEART = 0
    DIAMOND = 1
    SPADE = 2
    CLUB = 3


class RANK(IntEnum):
    """enum RANK: the thirteen ranks, two low and ace high. C: enum RANK."""
    TWO = 0
    THREE = 1
    FOUR = 2
    FIVE = 3
    SIX = 4
    SEVEN = 5
    EIGHT = 6
    NINE = 7
    TEN = 8
    JACK = 9
    QUEEN = 10
    KING = 11
    ACE = 12


RANK_STRINGS = {rank: rank.name.lower() for rank in RANK}     # RANK.ACE: "ace"
SUIT_STRINGS = {suit: suit.name.lower() for suit in SUIT}     # SUIT.SPADE: "spade"


class Card:
    """Card (card.h): a suit and a rank. C: struct Card."""

    def __init__(self):
        """Card::Card: a card with no suit or rank yet (-1). C: Card_New."""
        self.suit = -1
        self.rank = -1

    def set_suit_and_rank(self, suit, rank):
        """Card::SetSuitAndRank. C: Card_SetSuitAndRank."""
        self.suit = SUIT(suit)
        self.rank = RANK(rank)

    def get_rank_string(self):
        """Card::GetRankString: the rank in words ("ace"), or "error" if it is not set.
        C: Card_GetRankString."""
        return RANK_STRINGS.get(self.rank, "error")

    def get_rank(self):
        """Card::GetRank. C: Card_GetRank."""
        return self.rank

    def get_suit_string(self):
        """Card::GetSuitString: the suit in words ("spade"), or "error" if it is not set.
        C: Card_GetSuitString."""
        return SUIT_STRINGS.get(self.suit, "error")

    def get_suit(self):
        """Card::GetSuit. C: Card_GetSuit."""
        return self.suit

    def __str__(self):
        """The card as the reference prints it: "ace of spades"."""
        return f"{self.get_rank_string()} of {self.get_suit_string()}s"

    def __repr__(self):
        """As <Card ace of spades>."""
        return f"<Card {self}>"
