/* player.h: a player's two heap-allocated piles (SMU's Player class).
 * With queue piles only toPlay is used: cards are played from its top and won
 * cards go to its bottom. */
#ifndef PYWAR_PLAYER_H
#define PYWAR_PLAYER_H

#include "pile.h"

typedef struct Player {
    Pile *toPlay;
    Pile *played;
} Player;

int OldPlayer_Init(Player *player);
void OldPlayer_Destroy(Player *player);
Pile *OldPlayer_GetToPlay(const Player *player);
Pile *OldPlayer_GetPlayed(const Player *player);
int OldPlayer_GetNumCards(const Player *player);

#endif
