/* shuffle.h: the three shuffles of docs/rules.md section 4, on an array of card ids
 * whose index 0 is the bottom card.  Every draw is rand() % n, reduced without a division
 * (rng.h: the same values as '%').  pywar/twin/shuffle.py is their Python twin. */
#ifndef PYWAR_SHUFFLE_H
#define PYWAR_SHUFFLE_H

#include <stdint.h>

#include "hand.h"
#include "pywar.h"
#include "../common/rng.h"

static inline void Shuffle_Swap(CardId *cards, uint32_t i, uint32_t j)
{
    CardId card = cards[i];
    cards[i] = cards[j];
    cards[j] = card;
}

#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__)) \
    && !defined(PYWAR_RNG_SCALAR)
#include <immintrin.h>
#define SHUFFLE_BYTES 1
#define SHUFFLE_BYTE_CARDS HAND_SMALL_SPAN   /* 16 card ids as the bytes of one register */
#define SHUFFLE_HALF_IDS 8                   /* 16-bit ids in one 128-bit load */

/* SWAP_CONTROL[16 * i + j]: the byte shuffle that swaps bytes i and j of 16. */
#define SWAP_BYTE(i, j, k) ((k) == (i) ? (j) : (k) == (j) ? (i) : (k))
#define SWAP_ROW(i, j) {SWAP_BYTE(i, j, 0), SWAP_BYTE(i, j, 1), SWAP_BYTE(i, j, 2), \
    SWAP_BYTE(i, j, 3), SWAP_BYTE(i, j, 4), SWAP_BYTE(i, j, 5), SWAP_BYTE(i, j, 6), \
    SWAP_BYTE(i, j, 7), SWAP_BYTE(i, j, 8), SWAP_BYTE(i, j, 9), SWAP_BYTE(i, j, 10), \
    SWAP_BYTE(i, j, 11), SWAP_BYTE(i, j, 12), SWAP_BYTE(i, j, 13), SWAP_BYTE(i, j, 14), \
    SWAP_BYTE(i, j, 15)}
#define SWAP_ROWS(i) SWAP_ROW(i, 0), SWAP_ROW(i, 1), SWAP_ROW(i, 2), SWAP_ROW(i, 3), \
    SWAP_ROW(i, 4), SWAP_ROW(i, 5), SWAP_ROW(i, 6), SWAP_ROW(i, 7), SWAP_ROW(i, 8), \
    SWAP_ROW(i, 9), SWAP_ROW(i, 10), SWAP_ROW(i, 11), SWAP_ROW(i, 12), SWAP_ROW(i, 13), \
    SWAP_ROW(i, 14), SWAP_ROW(i, 15)
static const uint8_t SWAP_CONTROL[SHUFFLE_BYTE_CARDS * SHUFFLE_BYTE_CARDS][SHUFFLE_BYTE_CARDS]
    __attribute__((aligned(16))) = {
    SWAP_ROWS(0), SWAP_ROWS(1), SWAP_ROWS(2), SWAP_ROWS(3), SWAP_ROWS(4), SWAP_ROWS(5),
    SWAP_ROWS(6), SWAP_ROWS(7), SWAP_ROWS(8), SWAP_ROWS(9), SWAP_ROWS(10), SWAP_ROWS(11),
    SWAP_ROWS(12), SWAP_ROWS(13), SWAP_ROWS(14), SWAP_ROWS(15)};

/* The swaps of a pile of at most 16 cards, as bytes in one register: each swap is one
 * byte shuffle, and none waits for a store to reach the next swap's load (the swaps of
 * a small pile hit the same few cards, so in memory each would).  The register is
 * loaded and stored whole, 16 ids packed to bytes and back, with no loop over the
 * count to mispredict: cards must have room for 16 ids (a hand's ring, or the pot),
 * and those past the count, which no swap touches, are written back as they were
 * (any id past the count that does not fit in a byte is no card's).
 * The loop is bound by its instructions, not by the chain of shuffles: it is built for
 * AVX2 (the vector paths' processors have it), whose three-operand vpshufb needs no
 * copy of the register at each swap as SSSE3's two-operand pshufb did, and unrolled. */
