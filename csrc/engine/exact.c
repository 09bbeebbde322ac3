/* exact.c: every deal of a small deck, each played to its end (docs/rules.md section 14).
 *
 * Under rules that draw nothing after the deal (queue piles, a fixed pickup), a game
 * depends only on the ranks in deal order: cards of one rank are interchangeable.  So a
 * part plays every distinct rank sequence that starts with its prefix, in lexicographic
 * order, and counts how each ends in a census.  The loop is specialized for this: a hand is one
 * 64-bit word of 4-bit ranks (the top card in the low bits), so a card is played with a
 * shift and won with an or, and a state is three words, which Brent's search compares
 * after every round just as the engine does (game.c, cycle.c).  It takes the engine's
 * steps (RankGame_War is Game_War, and so on) on ranks instead of card ids;
 * pywar/twin/exact.py takes the same steps in Python, and the tests hold both to
 * pywar_play, deal by deal.
 *
 * Nothing is global; a part allocates only its census's histograms and set of cycles,
 * which pywar_exact_free releases. */
#include <stdlib.h>
#include <string.h>

#include "pywar.h"
#include "../common/stop.h"

#define EXACT_A PYWAR_PLAYER_A
#define EXACT_B PYWAR_PLAYER_B
#define EXACT_BOTH 3u
#define EXACT_STOP_EVERY 4096u    /* sequences between looks at the stop flag */
#define RANK_BITS 4               /* a hand packs its ranks, 4 bits each, top first */
#define RANK_MASK 15u             /* one rank of a packed hand */
#define FIRST_KEYS 256            /* the cycle-key table's first capacity */
#define FIRST_HISTOGRAM 64        /* a histogram's first size */

/* The rules as the loop reads them, decided once per part. */
typedef struct ExactSpec {
    int cards;               /* n, the deck's cards */
    int faceDown;
    int shortWar;            /* enum PywarShortWar */
    int pickup;              /* enum PywarPickup */
    int32_t maxRounds;
    uint64_t bFirst;         /* 1: a two-card pot won by A is taken B's card first */
    uint64_t bFirstFlips;    /* 1: ... and the other way round when B wins it */
    int seatless;            /* 1: the rules treat the seats alike (Exact_Seatless) */
} ExactSpec;

/* One game on ranks: the engine's Game with a hand in a word. */
typedef struct RankGame {
    uint64_t hand[2];        /* 4 bits a card, the top (played next) in the low bits */
    int count[2];
    uint8_t potRank[PYWAR_EXACT_MAX_CARDS];     /* 'currently in play', bottom first */
    uint8_t potOwner[PYWAR_EXACT_MAX_CARDS];
    int potCount;
    int up[2];               /* each player's face-up rank in this battle */
    int32_t rounds;
    int32_t battles;
    int32_t ties;
    int32_t wars;
    int32_t period;          /* the cycle's rounds, once found */
    int over;
    int outcome;             /* enum PywarOutcome */
    int winner;
} RankGame;

/* A cycle's key (section 14): A's card count, then every rank as a base-16 digit. */
typedef struct CycleKey {
    uint64_t countA;
    uint64_t digits;
} CycleKey;

typedef struct WarPlan {
    int down;
    int loses;
    int takesBack;
} WarPlan;

/* ---- Hands and the pot ---- */

static inline int RankGame_Pop(RankGame *table, int player)
{
    int rank = (int)(table->hand[player] & RANK_MASK);
    table->hand[player] >>= RANK_BITS;
    table->count[player]--;
    return rank;
}

static inline void RankGame_Push(RankGame *table, int player, int rank)
{
    table->hand[player] |= (uint64_t)rank << (RANK_BITS * table->count[player]);
    table->count[player]++;
}

static void RankGame_PutInPot(RankGame *table, int player, int rank)
{
    table->potRank[table->potCount] = (uint8_t)rank;
    table->potOwner[table->potCount] = (uint8_t)player;
    table->potCount++;
}

