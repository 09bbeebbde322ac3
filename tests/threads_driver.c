/* threads_driver.c: the C core's batch and exact parts on several threads at once,
 * sharing one stop flag, as pywar.simulate and pywar.exact run them (cffi releases the
 * GIL).  tests/test_threads.py builds it with -fsanitize=thread, so that ThreadSanitizer
 * reports any data race between the threads, and compares what they compute with one
 * thread's results.
 *
 *   threads_driver GAMES THREADS RULES...
 *
 * RULES are the PywarRules fields in struct order, as numbers (pywar.rules.c_numbers).
 *   1. GAMES games from seed 1 in one batch on this thread: the reference;
 *   2. the same games in THREADS slices of one set of arrays, a thread each, sharing a
 *      stop flag that stays 0: every field equals the reference's;
 *   3. THREADS batches of many games, sharing a stop flag that this thread sets (an
 *      atomic store) once they have all started: each batch's finished games equal the
 *      same seeds played alone;
 *   4. every deal of 9 distinct cards (queue piles, winner-first), its 9 parts shared
 *      out among THREADS threads, each with its own census, sharing a stop flag that
 *      stays 0: the counts, added up, equal one thread's.
 * It prints one line for each and exits 0 when all are equal, 1 otherwise.
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pywar.h"

#define MAX_THREADS 16
#define STOPPED_GAMES 200000      /* each batch of step 3: far more than it plays */

typedef struct Columns {          /* the arrays of a PywarBatch, owned */
    int64_t count;
    PywarBatch arrays;            /* one array a column of the table (PYWAR_COLUMNS) */
} Columns;

static int Columns_Init(Columns *columns, int64_t count)
{
    int allocated = 1;
    PywarBatch arrays = {0};
    columns->count = count;
#define COLUMNS_ALLOCATE(name, type) \
    allocated &= (arrays.name = calloc((size_t)count, sizeof(type))) != NULL;
    PYWAR_COLUMNS(COLUMNS_ALLOCATE)
    columns->arrays = arrays;
    return allocated ? 0 : -1;
}

static void Columns_Free(Columns *columns)
{
#define COLUMNS_FREE(name, type) free(columns->arrays.name);
    PYWAR_COLUMNS(COLUMNS_FREE)
}

/* A batch that writes games first .. first + count - 1 of the columns. */
static void Columns_Batch(Columns *columns, int64_t first, PywarBatch *batch)
{
#define COLUMNS_SLICE(name, type) batch->name = columns->arrays.name + first;
    PYWAR_COLUMNS(COLUMNS_SLICE)
}

/* 1 if count games of a from a_first and of b from b_first are equal in every column. */
static int Columns_Equal(const Columns *a, int64_t a_first, const Columns *b, int64_t b_first,
                         int64_t count)
{
    int equal = 1;
#define COLUMNS_SAME(name, type) \
    equal &= memcmp(a->arrays.name + a_first, b->arrays.name + b_first, \
                    (size_t)count * sizeof(type)) == 0;
    PYWAR_COLUMNS(COLUMNS_SAME)
    return equal;
}

typedef struct Worker {
    pthread_t thread;
    const PywarRules *rules;
    uint32_t first_seed;
    int64_t count;
    PywarBatch batch;
    int status;
    int *started;                 /* counted up, atomically, before the batch starts */
    /* exact parts (step 4): every part whose rank is congruent to index mod threads */
    int index;
    int threads;
    PywarExactCensus census;
} Worker;

static void *Worker_Batch(void *argument)
{
    Worker *worker = argument;
    __atomic_add_fetch(worker->started, 1, __ATOMIC_SEQ_CST);
    worker->status = pywar_play_batch(worker->first_seed, worker->count, worker->rules,
                                      &worker->batch);
    return NULL;
}

