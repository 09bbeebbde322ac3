/* rng.c: glibc's srand()/rand(), re-implemented with its state in a struct. */
#include <string.h>

#include "rng.h"

/* r[i] = r[i - 31] + r[i - 3] for i in [from, RNG_DEGREE + RNG_BLOCK), three at a time:
 * the three sums of a step are independent of each other. */
static void Rng_Generate(uint32_t *r, int from)
{
    int i = from;
    for (; i + 3 <= RNG_DEGREE + RNG_BLOCK; i += 3) {
        r[i] = r[i - 31] + r[i - 3];
        r[i + 1] = r[i - 30] + r[i - 2];
        r[i + 2] = r[i - 29] + r[i - 1];
    }
    for (; i < RNG_DEGREE + RNG_BLOCK; i++) {
        r[i] = r[i - 31] + r[i - 3];
    }
}

/* Fill r[31 .. 31 + RNG_BLOCK) from the window r[0 .. 31). */
static void Rng_FillBlock(Rng *rng)
{
    Rng_Generate(rng->r, RNG_DEGREE);
    rng->next = RNG_DEGREE;
}

/* Move the words not yet handed out, and the 31 before them, to the front,
 * and make new words after them. */
static void Rng_Refill(Rng *rng)
{
    uint32_t *r = rng->r;
    int keep = RNG_DEGREE + RNG_BLOCK - (rng->next - RNG_DEGREE);
    memmove(r, r + rng->next - RNG_DEGREE, (size_t)keep * sizeof *r);
    Rng_Generate(r, keep);
    rng->next = RNG_DEGREE;
}

void Rng_Seed(Rng *rng, uint32_t seed)
{
    uint32_t first[34];
    /* glibc: seed 0 is seed 1, and the seed is read as a signed 32-bit word */
    long long word = (int32_t)(seed == 0 ? 1u : seed);
    first[0] = (uint32_t)word;
    for (int i = 1; i < RNG_DEGREE; i++) {
        long long hi = word / 127773;
        long long lo = word % 127773;
        word = 16807 * lo - 2836 * hi;
        if (word < 0) {
            word += 2147483647;
        }
        first[i] = (uint32_t)word;
    }
    for (int i = RNG_DEGREE; i < 34; i++) {
        first[i] = first[i - RNG_DEGREE];
    }
    /* The window before r[34] is r[3..33]; glibc then throws away 310 outputs. */
    for (int i = 0; i < RNG_DEGREE; i++) {
        rng->r[i] = first[3 + i];
    }
    Rng_FillBlock(rng);
    rng->next = RNG_DEGREE + 310;
}

uint32_t Rng_Rand(Rng *rng)
{
    if (rng->next == RNG_DEGREE + RNG_BLOCK) {
        Rng_Refill(rng);
    }
    return rng->r[rng->next++] >> 1;
}

/* Lemire's fastmod constants for n = 1..52, worked out by the compiler. */
#define MAGIC(n) (UINT64_MAX / (n) + 1)
#define MAGIC4(n) MAGIC(n), MAGIC(n + 1), MAGIC(n + 2), MAGIC(n + 3)
static const uint64_t SMALL_MAGIC[RNG_SMALL_N + 1] = {
    0, MAGIC4(1), MAGIC4(5), MAGIC4(9), MAGIC4(13), MAGIC4(17), MAGIC4(21), MAGIC4(25),
    MAGIC4(29), MAGIC4(33), MAGIC4(37), MAGIC4(41), MAGIC4(45), MAGIC4(49)};

RngModulus Rng_Modulus(uint32_t n)
{
    RngModulus m;
    m.n = n;
    m.magic = n <= RNG_SMALL_N ? SMALL_MAGIC[n] : UINT64_MAX / n + 1;
    return m;
}

uint32_t Rng_Below(Rng *rng, uint32_t n)
{
    RngModulus m = Rng_Modulus(n);
    return Rng_BelowModulus(rng, &m);
}

uint32_t Rng_Reduce(uint32_t value, const RngModulus *m)
{
#if defined(__SIZEOF_INT128__)
    __extension__ typedef unsigned __int128 Wide;
    uint64_t low = m->magic * value;
    return (uint32_t)(((Wide)low * m->n) >> 64);
#else
    return value % m->n;
#endif
}

uint32_t Rng_BelowModulus(Rng *rng, const RngModulus *m)
{
    return Rng_Reduce(Rng_Rand(rng), m);
}

const uint32_t *Rng_Words(Rng *rng, int count)
{
    if (rng->next + count > RNG_DEGREE + RNG_BLOCK) {
        Rng_Refill(rng);
    }
    const uint32_t *words = rng->r + rng->next;
    rng->next += count;
    return words;
}
