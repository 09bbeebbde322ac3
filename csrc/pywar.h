/* pywar.h: the public interface of pywar's C core, and all that the cffi build reads.
 *
 * Everything between the cdef markers is plain C declarations that cffi can parse:
 * no #include, no #if, and #define only for integer constants.  A game owns nothing
 * global: the caller passes the rules, a result struct and, if it wants the
 * transcript, a text buffer.  Every function returns PYWAR_OK or a negative error.
 */
#ifndef PYWAR_H
#define PYWAR_H

#include <stddef.h>
#include <stdint.h>

/* cdef begin */
#define PYWAR_MAXCARDS 52
#define PYWAR_MAX_FACE_DOWN 25
#define PYWAR_STATE_BYTES 54

/* Return codes. */
#define PYWAR_OK 0
#define PYWAR_ENOMEM -1
#define PYWAR_EINVAL -2

/* Rule dimensions: each value is the index of its name in pywar/rules.py. */
enum PywarShortWar { PYWAR_SHORT_LOSE, PYWAR_SHORT_LAST_CARD, PYWAR_SHORT_ALL_BUT_ONE,
                     PYWAR_SHORT_IOFALL };
enum PywarPickup { PYWAR_PICKUP_SMU, PYWAR_PICKUP_POT_ORDER, PYWAR_PICKUP_RANDOM,
                   PYWAR_PICKUP_WINNER_FIRST, PYWAR_PICKUP_LOSER_FIRST,
                   PYWAR_PICKUP_SEAT_INTERLEAVED, PYWAR_PICKUP_SEAT_BLOCK };
enum PywarPiles { PYWAR_PILES_TWO, PYWAR_PILES_QUEUE };
enum PywarShuffle { PYWAR_SHUFFLE_SMU, PYWAR_SHUFFLE_SWAP_EACH, PYWAR_SHUFFLE_FISHER_YATES };
enum PywarNarration { PYWAR_NARRATION_SMU, PYWAR_NARRATION_LEHIGH, PYWAR_NARRATION_IOFALL };

/* Outcomes and winners. */
enum PywarOutcome { PYWAR_OUTCOME_WIN, PYWAR_OUTCOME_BOTH_LOSE, PYWAR_OUTCOME_CYCLE,
                    PYWAR_OUTCOME_CAPPED };
#define PYWAR_NOBODY -1
#define PYWAR_PLAYER_A 0
#define PYWAR_PLAYER_B 1

typedef struct PywarRules {
    int face_down;        /* cards each player puts face down in a war, 0..25 */
    int short_war;        /* enum PywarShortWar */
    int pickup;           /* enum PywarPickup */
    int piles;            /* enum PywarPiles */
    int shuffle;          /* enum PywarShuffle */
    int narration;        /* enum PywarNarration: words, card names and deck order */
    int32_t max_rounds;   /* a game that reaches it ends as capped; at least 1 */
    int detect_cycles;    /* 1: end a repeating game as a cycle */
} PywarRules;

typedef struct PywarResult {
    int winner;               /* PYWAR_PLAYER_A, PYWAR_PLAYER_B or PYWAR_NOBODY */
    int outcome;              /* enum PywarOutcome */
    int32_t rounds;
    int32_t battles;          /* face-up comparisons */
    int32_t ties;             /* comparisons of equal ranks */
    int32_t wars;             /* ties after which play went on into a war */
    int32_t longest_tie_streak;
    int32_t stranded;         /* cards left in the pot at the end */
    int32_t piles[2][2];      /* [player][0: to play, 1: played] at the end */
    int32_t cycle_start;      /* rounds before the repeating part, or -1 */
    int32_t cycle_period;     /* rounds in one repetition, or -1 */
    uint64_t digest;          /* FNV-1a over the game's events (docs/rules.md) */
} PywarResult;

/* A text buffer that the caller owns: zero it, pass it, then free it.  With a sink,
 * the text goes to the sink in pieces of about PYWAR_TEXT_PIECE bytes as the game
 * goes, and the rest when it ends, so that a long transcript needs little memory;
 * without one the buffer grows to hold the whole transcript. */
#define PYWAR_TEXT_PIECE 65536
typedef struct PywarText {
    char *data;
    size_t length;
    size_t capacity;
    int failed;               /* 1 after an allocation failed */
    void (*sink)(void *context, const char *data, size_t length);
    void *context;
} PywarText;

/* Arrays that the caller owns, n entries each, for pywar_play_batch.  If stop is not
 * NULL, the batch checks it before each game and ends early once it is nonzero;
 * finished then says how many games (from the first) were played. */
typedef struct PywarBatch {
    volatile int32_t *stop;
    int64_t finished;
    int32_t *rounds;
    int32_t *battles;
    int32_t *ties;
    int32_t *wars;
    int32_t *longest_tie_streak;
    int32_t *stranded;
    int8_t *winner;
    int8_t *outcome;
    int32_t *cycle_start;
    int32_t *cycle_period;
    uint64_t *digest;
} PywarBatch;

int pywar_rules_check(const PywarRules *rules);
int pywar_play(uint32_t seed, const PywarRules *rules, PywarResult *result, PywarText *text);
int pywar_play_batch(uint32_t first_seed, int64_t count, const PywarRules *rules,
                     PywarBatch *batch);
/* A game from a given deal instead of a shuffled one: deal[] holds card ids
 * (suit * 13 + rank), A's count_a cards top first, then B's count_b cards. */
int pywar_play_deal(uint32_t seed, const PywarRules *rules, const uint8_t *deal,
                    int count_a, int count_b, PywarResult *result, PywarText *text);
/* The first 'count' numbers that rand() gives after srand(seed), as pywar makes them. */
int pywar_rng_draws(uint32_t seed, int64_t count, uint32_t *out);
/* out[i] = values[i] % n, for i < count, computed as the generator's draws below n are
 * (Lemire's fastmod), so that it can be checked against '%'. */
int pywar_rng_reduce(uint32_t n, const uint32_t *values, int64_t count, uint32_t *out);
void pywar_text_free(PywarText *text);
/* cdef end */

/* The cffi build declares the Python sink with: extern "Python" void pywar_text_sink(...) */

#endif