/* Measured (2026-12-02, Zen 4): the small piles' swaps took 4,100 to 4,700 ticks a game
 * built for AVX2 and unrolled, 7,300 to 7,800 for SSSE3 (time-stamp counter around the
 * part, an instrumented driver); the whole driver 0.983 of the time (61 pairs).  Tried
 * and dropped: a pile of 17 to 52 cards as bytes in one 512-bit register (vpermb), 1.17
 * of the time (15 pairs); 17 to 32 in 256 bits with a table of controls, 1.06.
 *   python bench/pairs.py --pairs 61 BEFORE AFTER -- 40000 1 0 0 0 0 0 0 10000000 1 2 13 4 0 */
__attribute__((target("avx2"))) static void Shuffle_SwapBytes(CardId *cards,
                                                             const uint32_t *draws, int drawn)
{
    __m128i low = _mm_loadu_si128((const __m128i *)cards);
    __m128i high = _mm_loadu_si128((const __m128i *)(cards + SHUFFLE_HALF_IDS));
    __m128i v = _mm_packus_epi16(low, high);
#pragma GCC unroll 4
    for (int k = 0; k < drawn; k += 2) {
        v = _mm_shuffle_epi8(v, _mm_load_si128(
            (const __m128i *)SWAP_CONTROL[SHUFFLE_BYTE_CARDS * draws[k] + draws[k + 1]]));
    }
    _mm_storeu_si128((__m128i *)cards, _mm_unpacklo_epi8(v, _mm_setzero_si128()));
    _mm_storeu_si128((__m128i *)(cards + SHUFFLE_HALF_IDS),
                     _mm_unpackhi_epi8(v, _mm_setzero_si128()));
}
#else
#define SHUFFLE_BYTES 0
#endif

/* SMU: 104 times swap two cards drawn as rand() % n, the first drawn first.  The 208
 * draws are made and reduced in one block (Rng_Draws: eight at a time on the AVX2 path,
 * sixteen on AVX-512), so that the swaps are the loop's only work; on those paths a pile of at most
 * 16 cards is swapped in a register. */
#define SHUFFLE_SMU_DRAWS (PYWAR_MAXCARDS * 4)   /* the reference's 2 * 52 swaps, two draws each */
static inline void Shuffle_Smu(CardId *cards, int count, Rng *rng)
{
    uint32_t draws[SHUFFLE_SMU_DRAWS];
    Rng_Draws(rng, SHUFFLE_SMU_DRAWS, (uint32_t)count, draws);
#if SHUFFLE_BYTES
    if (count <= SHUFFLE_BYTE_CARDS && rng->path >= PYWAR_RNG_PATH_AVX2) {   /* both have AVX2 */
        Shuffle_SwapBytes(cards, draws, SHUFFLE_SMU_DRAWS);
        return;
    }
#endif
    for (int i = 0; i < SHUFFLE_SMU_DRAWS; i += 2) {
        Shuffle_Swap(cards, draws[i], draws[i + 1]);
    }
}

/* Lehigh: each card from the bottom up swaps with the card at rand() % n. */
static inline void Shuffle_SwapEach(CardId *cards, int count, Rng *rng)
{
    RngModulus n = Rng_Modulus((uint32_t)count);
    for (int i = 0; i < count; i++) {
        Shuffle_Swap(cards, (uint32_t)i, Rng_BelowModulus(rng, &n));
    }
}

/* Fisher-Yates from the top down: position i swaps with rand() % (i + 1).  The count - 1
 * words are taken from the generator at once (count <= PYWAR_MAXCARDS), each reduced
 * below its own i + 1. */
static inline void Shuffle_FisherYates(CardId *cards, int count, Rng *rng)
{
    const uint32_t *words = Rng_Words(rng, count - 1);
    for (int i = count - 1; i > 0; i--) {
        RngModulus n = Rng_SmallModulus((uint32_t)i + 1);
        Shuffle_Swap(cards, (uint32_t)i, Rng_Reduce(words[count - 1 - i] >> 1, &n));
    }
}

/* An empty pile draws nothing.  Inline, so that a game whose Spec fixes the method
 * keeps only that shuffle.  (The random pickup under Fisher-Yates does not come here:
 * Game_CollectShuffled, pickup.h, shuffles the pot as it lands.) */
static inline void Shuffle_Cards(CardId *cards, int count, Rng *rng, int method)
{
    if (count == 0) {
        return;
    }
    switch (method) {
    case PYWAR_SHUFFLE_SWAP_EACH:
        Shuffle_SwapEach(cards, count, rng);
        break;
    case PYWAR_SHUFFLE_FISHER_YATES:
        Shuffle_FisherYates(cards, count, rng);
        break;
    default:
        Shuffle_Smu(cards, count, rng);
        break;
    }
}

#endif
