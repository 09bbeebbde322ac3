/* game.c: one game of War in the engine (docs/rules.md section 7).
 *
 * The engine is written for speed.  Its data is flat: a card is a byte, its rank a
 * table lookup, a hand a ring of bytes (hand.h), the pot two byte arrays.  And each
 * rule dimension is decided once per game, not once per card: every step takes a Spec,
 * the rules as plain numbers, by value, and is inlined into the game's loop.  Game_Play
 * runs one copy of that loop for each preset, with the preset's Spec as a constant, so
 * that the compiler folds away the branches of the rules the preset does not use; every
 * other combination runs the general copy.
 *
 * Nothing is allocated: a game lives in its Game struct.  Events (docs/trace.md) are
 * built only for an observed game, one with a transcript or a trace.
 * pywar/twin/game.py takes the same steps, with the same names, in Python. */
#include <string.h>

#include "cycle.h"
#include "digest.h"
#include "game.h"
#include "shuffle.h"
#include "text.h"
#include "trace.h"

#if defined(__GNUC__)
#define STEP static inline __attribute__((always_inline))
#define COLD static __attribute__((noinline, cold))
#else
#define STEP static inline
#define COLD static
#endif

#define ALL_PLAYERS(players) ((1u << (players)) - 1u)

/* The rules as the loop reads them, decided once per game. */
typedef struct Spec {
    int players;
    int faceDown;
    int shortWar;     /* enum PywarShortWar */
    int pickup;       /* enum PywarPickup */
    int queue;        /* 1: one queue per player; 0: 'to play' and 'played' */
    int shuffle;      /* enum PywarShuffle */
    int owners;       /* 1: remember who put each pot card down (seat pickups, take-backs) */
    int watching;     /* 1: look for a repeated state after every round */
    int observed;     /* 1: tell the events to the trace and the narrator */
} Spec;

/* How a player meets a war: cards to put face down, and whether it runs out or takes
 * back its last face-up card to play it again. */
typedef struct WarPlan {
    int down;
    int loses;
    int takesBack;
} WarPlan;

/* Lehigh's Card(n) builds clubs, diamonds, hearts, spades (docs/rules.md section 2). */
static const uint8_t LEHIGH_SUITS[4] = {3, 1, 0, 2};

/* ---- Setting up ---- */

void Game_Init(Game *game, uint32_t seed, const PywarRules *rules, PywarText *text,
               PywarText *trace)
{
    game->rules = *rules;
    game->players = rules->players;
    game->deckSize = rules->ranks * rules->suits;
    for (int id = 0; id < game->deckSize; id++) {
        game->rank[id] = (uint8_t)(id % rules->ranks);
    }
    game->given = 0;
    game->observed = text != NULL || trace != NULL;
    game->trace = trace;
    game->stop = NULL;
    Narrator_Init(&game->narrator, text, rules, 1);
    game->seed = seed;
}

/* Ready the table for a game with this seed: nothing dealt and nothing counted.
 * A batch plays many games on one Game this way. */
static void Game_NewGame(Game *game, uint32_t seed)
{
    PywarResult fresh = {0};
    fresh.winner = PYWAR_NOBODY;
    fresh.cycle_start = -1;
    fresh.cycle_period = -1;
    fresh.digest = DIGEST_OFFSET;
    game->result = fresh;
    game->seed = seed;
    game->over = 0;
    for (int p = 0; p < game->players; p++) {
        Hand_Clear(&game->toPlay[p]);
        Hand_Clear(&game->played[p]);
        game->lost[p] = 0;
    }
    game->potCount = 0;
    Rng_Seed(&game->rng, seed);
}

/* Use a given deal: distinct card ids of the deck, at least one card a hand. */
int Game_SetDeal(Game *game, const uint8_t *deal, const int *handCounts)
{
    int seen[PYWAR_MAXCARDS] = {0};
    int total = 0;
    for (int p = 0; p < game->players; p++) {
        if (handCounts[p] < 1) {
            return PYWAR_EINVAL;
        }
        total += handCounts[p];
    }
    if (total > game->deckSize) {
        return PYWAR_EINVAL;
    }
    for (int i = 0; i < total; i++) {
        if (deal[i] >= game->deckSize || seen[deal[i]]) {
            return PYWAR_EINVAL;
        }
        seen[deal[i]] = 1;
        game->deal[i] = deal[i];
    }
    memcpy(game->handCounts, handCounts, sizeof game->handCounts[0] * (size_t)game->players);
    game->given = 1;
    game->narrator.shuffled = 0;
    return PYWAR_OK;
}

