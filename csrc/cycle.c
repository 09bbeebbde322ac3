/* cycle.c: Brent's cycle finding over whole game states, in constant memory. */
#include <string.h>

#include "cycle.h"
#include "tabletop.h"

void Cycle_Init(Cycle *cycle, const uint8_t *state)
{
    memcpy(cycle->saved, state, PYWAR_STATE_BYTES);
    cycle->power = 1;
    cycle->lambda = 0;
}

/* Call after every round. Returns 1 when the state repeats; lambda is the period. */
int Cycle_Saw(Cycle *cycle, const uint8_t *state)
{
    cycle->lambda++;
    if (memcmp(cycle->saved, state, PYWAR_STATE_BYTES) == 0) {
        return 1;
    }
    if (cycle->lambda == cycle->power) {
        memcpy(cycle->saved, state, PYWAR_STATE_BYTES);
        cycle->power *= 2;
        cycle->lambda = 0;
    }
    return 0;
}

/* The first round of the cycle: replay the game twice, silently, one copy 'period'
 * rounds ahead, and step both until their states meet. */
int Cycle_FindStart(uint32_t seed, const PywarRules *rules, int32_t period, int32_t *start)
{
    TableTop tortoise, hare;
    uint8_t tortoiseState[PYWAR_STATE_BYTES], hareState[PYWAR_STATE_BYTES];
    if (TableTop_Init(&tortoise, seed, rules, NULL) != PYWAR_OK) {
        return PYWAR_ENOMEM;
    }
    if (TableTop_Init(&hare, seed, rules, NULL) != PYWAR_OK) {
        TableTop_Destroy(&tortoise);
        return PYWAR_ENOMEM;
    }
    TableTop_Deal(&tortoise);
    TableTop_Deal(&hare);
    for (int32_t i = 0; i < period; i++) {
        TableTop_PlayRound(&hare);
    }
    *start = 0;
    TableTop_GetState(&tortoise, tortoiseState);
    TableTop_GetState(&hare, hareState);
    while (memcmp(tortoiseState, hareState, PYWAR_STATE_BYTES) != 0) {
        TableTop_PlayRound(&tortoise);
        TableTop_PlayRound(&hare);
        TableTop_GetState(&tortoise, tortoiseState);
        TableTop_GetState(&hare, hareState);
        (*start)++;
    }
    TableTop_Destroy(&tortoise);
    TableTop_Destroy(&hare);
    return PYWAR_OK;
}
