/* pywar.c: the public interface (pywar.h): check rules, play one game, play a batch,
 * and the generator's draws and reductions for the tests. */
#include <string.h>

#include "engine/game.h"
#include "pywar.h"
#include "common/stop.h"
#include "common/text.h"

#define PYWAR_MAX_ROUNDS_LIMIT 100000000

static int Pywar_InRange(int value, int low, int high)
{
    return value >= low && value <= high;
}

/* A one-card game keeps the war's settings at their defaults (pywar/rules.py
 * ONE_CARD_FIXED): it plays no war and wins no cards back. */
static int Pywar_OneCardKept(const PywarRules *rules)
{
    return rules->face_down == 0 && rules->short_war == PYWAR_SHORT_LOSE
           && rules->pickup == PYWAR_PICKUP_SMU && rules->piles == PYWAR_PILES_TWO
           && rules->refill == PYWAR_REFILL_SHUFFLE;
}

int pywar_rules_check(const PywarRules *rules)
{
    if (rules == NULL
        || !Pywar_InRange(rules->face_down, 0, PYWAR_MAX_FACE_DOWN)
        || !Pywar_InRange(rules->short_war, PYWAR_SHORT_LOSE, PYWAR_SHORT_IOFALL)
        || !Pywar_InRange(rules->pickup, PYWAR_PICKUP_SMU, PYWAR_PICKUP_SORTED)
        || !Pywar_InRange(rules->piles, PYWAR_PILES_TWO, PYWAR_PILES_QUEUE)
        || !Pywar_InRange(rules->shuffle, PYWAR_SHUFFLE_SMU, PYWAR_SHUFFLE_FISHER_YATES)
        || !Pywar_InRange(rules->narration, PYWAR_NARRATION_SMU, PYWAR_NARRATION_IOFALL)
        || !Pywar_InRange(rules->max_rounds, 1, PYWAR_MAX_ROUNDS_LIMIT)
        || !Pywar_InRange(rules->detect_cycles, 0, 1)
        || !Pywar_InRange(rules->players, 2, PYWAR_MAX_PLAYERS)
        || !Pywar_InRange(rules->refill, PYWAR_REFILL_SHUFFLE, PYWAR_REFILL_KEEP)
        || !Pywar_InRange(rules->game, PYWAR_GAME_WAR, PYWAR_GAME_ONE_CARD)
        || (rules->game == PYWAR_GAME_ONE_CARD && !Pywar_OneCardKept(rules))
        || !Pywar_InRange(rules->ranks, 1, PYWAR_MAXCARDS)
        || !Pywar_InRange(rules->suits, 1, PYWAR_MAXCARDS)
        || rules->ranks * rules->suits > PYWAR_MAXCARDS
        || rules->ranks * rules->suits < rules->players
        || !Rng_Usable(rules->rng_path)) {
        return PYWAR_EINVAL;
    }
    return PYWAR_OK;
}

int pywar_play(uint32_t seed, const PywarRules *rules, const uint8_t *deal,
               const int *hand_counts, PywarResult *result, PywarText *text,
               PywarText *trace, volatile int32_t *stop)
{
    Game game;
    if (result == NULL || pywar_rules_check(rules) != PYWAR_OK
        || (deal != NULL && hand_counts == NULL)) {
        return PYWAR_EINVAL;
    }
    Game_Init(&game, seed, rules, text, trace);
    game.stop = stop;
    if (deal != NULL && Game_SetDeal(&game, deal, hand_counts) != PYWAR_OK) {
        return PYWAR_EINVAL;
    }
    int status = Game_Play(&game);
    *result = game.result;
    Text_Flush(text);
    Text_Flush(trace);
    if (status == PYWAR_OK && ((text != NULL && text->failed) || (trace != NULL && trace->failed))) {
        status = PYWAR_ENOMEM;
    }
    return status;
}

int pywar_count_events(uint32_t seed, const PywarRules *rules, const uint8_t *deal,
                       const int *hand_counts, int64_t limit, int64_t *events,
                       volatile int32_t *stop)
{
    PywarResult result;
    PywarText trace = {0};
    if (events == NULL || limit < 0) {
        return PYWAR_EINVAL;
    }
    trace.counting = 1;
    trace.limit = limit;
    trace.full = stop;
    int status = pywar_play(seed, rules, deal, hand_counts, &result, NULL, &trace, stop);
    *events = trace.lines > limit ? limit + 1 : trace.lines;
    return status == PYWAR_ESTOPPED && trace.lines > limit ? PYWAR_OK : status;
}

int pywar_rng_paths(int *best)
{
    int paths = 0;
    for (int path = PYWAR_RNG_PATH_BEST; path <= PYWAR_RNG_PATH_AVX512; path++) {
        paths |= Rng_Usable(path) << path;
    }
    if (best != NULL) {
        *best = Rng_BestPath();
    }
    return paths;
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
#define PYWAR_STORE(name, type) batch->name[i] = (type)result->name;
    PYWAR_COLUMNS(PYWAR_STORE)          /* every column of the table (csrc/fields.h) */
#undef PYWAR_STORE
    for (int depth = 1; depth <= result->deepest_war && depth < PYWAR_WAR_DEPTHS; depth++) {
        batch->war_depths[depth] += result->war_depths[depth];
    }
}

/* One Game serves the whole batch.  A game cut short by the stop flag is not counted. */
int pywar_play_batch(uint32_t first_seed, int64_t count, const PywarRules *rules,
                     PywarBatch *batch)
{
    Game game;
    if (batch == NULL || count < 0 || pywar_rules_check(rules) != PYWAR_OK) {
        return PYWAR_EINVAL;
    }
    Game_Init(&game, first_seed, rules, NULL, NULL);
    game.stop = batch->stop;
    batch->finished = 0;
    memset(batch->war_depths, 0, sizeof batch->war_depths);
    for (int64_t i = 0; i < count; i++) {
        if (Stop_IsSet(batch->stop)) {
            break;
        }
        if (Game_PlayNext(&game, (uint32_t)(first_seed + (uint64_t)i)) != PYWAR_OK) {
            break;
        }
        Pywar_Store(batch, i, &game.result);
        batch->finished = i + 1;
    }
    return PYWAR_OK;
}