/* Deal a rank sequence alternately, A first: each hand plays its cards in the order
 * received. */
static inline void RankGame_Deal(RankGame *table, const uint8_t *ranks, int cards)
{
    table->hand[EXACT_A] = table->hand[EXACT_B] = 0;
    table->count[EXACT_A] = table->count[EXACT_B] = 0;
    for (int i = 0; i < cards; i++) {
        RankGame_Push(table, i & 1, ranks[i]);
    }
    table->potCount = 0;
    table->rounds = 0;
    table->battles = 0;
    table->ties = 0;
    table->wars = 0;
    table->period = -1;
    table->over = 0;
    table->outcome = PYWAR_OUTCOME_WIN;
    table->winner = PYWAR_NOBODY;
}

/* ---- A round (game.c: Game_PlayRound and the steps it takes) ---- */

/* The player's last face-up card leaves the pot, to be played again (all-but-one). */
static int RankGame_TakeBack(RankGame *table, int player)
{
    int position = table->potCount - 1;
    while (table->potOwner[position] != player) {
        position--;
    }
    int rank = table->potRank[position];
    for (int i = position; i < table->potCount - 1; i++) {
        table->potRank[i] = table->potRank[i + 1];
        table->potOwner[i] = table->potOwner[i + 1];
    }
    table->potCount--;
    return rank;
}

/* A then B put a card face up; takesBack has bit p for a player who takes back. */
static void RankGame_FaceUp(RankGame *table, unsigned takesBack)
{
    table->battles++;
    for (int p = 0; p < 2; p++) {
        int rank = takesBack & (1u << p) ? RankGame_TakeBack(table, p) : RankGame_Pop(table, p);
        RankGame_PutInPot(table, p, rank);
        table->up[p] = rank;
    }
}

/* One seat's pot cards in the order they were put down. */
static int RankGame_SeatCards(const RankGame *table, int seat, uint8_t *ranks)
{
    int count = 0;
    for (int i = 0; i < table->potCount; i++) {
        if (table->potOwner[i] == seat) {
            ranks[count++] = table->potRank[i];
        }
    }
    return count;
}

/* The pot's cards by seat: the first seat's, then the other's; or one of each in turn. */
static void RankGame_OrderBySeat(const RankGame *table, int firstSeat, int interleave,
                              uint8_t *order)
{
    uint8_t first[PYWAR_EXACT_MAX_CARDS], second[PYWAR_EXACT_MAX_CARDS];
    int firstCount = RankGame_SeatCards(table, firstSeat, first);
    int secondCount = RankGame_SeatCards(table, 1 - firstSeat, second);
    int k = 0;
    if (!interleave) {
        memcpy(order, first, (size_t)firstCount);
        memcpy(order + firstCount, second, (size_t)secondCount);
        return;
    }
    for (int i = 0; i < firstCount || i < secondCount; i++) {
        if (i < firstCount) {
            order[k++] = first[i];
        }
        if (i < secondCount) {
            order[k++] = second[i];
        }
    }
}

