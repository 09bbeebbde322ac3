/* digest.h: a game's digest, 64-bit FNV-1a folded over 32-bit event codes
 * (docs/rules.md, "The digest").  The engine folds as it plays; the observer folds the
 * port's events; both give the same digest for the same game. */
#ifndef PYWAR_DIGEST_H
#define PYWAR_DIGEST_H

#include <stdint.h>

#define DIGEST_OFFSET 0xcbf29ce484222325ull
#define DIGEST_PRIME 0x100000001b3ull

#define DIGEST_DEAL 0x1000u
#define DIGEST_FACE_UP 0x2000u
#define DIGEST_FACE_DOWN 0x3000u
#define DIGEST_BATTLE 0x4000u
#define DIGEST_REFILL 0x5000u
#define DIGEST_TAKE_BACK 0x6000u
#define DIGEST_END 0x7000u
#define DIGEST_TIE 2u
#define DIGEST_TIED_MANY 0x100u   /* BATTLE | this | the tied players' bits: a tie among more
                                     than two, which cannot read as a win by player 2 */
#define DIGEST_PLAYER_SHIFT 8     /* kind | player << 8 | card or count */
#define DIGEST_OUTCOME_SHIFT 4    /* END | outcome << 4 | winner + 1 */

static inline uint64_t Digest_Fold(uint64_t digest, uint32_t code)
{
    return (digest ^ code) * DIGEST_PRIME;
}

/* An event about a player's card: kind | player << 8 | card id. */
static inline uint64_t Digest_FoldCard(uint64_t digest, uint32_t kind, int player, int card)
{
    return Digest_Fold(digest, kind | (uint32_t)player << DIGEST_PLAYER_SHIFT | (uint32_t)card);
}

#endif
