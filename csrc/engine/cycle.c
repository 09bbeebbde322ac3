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

/* A silent copy of a game as it was before the deal. */
static int Cycle_Replay(const TableTop *model, TableTop *copy)
{
    int status = OldTableTop_Init(copy, model->seed, &model->rules, NULL);
    if (status == PYWAR_OK && model->customDeal) {
        status = OldTableTop_SetDeal(copy, model->deal, model->dealCount[PLAYER_A],
                                  model->dealCount[PLAYER_B]);
        if (status != PYWAR_OK) {
            OldTableTop_Destroy(copy);
        }
    }
    return status;
}

/* The rounds before the cycle: replay the game twice, silently, one copy 'period'
 * rounds ahead, and step both until their states meet. */
int Cycle_FindStart(const TableTop *model, int32_t period, int32_t *start)
{
    TableTop tortoise, hare;
    uint8_t tortoiseState[PYWAR_STATE_BYTES], hareState[PYWAR_STATE_BYTES];
    int status = Cycle_Replay(model, &tortoise);
    if (status != PYWAR_OK) {
        return status;
    }
    status = Cycle_Replay(model, &hare);
    if (status != PYWAR_OK) {
        OldTableTop_Destroy(&tortoise);
        return status;
    }
    OldTableTop_Deal(&tortoise);
    OldTableTop_Deal(&hare);
    for (int32_t i = 0; i < period; i++) {
        OldTableTop_PlayRound(&hare);
    }
    *start = 0;
    OldTableTop_GetState(&tortoise, tortoiseState);
    OldTableTop_GetState(&hare, hareState);
    while (memcmp(tortoiseState, hareState, PYWAR_STATE_BYTES) != 0) {
        OldTableTop_PlayRound(&tortoise);
        OldTableTop_PlayRound(&hare);
        OldTableTop_GetState(&tortoise, tortoiseState);
        OldTableTop_GetState(&hare, hareState);
        (*start)++;
    }
    OldTableTop_Destroy(&tortoise);
    OldTableTop_Destroy(&hare);
    return PYWAR_OK;
}