/* The pot in the order the winner takes it (docs/rules.md 7.4). */
static void RankGame_PickupOrder(const RankGame *table, int pickup, int winner, uint8_t *order)
{
    int n = table->potCount, counts[RANK_MASK + 1] = {0}, k = 0;
    switch (pickup) {
    case PYWAR_PICKUP_NATURAL:
        /* the pot from the top, each battle's face-up cards highest first: with two
         * players every battle of a round but the last tied, so in ranks only the last
         * battle's pair, the pot's top two (a take-back too puts its card on top), is
         * sorted (Game_OrderHighFirst sorts every battle's) */
        for (int i = 0; i < n; i++) {
            order[i] = table->potRank[n - 1 - i];
        }
        if (n >= 2 && order[1] > order[0]) {
            order[0] = order[1];
            order[1] = table->potRank[n - 1];
        }
        break;
    case PYWAR_PICKUP_SORTED:   /* a counting sort, the highest rank first */
        for (int i = 0; i < n; i++) {
            counts[table->potRank[i]]++;
        }
        for (int rank = RANK_MASK; rank >= 0; rank--) {
            for (int c = 0; c < counts[rank]; c++) {
                order[k++] = (uint8_t)rank;
            }
        }
        break;
    case PYWAR_PICKUP_SMU:
        for (int i = 0; i < n; i++) {
            order[i] = table->potRank[n - 1 - i];
        }
        break;
    case PYWAR_PICKUP_POT_ORDER:
        memcpy(order, table->potRank, (size_t)n);
        break;
    case PYWAR_PICKUP_WINNER_FIRST:
        RankGame_OrderBySeat(table, winner, 0, order);
        break;
    case PYWAR_PICKUP_LOSER_FIRST:
        RankGame_OrderBySeat(table, 1 - winner, 0, order);
        break;
    case PYWAR_PICKUP_SEAT_INTERLEAVED:
        RankGame_OrderBySeat(table, EXACT_A, 1, order);
        break;
    default: /* seat-block */
        RankGame_OrderBySeat(table, EXACT_A, 0, order);
        break;
    }
}

/* The winner takes the pot to the bottom of its hand. */
static void RankGame_Collect(RankGame *table, const ExactSpec *spec, int winner)
{
    uint8_t order[PYWAR_EXACT_MAX_CARDS];
    RankGame_PickupOrder(table, spec->pickup, winner, order);
    for (int i = 0; i < table->potCount; i++) {
        RankGame_Push(table, winner, order[i]);
    }
    table->potCount = 0;
}

/* The game ends with the players in losers out of cards (iofall: B wins if both are). */
static void RankGame_RunOut(RankGame *table, const ExactSpec *spec, unsigned losers)
{
    table->over = 1;
    table->outcome = PYWAR_OUTCOME_WIN;
    if (losers == EXACT_BOTH && spec->shortWar != PYWAR_SHORT_IOFALL) {
        table->outcome = PYWAR_OUTCOME_BOTH_LOSE;
        return;
    }
    table->winner = losers & 1u ? EXACT_B : EXACT_A;
}

/* How a player with n cards meets a war (docs/rules.md 7.6). */
static WarPlan RankGame_PlanWar(const RankGame *table, const ExactSpec *spec, int player)
{
    int n = table->count[player];
    WarPlan plan = {spec->faceDown, 0, 0};
    if (n >= spec->faceDown + 1) {
        return plan;
    }
    plan.down = n > 0 ? n - 1 : 0;
    switch (spec->shortWar) {
    case PYWAR_SHORT_LOSE:
        plan.down = 0;
        plan.loses = 1;
        break;
    case PYWAR_SHORT_LAST_CARD:
        plan.loses = n == 0;
        break;
    case PYWAR_SHORT_ALL_BUT_ONE:
        plan.takesBack = n == 0;
        break;
    default: /* iofall */
        plan.down = n >= spec->faceDown ? spec->faceDown : (n - 1 > 1 ? n - 1 : 1);
        plan.down = n == 0 ? 0 : plan.down;
        plan.loses = n - plan.down == 0;
        break;
    }
    return plan;
}

/* After a tie: face-down cards, A's then B's, then a new face-up pair.
 * Returns 1 when a player runs out instead. */
static int RankGame_War(RankGame *table, const ExactSpec *spec)
{
    WarPlan plans[2];
    unsigned losers = 0, takers = 0;
    for (int p = 0; p < 2; p++) {
        plans[p] = RankGame_PlanWar(table, spec, p);
        losers |= (unsigned)plans[p].loses << p;
        takers |= (unsigned)plans[p].takesBack << p;
    }
    if (takers == EXACT_BOTH) {
        losers = takers;
    }
    if (losers != 0 && spec->shortWar != PYWAR_SHORT_IOFALL) {
        RankGame_RunOut(table, spec, losers);
        return 1;
    }
    for (int p = 0; p < 2; p++) {
        for (int i = 0; i < plans[p].down; i++) {
            RankGame_PutInPot(table, p, RankGame_Pop(table, p));
        }
    }
    if (losers != 0) {
        RankGame_RunOut(table, spec, losers);
        return 1;
    }
    table->wars++;
    RankGame_FaceUp(table, takers);
    return 0;
}

