/* cycle.h: Brent's cycle finding over whole game states, in constant memory. */
#ifndef PYWAR_CYCLE_H
#define PYWAR_CYCLE_H

#include <stdint.h>

#define CYCLE_STATE_BYTES 72     /* 2 counts per player, at most 8 players, and 52 cards */
#define CYCLE_NO_CARD 0xff       /* the bytes of a state past its cards */

typedef struct Cycle {
    uint8_t saved[CYCLE_STATE_BYTES];   /* the state at the last power of two */
    int32_t power;
    int32_t lambda;                     /* rounds since then; the period once found */
} Cycle;

void Cycle_Init(Cycle *cycle, const uint8_t *state);
int Cycle_Saw(Cycle *cycle, const uint8_t *state);

#endif
