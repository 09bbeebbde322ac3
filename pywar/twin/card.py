"""One playing card (SMU's Card class). C: csrc/card.c."""

HEART, DIAMOND, SPADE, CLUB = range(4)
TWO, THREE, FOUR, FIVE, SIX, SEVEN, EIGHT, NINE, TEN, JACK, QUEEN, KING, ACE = range(13)
NUM_RANKS = 13

RANK_STRINGS = ("two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
                "jack", "queen", "king", "ace")
SUIT_STRINGS = ("heart", "diamond", "spade", "club")


class Card:
    """A card with a suit and a rank, both -1 until set. C: struct Card, Card_New."""

    def __init__(self):
        self.suit = -1
        self.rank = -1

    def set_suit_and_rank(self, suit, rank):
        """Give the card its suit and rank. C: Card_SetSuitAndRank."""
        self.suit = suit
        self.rank = rank

    def get_rank(self):
        """The rank, TWO (0) to ACE (12). C: Card_GetRank."""
        return self.rank

    def get_suit(self):
        """The suit, HEART (0) to CLUB (3). C: Card_GetSuit."""
        return self.suit

    def get_id(self):
        """The card's number 0..51: suit * 13 + rank. C: Card_GetId."""
        return self.suit * NUM_RANKS + self.rank

    def get_rank_string(self):
        """'two' .. 'ace'. C: Card_GetRankString."""
        return RANK_STRINGS[self.rank]

    def get_suit_string(self):
        """'heart', 'diamond', 'spade' or 'club'. C: Card_GetSuitString."""
        return SUIT_STRINGS[self.suit]

    def __repr__(self):
        return f"<Card {self.get_rank_string()} of {self.get_suit_string()}s>"
