/* hand.h: a pile of card ids in a ring of 64 slots: played from the top, added on top
 * (a stack: two-pile games) or at the bottom (a queue).  Position 0 is the bottom card,
 * in cards[bottom]; the top is position count - 1.  The ring's size is a power of two,
 * so every index is a mask, not a division: this is the engine's hottest data.
 *
 * A card id is stored in 16 bits, not 8: a store through a byte type may alias any
 * object, so after each one the compiler would reload every count and index of the
 * game from memory; a uint16_t store aliases only uint16_t data. */
#ifndef PYWAR_HAND_H
#define PYWAR_HAND_H

#include <stdint.h>

#define HAND_SLOTS 64
#define HAND_MASK (HAND_SLOTS - 1)
#define HAND_SMALL_SPAN 16     /* a pile this small is turned over in its first 16 slots,
                                  the bytes of one 128-bit register (shuffle.h) */

typedef uint16_t CardId;

typedef struct Hand {
    CardId cards[HAND_SLOTS];
    uint32_t bottom;
    uint32_t count;
} Hand;

static inline void Hand_Clear(Hand *hand)
{
    hand->bottom = 0;
    hand->count = 0;
}

static inline CardId Hand_At(const Hand *hand, uint32_t position)
{
    return hand->cards[(hand->bottom + position) & HAND_MASK];
}

static inline void Hand_PushTop(Hand *hand, CardId card)
{
    hand->cards[(hand->bottom + hand->count) & HAND_MASK] = card;
    hand->count++;
}

static inline void Hand_PushBottom(Hand *hand, CardId card)
{
    hand->bottom = (hand->bottom - 1) & HAND_MASK;
    hand->cards[hand->bottom] = card;
    hand->count++;
}

/* Like the reference's Pile, no check for an empty hand: callers check first. */
static inline CardId Hand_PopTop(Hand *hand)
{
    hand->count--;
    return hand->cards[(hand->bottom + hand->count) & HAND_MASK];
}

/* 'to' becomes 'from' turned over, as moving its cards one at a time from top to top
 * would leave them (from's top card at the bottom), for 'from' a two-pile hand, whose
 * cards always start at slot 0.  The first `span` slots are reversed whole, 16 for a
 * pile that fits in them, else the ring: a loop of a fixed count, which the compiler
 * makes a few vector moves and whose end the branch predictor need not guess, where a
 * loop over the cards ended at a new count at every refill.  The cards then lie in
 * slots span - count .. span - 1, unwrapped (Shuffle_Cards shuffles them there), and
 * 16 slots from the first of them are the hand's (Shuffle_Smu's byte path needs them). */
static inline void Hand_TurnOver(Hand *to, const Hand *from)
{
    if (from->count <= HAND_SMALL_SPAN) {
        for (uint32_t slot = 0; slot < HAND_SMALL_SPAN; slot++) {
            to->cards[slot] = from->cards[HAND_SMALL_SPAN - 1 - slot];
        }
        to->bottom = HAND_SMALL_SPAN - from->count;
    } else {
        for (uint32_t slot = 0; slot < HAND_SLOTS; slot++) {
            to->cards[slot] = from->cards[HAND_SLOTS - 1 - slot];
        }
        to->bottom = HAND_SLOTS - from->count;
    }
    to->count = from->count;
}

/* The hand's cards from the top down into ids; returns how many. */
static inline int Hand_TopFirst(const Hand *hand, uint8_t *ids)
{
    for (uint32_t i = 0; i < hand->count; i++) {
        ids[i] = (uint8_t)Hand_At(hand, hand->count - 1 - i);
    }
    return (int)hand->count;
}

#endif