/* A round whose first battle tied (both played rank): wars until a battle is won or a
 * player runs out. */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static int RankGame_PlayTie(RankGame *table, const ExactSpec *spec, int rank)
{
    table->up[EXACT_A] = table->up[EXACT_B] = rank;
    RankGame_PutInPot(table, EXACT_A, rank);
    RankGame_PutInPot(table, EXACT_B, rank);
    while (table->up[EXACT_A] == table->up[EXACT_B]) {
        table->ties++;
        if (RankGame_War(table, spec)) {
            return 1;
        }
    }
    int winner = table->up[EXACT_A] > table->up[EXACT_B] ? EXACT_A : EXACT_B;
    RankGame_Collect(table, spec, winner);
    if (table->count[1 - winner] == 0) {
        RankGame_RunOut(table, spec, 1u << (1 - winner));
    }
    return table->over;
}

/* The hands as the loop holds them, in registers: the RankGame's hands and counts. */
typedef struct Quick {
    uint64_t handA;
    uint64_t handB;
    int countA;
    int countB;
    int32_t rounds;
    int32_t battles;
} Quick;

static inline Quick Quick_Load(const RankGame *table)
{
    Quick quick = {table->hand[EXACT_A], table->hand[EXACT_B], table->count[EXACT_A],
                   table->count[EXACT_B], table->rounds, table->battles};
    return quick;
}

static inline void Quick_Store(const Quick *quick, RankGame *table)
{
    table->hand[EXACT_A] = quick->handA;
    table->hand[EXACT_B] = quick->handB;
    table->count[EXACT_A] = quick->countA;
    table->count[EXACT_B] = quick->countB;
    table->rounds = quick->rounds;
    table->battles = quick->battles;
}

/* One round. Returns 1 at the end of the game.  A first battle that is won (every
 * battle, in a deck of distinct ranks) takes the short way, without branches on who
 * won: the two-card pot goes under the winner's hand in one or.  A tie takes the
 * RankGame's general way. */
static inline int RankGame_PlayRound(Quick *quick, RankGame *table, const ExactSpec *spec)
{
    uint64_t a = quick->handA & RANK_MASK, b = quick->handB & RANK_MASK;
    quick->handA >>= RANK_BITS;
    quick->handB >>= RANK_BITS;
    quick->countA--;
    quick->countB--;
    quick->rounds++;
    quick->battles++;
    if (a == b) {
        Quick_Store(quick, table);
        int over = RankGame_PlayTie(table, spec, (int)a);
        *quick = Quick_Load(table);
        return over;
    }
    uint64_t bWins = a < b;
    uint64_t bFirst = spec->bFirst ^ (bWins & spec->bFirstFlips);
    uint64_t low = bFirst ? b : a;
    uint64_t pair = low | (a ^ b ^ low) << RANK_BITS;
    uint64_t toB = 0 - bWins;
    int shift = RANK_BITS * (bWins ? quick->countB : quick->countA);
    quick->handA |= (pair << shift) & ~toB;
    quick->handB |= (pair << shift) & toB;
    quick->countA += 2 - 2 * (int)bWins;
    quick->countB += 2 * (int)bWins;
    if (quick->countA == 0 || quick->countB == 0) {
        table->over = 1;
        table->winner = (int)bWins;
    }
    return table->over;
}

/* The whole game: rounds until an end, the cap, or a repeat found by Brent's search,
 * as in Game_PlayWith. */
