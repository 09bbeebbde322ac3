/* trace.h: one event of a game, and its line in the trace (docs/trace.md).
 * Every implementation tells its events in a TraceEvent; Trace_Write spells the line. */
#ifndef PYWAR_TRACE_H
#define PYWAR_TRACE_H

#include <stdint.h>

#include "pywar.h"

typedef enum TraceKind {
    TRACE_DEAL, TRACE_ROUND, TRACE_TAKE_BACK, TRACE_FACE_UP, TRACE_BATTLE, TRACE_PICKUP,
    TRACE_REFILL, TRACE_FACE_DOWN, TRACE_RUN_OUT, TRACE_CAP, TRACE_CYCLE, TRACE_END
} TraceKind;

typedef struct TraceEvent {
    int kind;                         /* enum TraceKind */
    int32_t round;                    /* rounds begun so far */
    int32_t battle;                   /* battles begun so far */
    int player;                       /* whose event; battle, end: the winner, -1 for none */
    int count;                        /* cards used in cards[] */
    uint8_t cards[PYWAR_MAXCARDS];    /* deal: the hands one after another, top first;
                                         else the event's cards in order */
    int handCounts[PYWAR_MAX_PLAYERS];/* deal: the cards in each hand */
    int tied;                         /* battle: bit p set for each player tied */
    int outcome;                      /* end: enum PywarOutcome */
    int32_t start;                    /* cycle */
    int32_t period;                   /* cycle */
    int players;                      /* players at the table */
    int32_t piles[PYWAR_MAX_PLAYERS][2];   /* after the event: to play, played */
    int32_t pot;                      /* after the event */
} TraceEvent;

void Trace_Write(PywarText *out, const TraceEvent *event);

#endif
