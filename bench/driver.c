/* driver.c: plays a batch of games through the C core alone, without Python, so that
 * the cost of the binding can be seen (bench/) and memory can be checked (valgrind).
 *
 * usage: driver COUNT FIRST_SEED RULES... [TRANSCRIPT_EVERY [RNG_PATH]]
 * RULES are the PywarRules fields in struct order, as numbers (the enum values of
 * pywar.h; tests/ and bench/ pass them from pywar.rules.c_numbers); RNG_PATH is the
 * generator's path, a number of enum PywarRngPath (0, the default, is the best here;
 * bench/ and tests/ take it from pywar.common.rng.RNG_PATHS).  It prints one line:
 * games, seconds, games per second, the sum of rounds, a fold, and fold_NAME for each
 * column of the batch and for the summed war depths: the FNV-1a fold of that column's
 * values in seed order.  The columns are PYWAR_COLUMNS (csrc/fields.h, written from the
 * table of pywar/common/fields.py), so that a new column is played, stored and folded
 * here with no change to this file.  The fold folds the columns' folds in the table's
 * order.  bench/tight_*.c print fold_NAME for the columns they count, and the tests
 * compare them.  With TRANSCRIPT_EVERY, it then plays a given deal and every
 * TRANSCRIPT_EVERY-th game again with a transcript and a trace, so that valgrind sees
 * those paths too.
 */
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "pywar.h"

static double Driver_Now(void)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec + (double)now.tv_nsec / 1e9;
}

/* One FNV-1a step. */
static uint64_t Driver_Fold(uint64_t fold, uint64_t word)
{
    return (fold ^ word) * 0x100000001b3ull;
}

/* A column's value as the word that is folded: a digest whole, any other value as a
 * 32-bit word (sign-extended: no winner and no cycle are -1), as bench/tight_*.c fold. */
#define DRIVER_WORD(value) _Generic((value), uint64_t: (uint64_t)(value), \
                                    default: (uint64_t)(uint32_t)(int32_t)(value))

/* The batch, its columns allocated from the table (PYWAR_COLUMNS, csrc/fields.h), and
 * folds[c], the fold of column c over the games in seed order; folds[PYWAR_COLUMN_COUNT]
 * folds the summed war depths 1 .. PYWAR_WAR_DEPTHS - 1. */
static int Driver_Batch(int64_t count, uint32_t seed, const PywarRules *rules,
                        long long *rounds, uint64_t *folds)
{
    PywarBatch batch = {0};
    int status = PYWAR_ENOMEM, allocated = 1;
#define DRIVER_ALLOCATE(name, type) \
    allocated &= (batch.name = calloc((size_t)count, sizeof(type))) != NULL;
    PYWAR_COLUMNS(DRIVER_ALLOCATE)
    if (allocated) {
        status = pywar_play_batch(seed, count, rules, &batch);
    }
    for (int64_t i = 0; status == PYWAR_OK && i < count; i++) {
        int c = 0;
        *rounds += batch.rounds[i];
#define DRIVER_FOLD(name, type) \
        folds[c] = Driver_Fold(folds[c], DRIVER_WORD(batch.name[i])); c++;
        PYWAR_COLUMNS(DRIVER_FOLD)
    }
    for (int d = 1; status == PYWAR_OK && d < PYWAR_WAR_DEPTHS; d++) {
        folds[PYWAR_COLUMN_COUNT] = Driver_Fold(folds[PYWAR_COLUMN_COUNT],
                                                (uint32_t)batch.war_depths[d]);
    }
#define DRIVER_FREE(name, type) free(batch.name);
    PYWAR_COLUMNS(DRIVER_FREE)
    return status;
}

/* A transcript sink that only counts the bytes it is given. */
static void Driver_CountBytes(void *context, const char *data, size_t length)
{
    (void)data;
    *(size_t *)context += length;
}

/* Every 'every'-th game again, with its transcript and its trace: alternately whole in
 * a buffer and streamed through a sink. */
