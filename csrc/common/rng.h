/* rng.h: glibc's srand()/rand() (the TYPE_3 generator of random_r), one state per game.
 *
 * The sequence is r[0] = seed (0 counts as 1), r[i] = 16807 * r[i-1] mod (2^31 - 1)
 * by Schrage's method for i = 1..30, r[i] = r[i-31] for i = 31..33, and
 * r[i] = r[i-31] + r[i-3] (mod 2^32) after that; the k-th rand() is r[k + 344] >> 1.
 * The state keeps a window of that sequence and makes RNG_BLOCK values at a time.
 */
#ifndef PYWAR_RNG_H
#define PYWAR_RNG_H

#include <stdint.h>

#define RNG_DEGREE 31
#define RNG_BLOCK 512
#define RNG_SMALL_N 52   /* Rng_Modulus has these moduli ready */

typedef struct Rng {
    uint32_t r[RNG_DEGREE + RNG_BLOCK]; /* r[0..30]: the last 31 words before the block */
    int next;                            /* index in r of the next word to hand out */
} Rng;

void Rng_Seed(Rng *rng, uint32_t seed);
uint32_t Rng_Rand(Rng *rng);                /* the next rand(): 0 .. 2^31 - 1 */
uint32_t Rng_Below(Rng *rng, uint32_t n);   /* rand() % n, for n >= 1 */

/* Fast rand() % n for one fixed n (Lemire's fastmod): the same values as '%'. */
typedef struct RngModulus {
    uint32_t n;
    uint64_t magic;
} RngModulus;

RngModulus Rng_Modulus(uint32_t n);
uint32_t Rng_BelowModulus(Rng *rng, const RngModulus *m);
uint32_t Rng_Reduce(uint32_t value, const RngModulus *m);   /* value % m->n */

/* The next 'count' words (count <= RNG_BLOCK): word >> 1 is the next rand(). */
const uint32_t *Rng_Words(Rng *rng, int count);

#endif
