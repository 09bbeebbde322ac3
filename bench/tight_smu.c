/* tight_smu.c: the smu rules as one naive, single-purpose C loop: the yardstick that
 * the engine's smu speed is measured against (bench/test_bench.py, the README's table).
 *
 * It is written as a C programmer would write smu from the reference's rules at the
 * first go: glibc's rand() made one draw at a time from its 34-word state (random_r's
 * two pointers, not the engine's blocks), each draw reduced with '%', and the shuffle's
 * 104 swaps of two drawn positions.  It plays exactly the engine's smu games
 * (docs/rules.md: 'to play' and 'played' stacks, the smu shuffle of 208 draws at the
 * deal and at every refill, no face-down cards, a short war loses, the pot taken top
 * first, a cap of 10,000,000 rounds) and counts what the engine's batch counts for each
 * game, as bench/tight_iofall.c does; it prints the same fold of each column it counts as
 * bench/driver.c, and a test compares the two.
 *
 * usage: tight_smu COUNT FIRST_SEED
 * prints: games N seconds S games_per_second G rounds R, then fold_NAME F for each
 * column it counts (NAMES), as bench/driver.c prints them */
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "digest.h"
#include "pywar.h"

#define CARDS 52
#define SWAPS 104
#define CAP 10000000

/* glibc's TYPE_3 state: 31 words, a front and a rear pointer 3 apart. */
typedef struct Rand {
    int32_t state[31];
    int front;
    int rear;
} Rand;

static void Srand(Rand *g, uint32_t seed)
{
    int32_t word = (int32_t)(seed == 0 ? 1u : seed);
    g->state[0] = word;
    for (int i = 1; i < 31; i++) {
        long long hi = word / 127773, lo = word % 127773;
        long long next = 16807 * lo - 2836 * hi;
        word = (int32_t)(next < 0 ? next + 2147483647 : next);
        g->state[i] = word;
    }
    g->front = 3;
    g->rear = 0;
}

/* One rand(): the front word grows by the rear one; both pointers step round. */
static int Rand_Next(Rand *g)
{
    uint32_t sum = (uint32_t)g->state[g->front] + (uint32_t)g->state[g->rear];
    g->state[g->front] = (int32_t)sum;
    g->front = g->front == 30 ? 0 : g->front + 1;
    g->rear = g->rear == 30 ? 0 : g->rear + 1;
    return (int)(sum >> 1);
}

typedef struct Stack {
    unsigned char cards[CARDS];   /* cards[0] the bottom */
    int count;
} Stack;

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

/* The smu shuffle: 104 times swap the cards at rand() % n and rand() % n. */
static void Shuffle(Rand *g, unsigned char *cards, int n)
{
    for (int k = 0; k < SWAPS; k++) {
        int i = Rand_Next(g) % n;
        int j = Rand_Next(g) % n;
        unsigned char card = cards[i];
        cards[i] = cards[j];
        cards[j] = card;
    }
}

/* 'played' turned over onto 'to play' card by card, then shuffled. */
static void Refill(Rand *g, Stack *toPlay, Stack *played, int p, uint64_t *digest)
{
    toPlay->count = 0;
    while (played->count > 0) {
        toPlay->cards[toPlay->count++] = played->cards[--played->count];
    }
    Shuffle(g, toPlay->cards, toPlay->count);
    *digest = Digest_Fold(*digest, DIGEST_REFILL | (uint32_t)p << 8 | (uint32_t)toPlay->count);
}

