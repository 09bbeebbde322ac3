/* pywar.c: the public interface (pywar.h): check rules, play one game, play a batch,
 * and the generator's draws and reductions for the tests. */
#include "pywar.h"
#include "tabletop.h"

#define PYWAR_MAX_ROUNDS_LIMIT 100000000

static int Pywar_InRange(int value, int low, int high)
{
    return value >= low && value <= high;
}

int pywar_rules_check(const PywarRules *rules)
{
    if (rules == NULL
        || !Pywar_InRange(rules->face_down, 0, PYWAR_MAX_FACE_DOWN)
        || !Pywar_InRange(rules->short_war, PYWAR_SHORT_LOSE, PYWAR_SHORT_IOFALL)
        || !Pywar_InRange(rules->pickup, PYWAR_PICKUP_SMU, PYWAR_PICKUP_SEAT_BLOCK)
        || !Pywar_InRange(rules->piles, PYWAR_PILES_TWO, PYWAR_PILES_QUEUE)
        || !Pywar_InRange(rules->shuffle, PYWAR_SHUFFLE_SMU, PYWAR_SHUFFLE_FISHER_YATES)
        || !Pywar_InRange(rules->narration, PYWAR_NARRATION_SMU, PYWAR_NARRATION_IOFALL)
        || !Pywar_InRange(rules->max_rounds, 1, PYWAR_MAX_ROUNDS_LIMIT)
        || !Pywar_InRange(rules->detect_cycles, 0, 1)) {
        return PYWAR_EINVAL;
    }
    return PYWAR_OK;
}

int pywar_play_deal(uint32_t seed, const PywarRules *rules, const uint8_t *deal,
                    int count_a, int count_b, PywarResult *result, PywarText *text)
{
    TableTop table;
    if (result == NULL || pywar_rules_check(rules) != PYWAR_OK) {
        return PYWAR_EINVAL;
    }
    int status = TableTop_Init(&table, seed, rules, text);
    if (status != PYWAR_OK) {
        return status;
    }
    if (deal != NULL) {
        status = TableTop_SetDeal(&table, deal, count_a, count_b);
    }
    if (status == PYWAR_OK) {
        status = TableTop_PlayGame(&table);
        *result = table.result;
    }
    TableTop_Destroy(&table);
    return status;
}

int pywar_play(uint32_t seed, const PywarRules *rules, PywarResult *result, PywarText *text)
{
    return pywar_play_deal(seed, rules, NULL, 0, 0, result, text);
}

int pywar_rng_draws(uint32_t seed, int64_t count, uint32_t *out)
{
    Rng rng;
    if (count < 0 || (out == NULL && count > 0)) {
        return PYWAR_EINVAL;
    }
    Rng_Seed(&rng, seed);
    for (int64_t i = 0; i < count; i++) {
        out[i] = Rng_Rand(&rng);
    }
    return PYWAR_OK;
}

int pywar_rng_reduce(uint32_t n, const uint32_t *values, int64_t count, uint32_t *out)
{
    if (n == 0 || count < 0 || ((values == NULL || out == NULL) && count > 0)) {
        return PYWAR_EINVAL;
    }
    RngModulus modulus = Rng_Modulus(n);
    for (int64_t i = 0; i < count; i++) {
        out[i] = Rng_Reduce(values[i], &modulus);
    }
    return PYWAR_OK;
}

static void Pywar_Store(PywarBatch *batch, int64_t i, const PywarResult *result)
{
    batch->rounds[i] = result->rounds;
    batch->battles[i] = result->battles;
    batch->ties[i] = result->ties;
    batch->wars[i] = result->wars;
    batch->longest_tie_streak[i] = result->longest_tie_streak;
    batch->stranded[i] = result->stranded;
    batch->winner[i] = (int8_t)result->winner;
    batch->outcome[i] = (int8_t)result->outcome;
    batch->cycle_start[i] = result->cycle_start;
    batch->cycle_period[i] = result->cycle_period;
    batch->digest[i] = result->digest;
}

/* Games with seeds first_seed, first_seed + 1, ... (mod 2^32), no text, into the arrays.
 * One table serves the whole batch. */
int pywar_play_batch(uint32_t first_seed, int64_t count, const PywarRules *rules,
                     PywarBatch *batch)
{
    TableTop table;
    if (batch == NULL || count < 0 || pywar_rules_check(rules) != PYWAR_OK) {
        return PYWAR_EINVAL;
    }
    int status = TableTop_Init(&table, first_seed, rules, NULL);
    batch->finished = 0;
    for (int64_t i = 0; status == PYWAR_OK && i < count; i++) {
        if (batch->stop != NULL && *batch->stop) {
            break;
        }
        TableTop_NewGame(&table, (uint32_t)(first_seed + (uint64_t)i));
        status = TableTop_PlayGame(&table);
        Pywar_Store(batch, i, &table.result);
        batch->finished = i + 1;
    }
    TableTop_Destroy(&table);   /* safe after a failed init too: it left NULLs */
    return status;
}
