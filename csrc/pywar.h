/* pywar.h: the public interface of pywar's C core, and all that the cffi build reads.
 *
 * Everything between the cdef markers is plain C declarations that cffi can parse:
 * no #include, no #if, and #define only for integer constants.  The result structs come
 * from csrc/fields.h, which pywar/_build.py writes from pywar/common/fields.py.  A game owns nothing
 * global: the caller passes the rules, a result struct and, if it wants the
 * transcript, a text buffer.  Every function returns PYWAR_OK or a negative error.
 */
#ifndef PYWAR_H
#define PYWAR_H

#include <stddef.h>
#include <stdint.h>

/* cdef begin */
#define PYWAR_MAXCARDS 52
#define PYWAR_MAX_PLAYERS 8
#define PYWAR_WAR_DEPTHS 64      /* war depths counted: 1 .. 63 (index 0 unused) */
#define PYWAR_MAX_FACE_DOWN 25
#define PYWAR_STATE_BYTES 54

/* Return codes. */
#define PYWAR_OK 0
#define PYWAR_ENOMEM -1
#define PYWAR_EINVAL -2
#define PYWAR_ESTOPPED -3     /* the stop flag was set: the game or batch ended early */

/* Rule dimensions: each value is the index of its name in pywar/rules.py. */
enum PywarShortWar { PYWAR_SHORT_LOSE, PYWAR_SHORT_LAST_CARD, PYWAR_SHORT_ALL_BUT_ONE,
                     PYWAR_SHORT_IOFALL };
enum PywarPickup { PYWAR_PICKUP_SMU, PYWAR_PICKUP_POT_ORDER, PYWAR_PICKUP_RANDOM,
                   PYWAR_PICKUP_WINNER_FIRST, PYWAR_PICKUP_LOSER_FIRST,
                   PYWAR_PICKUP_SEAT_INTERLEAVED, PYWAR_PICKUP_SEAT_BLOCK,
                   PYWAR_PICKUP_NATURAL, PYWAR_PICKUP_SORTED };
enum PywarPiles { PYWAR_PILES_TWO, PYWAR_PILES_QUEUE };
enum PywarRefill { PYWAR_REFILL_SHUFFLE, PYWAR_REFILL_KEEP };
enum PywarGame { PYWAR_GAME_WAR, PYWAR_GAME_ONE_CARD };
enum PywarShuffle { PYWAR_SHUFFLE_SMU, PYWAR_SHUFFLE_SWAP_EACH, PYWAR_SHUFFLE_FISHER_YATES };
enum PywarNarration { PYWAR_NARRATION_SMU, PYWAR_NARRATION_LEHIGH, PYWAR_NARRATION_IOFALL };

/* The generator's paths (csrc/common/rng.h), which make the same numbers: BEST is the
 * one whole games are fastest on with this processor; the others name one, which the
 * processor must have (pywar_rng_paths).  Each value is the index of its name in
 * pywar/common/rng.py's RNG_PATHS. */
enum PywarRngPath { PYWAR_RNG_PATH_BEST, PYWAR_RNG_PATH_SCALAR, PYWAR_RNG_PATH_AVX2,
                    PYWAR_RNG_PATH_AVX512 };

/* Outcomes and winners. */
enum PywarOutcome { PYWAR_OUTCOME_WIN, PYWAR_OUTCOME_BOTH_LOSE, PYWAR_OUTCOME_CYCLE,
                    PYWAR_OUTCOME_CAPPED, PYWAR_OUTCOME_DRAW };
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
    int players;          /* players at the table, 2 to PYWAR_MAX_PLAYERS */
    int ranks;            /* the deck: ranks (13) ... */
    int suits;            /* ... times suits (4), at most 52 cards */
    int refill;           /* enum PywarRefill: 'played' becomes 'to play' shuffled or as is */
    int game;             /* enum PywarGame: War, or single battles with no war (one-card) */
    int rng_path;         /* not a rule: the generator's path (enum PywarRngPath), which
                             changes no game; 0 (a zeroed field) is PYWAR_RNG_PATH_BEST */
} PywarRules;

/* cdef end */
/* struct PywarResult, a game's result, and struct PywarBatch, a batch's arrays: written
 * from the table of pywar/common/fields.py when the core is built (pywar/_build.py),
 * which gives them to cffi here too. */
#include "fields.h"
/* cdef begin */

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
    int counting;             /* 1: a trace's lines are only counted, in lines, not kept */
    int64_t lines;
    int64_t limit;            /* counting: past this many lines, *full is set ... */
    volatile int32_t *full;   /* ... (a game's stop flag, which ends it), if not NULL */
} PywarText;

int pywar_rules_check(const PywarRules *rules);
/* One game.  deal, if not NULL, replaces the shuffled deal: the hands one after another,
 * each top first, hand_counts[p] cards for player p.  The transcript goes to text and the
 * trace's event lines (docs/trace.md) to trace, either NULL for none.  If stop is not NULL
 * and becomes nonzero, the game ends after its current round with PYWAR_ESTOPPED. */
