/* shuffle.h: the three shuffles of docs/rules.md section 4, on an array of card ids
 * whose index 0 is the bottom card.  Every draw is rand() % n, made with Lemire's
 * fastmod (the same values as '%').  pywar/twin/shuffle.py is their Python twin. */
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

/* SMU: 104 times swap two cards drawn as rand() % n, the first drawn first.  The 208
 * draws are taken from the generator at once. */
static inline void Shuffle_Smu(CardId *cards, int count, Rng *rng)
{
    RngModulus n = Rng_Modulus((uint32_t)count);
    const uint32_t *words = Rng_Words(rng, PYWAR_MAXCARDS * 4);
    for (int i = 0; i < PYWAR_MAXCARDS * 4; i += 2) {
        Shuffle_Swap(cards, Rng_Reduce(words[i] >> 1, &n), Rng_Reduce(words[i + 1] >> 1, &n));
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

/* Fisher-Yates from the top down: position i swaps with rand() % (i + 1). */
static inline void Shuffle_FisherYates(CardId *cards, int count, Rng *rng)
{
    for (int i = count - 1; i > 0; i--) {
        Shuffle_Swap(cards, (uint32_t)i, Rng_Below(rng, (uint32_t)i + 1));
    }
}

/* An empty pile draws nothing.  Inline, so that a game whose Spec fixes the method
 * keeps only that shuffle, and a two-card pot's Fisher-Yates is one draw in place. */
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
