/* port_driver.c: the port's C (csrc/port/) without Python, for tests/test_port_memory.py.
 *
 *   port_driver GAMES FIRST_SEED STACK   plays the games (every 10th with a transcript and
 *                                        a trace); prints "games G rounds R fold F", F an
 *                                        FNV-1a fold of the games' digests in seed order
 *   port_driver --fail SEED STACK        plays one game with a transcript and a trace,
 *                                        counting its allocations, then plays it again
 *                                        once for each of them, making that one fail:
 *                                        each must end in PYWAR_ENOMEM with nothing left
 *
 * Build it with the port and csrc/common, linked with
 * -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=free so that the allocations
 * of the port and of the text buffers come here first.
 */
#include <stdio.h>
#include <stdlib.h>

#include "pywar.h"

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

void *__wrap_realloc(void *old, size_t size)
{
    void *block = Driver_Fails() ? NULL : __real_realloc(old, size);
    blocks += old == NULL && block != NULL;
    return block;
}

void __wrap_free(void *block)
{
    blocks -= block != NULL;
    __real_free(block);
}

static int Driver_Game(uint32_t seed, int stack, int withText, PywarResult *result)
{
    PywarText text = {0};
    PywarText trace = {0};
    int status = pywar_port_play(seed, stack, result, withText ? &text : NULL,
                                 withText ? &trace : NULL);
    pywar_text_free(&text);
    pywar_text_free(&trace);
    return status;
}

static int Driver_Fail(uint32_t seed, int stack)
{
    PywarResult result;
    calls = 0;
    failAt = 0;
    if (Driver_Game(seed, stack, 1, &result) != PYWAR_OK || blocks != 0) {
        printf("the game without failures went wrong\n");
        return 1;
    }
    long total = calls;
    for (failAt = 1; failAt <= total; failAt++) {
        calls = 0;
        int status = Driver_Game(seed, stack, 1, &result);
        if (status != PYWAR_ENOMEM || blocks != 0) {
            printf("allocation %ld failed: status %d, %ld blocks left\n", failAt, status, blocks);
            return 1;
        }
    }
    printf("allocations %ld, each failed in turn: PYWAR_ENOMEM, 0 blocks left\n", total);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 4 && argv[1][0] == '-') {
        return Driver_Fail((uint32_t)strtoul(argv[2], NULL, 10), atoi(argv[3]));
    }
    if (argc != 4) {
        fprintf(stderr, "usage: port_driver GAMES FIRST_SEED STACK | --fail SEED STACK\n");
        return 2;
    }
    long games = atol(argv[1]);
    uint32_t first = (uint32_t)strtoul(argv[2], NULL, 10);
    int stack = atoi(argv[3]);
    long long rounds = 0;
    uint64_t fold = 0xcbf29ce484222325ull;
    for (long i = 0; i < games; i++) {
        PywarResult result;
        if (Driver_Game(first + (uint32_t)i, stack, i % 10 == 0, &result) != PYWAR_OK) {
            printf("game %ld failed\n", i);
            return 1;
        }
        rounds += result.rounds;
        fold = (fold ^ result.digest) * 0x100000001b3ull;
    }
    printf("games %ld rounds %lld fold %016llx\n", games, rounds, (unsigned long long)fold);
    return 0;
}
