/* tight_iofall.c: the iofall rules as one tight, single-purpose C loop: the yardstick
 * that the engine's speed is measured against (bench/test_bench.py, the README's table).
 *
 * It plays exactly the engine's iofall games (docs/rules.md: two queues, a war of 3
 * down and 1 up, the iofall short war, the pot shuffled by Fisher-Yates for the winner,
 * a cap of 100,000 rounds) and counts what the engine's batch counts for each game
 * (rounds, battles, ties, wars, the longest tie streak, stranded cards, winner, outcome,
 * digest, lead changes, the biggest pot, the comeback, the deepest war and the war
 * depths), but knows nothing else: no other rule, no Spec, no events, no narration.
 * Its results must equal the engine's: it prints the same fold of each column it counts
 * as bench/driver.c, and a test compares the two.
 *
 * usage: tight_iofall COUNT FIRST_SEED [FACE_DOWN]
 * prints: games N seconds S games_per_second G rounds R, then fold_NAME F for each
 * column it counts (NAMES), as bench/driver.c prints them */
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "digest.h"
#include "pywar.h"
#include "rng.h"

#define CARDS 52
#define MASK 63
#define CAP 100000

typedef struct Queue {
    unsigned char cards[64];
    unsigned head;    /* the top card, played next */
    unsigned count;
} Queue;

/* The columns this loop counts, each folded as bench/driver.c folds its column of that
 * name (FNV-1a over the games in seed order), then the digest and the war depths. */
static const char *const NAMES[] = {"rounds", "battles", "ties", "wars",
                                    "longest_tie_streak", "stranded", "winner", "outcome",
                                    "cycle_start", "cycle_period", "lead_changes",
                                    "biggest_pot", "comeback", "deepest_war", "refills",
                                    "digest", "war_depths"};
#define COUNTED 15                      /* the names before the digest */
#define FOLDS (COUNTED + 2)

typedef struct Totals {
    long long rounds;
    uint64_t folds[FOLDS];               /* one a name of NAMES */
    long long depths[PYWAR_WAR_DEPTHS];   /* rounds with d wars, over all games */
} Totals;

static unsigned char Take(Queue *q)
{
    unsigned char card = q->cards[q->head];
    q->head = (q->head + 1) & MASK;
    q->count--;
    return card;
}

static void Give(Queue *q, unsigned char card)
{
    q->cards[(q->head + q->count) & MASK] = card;
    q->count++;
}

static void Swap(unsigned char *cards, uint32_t i, uint32_t j)
{
    unsigned char card = cards[i];
    cards[i] = cards[j];
    cards[j] = card;
}

/* The winner takes the pot, shuffled by Fisher-Yates, to the bottom of its hand. */
static void Collect(Rng *rng, unsigned char *pot, int n, Queue *winner, int *biggest)
{
    for (int i = n - 1; i > 0; i--) {
        Swap(pot, (uint32_t)i, Rng_Below(rng, (uint32_t)i + 1));
    }
    for (int i = 0; i < n; i++) {
        Give(winner, pot[i]);
    }
    *biggest = n > *biggest ? n : *biggest;
}

