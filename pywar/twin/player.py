"""A player's two piles (SMU's Player class). C: csrc/player.c.

With queue piles only to_play is used: cards are played from its top and won
cards go to its bottom.
"""

from .pile import Pile


class Player:
    """The 'to play' and 'played' piles. C: struct Player, Player_Init."""

    def __init__(self):
        self.to_play = Pile()
        self.played = Pile()

    def get_to_play(self):
        """The pile cards are played from. C: Player_GetToPlay."""
        return self.to_play

    def get_played(self):
        """The pile won cards go to (SMU). C: Player_GetPlayed."""
        return self.played

    def get_num_cards(self):
        """All the cards the player holds, in both piles. C: Player_GetNumCards."""
        return self.to_play.get_num_cards() + self.played.get_num_cards()
