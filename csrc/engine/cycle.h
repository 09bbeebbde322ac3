/* cycle.h: Brent's cycle finding over whole game states, in constant memory. */
#ifndef PYWAR_CYCLE_H
#define PYWAR_CYCLE_H

#include <stdint.h>

#include "pywar.h"

struct TableTop;

typedef struct Cycle {
    uint8_t saved[PYWAR_STATE_BYTES];   /* the state at the last power of two */
    int32_t power;
    int32_t lambda;                     /* rounds since then; the period once found */
} Cycle;

void Cycle_Init(Cycle *cycle, const uint8_t *state);
int Cycle_Saw(Cycle *cycle, const uint8_t *state);
int Cycle_FindStart(const struct TableTop *model, int32_t period, int32_t *start);

#endif