static Spec Game_Spec(const Game *game)
{
    const PywarRules *rules = &game->rules;
    Spec spec;
    spec.players = game->players;
    spec.faceDown = rules->face_down;
    spec.shortWar = rules->short_war;
    spec.pickup = rules->pickup;
    spec.queue = rules->piles == PYWAR_PILES_QUEUE;
    spec.shuffle = rules->shuffle;
    spec.owners = rules->short_war == PYWAR_SHORT_ALL_BUT_ONE
                  || rules->pickup >= PYWAR_PICKUP_WINNER_FIRST;
    /* a game can repeat only when nothing random happens after the deal */
    spec.watching = rules->detect_cycles && spec.queue && rules->pickup != PYWAR_PICKUP_RANDOM;
    spec.observed = game->observed;
    return spec;
}

/* ---- Events: the digest always, the trace and the narrator when observed ---- */

STEP void Game_Fold(Game *game, uint32_t code)
{
    game->result.digest = Digest_Fold(game->result.digest, code);
}

STEP void Game_FoldCard(Game *game, uint32_t kind, int player, int card)
{
    game->result.digest = Digest_FoldCard(game->result.digest, kind, player, card);
}

/* Tell an observed game's event, with where it stands and the sizes after it. */
COLD void Game_Tell(Game *game, TraceEvent *event)
{
    event->round = game->result.rounds;
    event->battle = game->result.battles;
    event->players = game->players;
    for (int p = 0; p < game->players; p++) {
        event->piles[p][0] = (int32_t)game->toPlay[p].count;
        event->piles[p][1] = (int32_t)game->played[p].count;
    }
    event->pot = game->potCount;
    Trace_Write(game->trace, event);
    Narrator_Event(&game->narrator, event);
}

/* An event of a player and some cards (-1 and none where they do not apply). */
COLD void Game_TellCards(Game *game, int kind, int player, const CardId *cards, int count)
{
    TraceEvent event;
    event.kind = kind;
    event.player = player;
    event.count = count;
    for (int i = 0; i < count; i++) {
        event.cards[i] = (uint8_t)cards[i];
    }
    Game_Tell(game, &event);
}

COLD void Game_TellDeal(Game *game)
{
    TraceEvent event;
    event.kind = TRACE_DEAL;
    event.count = 0;
    for (int p = 0; p < game->players; p++) {
        event.handCounts[p] = Hand_TopFirst(&game->toPlay[p], event.cards + event.count);
        event.count += event.handCounts[p];
    }
    Game_Tell(game, &event);
}

COLD void Game_TellBattle(Game *game, int winner, unsigned tied)
{
    TraceEvent event;
    event.kind = TRACE_BATTLE;
    event.player = winner;
    event.tied = (int)tied;
    Game_Tell(game, &event);
}

COLD void Game_TellEnd(Game *game)
{
    TraceEvent event;
    event.kind = TRACE_END;
    event.player = game->result.winner;
    event.outcome = game->result.outcome;
    Game_Tell(game, &event);
}

/* ---- The deal ---- */

/* A dealt card joins a hand: on top of a stack, at the bottom of a queue. */
STEP void Game_Place(Game *game, Spec spec, int player, CardId card)
{
    if (spec.queue) {
        Hand_PushBottom(&game->toPlay[player], card);
    } else {
        Hand_PushTop(&game->toPlay[player], card);
    }
    Game_FoldCard(game, DIGEST_DEAL, player, card);
}

/* The deck in build order in the pot: card ids in order, Lehigh's suits clubs first. */
static void Game_BuildDeck(Game *game)
{
    int lehigh = game->rules.narration == PYWAR_NARRATION_LEHIGH && game->rules.ranks == 13
                 && game->rules.suits == 4;
    for (int i = 0; i < game->deckSize; i++) {
        game->pot[i] = (CardId)(lehigh ? LEHIGH_SUITS[i / 13] * 13 + i % 13 : i);
    }
    game->potCount = game->deckSize;
}

