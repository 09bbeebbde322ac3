/* player.h: the reference's Player: two piles on the heap.  A Player is a member of the
 * TableTop: Player_Init and Player_Destroy are its constructor and destructor, in place. */
#ifndef PYWAR_PORT_PLAYER_H
#define PYWAR_PORT_PLAYER_H

#include "pile.h"

typedef struct Player {
    Pile *toPlay;
    Pile *played;
} Player;

int Player_Init(Player *player, int stack);
void Player_Destroy(Player *player);
Pile *Player_GetToPlayPile(const Player *player);
Pile *Player_GetPlayedPile(const Player *player);
#endif
