/* player.c: a player's two heap-allocated piles (SMU's Player class). */
#include <stddef.h>

#include "player.h"

int Player_Init(Player *player)
{
    player->toPlay = Pile_New();
    player->played = Pile_New();
    if (player->toPlay == NULL || player->played == NULL) {
        Player_Destroy(player);
        return PYWAR_ENOMEM;
    }
    return PYWAR_OK;
}

void Player_Destroy(Player *player)
{
    Pile_Delete(player->toPlay);
    Pile_Delete(player->played);
    player->toPlay = NULL;
    player->played = NULL;
}

Pile *Player_GetToPlay(const Player *player)
{
    return player->toPlay;
}

Pile *Player_GetPlayed(const Player *player)
{
    return player->played;
}

/* All the cards the player holds, in both piles. */
int Player_GetNumCards(const Player *player)
{
    return Pile_GetNumCards(player->toPlay) + Pile_GetNumCards(player->played);
}