/* A given deal, placed as dealt cards are; cards not dealt stay out of play. */
STEP void Game_DealGiven(Game *game, Spec spec)
{
    const uint8_t *ids = game->deal;
    for (int p = 0; p < spec.players; p++) {
        int count = game->handCounts[p];
        for (int i = 0; i < count; i++) {
            Game_Place(game, spec, p, ids[spec.queue ? i : count - 1 - i]);
        }
        ids += count;
    }
}

/* Shuffle the deck in the pot, then deal it from the top, A first, one card each. */
STEP void Game_Deal(Game *game, Spec spec)
{
    if (game->given) {
        Game_DealGiven(game, spec);
    } else {
        Game_BuildDeck(game);
        Shuffle_Cards(game->pot, game->deckSize, &game->rng, spec.shuffle);
        for (int i = 0; i < game->deckSize; i++) {
            Game_Place(game, spec, i % spec.players, game->pot[game->deckSize - 1 - i]);
        }
        game->potCount = 0;
    }
    if (spec.observed) {
        Game_TellDeal(game);
    }
}

/* ---- Drawing and the pot ---- */

/* Move the whole 'played' pile to 'to play' (reversing it) and shuffle it. */
static void Game_Refill(Game *game, Spec spec, int player)
{
    Hand *toPlay = &game->toPlay[player];
    Hand *played = &game->played[player];
    Hand_Clear(toPlay);
    while (played->count > 0) {
        Hand_PushTop(toPlay, Hand_PopTop(played));
    }
    Hand_Clear(played);
    Shuffle_Cards(toPlay->cards, (int)toPlay->count, &game->rng, spec.shuffle);
    Game_Fold(game, DIGEST_REFILL | (uint32_t)player << 8 | toPlay->count);
    if (spec.observed) {
        CardId cards[PYWAR_MAXCARDS];
        for (uint32_t i = 0; i < toPlay->count; i++) {
            cards[i] = Hand_At(toPlay, toPlay->count - 1 - i);
        }
        Game_TellCards(game, TRACE_REFILL, player, cards, (int)toPlay->count);
    }
}

/* A player's next card, refilling 'to play' first if it is empty. */
STEP CardId Game_Draw(Game *game, Spec spec, int player)
{
    if (!spec.queue && game->toPlay[player].count == 0) {
        Game_Refill(game, spec, player);
    }
    return Hand_PopTop(&game->toPlay[player]);
}

STEP void Game_PutInPot(Game *game, Spec spec, int player, CardId card)
{
    game->pot[game->potCount] = card;
    if (spec.owners) {
        game->potOwner[game->potCount] = (uint16_t)player;
    }
    game->potCount++;
}

/* Lehigh's "put top card back": the player's last face-up card leaves the pot. */
static CardId Game_TakeBack(Game *game, int player)
{
    int position = game->potCount - 1;
    while (game->potOwner[position] != player) {
        position--;
    }
    CardId card = game->pot[position];
    for (int i = position; i < game->potCount - 1; i++) {
        game->pot[i] = game->pot[i + 1];
        game->potOwner[i] = game->potOwner[i + 1];
    }
    game->potCount--;
    Game_FoldCard(game, DIGEST_TAKE_BACK, player, card);
    return card;
}

/* Every player puts a card face up, A first: a new battle.  takesBack has bit p set
 * for a player who plays its last face-up card again. */
STEP void Game_FaceUp(Game *game, Spec spec, unsigned takesBack)
{
    game->result.battles++;
    for (int p = 0; p < spec.players; p++) {
        int again = (takesBack & (1u << p)) != 0;
        CardId card = again ? Game_TakeBack(game, p) : Game_Draw(game, spec, p);
        Game_PutInPot(game, spec, p, card);
        game->faceUp[p] = card;
        Game_FoldCard(game, DIGEST_FACE_UP, p, card);
        if (spec.observed) {
            Game_TellCards(game, again ? TRACE_TAKE_BACK : TRACE_FACE_UP, p, &card, 1);
        }
    }
}

/* ---- Collecting the pot ---- */

