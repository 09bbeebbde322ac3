/* game.h: the engine's game: flat arrays of card ids, every rule set and dimension.
 *
 * The engine plays the rules of docs/rules.md as fast as it can: a card is a number
 * (a 16-bit id), a hand a ring of ids (hand.h), and each rule dimension is decided once
 * per game (see Spec in game.c) rather than once per card.  pywar/twin/game.py takes the same steps
 * in Python, and the two give the same results, digests, transcripts and traces. */
#ifndef PYWAR_GAME_H
#define PYWAR_GAME_H

#include <stdint.h>

#include "hand.h"
#include "narrator.h"
#include "pywar.h"
#include "../common/rng.h"

typedef struct Game {
    PywarRules rules;
    int players;
    int deckSize;
    uint8_t rank[PYWAR_MAXCARDS];           /* each card id's rank */
    Hand toPlay[PYWAR_MAX_PLAYERS];         /* with queue piles, the whole hand */
    Hand played[PYWAR_MAX_PLAYERS];         /* won cards, until a refill */
    CardId pot[PYWAR_MAXCARDS];             /* 'currently in play', bottom first */
    uint16_t potOwner[PYWAR_MAXCARDS];      /* who put each pot card down */
    int32_t potBattle[PYWAR_MAXCARDS];      /* the battle of a face-up pot card, 0: face down */
    int potCount;
    CardId faceUp[PYWAR_MAX_PLAYERS];       /* each player's card in this battle */
    unsigned inGame;                        /* bit p: player p still holds cards */
    int over;
    PywarResult result;
    Rng rng;
    uint32_t seed;
    int given;                              /* 1: deal[] instead of a shuffled deck */
    int handCounts[PYWAR_MAX_PLAYERS];
    uint8_t deal[PYWAR_MAXCARDS];           /* the given hands, top first, one after another */
    int observed;                           /* 1: events go to the trace and the narrator */
    PywarText *trace;
    Narrator narrator;
    volatile int32_t *stop;                 /* nonzero: end the game after this round */
} Game;

void Game_Init(Game *game, uint32_t seed, const PywarRules *rules, PywarText *text,
               PywarText *trace);
int Game_SetDeal(Game *game, const uint8_t *deal, const int *handCounts);
int Game_Play(Game *game);
int Game_PlayNext(Game *game, uint32_t seed);

#endif