static void Game(uint32_t seed, int faceDown, Totals *totals)
{
    Rng rng;
    Queue hand[2] = {{{0}, 0, 0}, {{0}, 0, 0}};
    unsigned char pot[CARDS];
    int n = 0, rounds = 0, outcome = PYWAR_OUTCOME_WIN, winner = -1;
    int battles = 0, ties = 0, wars = 0, longest = 0, stranded = 0;
    int leads = 0, leader = -1, biggest = 0, deepest = 0, behind[2] = {0, 0};
    uint64_t digest = DIGEST_OFFSET;
    Rng_Seed(&rng, seed);
    for (int i = 0; i < CARDS; i++) {
        pot[i] = (unsigned char)i;
    }
    for (int i = CARDS - 1; i > 0; i--) {
        Swap(pot, (uint32_t)i, Rng_Below(&rng, (uint32_t)i + 1));
    }
    for (int i = 0; i < CARDS; i++) {
        Give(&hand[i & 1], pot[CARDS - 1 - i]);
        digest = Digest_FoldCard(digest, DIGEST_DEAL, i & 1, pot[CARDS - 1 - i]);
    }
    for (;;) {
        if (rounds >= CAP) {
            int a = (int)hand[0].count, b = (int)hand[1].count;
            outcome = PYWAR_OUTCOME_CAPPED;
            winner = a == b ? -1 : a > b ? 0 : 1;
            break;
        }
        rounds++;
        n = 0;
        int lost[2] = {0, 0}, over = 0, streak = 0, depth = 0;
        for (;;) {
            battles++;
            for (int p = 0; p < 2; p++) {
                pot[n] = Take(&hand[p]);
                digest = Digest_FoldCard(digest, DIGEST_FACE_UP, p, pot[n]);
                n++;
            }
            int a = pot[n - 2] % 13, b = pot[n - 1] % 13;
            if (a != b) {
                int w = a > b ? 0 : 1;
                digest = Digest_Fold(digest, DIGEST_BATTLE | (uint32_t)w);
                Collect(&rng, pot, n, &hand[w], &biggest);
                n = 0;
                if (hand[1 - w].count == 0) {
                    winner = w;
                    over = 1;
                }
                break;
            }
            digest = Digest_Fold(digest, DIGEST_BATTLE | DIGEST_TIE);
            ties++;
            streak++;
            longest = streak > longest ? streak : longest;
            int down[2];
            for (int p = 0; p < 2; p++) {      /* the iofall short war */
                int held = (int)hand[p].count;
                down[p] = held >= faceDown ? faceDown : (held - 1 > 1 ? held - 1 : 1);
                down[p] = held == 0 ? 0 : down[p];
                lost[p] = held - down[p] == 0;
            }
            for (int p = 0; p < 2; p++) {
                for (int i = 0; i < down[p]; i++) {
                    pot[n] = Take(&hand[p]);
                    digest = Digest_FoldCard(digest, DIGEST_FACE_DOWN, p, pot[n]);
                    n++;
                }
            }
            if (lost[0] || lost[1]) {
                int w = lost[0] ? 1 : 0;   /* both out: B wins */
                Collect(&rng, pot, n, &hand[w], &biggest);
                n = 0;
                winner = w;
                over = 1;
                break;
            }
            wars++;
            depth++;
        }
        if (depth > 0) {
            totals->depths[depth < PYWAR_WAR_DEPTHS ? depth : PYWAR_WAR_DEPTHS - 1]++;
            deepest = depth > deepest ? depth : deepest;
        }
        int margin = (int)hand[0].count - (int)hand[1].count;
        behind[1] = margin > behind[1] ? margin : behind[1];
        behind[0] = -margin > behind[0] ? -margin : behind[0];
        if (margin != 0) {
            int now = margin > 0 ? 0 : 1;
            leads += leader >= 0 && now != leader;
            leader = now;
        }
        if (over) {
            break;
        }
    }
    digest = Digest_Fold(digest, DIGEST_END | (uint32_t)outcome << 4 | (uint32_t)(winner + 1));
    stranded = n;
    int comeback = winner >= 0 ? behind[winner] : 0;
    int32_t fields[] = {rounds, battles, ties, wars, longest, stranded, winner, outcome, -1, -1,
                        leads, biggest, comeback, deepest, 0};
    totals->rounds += rounds;
    for (int i = 0; i < COUNTED; i++) {
        totals->folds[i] = Digest_Fold(totals->folds[i], (uint32_t)fields[i]);
    }
    totals->folds[COUNTED] = (totals->folds[COUNTED] ^ digest) * DIGEST_PRIME;
}

static double Now(void)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec + (double)now.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: %s COUNT FIRST_SEED [FACE_DOWN]\n", argv[0]);
        return 2;
    }
    long long count = atoll(argv[1]);
    uint32_t seed = (uint32_t)strtoul(argv[2], NULL, 10);
    int faceDown = argc > 3 ? atoi(argv[3]) : 3;
    Totals totals = {0};
    for (int i = 0; i < FOLDS; i++) {
        totals.folds[i] = DIGEST_OFFSET;
    }
    double start = Now();
    for (long long i = 0; i < count; i++) {
        Game((uint32_t)(seed + (uint64_t)i), faceDown, &totals);
    }
    double seconds = Now() - start;
    for (int d = 1; d < PYWAR_WAR_DEPTHS; d++) {
        totals.folds[FOLDS - 1] = Digest_Fold(totals.folds[FOLDS - 1], (uint32_t)totals.depths[d]);
    }
    printf("games %lld seconds %.6f games_per_second %.1f rounds %lld", count, seconds,
           (double)count / seconds, totals.rounds);
    for (int i = 0; i < FOLDS; i++) {
        printf(" fold_%s %016llx", NAMES[i], (unsigned long long)totals.folds[i]);
    }
    printf("\n");
    return 0;
}
