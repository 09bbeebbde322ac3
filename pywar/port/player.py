"""The reference's Player (player.h, player.cpp): two piles, 'to play' and 'played'.
C: csrc/port/player.c."""

from .pile import Pile


class Player:
    """Player (player.h). C: struct Player."""

    def __init__(self, stack="pile"):
        """Player::Player: a new 'to play' pile and a new 'played' pile. C: Player_Init."""
        self.to_play = Pile(stack)
        self.played = Pile(stack)

    def destroy(self):
        """Player::~Player: delete both piles (Python's garbage collector frees them).
        C: Player_Destroy."""
        self.to_play = None
        self.played = None

    def get_to_play_pile(self):
        """Player::GetToPlayPile. C: Player_GetToPlayPile."""
        return self.to_play

    def get_played_pile(self):
        """Player::GetPlayedPile. C: Player_GetPlayedPile."""
        return self.played

    def __repr__(self):
        """As <Player: 25 to play, 3 played>."""
        if self.to_play is None:
            return "<Player: deleted>"
        return (f"<Player: {self.to_play.get_num_cards()} to play, "
                f"{self.played.get_num_cards()} played>")
