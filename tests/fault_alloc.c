/* fault_alloc.c: a test-only allocator for a fault-injection build of pywar._core
 * (tests/test_faults.py).  Never part of the product: the normal build (pywar/_build.py)
 * does not compile it, and it is the one place where a global counter is allowed.
 *
 * The test build links the core with -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,
 * --wrap=free, so that every allocation the core's own code makes (the port's cards,
 * piles and stacks; the transcript and trace buffers; the exact enumerator's census)
 * comes here first.  pywar_faults_arm(k) makes the k-th allocation from then on fail
 * (k = 0: none); pywar_faults_calls() counts the allocations since, and
 * pywar_faults_blocks() the blocks allocated and not yet freed, since the module was
 * loaded: 0 after a game means it leaked nothing.  One thread at a time.
 */
#include <stddef.h>

void *__real_malloc(size_t size);
void *__real_calloc(size_t count, size_t size);
void *__real_realloc(void *block, size_t size);
void __real_free(void *block);

static long faultCalls;     /* allocation calls since pywar_faults_arm */
static long faultAt;        /* the call that fails, counting from 1; 0 for none */
static long faultBlocks;    /* blocks allocated and not yet freed */

void pywar_faults_arm(long k)
{
    faultCalls = 0;
    faultAt = k;
}

long pywar_faults_calls(void)
{
    return faultCalls;
}

long pywar_faults_blocks(void)
{
    return faultBlocks;
}

static int Fault_Now(void)
{
    faultCalls++;
    return faultCalls == faultAt;
}

void *__wrap_malloc(size_t size)
{
    void *block = Fault_Now() ? NULL : __real_malloc(size);
    faultBlocks += block != NULL;
    return block;
}

void *__wrap_calloc(size_t count, size_t size)
{
    void *block = Fault_Now() ? NULL : __real_calloc(count, size);
    faultBlocks += block != NULL;
    return block;
}

void *__wrap_realloc(void *old, size_t size)
{
    void *block = Fault_Now() ? NULL : __real_realloc(old, size);
    faultBlocks += old == NULL && block != NULL;
    return block;
}

void __wrap_free(void *block)
{
    faultBlocks -= block != NULL;
    __real_free(block);
}