int pywar_play(uint32_t seed, const PywarRules *rules, const uint8_t *deal,
               const int *hand_counts, PywarResult *result, PywarText *text,
               PywarText *trace, volatile int32_t *stop);
/* Games with seeds first_seed, first_seed + 1, ... (mod 2^32), no text, into the arrays. */
int pywar_play_batch(uint32_t first_seed, int64_t count, const PywarRules *rules,
                     PywarBatch *batch);
/* The generator's paths this processor can run: bit p for each path p of enum
 * PywarRngPath (BEST and SCALAR always); *best, if not NULL, gets the path that
 * PYWAR_RNG_PATH_BEST stands for here. */
int pywar_rng_paths(int *best);
/* The first 'count' numbers that rand() gives after srand(seed), as pywar makes them. */
int pywar_rng_draws(uint32_t seed, int64_t count, uint32_t *out);
/* out[i] = values[i] % n, for i < count, computed as the generator's draws below n are
 * (Lemire's fastmod), so that it can be checked against '%'. */
int pywar_rng_reduce(uint32_t n, const uint32_t *values, int64_t count, uint32_t *out);
void pywar_text_free(PywarText *text);
/* The events of one game's trace (pywar_play's arguments), counted without writing it,
 * into *events; a game of more than limit events is stopped there (stop is set), with
 * *events = limit + 1.  stop, set by the caller, ends the game early: PYWAR_ESTOPPED. */
int pywar_count_events(uint32_t seed, const PywarRules *rules, const uint8_t *deal,
                       const int *hand_counts, int64_t limit, int64_t *events,
                       volatile int32_t *stop);

/* The port (csrc/port/): the SMU reference program, member for member, playing smu only.
 * stack chooses Program 4's piles or Program 6's stack ADT; the transcript goes to text,
 * the trace's event lines to trace (either NULL for none); result gets the counts. */
#define PYWAR_STACK_PILE 0
#define PYWAR_STACK_ADT 1
int pywar_port_play(uint32_t seed, int stack, PywarResult *result, PywarText *text,
                    PywarText *trace);

/* Every deal of a small deck (docs/rules.md section 14; csrc/engine/exact.c).  A part is
 * every deal whose rank sequence starts with a given prefix; its census merges with the
 * other parts' by adding counts and histograms and joining the sets of cycles.  The rules
 * must draw nothing after the deal: queue piles, a pickup other than random, cycle
 * detection on, and a deck of at most PYWAR_EXACT_MAX_CARDS cards. */
#define PYWAR_EXACT_MAX_CARDS 16

typedef struct PywarExactRecord {       /* a record game that ends, or rounds 0: none */
    int32_t rounds;
    int32_t battles;
    uint8_t ranks[PYWAR_EXACT_MAX_CARDS];   /* the least rank sequence that makes it */
} PywarExactRecord;

typedef struct PywarExactCensus {       /* zero it before the first part */
    uint64_t sequences;                /* rank sequences played (and mirrored) */
    uint64_t a_wins;
    uint64_t b_wins;
    uint64_t both_lose;
    uint64_t cycles;
    uint64_t capped;
    PywarExactRecord longest;          /* the game that ends with the most rounds */
    PywarExactRecord most_battles;     /* ... with the most battles (cards laid a player) */
    uint64_t *rounds;                  /* rounds[r]: games that end after r rounds */
    int32_t rounds_size;
    uint64_t *battles;                 /* battles[b]: games that end after b battles */
    int32_t battles_size;
    uint64_t *periods;                 /* periods[p]: games that fall into a p-round cycle */
    int32_t periods_size;
    uint64_t *keys;                    /* the cycles met, a set: slot i is keys[2 i] = A's */
    int64_t keys_count;                /* count + 1 (0: empty) and keys[2 i + 1] = digits, */
    int64_t keys_capacity;             /* for i < keys_capacity; keys_count are full */
} PywarExactCensus;

typedef struct PywarExactList {        /* optional: each game of a part, in order */
    int64_t capacity;
    int64_t count;
    int8_t *winner;
    int8_t *outcome;
    int32_t *rounds;
    int32_t *battles;
    int32_t *ties;
    int32_t *wars;
    int32_t *cycle_period;
} PywarExactList;

/* Play every deal of the part that starts with prefix[0 .. prefix_length - 1] (ranks, in
 * deal order), adding to census, and if list is not NULL each game to list.  If mirrored,
 * census each game's player-swapped twin too (an exact symmetry, refused where it is not
 * one).  If stop is not NULL and becomes nonzero, the part ends early: PYWAR_ESTOPPED. */
int pywar_exact_part(const PywarRules *rules, const uint8_t *prefix, int prefix_length,
                     int mirrored, PywarExactCensus *census, PywarExactList *list,
                     volatile int32_t *stop);
/* Free a census's arrays, and zero it. */
void pywar_exact_free(PywarExactCensus *census);

/* cdef end */

/* The cffi build declares the Python sink with: extern "Python" void pywar_text_sink(...) */

#endif