static void Game(uint32_t seed, Totals *totals)
{
    Rand g;
    Stack toPlay[2] = {{{0}, 0}, {{0}, 0}}, played[2] = {{{0}, 0}, {{0}, 0}};
    unsigned char pot[CARDS];
    int n = 0, rounds = 0, outcome = PYWAR_OUTCOME_WIN, winner = -1, refills = 0;
    int battles = 0, ties = 0, wars = 0, longest = 0;
    int leads = 0, leader = -1, biggest = 0, deepest = 0, behind[2] = {0, 0};
    uint64_t digest = DIGEST_OFFSET;
    Srand(&g, seed);
    for (int i = 0; i < 310; i++) {
        Rand_Next(&g);
    }
    for (int i = 0; i < CARDS; i++) {
        pot[i] = (unsigned char)i;
    }
    Shuffle(&g, pot, CARDS);
    for (int i = 0; i < CARDS; i++) {
        unsigned char card = pot[CARDS - 1 - i];
        toPlay[i & 1].cards[toPlay[i & 1].count++] = card;
        digest = Digest_FoldCard(digest, DIGEST_DEAL, i & 1, card);
    }
    for (int over = 0; !over;) {
        if (rounds >= CAP) {
            int a = toPlay[0].count + played[0].count, b = toPlay[1].count + played[1].count;
            outcome = PYWAR_OUTCOME_CAPPED;
            winner = a == b ? -1 : a > b ? 0 : 1;
            break;
        }
        rounds++;
        int streak = 0, depth = 0;
        for (;;) {
            battles++;
            for (int p = 0; p < 2; p++) {      /* 'to play' was refilled after the battle */
                pot[n] = toPlay[p].cards[--toPlay[p].count];
                digest = Digest_FoldCard(digest, DIGEST_FACE_UP, p, pot[n]);
                n++;
            }
            int a = pot[n - 2] % 13, b = pot[n - 1] % 13;
            int w = a == b ? -1 : a > b ? 0 : 1;
            digest = Digest_Fold(digest, DIGEST_BATTLE | (w < 0 ? DIGEST_TIE : (uint32_t)w));
            if (w >= 0) {
                for (int i = n - 1; i >= 0; i--) {
                    played[w].cards[played[w].count++] = pot[i];
                }
                biggest = n > biggest ? n : biggest;
                n = 0;
            } else {
                ties++;
                streak++;
                longest = streak > longest ? streak : longest;
            }
            for (int p = 0; p < 2; p++) {          /* after every battle */
                if (toPlay[p].count == 0 && played[p].count > 0) {
                    Refill(&g, &toPlay[p], &played[p], p, &digest);
                    refills++;
                }
            }
            int heldA = toPlay[0].count + played[0].count;
            int heldB = toPlay[1].count + played[1].count;
            if (w >= 0) {
                if ((w == 0 ? heldB : heldA) == 0) {
                    winner = w;
                    over = 1;
                }
                break;
            }
            if (heldA == 0 || heldB == 0) {       /* a short war loses */
                outcome = heldA == 0 && heldB == 0 ? PYWAR_OUTCOME_BOTH_LOSE : PYWAR_OUTCOME_WIN;
                winner = heldA == 0 && heldB == 0 ? -1 : heldA == 0 ? 1 : 0;
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
        int margin = toPlay[0].count + played[0].count - toPlay[1].count - played[1].count;
        behind[1] = margin > behind[1] ? margin : behind[1];
        behind[0] = -margin > behind[0] ? -margin : behind[0];
        if (margin != 0) {
            int now = margin > 0 ? 0 : 1;
            leads += leader >= 0 && now != leader;
            leader = now;
        }
    }
    digest = Digest_Fold(digest, DIGEST_END | (uint32_t)outcome << 4 | (uint32_t)(winner + 1));
    int comeback = winner >= 0 ? behind[winner] : 0;
    int32_t fields[] = {rounds, battles, ties, wars, longest, n, winner, outcome, -1, -1,
                        leads, biggest, comeback, deepest, refills};
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
        fprintf(stderr, "usage: %s COUNT FIRST_SEED\n", argv[0]);
        return 2;
    }
    long long count = atoll(argv[1]);
    uint32_t seed = (uint32_t)strtoul(argv[2], NULL, 10);
    Totals totals = {0};
    for (int i = 0; i < FOLDS; i++) {
        totals.folds[i] = DIGEST_OFFSET;
    }
    double start = Now();
    for (long long i = 0; i < count; i++) {
        Game((uint32_t)(seed + (uint64_t)i), &totals);
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
