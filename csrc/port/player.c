/* player.c: the reference's player.cpp. */
#include "player.h"

/* Player::Player.  Without memory: PYWAR_ENOMEM, and Player_Destroy frees the rest. */
int Player_Init(Player *player, int stack)
{
    player->toPlay = Pile_New(stack);
    player->played = Pile_New(stack);
    return player->toPlay != NULL && player->played != NULL ? PYWAR_OK : PYWAR_ENOMEM;
}

/* Player::~Player: delete both piles. */
void Player_Destroy(Player *player)
{
    Pile_Delete(player->toPlay);
    Pile_Delete(player->played);
}

/* Player::GetToPlayPile */
Pile *Player_GetToPlayPile(const Player *player)
{
    return player->toPlay;
}

/* Player::GetPlayedPile */
Pile *Player_GetPlayedPile(const Player *player)
{
    return player->played;
}