static inline void RankGame_Play(RankGame *table, const ExactSpec *spec)
{
    Quick quick = Quick_Load(table);
    Quick saved = quick;
    int32_t power = 1, lambda = 0;
    for (;;) {
        if (quick.rounds >= spec->maxRounds) {
            table->over = 1;
            table->outcome = PYWAR_OUTCOME_CAPPED;
            table->winner = quick.countA == quick.countB ? PYWAR_NOBODY
                            : quick.countA > quick.countB ? EXACT_A : EXACT_B;
            break;
        }
        if (RankGame_PlayRound(&quick, table, spec)) {
            break;
        }
        lambda++;
        if (quick.handA == saved.handA && quick.handB == saved.handB
            && quick.countA == saved.countA) {
            table->over = 1;
            table->outcome = PYWAR_OUTCOME_CYCLE;
            table->period = lambda;
            break;
        }
        if (lambda == power) {
            saved = quick;
            power *= 2;
            lambda = 0;
        }
    }
    Quick_Store(&quick, table);
}

/* ---- Cycles ---- */

/* A state's key, or its player-swapped twin's: (A's count, A's ranks then B's, top
 * first, as base-16 digits from the lowest). */
static inline CycleKey Exact_StateKey(const Quick *quick, int swapped)
{
    CycleKey key;
    if (swapped) {
        key.countA = (uint64_t)quick->countB;
        key.digits = quick->handB | quick->handA << (RANK_BITS * quick->countB);
    } else {
        key.countA = (uint64_t)quick->countA;
        key.digits = quick->handA | quick->handB << (RANK_BITS * quick->countA);
    }
    return key;
}

static inline int Exact_KeyLess(CycleKey a, CycleKey b)
{
    return a.countA != b.countA ? a.countA < b.countA : a.digits < b.digits;
}

/* The key of the cycle a game has fallen into: the least key of the cycle's states, and
 * where the rules treat the seats alike of their player-swapped twins too, so that a
 * cycle and its twin (then a cycle too) have one key. */
static CycleKey Exact_CycleKey(const RankGame *table, const ExactSpec *spec)
{
    RankGame walker = *table;                /* for ties only; the hands stay in quick */
    Quick quick = Quick_Load(table);
    CycleKey best = Exact_StateKey(&quick, 0);
    walker.over = 0;
    for (int32_t i = 0; i < table->period; i++) {
        if (i > 0) {
            RankGame_PlayRound(&quick, &walker, spec);
        }
        for (int swapped = 0; swapped <= spec->seatless; swapped++) {
            CycleKey key = Exact_StateKey(&quick, swapped);
            best = Exact_KeyLess(key, best) ? key : best;
        }
    }
    return best;
}

static uint64_t Exact_Hash(CycleKey key)
{
    uint64_t h = (key.digits ^ (key.countA * 0x9e3779b97f4a7c15ull)) * 0xbf58476d1ce4e5b9ull;
    return h ^ (h >> 31);
}

/* Put a key in an open-addressed table of capacity slots (a power of two); each slot is
 * two words, (countA + 1, digits), and countA + 1 = 0 marks an empty one.  1 if new. */
static int Exact_Place(uint64_t *slots, int64_t capacity, CycleKey key)
{
    uint64_t mask = (uint64_t)capacity - 1;
    for (uint64_t i = Exact_Hash(key) & mask;; i = (i + 1) & mask) {
        if (slots[2 * i] == 0) {
            slots[2 * i] = key.countA + 1;
            slots[2 * i + 1] = key.digits;
            return 1;
        }
        if (slots[2 * i] == key.countA + 1 && slots[2 * i + 1] == key.digits) {
            return 0;
        }
    }
}