static void *Worker_Exact(void *argument)
{
    Worker *worker = argument;
    for (int rank = worker->index; rank < worker->rules->ranks; rank += worker->threads) {
        uint8_t prefix[1] = {(uint8_t)rank};
        worker->status = pywar_exact_part(worker->rules, prefix, 1, 0, &worker->census, NULL,
                                          worker->batch.stop);
        if (worker->status != PYWAR_OK) {
            break;
        }
    }
    return NULL;
}

static int Driver_Start(Worker *workers, int threads, void *(*run)(void *))
{
    for (int t = 0; t < threads; t++) {
        if (pthread_create(&workers[t].thread, NULL, run, &workers[t]) != 0) {
            return -1;
        }
    }
    return 0;
}

static void Driver_Join(Worker *workers, int threads)
{
    for (int t = 0; t < threads; t++) {
        pthread_join(workers[t].thread, NULL);
    }
}

/* Step 1 and 2: the games split into slices, one thread each. */
static int Driver_Slices(const PywarRules *rules, int64_t games, int threads)
{
    Columns alone, shared;
    Worker workers[MAX_THREADS];
    volatile int32_t stop = 0;
    int started = 0;
    int equal = 0;
    if (Columns_Init(&alone, games) != 0 || Columns_Init(&shared, games) != 0) {
        return 1;
    }
    PywarBatch batch = {0};
    Columns_Batch(&alone, 0, &batch);
    int status = pywar_play_batch(1, games, rules, &batch);
    memset(workers, 0, sizeof workers);
    for (int t = 0; t < threads; t++) {
        int64_t first = games * t / threads;
        workers[t].rules = rules;
        workers[t].first_seed = (uint32_t)(1 + first);
        workers[t].count = games * (t + 1) / threads - first;
        workers[t].started = &started;
        workers[t].batch.stop = &stop;
        Columns_Batch(&shared, first, &workers[t].batch);
    }
    if (status == PYWAR_OK && Driver_Start(workers, threads, Worker_Batch) == 0) {
        Driver_Join(workers, threads);
        equal = Columns_Equal(&alone, 0, &shared, 0, games);
        for (int t = 0; t < threads; t++) {
            equal = equal && workers[t].status == PYWAR_OK
                    && workers[t].batch.finished == workers[t].count;
        }
    }
    printf("batch: %lld games on %d threads %s one thread's\n", (long long)games, threads,
           equal ? "equal" : "DIFFER FROM");
    Columns_Free(&alone);
    Columns_Free(&shared);
    return !equal;
}

/* Step 3: batches stopped by a flag that this thread sets while they play. */
static int Driver_Stop(const PywarRules *rules, int threads)
{
    Columns shared, alone;
    Worker workers[MAX_THREADS];
    volatile int32_t stop = 0;
    int started = 0;
    int equal = 1;
    int64_t finished = 0;
    if (Columns_Init(&shared, (int64_t)STOPPED_GAMES * threads) != 0) {
        return 1;
    }
    memset(workers, 0, sizeof workers);
    for (int t = 0; t < threads; t++) {
        workers[t].rules = rules;
        workers[t].first_seed = (uint32_t)(1 + (int64_t)STOPPED_GAMES * t);
        workers[t].count = STOPPED_GAMES;
        workers[t].started = &started;
        workers[t].batch.stop = &stop;
        Columns_Batch(&shared, (int64_t)STOPPED_GAMES * t, &workers[t].batch);
    }
    if (Driver_Start(workers, threads, Worker_Batch) != 0) {
        return 1;
    }
    while (__atomic_load_n(&started, __ATOMIC_SEQ_CST) < threads) {
    }
    __atomic_store_n(&stop, 1, __ATOMIC_RELAXED);
    Driver_Join(workers, threads);
    for (int t = 0; t < threads; t++) {
        int64_t count = workers[t].batch.finished;
        PywarBatch batch = {0};
        finished += count;
        equal = equal && workers[t].status == PYWAR_OK && count >= 0 && count <= STOPPED_GAMES;
        if (!equal || Columns_Init(&alone, STOPPED_GAMES) != 0) {
            equal = 0;
            break;
        }
        Columns_Batch(&alone, 0, &batch);
        equal = pywar_play_batch(workers[t].first_seed, count, rules, &batch) == PYWAR_OK;
        equal = equal && Columns_Equal(&alone, 0, &shared, (int64_t)STOPPED_GAMES * t, count);
        Columns_Free(&alone);
    }
    printf("stop: %d batches stopped by a shared flag, %s (%s)\n", threads,
           equal ? "their finished games equal one thread's" : "FINISHED GAMES DIFFER",
           finished < (int64_t)STOPPED_GAMES * threads ? "stopped early" : "not stopped");
    Columns_Free(&shared);
    return !equal;
}

