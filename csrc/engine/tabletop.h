/* tabletop.h: the game board (SMU's TableTop, the "GameBoard"): two players, the
 * pot ('currently in play'), the deck of heap cards, the random generator, and
 * what the game has counted so far.  The caller owns it; nothing is global. */
#ifndef PYWAR_TABLETOP_H
#define PYWAR_TABLETOP_H

#include <stdint.h>

#include "player.h"
#include "pywar.h"
#include "rng.h"

#define PLAYER_A PYWAR_PLAYER_A
#define PLAYER_B PYWAR_PLAYER_B

typedef struct TableTop {
    Player players[2];
    Pile currentlyInPlay;                 /* the pot; SMU builds the deck in it too */
    unsigned char potOwner[MAXCARDS];     /* who put each pot card down */
    Card *faceUp[2];                      /* each player's card in the current battle */
    Card *deck[MAXCARDS];                 /* owns the cards */
    int lost[2];                          /* 1 for a player who ran out */
    int over;
    Rng rng;
    PywarRules rules;
    PywarResult result;
    PywarText *text;                      /* NULL: no transcript */
    uint32_t seed;
    int customDeal;                       /* 1: deal these cards instead of shuffling */
    int dealCount[2];
    uint8_t deal[MAXCARDS];               /* A's cards top first, then B's */
} TableTop;

int OldTableTop_Init(TableTop *table, uint32_t seed, const PywarRules *rules, PywarText *text);
void OldTableTop_NewGame(TableTop *table, uint32_t seed);
void OldTableTop_Destroy(TableTop *table);
int OldTableTop_SetDeal(TableTop *table, const uint8_t *deal, int countA, int countB);
void OldTableTop_Deal(TableTop *table);
int OldTableTop_PlayRound(TableTop *table);
int OldTableTop_PlayGame(TableTop *table);
int OldTableTop_CanCycle(const TableTop *table);
void OldTableTop_GetState(const TableTop *table, uint8_t *state);
Pile *OldTableTop_GetWinnings(const TableTop *table, int player);

#endif
