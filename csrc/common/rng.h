/* rng.h: glibc's srand()/rand() (the TYPE_3 generator of random_r), one state per game.
 *
 * The sequence is r[0] = seed (0 counts as 1), r[i] = 16807 * r[i-1] mod (2^31 - 1)
 * by Schrage's method for i = 1..30, r[i] = r[i-31] for i = 31..33, and
 * r[i] = r[i-31] + r[i-3] (mod 2^32) after that; the k-th rand() is r[k + 344] >> 1.
 * The state keeps a window of that sequence and makes RNG_BLOCK values at a time, by
 * one of three paths (enum PywarRngPath, pywar.h), chosen when it is seeded and giving
 * the same values:
 *   SCALAR  portable C: the recurrence's three independent lanes, three sums a step;
 *   AVX2    on an x86-64 processor with AVX2 (asked at run time): the scalar path's
 *           words (faster for whole games than eight at a time: rng.c), and a block of
 *           draws below n reduced eight at a time (Rng_Draws);
 *   AVX512  with AVX-512 too: the recurrence unrolled six times, r[i] = r[i-18] +
 *           r[i-31] + r[i-34] + ... + r[i-46], sixteen at a time in a 512-bit register,
 *           each sum of words far enough back to join in one instruction (valignd); the
 *           draws reduced as on AVX2, sixteen at a time.
 * BEST stands for the path whole games are fastest on (Rng_BestPath).  The caller names
 * the path at each seeding: nothing global chooses it.
 */
#ifndef PYWAR_RNG_H
#define PYWAR_RNG_H

#include <stdint.h>

#include "pywar.h"

#define RNG_DEGREE 31
#define RNG_HISTORY 49   /* words kept before a block: the unrolled forms reach back 46,
                           and the longest holds from the sequence's word 49 on */
#define RNG_BLOCK 512
#define RNG_SMALL_N 52   /* Rng_Modulus has these moduli ready */

typedef struct Rng {
    uint32_t r[RNG_HISTORY + RNG_BLOCK]; /* r[0..48]: the last 49 words before the block */
    int next;                            /* index in r of the next word to hand out */
    int path;                            /* enum PywarRngPath, never BEST */
} Rng;

void Rng_Seed(Rng *rng, uint32_t seed);     /* srand(seed), on PYWAR_RNG_PATH_BEST */
int Rng_BestPath(void);                     /* the path whole games are fastest on here */
int Rng_Usable(int path);                   /* 1: this processor can run the path */
/* srand(seed) on a given path (enum PywarRngPath); 0, or -1 for a path this machine
 * cannot run (the generator is then seeded on the scalar path). */
int Rng_SeedPath(Rng *rng, uint32_t seed, int path);
uint32_t Rng_Rand(Rng *rng);                /* the next rand(): 0 .. 2^31 - 1 */
uint32_t Rng_Below(Rng *rng, uint32_t n);   /* rand() % n, for n >= 1 */

/* Fast rand() % n for one fixed n (Lemire's fastmod): the same values as '%'. */
typedef struct RngModulus {
    uint32_t n;
    uint64_t magic;
} RngModulus;

RngModulus Rng_Modulus(uint32_t n);
RngModulus Rng_SmallModulus(uint32_t n);   /* Rng_Modulus for 1 <= n <= RNG_SMALL_N */
uint32_t Rng_BelowModulus(Rng *rng, const RngModulus *m);
uint32_t Rng_Reduce(uint32_t value, const RngModulus *m);   /* value % m->n */

void Rng_Refill(Rng *rng);                  /* a new block (for Rng_Words) */

/* The next 'count' words (count <= RNG_BLOCK): word >> 1 is the next rand().  Inline,
 * since the engine asks for a few words at every random pickup, and whether link-time
 * optimization inlined it from rng.c changed with the size of that file. */
static inline const uint32_t *Rng_Words(Rng *rng, int count)
{
    if (rng->next + count > RNG_HISTORY + RNG_BLOCK) {
        Rng_Refill(rng);
    }
    const uint32_t *words = rng->r + rng->next;
    rng->next += count;
    return words;
}

/* The next 'count' draws below n (count <= RNG_BLOCK, n >= 1) into out: out[k] is the
 * k-th next rand() % n, the block made and reduced at once. */
void Rng_Draws(Rng *rng, int count, uint32_t n, uint32_t *out);

#endif