static int Driver_Transcripts(int64_t count, uint32_t seed, const PywarRules *rules,
                              long every)
{
    size_t streamed = 0;
    uint8_t deal[2 * PYWAR_MAX_PLAYERS] = {0, 2, 3, 1};   /* with two players, this cycles */
    int hands[PYWAR_MAX_PLAYERS];
    PywarResult dealt;
    for (int p = 0; p < rules->players; p++) {       /* two cards a hand */
        hands[p] = 2;
        if (p >= 2) {
            deal[2 * p] = (uint8_t)(2 * p);
            deal[2 * p + 1] = (uint8_t)(2 * p + 1);
        }
    }
    PywarText dealtText = {0};
    if (every <= 0) {
        return PYWAR_OK;
    }
    int status = pywar_play(seed, rules, deal, hands, &dealt, &dealtText, NULL, NULL);
    pywar_text_free(&dealtText);
    for (int64_t i = 0; status == PYWAR_OK && i < count; i += every) {
        PywarResult result;
        PywarText text = {0}, trace = {0};
        if ((i / every) % 2 == 1) {
            text.sink = trace.sink = Driver_CountBytes;
            text.context = trace.context = &streamed;
        }
        status = pywar_play((uint32_t)(seed + (uint64_t)i), rules, NULL, NULL, &result, &text,
                            &trace, NULL);
        pywar_text_free(&text);
        pywar_text_free(&trace);
    }
    return status;
}

#define RULE_FIELDS 13

int main(int argc, char **argv)
{
    if (argc < 3 + RULE_FIELDS) {
        fprintf(stderr, "usage: %s COUNT FIRST_SEED RULES... [TRANSCRIPT_EVERY [RNG_PATH]]\n",
                argv[0]);
        return 2;
    }
    int64_t count = atoll(argv[1]);
    uint32_t seed = (uint32_t)strtoul(argv[2], NULL, 10);
    int field[RULE_FIELDS];
    for (int i = 0; i < RULE_FIELDS; i++) {
        field[i] = atoi(argv[3 + i]);
    }
    PywarRules rules = {field[0], field[1], field[2], field[3], field[4], field[5],
                        (int32_t)field[6], field[7], field[8], field[9], field[10],
                        field[11], field[12], argc > 4 + RULE_FIELDS ? atoi(argv[4 + RULE_FIELDS]) : 0};
    long every = argc > 3 + RULE_FIELDS ? atol(argv[3 + RULE_FIELDS]) : 0;
    long long rounds = 0;
    uint64_t folds[PYWAR_COLUMN_COUNT + 1];
    for (int c = 0; c <= PYWAR_COLUMN_COUNT; c++) {
        folds[c] = 0xcbf29ce484222325ull;
    }
    if (count < 1 || pywar_rules_check(&rules) != PYWAR_OK) {
        fprintf(stderr, "%s: bad count or rules, or a generator path this processor "
                "lacks\n", argv[0]);
        return 2;
    }
    double start = Driver_Now();
    int status = Driver_Batch(count, seed, &rules, &rounds, folds);
    double seconds = Driver_Now() - start;
    if (status == PYWAR_OK) {
        status = Driver_Transcripts(count, seed, &rules, every);
    }
    if (status != PYWAR_OK) {
        fprintf(stderr, "%s: the C core failed with status %d\n", argv[0], status);
        return 1;
    }
#define DRIVER_NAME(name, type) #name,
    static const char *const names[PYWAR_COLUMN_COUNT] = {PYWAR_COLUMNS(DRIVER_NAME)};
    uint64_t fold = 0xcbf29ce484222325ull;
    for (int c = 0; c <= PYWAR_COLUMN_COUNT; c++) {
        fold = Driver_Fold(fold, folds[c]);
    }
    printf("games %lld seconds %.6f games_per_second %.1f rounds %lld fold %016llx",
           (long long)count, seconds, (double)count / seconds, rounds,
           (unsigned long long)fold);
    for (int c = 0; c <= PYWAR_COLUMN_COUNT; c++) {
        printf(" fold_%s %016llx", c < PYWAR_COLUMN_COUNT ? names[c] : "war_depths",
               (unsigned long long)folds[c]);
    }
    printf("\n");
    return 0;
}