/* Add a cycle to the census's set, growing the table to keep it at most half full. */
static int Exact_AddCycle(PywarExactCensus *census, CycleKey key)
{
    if (2 * (census->keys_count + 1) > census->keys_capacity) {
        int64_t capacity = census->keys_capacity ? 2 * census->keys_capacity : FIRST_KEYS;
        uint64_t *slots = calloc((size_t)capacity * 2, sizeof *slots);
        if (slots == NULL) {
            return PYWAR_ENOMEM;
        }
        for (int64_t i = 0; i < census->keys_capacity; i++) {
            if (census->keys[2 * i] != 0) {
                CycleKey old = {census->keys[2 * i] - 1, census->keys[2 * i + 1]};
                Exact_Place(slots, capacity, old);
            }
        }
        free(census->keys);
        census->keys = slots;
        census->keys_capacity = capacity;
    }
    census->keys_count += Exact_Place(census->keys, census->keys_capacity, key);
    return PYWAR_OK;
}

/* ---- The census ---- */

/* histogram[index] += weight, growing it (zero-filled) as needed. */
static int Exact_Count(uint64_t **histogram, int32_t *size, int32_t index, uint64_t weight)
{
    if (index >= *size) {
        int32_t grown = *size > 0 ? *size : FIRST_HISTOGRAM;
        while (grown <= index) {
            grown *= 2;
        }
        uint64_t *bigger = realloc(*histogram, (size_t)grown * sizeof *bigger);
        if (bigger == NULL) {
            return PYWAR_ENOMEM;
        }
        memset(bigger + *size, 0, (size_t)(grown - *size) * sizeof *bigger);
        *histogram = bigger;
        *size = grown;
    }
    (*histogram)[index] += weight;
    return PYWAR_OK;
}

/* The player-swapped deal: the cards of each pair of deal positions trade places. */
static void Exact_SwappedDeal(const uint8_t *ranks, int cards, uint8_t *twin)
{
    for (int i = 0; i + 1 < cards; i += 2) {
        twin[i] = ranks[i + 1];
        twin[i + 1] = ranks[i];
    }
}

/* A candidate for a record game that ends: the most rounds (or battles, byBattles),
 * then the least sequence. */
static void Exact_Longest(PywarExactRecord *best, int byBattles, const RankGame *table,
                          const uint8_t *ranks, int cards)
{
    int32_t length = byBattles ? table->battles : table->rounds;
    int32_t record = byBattles ? best->battles : best->rounds;
    if (length > record
        || (length == record && memcmp(ranks, best->ranks, (size_t)cards) < 0)) {
        best->rounds = table->rounds;
        best->battles = table->battles;
        memcpy(best->ranks, ranks, (size_t)cards);
    }
}

/* A game that ended, and its twin if the part is mirrored: their lengths and records. */
static int Exact_Ended(PywarExactCensus *census, const RankGame *table, const uint8_t *ranks,
                       int cards, int mirrored)
{
    uint64_t weight = 1 + (uint64_t)mirrored;
    int status = Exact_Count(&census->rounds, &census->rounds_size, table->rounds, weight);
    if (status == PYWAR_OK) {
        status = Exact_Count(&census->battles, &census->battles_size, table->battles, weight);
    }
    for (int byBattles = 0; byBattles <= 1; byBattles++) {
        PywarExactRecord *best = byBattles ? &census->most_battles : &census->longest;
        int candidate = byBattles ? table->battles >= best->battles
                                  : table->rounds >= best->rounds;
        if (candidate) {
            uint8_t twin[PYWAR_EXACT_MAX_CARDS];
            Exact_Longest(best, byBattles, table, ranks, cards);
            if (mirrored) {
                Exact_SwappedDeal(ranks, cards, twin);
                Exact_Longest(best, byBattles, table, twin, cards);
            }
        }
    }
    return status;
}

/* Count a game, and for a mirrored part its twin too: the same game with the players
 * swapped, so the other player wins. */