/* The pot positions of one seat's cards, in the order they were put down. */
static int Game_SeatCards(const Game *game, int seat, CardId *cards)
{
    int count = 0;
    for (int i = 0; i < game->potCount; i++) {
        if (game->potOwner[i] == seat) {
            cards[count++] = game->pot[i];
        }
    }
    return count;
}

/* The pot's cards by seat: the first seat's, then the other's; or one of each in turn. */
static void Game_OrderBySeat(const Game *game, int firstSeat, int interleave, CardId *order)
{
    CardId first[PYWAR_MAXCARDS], second[PYWAR_MAXCARDS];
    int firstCount = Game_SeatCards(game, firstSeat, first);
    int secondCount = Game_SeatCards(game, 1 - firstSeat, second);
    int k = 0;
    if (!interleave) {
        memcpy(order, first, sizeof first[0] * (size_t)firstCount);
        memcpy(order + firstCount, second, sizeof second[0] * (size_t)secondCount);
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

/* The pot's cards in the order the winner takes them (docs/rules.md 7.4): the pot
 * itself where that order is the pot's, or order filled in. */
STEP const CardId *Game_PickupOrder(Game *game, Spec spec, int winner, CardId *order)
{
    int n = game->potCount;
    switch (spec.pickup) {
    case PYWAR_PICKUP_SMU:
        for (int i = 0; i < n; i++) {
            order[i] = game->pot[n - 1 - i];
        }
        return order;
    case PYWAR_PICKUP_RANDOM:
        Shuffle_Cards(game->pot, n, &game->rng, spec.shuffle);
        return game->pot;
    case PYWAR_PICKUP_POT_ORDER:
        return game->pot;
    case PYWAR_PICKUP_WINNER_FIRST:
        Game_OrderBySeat(game, winner, 0, order);
        return order;
    case PYWAR_PICKUP_LOSER_FIRST:
        Game_OrderBySeat(game, 1 - winner, 0, order);
        return order;
    case PYWAR_PICKUP_SEAT_INTERLEAVED:
        Game_OrderBySeat(game, PYWAR_PLAYER_A, 1, order);
        return order;
    default: /* seat-block */
        Game_OrderBySeat(game, PYWAR_PLAYER_A, 0, order);
        return order;
    }
}

/* The winner takes the whole pot: on top of 'played', or at the bottom of the queue. */
STEP void Game_Collect(Game *game, Spec spec, int winner)
{
    CardId order[PYWAR_MAXCARDS];
    const CardId *taken = Game_PickupOrder(game, spec, winner, order);
    int n = game->potCount;
    for (int i = 0; i < n; i++) {
        if (spec.queue) {
            Hand_PushBottom(&game->toPlay[winner], taken[i]);
        } else {
            Hand_PushTop(&game->played[winner], taken[i]);
        }
    }
    game->potCount = 0;
    if (spec.observed) {
        Game_TellCards(game, TRACE_PICKUP, winner, taken, n);
    }
}

/* ---- Battles, wars and the end ---- */

STEP int Game_Holds(const Game *game, int player)
{
    return (int)(game->toPlay[player].count + game->played[player].count);
}

/* After every battle: refill A, then B, where 'to play' is empty. */
STEP void Game_AfterBattle(Game *game, Spec spec)
{
    if (spec.queue) {
        return;
    }
    for (int p = 0; p < spec.players; p++) {
        if (game->toPlay[p].count == 0 && game->played[p].count > 0) {
            Game_Refill(game, spec, p);
        }
    }
}

/* The game ends with the players in 'losers' out of cards; iofall's survivor takes
 * the pot, and if both run out there B (Computer) wins. */
STEP void Game_RunOut(Game *game, Spec spec, unsigned losers)
{
    int iofall = spec.shortWar == PYWAR_SHORT_IOFALL;
    game->over = 1;
    game->result.outcome = PYWAR_OUTCOME_WIN;
    for (int p = 0; p < spec.players; p++) {
        if (losers & (1u << p)) {
            game->lost[p] = 1;
            if (spec.observed) {
                Game_TellCards(game, TRACE_RUN_OUT, p, NULL, 0);
            }
        }
    }
    if (losers == ALL_PLAYERS(spec.players) && !iofall) {
        game->result.outcome = PYWAR_OUTCOME_BOTH_LOSE;
        return;
    }
    game->result.winner = losers & 1u ? PYWAR_PLAYER_B : PYWAR_PLAYER_A;
    if (iofall) {
        Game_Collect(game, spec, game->result.winner);
    }
}

/* After a battle won by 'winner', a player with no cards left has lost (the winner has
 * just taken the pot, so it is never one of them). */
STEP void Game_CheckOut(Game *game, Spec spec, int winner)
{
    unsigned losers = 0;
    for (int p = 0; p < spec.players; p++) {
        if (p != winner && Game_Holds(game, p) == 0) {
            losers |= 1u << p;
        }
    }
    if (losers != 0) {
        Game_RunOut(game, spec, losers);
    }
}

/* How a player with n cards meets a war (docs/rules.md 7.6). */
STEP WarPlan Game_PlanWar(const Game *game, Spec spec, int player)
{
    int n = Game_Holds(game, player);
    WarPlan plan = {spec.faceDown, 0, 0};
    if (n >= spec.faceDown + 1) {
        return plan;
    }
    plan.down = n > 0 ? n - 1 : 0;
    switch (spec.shortWar) {
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
    default: /* iofall: the whole war if it can, else all but one, but at least one */
        plan.down = n >= spec.faceDown ? spec.faceDown : (n - 1 > 1 ? n - 1 : 1);
        plan.down = n == 0 ? 0 : plan.down;
        plan.loses = n - plan.down == 0;
        break;
    }
    return plan;
}

/* A player's face-down cards of a war go into the pot. */
/* A player's face-down cards of a war go into the pot.  An observed game tells them
 * in one event, or in two around a refill that comes in the middle. */
STEP void Game_FaceDown(Game *game, Spec spec, int player, int down)
{
    int first = game->potCount;
    for (int i = 0; i < down; i++) {
        int refilling = !spec.queue && game->toPlay[player].count == 0;
        if (spec.observed && refilling && game->potCount > first) {
            Game_TellCards(game, TRACE_FACE_DOWN, player, game->pot + first,
                           game->potCount - first);
            first = game->potCount;
        }
        CardId card = Game_Draw(game, spec, player);
        Game_PutInPot(game, spec, player, card);
        Game_FoldCard(game, DIGEST_FACE_DOWN, player, card);
    }
    if (spec.observed && game->potCount > first) {
        Game_TellCards(game, TRACE_FACE_DOWN, player, game->pot + first, game->potCount - first);
    }
}

/* After a tie: face-down cards, A's then B's, then a new face-up pair.
 * Returns 1 when a player runs out instead. */
STEP int Game_War(Game *game, Spec spec)
{
    WarPlan plans[PYWAR_MAX_PLAYERS];
    unsigned losers = 0, takers = 0;
    for (int p = 0; p < spec.players; p++) {
        plans[p] = Game_PlanWar(game, spec, p);
        losers |= (unsigned)plans[p].loses << p;
        takers |= (unsigned)plans[p].takesBack << p;
    }
    if (takers == ALL_PLAYERS(spec.players)) {
        losers = takers;   /* all would play their tied cards again, and tie forever */
    }
    if (losers != 0 && spec.shortWar != PYWAR_SHORT_IOFALL) {
        Game_RunOut(game, spec, losers);
        return 1;
    }
    for (int p = 0; p < spec.players; p++) {
        Game_FaceDown(game, spec, p, plans[p].down);
    }
    if (losers != 0) {
        Game_RunOut(game, spec, losers);
        return 1;
    }
    game->result.wars++;
    Game_FaceUp(game, spec, takers);
    return 0;
}

/* The winner of the face-up cards, or -1 for a tie. */
STEP int Game_Compare(const Game *game)
{
    int rankA = game->rank[game->faceUp[PYWAR_PLAYER_A]];
    int rankB = game->rank[game->faceUp[PYWAR_PLAYER_B]];
    return rankA == rankB ? -1 : rankA > rankB ? PYWAR_PLAYER_A : PYWAR_PLAYER_B;
}

/* One round: battles until the pot is won or a player runs out. Returns 1 at the end. */
STEP int Game_PlayRound(Game *game, Spec spec)
{
    PywarResult *result = &game->result;
    int streak = 0;
    result->rounds++;
    if (spec.observed) {
        Game_TellCards(game, TRACE_ROUND, -1, NULL, 0);
    }
    Game_FaceUp(game, spec, 0);
    for (;;) {
        int winner = Game_Compare(game);
        if (winner >= 0) {
            Game_Fold(game, DIGEST_BATTLE | (uint32_t)winner);
            if (spec.observed) {
                Game_TellBattle(game, winner, 0);
            }
            Game_Collect(game, spec, winner);
            Game_AfterBattle(game, spec);
            Game_CheckOut(game, spec, winner);
            break;
        }
        Game_Fold(game, DIGEST_BATTLE | DIGEST_TIE);
        result->ties++;
        streak++;
        if (streak > result->longest_tie_streak) {
            result->longest_tie_streak = streak;
        }
        if (spec.observed) {
            Game_TellBattle(game, -1, ALL_PLAYERS(spec.players));
        }
        Game_AfterBattle(game, spec);
        if (Game_War(game, spec)) {
            break;
        }
    }
    return game->over;
}

/* ---- The whole game ---- */

/* Between rounds the state is every hand in order: the counts, then the cards. */
static void Game_GetState(const Game *game, uint8_t *state)
{
    int k = 0;
    memset(state, 0xff, CYCLE_STATE_BYTES);
    for (int p = 0; p < game->players; p++) {
        state[k++] = (uint8_t)game->toPlay[p].count;
        state[k++] = (uint8_t)game->played[p].count;
    }
    for (int p = 0; p < game->players; p++) {
        for (uint32_t i = 0; i < game->toPlay[p].count; i++) {
            state[k++] = (uint8_t)Hand_At(&game->toPlay[p], i);
        }
        for (uint32_t i = 0; i < game->played[p].count; i++) {
            state[k++] = (uint8_t)Hand_At(&game->played[p], i);
        }
    }
}

/* The rounds before the cycle: replay the game twice, silently, one copy 'period'
 * rounds ahead, and step both until their states meet. */
COLD int32_t Game_FindCycleStart(const Game *model, Spec spec, int32_t period)
{
    Game tortoise, hare;
    uint8_t tortoiseState[CYCLE_STATE_BYTES], hareState[CYCLE_STATE_BYTES];
    Game *copies[2] = {&tortoise, &hare};
    int32_t start = 0;
    spec.observed = 0;
    for (int i = 0; i < 2; i++) {
        Game_Init(copies[i], model->seed, &model->rules, NULL, NULL);
        if (model->given) {
            Game_SetDeal(copies[i], model->deal, model->handCounts);
        }
        Game_NewGame(copies[i], model->seed);
        Game_Deal(copies[i], spec);
    }
    for (int32_t i = 0; i < period; i++) {
        Game_PlayRound(&hare, spec);
    }
    Game_GetState(&tortoise, tortoiseState);
    Game_GetState(&hare, hareState);
    while (memcmp(tortoiseState, hareState, CYCLE_STATE_BYTES) != 0) {
        Game_PlayRound(&tortoise, spec);
        Game_PlayRound(&hare, spec);
        Game_GetState(&tortoise, tortoiseState);
        Game_GetState(&hare, hareState);
        start++;
    }
    return start;
}

/* The round cap: whoever holds more cards wins, and equal counts win for nobody. */
static void Game_Cap(Game *game, Spec spec)
{
    int cardsA = Game_Holds(game, PYWAR_PLAYER_A);
    int cardsB = Game_Holds(game, PYWAR_PLAYER_B);
    if (spec.observed) {
        Game_TellCards(game, TRACE_CAP, -1, NULL, 0);
    }
    game->over = 1;
    game->result.outcome = PYWAR_OUTCOME_CAPPED;
    game->result.winner = cardsA == cardsB ? PYWAR_NOBODY
                          : cardsA > cardsB ? PYWAR_PLAYER_A : PYWAR_PLAYER_B;
}

static void Game_Cycle(Game *game, Spec spec, int32_t period)
{
    game->over = 1;
    game->result.outcome = PYWAR_OUTCOME_CYCLE;
    game->result.cycle_start = Game_FindCycleStart(game, spec, period);
    game->result.cycle_period = period;
    if (spec.observed) {
        TraceEvent event;
        event.kind = TRACE_CYCLE;
        event.start = game->result.cycle_start;
        event.period = period;
        Game_Tell(game, &event);
    }
}

/* Count what is left where, close the digest, and tell the end. */
static void Game_Finish(Game *game, Spec spec)
{
    PywarResult *result = &game->result;
    for (int p = 0; p < spec.players; p++) {
        result->piles[p][0] = (int32_t)game->toPlay[p].count;
        result->piles[p][1] = (int32_t)game->played[p].count;
    }
    result->stranded = game->potCount;
    Game_Fold(game, DIGEST_END | (uint32_t)result->outcome << 4 | (uint32_t)(result->winner + 1));
    if (spec.observed) {
        Game_TellEnd(game);
    }
}

/* The whole game: deal, rounds until an end, the cap, or a repeat. */
STEP int Game_PlayWith(Game *game, Spec spec)
{
    uint8_t state[CYCLE_STATE_BYTES];
    Cycle cycle;
    Game_Deal(game, spec);
    if (spec.watching) {
        Game_GetState(game, state);
        Cycle_Init(&cycle, state);
    }
    while (!game->over) {
        if (game->result.rounds >= game->rules.max_rounds) {
            Game_Cap(game, spec);
            break;
        }
        if (game->stop != NULL && *game->stop) {
            return PYWAR_ESTOPPED;
        }
        if (Game_PlayRound(game, spec) || !spec.watching) {
            continue;
        }
        Game_GetState(game, state);
        if (Cycle_Saw(&cycle, state)) {
            Game_Cycle(game, spec, cycle.lambda);
        }
    }
    Game_Finish(game, spec);
    return PYWAR_OK;
}

/* One copy of the loop per preset, its rules constants (see the top of the file). */
static const Spec SPEC_SMU = {2, 0, PYWAR_SHORT_LOSE, PYWAR_PICKUP_SMU, 0, PYWAR_SHUFFLE_SMU,
                              0, 0, 0};
static const Spec SPEC_LEHIGH = {2, 3, PYWAR_SHORT_ALL_BUT_ONE, PYWAR_PICKUP_POT_ORDER, 1,
                                 PYWAR_SHUFFLE_SWAP_EACH, 1, 1, 0};
static const Spec SPEC_IOFALL = {2, 3, PYWAR_SHORT_IOFALL, PYWAR_PICKUP_RANDOM, 1,
                                 PYWAR_SHUFFLE_FISHER_YATES, 0, 0, 0};
static const Spec SPEC_IOFALL_SINGLE = {2, 1, PYWAR_SHORT_IOFALL, PYWAR_PICKUP_RANDOM, 1,
                                        PYWAR_SHUFFLE_FISHER_YATES, 0, 0, 0};

static int Game_PlaySmu(Game *game) { return Game_PlayWith(game, SPEC_SMU); }
static int Game_PlayLehigh(Game *game) { return Game_PlayWith(game, SPEC_LEHIGH); }
static int Game_PlayIofall(Game *game) { return Game_PlayWith(game, SPEC_IOFALL); }
static int Game_PlayIofallSingle(Game *game) { return Game_PlayWith(game, SPEC_IOFALL_SINGLE); }
static int Game_PlayAny(Game *game, Spec spec) { return Game_PlayWith(game, spec); }

static int Spec_Same(Spec a, Spec b)
{
    return memcmp(&a, &b, sizeof a) == 0;
}

/* Play the game set up by Game_Init (and Game_SetDeal) from its seed. */
int Game_Play(Game *game)
{
    Spec spec = Game_Spec(game);
    Game_NewGame(game, game->seed);
    if (Spec_Same(spec, SPEC_SMU)) {
        return Game_PlaySmu(game);
    }
    if (Spec_Same(spec, SPEC_IOFALL)) {
        return Game_PlayIofall(game);
    }
    if (Spec_Same(spec, SPEC_IOFALL_SINGLE)) {
        return Game_PlayIofallSingle(game);
    }
    if (Spec_Same(spec, SPEC_LEHIGH)) {
        return Game_PlayLehigh(game);
    }
    return Game_PlayAny(game, spec);
}

/* The next game of a batch, on the same Game: a new seed, no text, no deal. */
int Game_PlayNext(Game *game, uint32_t seed)
{
    game->seed = seed;
    return Game_Play(game);
}
