/* spec.h: the rules as the engine's loop reads them (Spec), and a player's bit.
 *
 * Every step of game.c and pickup.h takes a Spec by value and is inlined into the
 * game's loop (a STEP of inline.h), so that a preset's constant Spec folds away the
 * branches of the rules it does not use. */
#ifndef PYWAR_SPEC_H
#define PYWAR_SPEC_H

#include "../common/inline.h"

#define BIT(player) (1u << (player))

/* The rules as the loop reads them, decided once per game. */
typedef struct Spec {
    int players;
    int faceDown;
    int shortWar;     /* enum PywarShortWar */
    int pickup;       /* enum PywarPickup */
    int queue;        /* 1: one queue per player; 0: 'to play' and 'played' */
    int shuffle;      /* enum PywarShuffle */
    int keep;         /* 1: a refill keeps 'played' as it lies, unshuffled */
    int owners;       /* 1: remember who put each pot card down (seat pickups, take-backs) */
    int battles;      /* 1: remember each pot card's battle (the natural pickup) */
    int watching;     /* 1: look for a repeated state after every round */
    int observed;     /* 1: tell the events to the trace and the narrator */
    int oneCard;      /* 1: single battles, no war, no cards won back (game one-card) */
} Spec;

#endif