static int Exact_Record(PywarExactCensus *census, const RankGame *table, const ExactSpec *spec,
                        const uint8_t *ranks, int mirrored)
{
    uint64_t weight = 1 + (uint64_t)mirrored;
    census->sequences += weight;
    switch (table->outcome) {
    case PYWAR_OUTCOME_CYCLE:
        census->cycles += weight;
        if (Exact_Count(&census->periods, &census->periods_size, table->period, weight)
            != PYWAR_OK) {
            return PYWAR_ENOMEM;
        }
        return Exact_AddCycle(census, Exact_CycleKey(table, spec));
    case PYWAR_OUTCOME_CAPPED:
        census->capped += weight;
        return PYWAR_OK;
    case PYWAR_OUTCOME_BOTH_LOSE:
        census->both_lose += weight;
        break;
    default:
        census->a_wins += table->winner == EXACT_A || mirrored;
        census->b_wins += table->winner == EXACT_B || mirrored;
        break;
    }
    return Exact_Ended(census, table, ranks, spec->cards, mirrored);
}

static int Exact_List(PywarExactList *list, const RankGame *table)
{
    if (list == NULL) {
        return PYWAR_OK;
    }
    if (list->count >= list->capacity) {
        return PYWAR_EINVAL;
    }
    int64_t i = list->count++;
    list->winner[i] = (int8_t)table->winner;
    list->outcome[i] = (int8_t)table->outcome;
    list->rounds[i] = table->rounds;
    list->battles[i] = table->battles;
    list->ties[i] = table->ties;
    list->wars[i] = table->wars;
    list->cycle_period[i] = table->period;
    return PYWAR_OK;
}

/* ---- The enumeration ---- */

/* The next rank sequence in lexicographic order that keeps ranks[0 .. fixed - 1];
 * 0 after the last. */
static int Exact_Next(uint8_t *ranks, int fixed, int cards)
{
    int i = cards - 2;
    while (i >= fixed && ranks[i] >= ranks[i + 1]) {
        i--;
    }
    if (i < fixed) {
        return 0;
    }
    int j = cards - 1;
    while (ranks[j] <= ranks[i]) {
        j--;
    }
    uint8_t swap = ranks[i];
    ranks[i] = ranks[j];
    ranks[j] = swap;
    for (int lo = i + 1, hi = cards - 1; lo < hi; lo++, hi--) {
        swap = ranks[lo];
        ranks[lo] = ranks[hi];
        ranks[hi] = swap;
    }
    return 1;
}

/* 1 when swapping the players maps every game to its mirror image: a pickup by who won
 * or by rank (not by seat; natural only without face-down cards, which it takes in seat
 * order, B's first) and a short war other than iofall's, where B wins if both run out.
 * The rule is the table's (SEATLESS_PICKUPS in pywar/common/fields.py, written into
 * fields.h), which the Python twin reads too. */
static int Exact_Seatless(const PywarRules *rules)
{
    return PYWAR_SEATLESS(rules);
}

static int Exact_Spec(const PywarRules *rules, ExactSpec *spec)
{
    /* a two-card pot: smu takes B's card first (the pot reversed), winner-first,
     * natural and sorted the winner's (the higher), loser-first the loser's, and the
     * other pickups A's.  Measured (2026-12-03, 2 threads, docs/performance.md): every
     * deal of 4x4 with face_down 0, short_war lose, in 8.0 CPU-s for natural, 9.5 for
     * sorted, 10.2 for winner-first (4.1 s and 4.8 s of wall time at load 1).
     *   pywar exact --deck 4x4 --face-down 0 --short-war lose --piles queue --pickup natural */
    static const uint8_t B_FIRST[PYWAR_PICKUP_SORTED + 1] = {1, 0, 0, 0, 1, 0, 0, 0, 0};
    static const uint8_t B_FIRST_FLIPS[PYWAR_PICKUP_SORTED + 1] = {0, 0, 0, 1, 1, 0, 0, 1, 1};
    if (pywar_rules_check(rules) != PYWAR_OK || rules->game != PYWAR_GAME_WAR
        || rules->piles != PYWAR_PILES_QUEUE || rules->players != 2 || rules->pickup == PYWAR_PICKUP_RANDOM || !rules->detect_cycles
        || rules->ranks * rules->suits > PYWAR_EXACT_MAX_CARDS) {
        return PYWAR_EINVAL;
    }
    spec->cards = rules->ranks * rules->suits;
    spec->faceDown = rules->face_down;
    spec->shortWar = rules->short_war;
    spec->pickup = rules->pickup;
    spec->maxRounds = rules->max_rounds;
    spec->bFirst = B_FIRST[rules->pickup];
    spec->bFirstFlips = B_FIRST_FLIPS[rules->pickup];
    spec->seatless = Exact_Seatless(rules);
    return PYWAR_OK;
}

