/* exact_driver.c: the exact enumerator (csrc/engine/exact.c) without Python, for
 * tests/test_exact_memory.py: under AddressSanitizer and UBSan, under valgrind, and with
 * each of its allocations failed in turn.
 *
 *   exact_driver RANKS SUITS PICKUP FACE_DOWN SHORT_WAR LENGTH MIRROR
 *       plays every deal of the deck in the parts of every prefix of LENGTH ranks, into
 *       one census (mirrored parts where MIRROR is 1 and the symmetry is exact), lists
 *       the games of the first part, and prints
 *       "sequences S a A b B both L cycles C capped K distinct D longest R listed N"
 *   exact_driver --fail RANKS SUITS PICKUP FACE_DOWN SHORT_WAR LENGTH MIRROR
 *       counts the allocations of that run, then runs it again once for each of them,
 *       making that one fail: each must end in PYWAR_ENOMEM, and pywar_exact_free must
 *       leave no block behind; prints "allocations N all failed cleanly"
 *
 * For --fail, link with -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=free so
 * that the enumerator's allocations come here first (and define WRAP_ALLOCATIONS).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pywar.h"

#ifdef WRAP_ALLOCATIONS
void *__real_malloc(size_t size);
void *__real_calloc(size_t count, size_t size);
void *__real_realloc(void *block, size_t size);
void __real_free(void *block);

static long calls;     /* allocation calls so far */
static long failAt;    /* the call that fails, counting from 1; 0 for none */
static long blocks;    /* blocks allocated and not yet freed */

static int Driver_Fails(void)
{
    calls++;
    return calls == failAt;
}

void *__wrap_malloc(size_t size)
{
    void *block = Driver_Fails() ? NULL : __real_malloc(size);
    blocks += block != NULL;
    return block;
}

void *__wrap_calloc(size_t count, size_t size)
{
    void *block = Driver_Fails() ? NULL : __real_calloc(count, size);
    blocks += block != NULL;
    return block;
}

void *__wrap_realloc(void *block, size_t size)
{
    void *moved;
    if (Driver_Fails()) {
        return NULL;
    }
    moved = __real_realloc(block, size);
    blocks += block == NULL && moved != NULL;
    return moved;
}

void __wrap_free(void *block)
{
    blocks -= block != NULL;
    __real_free(block);
}
#endif

typedef struct Run {
    PywarRules rules;
    int length;
    int mirror;
    uint8_t left[PYWAR_EXACT_MAX_CARDS];
    uint8_t prefix[PYWAR_EXACT_MAX_CARDS];
    PywarExactCensus census;
    int parts;
    int64_t listed;
} Run;

static int Driver_IsOwnTwin(const uint8_t *prefix, int length)
{
    for (int i = 0; i + 1 < length; i += 2) {
        if (prefix[i] != prefix[i + 1]) {
            return 0;
        }
    }
    return 1;
}

/* 1 if the prefix comes after its player-swapped twin (its part is left out). */
static int Driver_AfterTwin(const uint8_t *prefix, int length)
{
    for (int i = 0; i + 1 < length; i += 2) {
        if (prefix[i] != prefix[i + 1]) {
            return prefix[i] > prefix[i + 1];
        }
    }
    return 0;
}

static int Driver_Part(Run *run)
{
    int mirrored = run->mirror && !Driver_IsOwnTwin(run->prefix, run->length);
    if (mirrored && Driver_AfterTwin(run->prefix, run->length)) {
        return PYWAR_OK;
    }
    PywarExactList list = {0};
    int8_t winner[4096], outcome[4096];
    int32_t rounds[4096], battles[4096], ties[4096], wars[4096], periods[4096];
    int listing = run->parts == 0;
    if (listing) {
        PywarExactList filled = {4096, 0, winner, outcome, rounds, battles, ties, wars,
                                 periods};
        list = filled;
    }
    int status = pywar_exact_part(&run->rules, run->prefix, run->length, mirrored,
                                  &run->census, listing ? &list : NULL, NULL);
    run->listed += list.count;
    run->parts++;
    return status;
}

