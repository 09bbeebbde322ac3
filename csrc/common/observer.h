/* observer.h: the counters, the digest and the trace of a game told event by event.
 *
 * The port calls an Observer_ function at each event of the reference's code: it is the
 * port's one addition to the reference.  The observer reads the piles it needs through
 * the port's own ObserverReadPile, so the port keeps the reference's types, and it
 * counts what the engine counts as it plays (docs/rules.md, 7.9 and 11). */
#ifndef PYWAR_OBSERVER_H
#define PYWAR_OBSERVER_H

#include <stdint.h>

#include "pywar.h"
#include "tally.h"
#include "trace.h"

/* The piles an ObserverReadPile reads: a player's two, and the pot. */
#define OBSERVER_TO_PLAY(player) (2 * (player))
#define OBSERVER_PLAYED(player) (2 * (player) + 1)
#define OBSERVER_POT 4

/* Fill ids with the pile's card ids, bottom first; return how many. */
typedef int (*ObserverReadPile)(const void *table, int pile, uint8_t *ids);
/* The pile's size, read without disturbing it (a stack is not popped to count it). */
typedef int (*ObserverCountPile)(const void *table, int pile);

typedef struct Observer {
    const void *table;
    ObserverReadPile readPile;
    ObserverCountPile countPile;
    PywarText *trace;          /* NULL: no trace */
    PywarResult result;        /* the counters, the digest, the winner and the outcome */
    int streak;                /* ties in a row in this round */
    int lastWasTie;            /* the last battle of this round was a tie */
    int wars;                  /* wars in this round */
    Lead lead;                /* who leads, and each one's deficit */
    int lost[2];
    TraceEvent pickup;         /* a pickup being told card by card */
    int takingPickup;
} Observer;

void Observer_Init(Observer *observer, const void *table, ObserverReadPile readPile,
                   ObserverCountPile countPile, PywarText *trace);
void Observer_Deal(Observer *observer);
void Observer_Round(Observer *observer);
void Observer_FaceUp(Observer *observer);
void Observer_Battle(Observer *observer, int winner);
void Observer_Take(Observer *observer, int player);
void Observer_Refill(Observer *observer, int player);
void Observer_RunOut(Observer *observer, int player);
void Observer_End(Observer *observer);

#endif