/* The part's first sequence: the prefix, then the other ranks in increasing order.
 * PYWAR_EINVAL for a prefix that is not the start of a deal of the deck. */
static int Exact_First(const PywarRules *rules, const uint8_t *prefix, int prefixLength,
                       uint8_t *ranks)
{
    int left[PYWAR_EXACT_MAX_CARDS];
    int cards = rules->ranks * rules->suits, k = prefixLength;
    if (prefixLength < 0 || prefixLength > cards || (prefix == NULL && prefixLength > 0)) {
        return PYWAR_EINVAL;
    }
    for (int r = 0; r < rules->ranks; r++) {
        left[r] = rules->suits;
    }
    for (int i = 0; i < prefixLength; i++) {
        if (prefix[i] >= rules->ranks || left[prefix[i]] == 0) {
            return PYWAR_EINVAL;
        }
        left[prefix[i]]--;
        ranks[i] = prefix[i];
    }
    for (int r = 0; r < rules->ranks; r++) {
        for (int s = 0; s < left[r]; s++) {
            ranks[k++] = (uint8_t)r;
        }
    }
    return PYWAR_OK;
}

/* A mirrored part stands for its twin part too, which is exact only where the rules
 * treat the seats alike and both hands are equal (docs/rules.md section 14), and only
 * when the twin part is another part. */
static int Exact_CanMirror(const PywarRules *rules, const uint8_t *prefix, int prefixLength)
{
    uint8_t twin[PYWAR_EXACT_MAX_CARDS];
    if (!Exact_Seatless(rules) || rules->ranks * rules->suits % 2 != 0
        || prefixLength % 2 != 0) {
        return 0;
    }
    Exact_SwappedDeal(prefix, prefixLength, twin);
    return memcmp(prefix, twin, (size_t)prefixLength) != 0;
}

int pywar_exact_part(const PywarRules *rules, const uint8_t *prefix, int prefix_length,
                     int mirrored, PywarExactCensus *census, PywarExactList *list,
                     volatile int32_t *stop)
{
    ExactSpec spec;
    RankGame table;
    uint8_t ranks[PYWAR_EXACT_MAX_CARDS];
    uint64_t played = 0;
    int status = PYWAR_OK;
    if (rules == NULL || census == NULL || Exact_Spec(rules, &spec) != PYWAR_OK
        || Exact_First(rules, prefix, prefix_length, ranks) != PYWAR_OK
        || (mirrored && !Exact_CanMirror(rules, prefix, prefix_length))) {
        return PYWAR_EINVAL;
    }
    mirrored = mirrored != 0;
    do {
        if (stop != NULL && played++ % EXACT_STOP_EVERY == 0 && Stop_IsSet(stop)) {
            status = PYWAR_ESTOPPED;
            break;
        }
        RankGame_Deal(&table, ranks, spec.cards);
        RankGame_Play(&table, &spec);
        status = Exact_Record(census, &table, &spec, ranks, mirrored);
        if (status == PYWAR_OK) {
            status = Exact_List(list, &table);
        }
    } while (status == PYWAR_OK && Exact_Next(ranks, prefix_length, spec.cards));
    return status;
}

void pywar_exact_free(PywarExactCensus *census)
{
    if (census == NULL) {
        return;
    }
    free(census->rounds);
    free(census->battles);
    free(census->periods);
    free(census->keys);
    memset(census, 0, sizeof *census);
}