/* Every prefix of the run's length, in increasing order, one part each. */
static int Driver_Prefixes(Run *run, int depth)
{
    if (depth == run->length) {
        return Driver_Part(run);
    }
    for (int rank = 0; rank < run->rules.ranks; rank++) {
        if (run->left[rank] == 0) {
            continue;
        }
        run->left[rank]--;
        run->prefix[depth] = (uint8_t)rank;
        int status = Driver_Prefixes(run, depth + 1);
        run->left[rank]++;
        if (status != PYWAR_OK) {
            return status;
        }
    }
    return PYWAR_OK;
}

static int Driver_Run(Run *run, char **argv)
{
    /* by name: a dimension not named here is 0, its first value (queue piles refill
     * nothing, so the refill does not matter) */
    PywarRules rules = {.face_down = atoi(argv[3]), .short_war = atoi(argv[4]),
                        .pickup = atoi(argv[2]), .piles = PYWAR_PILES_QUEUE,
                        .max_rounds = 10000000, .detect_cycles = 1, .players = 2,
                        .ranks = atoi(argv[0]), .suits = atoi(argv[1])};
    memset(run, 0, sizeof *run);
    run->rules = rules;
    run->length = atoi(argv[5]);
    run->mirror = atoi(argv[6]);
    for (int rank = 0; rank < rules.ranks && rank < PYWAR_EXACT_MAX_CARDS; rank++) {
        run->left[rank] = (uint8_t)rules.suits;
    }
    return Driver_Prefixes(run, 0);
}

static void Driver_Print(const Run *run)
{
    const PywarExactCensus *census = &run->census;
    printf("sequences %llu a %llu b %llu both %llu cycles %llu capped %llu distinct %lld "
           "longest %d listed %lld\n", (unsigned long long)census->sequences,
           (unsigned long long)census->a_wins, (unsigned long long)census->b_wins,
           (unsigned long long)census->both_lose, (unsigned long long)census->cycles,
           (unsigned long long)census->capped, (long long)census->keys_count,
           census->longest.rounds, (long long)run->listed);
}

#ifdef WRAP_ALLOCATIONS
static int Driver_FailEach(char **argv)
{
    Run run;
    long total;
    failAt = 0;
    calls = 0;
    if (Driver_Run(&run, argv) != PYWAR_OK) {
        printf("the run without failures failed\n");
        return 1;
    }
    pywar_exact_free(&run.census);
    total = calls;
    for (long k = 1; k <= total; k++) {
        calls = 0;
        failAt = k;
        int status = Driver_Run(&run, argv);
        pywar_exact_free(&run.census);
        if (status != PYWAR_ENOMEM || blocks != 0) {
            printf("allocation %ld: status %d, %ld blocks left\n", k, status, blocks);
            return 1;
        }
    }
    printf("allocations %ld all failed cleanly\n", total);
    return 0;
}
#endif

int main(int argc, char **argv)
{
    Run run;
    if (argc == 9 && strcmp(argv[1], "--fail") == 0) {
#ifdef WRAP_ALLOCATIONS
        return Driver_FailEach(argv + 2);
#else
        printf("build with WRAP_ALLOCATIONS for --fail\n");
        return 2;
#endif
    }
    if (argc != 8) {
        printf("usage: exact_driver [--fail] RANKS SUITS PICKUP FACE_DOWN SHORT_WAR LENGTH "
               "MIRROR\n");
        return 2;
    }
    int status = Driver_Run(&run, argv + 1);
    if (status != PYWAR_OK) {
        printf("status %d\n", status);
        pywar_exact_free(&run.census);
        return 1;
    }
    Driver_Print(&run);
    pywar_exact_free(&run.census);
    return 0;
}