/* Step 4: the parts of every deal of 9 cards, shared out among the threads. */
static int Driver_Exact(const PywarRules *base, int threads)
{
    PywarRules rules = *base;
    Worker workers[MAX_THREADS], alone;
    volatile int32_t stop = 0;
    uint64_t sums[2][6] = {{0}};
    rules.piles = PYWAR_PILES_QUEUE;
    rules.pickup = PYWAR_PICKUP_WINNER_FIRST;
    rules.detect_cycles = 1;
    rules.ranks = 9;
    rules.suits = 1;
    memset(workers, 0, sizeof workers);
    memset(&alone, 0, sizeof alone);
    alone.rules = &rules;
    alone.threads = 1;
    Worker_Exact(&alone);
    for (int t = 0; t < threads; t++) {
        workers[t].rules = &rules;
        workers[t].index = t;
        workers[t].threads = threads;
        workers[t].batch.stop = &stop;
    }
    int equal = alone.status == PYWAR_OK && Driver_Start(workers, threads, Worker_Exact) == 0;
    if (equal) {
        Driver_Join(workers, threads);
    }
    for (int t = 0; t < threads; t++) {
        const PywarExactCensus *census = &workers[t].census;
        uint64_t counts[6] = {census->sequences, census->a_wins, census->b_wins, census->both_lose,
                              census->cycles, census->capped};
        equal = equal && workers[t].status == PYWAR_OK;
        for (int i = 0; i < 6; i++) {
            sums[1][i] += counts[i];
        }
        pywar_exact_free(&workers[t].census);
    }
    uint64_t one[6] = {alone.census.sequences, alone.census.a_wins, alone.census.b_wins,
                       alone.census.both_lose, alone.census.cycles, alone.census.capped};
    memcpy(sums[0], one, sizeof one);
    equal = equal && memcmp(sums[0], sums[1], sizeof sums[0]) == 0;
    printf("exact: every deal of 9 cards on %d threads: %llu sequences, %llu cycles, %s\n",
           threads, (unsigned long long)sums[1][0], (unsigned long long)sums[1][4],
           equal ? "equal to one thread's" : "DIFFERENT FROM ONE THREAD'S");
    pywar_exact_free(&alone.census);
    return !equal;
}

#define RULE_FIELDS 13

int main(int argc, char **argv)
{
    if (argc != 3 + RULE_FIELDS) {
        fprintf(stderr, "usage: threads_driver GAMES THREADS RULES (13 numbers)\n");
        return 2;
    }
    int64_t games = atoll(argv[1]);
    int threads = atoi(argv[2]);
    int numbers[RULE_FIELDS];
    for (int i = 0; i < RULE_FIELDS; i++) {
        numbers[i] = atoi(argv[3 + i]);
    }
    PywarRules rules = {numbers[0], numbers[1], numbers[2], numbers[3], numbers[4],
                        numbers[5], numbers[6], numbers[7], numbers[8], numbers[9],
                        numbers[10], numbers[11], numbers[12], PYWAR_RNG_PATH_BEST};
    if (games < threads || threads < 2 || threads > MAX_THREADS
        || pywar_rules_check(&rules) != PYWAR_OK) {
        fprintf(stderr, "threads_driver: bad arguments\n");
        return 2;
    }
    int failed = Driver_Slices(&rules, games, threads);
    failed |= Driver_Stop(&rules, threads);
    failed |= Driver_Exact(&rules, threads);
    return failed;
}
