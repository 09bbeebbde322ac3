/* driver.c: plays a batch of games through the C core alone, without Python, so that
 * the cost of the binding can be seen (bench/) and memory can be checked (valgrind).
 *
 * usage: driver COUNT FIRST_SEED RULES... [TRANSCRIPT_EVERY]
 * RULES are the PywarRules fields in struct order, as numbers (the enum values of
 * pywar.h; tests/ and bench/ pass them from pywar.rules.c_numbers).  It prints one line:
 * games, seconds, games per second, the sum of rounds, and an FNV-1a fold of every
 * game's fields and digest in seed order (bench/tight_iofall.c folds the same).  With TRANSCRIPT_EVERY, it then plays a given deal and every
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

static int Driver_Batch(int64_t count, uint32_t seed, const PywarRules *rules,
                        long long *rounds, uint64_t *fold)
{
    PywarBatch batch = {0};
    int32_t *ints = calloc((size_t)count * 13, sizeof *ints);
    int8_t *bytes = calloc((size_t)count * 2, sizeof *bytes);
    uint64_t *digests = calloc((size_t)count, sizeof *digests);
    int status = PYWAR_ENOMEM;
    if (ints != NULL && bytes != NULL && digests != NULL) {
        int32_t **columns[] = {&batch.rounds, &batch.battles, &batch.ties, &batch.wars,
                               &batch.longest_tie_streak, &batch.stranded,
                               &batch.cycle_start, &batch.cycle_period, &batch.lead_changes,
                               &batch.biggest_pot, &batch.comeback, &batch.deepest_war,
                               &batch.refills};
        for (size_t i = 0; i < sizeof columns / sizeof columns[0]; i++) {
            *columns[i] = ints + (size_t)count * i;
        }
        batch.winner = bytes;
        batch.outcome = bytes + count;
        batch.digest = digests;
        status = pywar_play_batch(seed, count, rules, &batch);
    }
    for (int64_t i = 0; status == PYWAR_OK && i < count; i++) {
        int32_t fields[] = {batch.rounds[i], batch.battles[i], batch.ties[i], batch.wars[i],
                            batch.longest_tie_streak[i], batch.stranded[i], batch.winner[i],
                            batch.outcome[i], batch.cycle_start[i], batch.cycle_period[i],
                            batch.lead_changes[i], batch.biggest_pot[i], batch.comeback[i],
                            batch.deepest_war[i], batch.refills[i]};
        *rounds += batch.rounds[i];
        for (size_t k = 0; k < sizeof fields / sizeof fields[0]; k++) {
            *fold = (*fold ^ (uint32_t)fields[k]) * 0x100000001b3ull;
        }
        *fold = (*fold ^ digests[i]) * 0x100000001b3ull;
    }
    for (int d = 1; status == PYWAR_OK && d < PYWAR_WAR_DEPTHS; d++) {
        *fold = (*fold ^ (uint32_t)batch.war_depths[d]) * 0x100000001b3ull;
    }
    free(ints);
    free(bytes);
    free(digests);
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

#define RULE_FIELDS 12

int main(int argc, char **argv)
{
    if (argc < 3 + RULE_FIELDS) {
        fprintf(stderr, "usage: %s COUNT FIRST_SEED RULES... [TRANSCRIPT_EVERY]\n", argv[0]);
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
                        field[11]};
    long every = argc > 3 + RULE_FIELDS ? atol(argv[3 + RULE_FIELDS]) : 0;
    long long rounds = 0;
    uint64_t fold = 0xcbf29ce484222325ull;
    if (count < 1 || pywar_rules_check(&rules) != PYWAR_OK) {
        fprintf(stderr, "%s: bad count or rules\n", argv[0]);
        return 2;
    }
    double start = Driver_Now();
    int status = Driver_Batch(count, seed, &rules, &rounds, &fold);
    double seconds = Driver_Now() - start;
    if (status == PYWAR_OK) {
        status = Driver_Transcripts(count, seed, &rules, every);
    }
    if (status != PYWAR_OK) {
        fprintf(stderr, "%s: the C core failed with status %d\n", argv[0], status);
        return 1;
    }
    printf("games %lld seconds %.6f games_per_second %.1f rounds %lld fold %016llx\n",
           (long long)count, seconds, (double)count / seconds, rounds,
           (unsigned long long)fold);
    return 0;
}
