/* cycle.c: Brent's cycle finding over whole game states, in constant memory. */
#include <string.h>

#include "cycle.h"

void Cycle_Init(Cycle *cycle, const uint8_t *state)
{
    memcpy(cycle->saved, state, CYCLE_STATE_BYTES);
    cycle->power = 1;
    cycle->lambda = 0;
}

/* Call after every round. Returns 1 when the state repeats; lambda is the period. */
int Cycle_Saw(Cycle *cycle, const uint8_t *state)
{
    cycle->lambda++;
    if (memcmp(cycle->saved, state, CYCLE_STATE_BYTES) == 0) {
        return 1;
    }
    if (cycle->lambda == cycle->power) {
        memcpy(cycle->saved, state, CYCLE_STATE_BYTES);
        cycle->power *= 2;
        cycle->lambda = 0;
    }
    return 0;
}
