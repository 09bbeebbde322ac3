/* player.c: a player's two heap-allocated piles (SMU's Player class). */
#include <stddef.h>

#include "player.h"

int OldPlayer_Init(Player *player)
{
    player->toPlay = OldPile_New();
    player->played = OldPile_New();
    if (player->toPlay == NULL || player->played == NULL) {
        OldPlayer_Destroy(player);
        return PYWAR_ENOMEM;
    }
    return PYWAR_OK;
}

void OldPlayer_Destroy(Player *player)
{
    OldPile_Delete(player->toPlay);
    OldPile_Delete(player->played);
    player->toPlay = NULL;
    player->played = NULL;
}

Pile *OldPlayer_GetToPlay(const Player *player)
{
    return player->toPlay;
}

Pile *OldPlayer_GetPlayed(const Player *player)
{
    return player->played;
}

/* All the cards the player holds, in both piles. */
int OldPlayer_GetNumCards(const Player *player)
{
    return OldPile_GetNumCards(player->toPlay) + OldPile_GetNumCards(player->played);
}
