/* game.c: one game of War in the engine (docs/rules.md section 7).
 *
 * The engine is written for speed.  Its data is flat: a card is a 16-bit id, its rank a
 * table lookup, a hand a ring of ids (hand.h), the pot two arrays, a set of players a
 * bit mask.  And each rule dimension is decided once per game, not once per card: every
 * step takes a Spec, the rules as plain numbers, by value, and is inlined into the game's
 * loop.  Game_Play runs one copy of that loop for each preset, with the preset's Spec as
 * a constant, so that the compiler folds away the branches of the rules the preset does
 * not use (and, with two players, every loop over the players); every other combination
 * runs the general copy.
 *
 * Nothing is allocated: a game lives in its Game struct.  Events (docs/trace.md) are
 * built only for an observed game, one with a transcript or a trace.
 * pywar/twin/game.py takes the same steps, with the same names, in Python. */
#include <string.h>

#include "cycle.h"
#include "../common/digest.h"
#include "../common/inline.h"
#include "game.h"
#include "pickup.h"
#include "shuffle.h"
#include "spec.h"
#include "../common/stop.h"
#include "../common/tally.h"
#include "../common/text.h"
#include "../common/trace.h"

/* How a player meets a war: cards to put face down, and whether it runs out or takes
 * back its last face-up card to play it again. */
typedef struct WarPlan {
    int down;
    int loses;
    int takesBack;
} WarPlan;

/* How a war ends for the round (Game_War). */
enum WarEnd { WAR_GOES_ON, WAR_ENDS_ROUND };

/* What the game's loop carries from event to event besides the table: the digest, as
 * it is folded (docs/rules.md section 11), and who leads (tally.h).  A local of
 * Game_PlayWith whose address goes only to inlined steps, so that both stay in
 * registers; the digest goes to the result when the game ends (Game_Finish).  Folded
 * into game->result, each round's first fold waited for the store of the round
 * before: the folds, a chain of xor and multiply (4 cycles a code), were a fifth of
 * iofall's cpu-clock samples (perf record) for a tenth of its instructions. */
/* Measured (2026-12-06, Zen 3, 2 cores shared at load 6 to 14: CPU time, before and
 * after in turn, bench/pairs.py --cpu-time, median of 25 pairs): iofall 0.923 of the
 * time (0.915 and 0.916 in two runs of farm-bench's, 40 and 30 pairs), smu 0.973,
 * rustwar 0.970; the folds' share of iofall's samples 12%.  lehigh 1.08 to 1.16, all of
 * it in Game_GetState (the cycle watch, 70% of lehigh's time), whose code is the same
 * byte for byte and only moved; lehigh's own loop took 0.88 of its samples (perf).
 * Instructions (callgrind): iofall 1.003, smu 0.992, rustwar 0.995, lehigh 1.016.
 *   python bench/pairs.py --pairs 25 --cpu-time BEFORE AFTER -- 60000 1 3 3 2 1 2 2 100000 1 2 13 4 0 */
typedef struct Running {
    uint64_t digest;
    Lead lead;
} Running;

#define RUNNING_START {DIGEST_OFFSET, LEAD_START}

/* Lehigh's Card(n) builds clubs, diamonds, hearts, spades (docs/rules.md section 2), in
 * the standard deck (narrator.h), whose order Lehigh's narration keeps. */
static const uint8_t LEHIGH_SUITS[STANDARD_SUITS] = {3, 1, 0, 2};

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
    memset(&game->result, 0, sizeof game->result);
    game->result.winner = PYWAR_NOBODY;
    game->result.cycle_start = -1;
    game->result.cycle_period = -1;
    game->result.digest = DIGEST_OFFSET;
    game->seed = seed;
    game->over = 0;
    game->inGame = BIT(game->players) - 1u;
    for (int p = 0; p < game->players; p++) {
        Hand_Clear(&game->toPlay[p]);
        Hand_Clear(&game->played[p]);
    }
    game->potCount = 0;
    Rng_SeedPath(&game->rng, seed, game->rules.rng_path);
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

/* A game can repeat only when nothing random happens after the deal: the winnings go
 * back in a fixed order, and no refill shuffles. */
static int Game_CanCycle(const PywarRules *rules)
{
    int fixedRefills = rules->piles == PYWAR_PILES_QUEUE || rules->refill == PYWAR_REFILL_KEEP;
    return fixedRefills && rules->pickup != PYWAR_PICKUP_RANDOM;
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
    spec.keep = rules->refill == PYWAR_REFILL_KEEP;
    spec.owners = rules->short_war == PYWAR_SHORT_ALL_BUT_ONE
                  || (rules->pickup >= PYWAR_PICKUP_WINNER_FIRST
                      && rules->pickup <= PYWAR_PICKUP_SEAT_BLOCK);
    spec.battles = rules->pickup == PYWAR_PICKUP_NATURAL;
    spec.watching = rules->detect_cycles && Game_CanCycle(rules);
    spec.observed = game->observed;
    spec.oneCard = rules->game == PYWAR_GAME_ONE_CARD;
    return spec;
}

/* ---- Events: the digest always, the trace and the narrator when observed ---- */

STEP void Game_Fold(Running *running, uint32_t code)
{
    running->digest = Digest_Fold(running->digest, code);
}

STEP void Game_FoldCard(Running *running, uint32_t kind, int player, int card)
{
    running->digest = Digest_FoldCard(running->digest, kind, player, card);
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
STEP void Game_Place(Game *game, Spec spec, Running *running, int player, CardId card)
{
    if (spec.queue) {
        Hand_PushBottom(&game->toPlay[player], card);
    } else {
        Hand_PushTop(&game->toPlay[player], card);
    }
    Game_FoldCard(running, DIGEST_DEAL, player, card);
}

/* The deck in build order in the pot: card ids in order, Lehigh's suits clubs first. */
static void Game_BuildDeck(Game *game)
{
    int lehigh = game->rules.narration == PYWAR_NARRATION_LEHIGH
                 && game->rules.ranks == STANDARD_RANKS && game->rules.suits == STANDARD_SUITS;
    for (int i = 0; i < game->deckSize; i++) {
        game->pot[i] = (CardId)(lehigh ? LEHIGH_SUITS[i / STANDARD_RANKS] * STANDARD_RANKS
                                         + i % STANDARD_RANKS : i);
    }
    game->potCount = game->deckSize;
}

/* A given deal, placed as dealt cards are; cards not dealt stay out of play. */
STEP void Game_DealGiven(Game *game, Spec spec, Running *running)
{
    const uint8_t *ids = game->deal;
    for (int p = 0; p < spec.players; p++) {
        int count = game->handCounts[p];
        for (int i = 0; i < count; i++) {
            Game_Place(game, spec, running, p, ids[spec.queue ? i : count - 1 - i]);
        }
        ids += count;
    }
}

/* Shuffle the deck in the pot, then deal it from the top one card at a time, A first:
 * card i goes to player i mod players, so the first seats get the extra cards. */
STEP void Game_Deal(Game *game, Spec spec, Running *running)
{
    if (game->given) {
        Game_DealGiven(game, spec, running);
    } else {
        Game_BuildDeck(game);
        Shuffle_Cards(game->pot, game->deckSize, &game->rng, spec.shuffle);
        for (int i = 0; i < game->deckSize; i++) {
            Game_Place(game, spec, running, i % spec.players,
                       game->pot[game->deckSize - 1 - i]);
        }
        game->potCount = 0;
    }
    if (spec.observed) {
        Game_TellDeal(game);
    }
}

/* ---- Drawing and the pot ---- */

/* 'played' becomes 'to play': moved card by card (which reverses it) and shuffled, or
 * under refill 'keep' taken as it lies, its top card played first; returns the count.
 * Out of the game's loop, which it would crowd (inlined, smu ran 5% more instructions). */
static uint32_t Game_TurnPlayed(Game *game, Spec spec, int player)
{
    Hand *toPlay = &game->toPlay[player];
    Hand *played = &game->played[player];
    if (spec.keep) {
        *toPlay = *played;
    } else {
        Hand_TurnOver(toPlay, played);
        Shuffle_Cards(toPlay->cards + toPlay->bottom, (int)toPlay->count, &game->rng,
                      spec.shuffle);
    }
    Hand_Clear(played);
    Tally_Refill(&game->result);
    if (spec.observed) {
        CardId cards[PYWAR_MAXCARDS];
        for (uint32_t i = 0; i < toPlay->count; i++) {
            cards[i] = Hand_At(toPlay, toPlay->count - 1 - i);
        }
        Game_TellCards(game, TRACE_REFILL, player, cards, (int)toPlay->count);
    }
    return toPlay->count;
}

/* A refill: the pile turned, and its code folded with the count 'to play' holds. */
STEP void Game_Refill(Game *game, Spec spec, Running *running, int player)
{
    uint32_t count = Game_TurnPlayed(game, spec, player);
    Game_Fold(running, DIGEST_REFILL | (uint32_t)player << DIGEST_PLAYER_SHIFT | count);
}

/* A player's next card, refilling 'to play' first if it is empty. */
STEP CardId Game_Draw(Game *game, Spec spec, Running *running, int player)
{
    if (!spec.queue && game->toPlay[player].count == 0) {
        Game_Refill(game, spec, running, player);
    }
    return Hand_PopTop(&game->toPlay[player]);
}

/* A card goes on top of the pot; battle is its battle's number if it is face up, else 0. */
STEP void Game_PutInPot(Game *game, Spec spec, int player, CardId card, int32_t battle)
{
    game->pot[game->potCount] = card;
    if (spec.owners) {
        game->potOwner[game->potCount] = (uint16_t)player;
    }
    if (spec.battles) {
        game->potBattle[game->potCount] = battle;
    }
    game->potCount++;
}

/* Lehigh's "put top card back": the player's last face-up card leaves the pot. */
STEP CardId Game_TakeBack(Game *game, Running *running, int player)
{
    int position = game->potCount - 1;
    while (game->potOwner[position] != player) {
        position--;
    }
    CardId card = game->pot[position];
    for (int i = position; i < game->potCount - 1; i++) {
        game->pot[i] = game->pot[i + 1];
        game->potOwner[i] = game->potOwner[i + 1];
        game->potBattle[i] = game->potBattle[i + 1];
    }
    game->potCount--;
    Game_FoldCard(running, DIGEST_TAKE_BACK, player, card);
    return card;
}

/* One player's face-up card of a battle. */
STEP void Game_FaceUpOne(Game *game, Spec spec, Running *running, int p, unsigned takesBack)
{
    int again = (takesBack & BIT(p)) != 0;
    CardId card = again ? Game_TakeBack(game, running, p) : Game_Draw(game, spec, running, p);
    Game_PutInPot(game, spec, p, card, game->result.battles);
    game->faceUp[p] = card;
    Game_FoldCard(running, DIGEST_FACE_UP, p, card);
    if (spec.observed) {
        Game_TellCards(game, again ? TRACE_TAKE_BACK : TRACE_FACE_UP, p, &card, 1);
    }
}

/* Every player in the battle puts a card face up, in seat order: a new battle.
 * takesBack has the bits of players who play their last face-up card again.  With two
 * players, both are in every battle, and the two turns are written out: gcc does not
 * unroll a loop of two turns of this size by itself. */
STEP void Game_FaceUp(Game *game, Spec spec, Running *running, unsigned inBattle,
                      unsigned takesBack)
{
    game->result.battles++;
    if (spec.players == 2) {
        Game_FaceUpOne(game, spec, running, PYWAR_PLAYER_A, takesBack);
        Game_FaceUpOne(game, spec, running, PYWAR_PLAYER_B, takesBack);
        return;
    }
    for (int p = 0; p < spec.players; p++) {
        if (inBattle & BIT(p)) {
            Game_FaceUpOne(game, spec, running, p, takesBack);
        }
    }
}

/* ---- Collecting the pot (the pieces are in pickup.h) ---- */

/* The winner takes the whole pot: on top of 'played', or at the bottom of the queue. */
STEP void Game_Collect(Game *game, Spec spec, int winner)
{
    CardId order[PYWAR_MAXCARDS];
    const CardId *taken = game->pot;
    int n = game->potCount;
    Landing landing = Game_Landing(game, spec, winner);
    if (spec.pickup == PYWAR_PICKUP_RANDOM && spec.shuffle == PYWAR_SHUFFLE_FISHER_YATES) {
        Game_CollectShuffled(game, spec, landing);
    } else if (spec.pickup == PYWAR_PICKUP_SMU) {
        /* the pot top first, straight from the pot: no copy in order to be put */
        for (int i = 0; i < n; i++) {
            Landing_Put(landing, i, game->pot[n - 1 - i]);
        }
        if (spec.observed) {
            taken = Game_PickupOrder(game, spec, winner, order);
        }
    } else {
        taken = Game_PickupOrder(game, spec, winner, order);
        for (int i = 0; i < n; i++) {
            Landing_Put(landing, i, taken[i]);
        }
    }
    Game_GrowHands(game, spec, winner, n);
    game->potCount = 0;
    Tally_Pot(&game->result, n);
    if (spec.observed) {
        Game_TellCards(game, TRACE_PICKUP, winner, taken, n);
    }
}

/* ---- Battles, wars and the end ---- */

/* The cards a player holds; under the queue 'played' is always empty, and not read. */
STEP int Game_Holds(const Game *game, Spec spec, int player)
{
    uint32_t played = spec.queue ? 0u : game->played[player].count;
    return (int)(game->toPlay[player].count + played);
}

/* After every battle: refill the players, in seat order, whose 'to play' is empty. */
STEP void Game_AfterBattle(Game *game, Spec spec, Running *running)
{
    if (spec.queue) {
        return;
    }
    for (int p = 0; p < spec.players; p++) {
        if (game->toPlay[p].count == 0 && game->played[p].count > 0) {
            Game_Refill(game, spec, running, p);
        }
    }
}

/* These players are out of the game, in seat order. */
static void Game_RunOut(Game *game, Spec spec, unsigned losers)
{
    for (int p = 0; p < spec.players; p++) {
        if (losers & BIT(p)) {
            game->inGame &= ~BIT(p);
            if (spec.observed) {
                Game_TellCards(game, TRACE_RUN_OUT, p, NULL, 0);
            }
        }
    }
}

/* The lowest seat of a set of players. */
STEP int Game_FirstOf(unsigned players)
{
    int p = 0;
    while (!(players & BIT(p))) {
        p++;
    }
    return p;
}

/* The highest seat of a set of players. */
STEP int Game_LastOf(unsigned players)
{
    int p = PYWAR_MAX_PLAYERS - 1;
    while (!(players & BIT(p))) {
        p--;
    }
    return p;
}

/* Is there more than one player in this set? */
STEP int Game_SeveralIn(unsigned players)
{
    return (players & (players - 1u)) != 0;
}

/* The game is over once at most one player holds cards.  The last one wins; if nobody
 * is left, everybody lost, except under iofall, where the last of the war's players
 * wins (with two players, B: the program declares Computer the winner).  Under iofall
 * the winner takes the pot; elsewhere it stays on the table, stranded. */
STEP int Game_EndIfOver(Game *game, Spec spec, unsigned warPlayers)
{
    int iofall = spec.shortWar == PYWAR_SHORT_IOFALL;
    if (Game_SeveralIn(game->inGame)) {
        return 0;
    }
    game->over = 1;
    game->result.outcome = PYWAR_OUTCOME_WIN;
    if (game->inGame != 0) {
        game->result.winner = Game_FirstOf(game->inGame);
    } else if (iofall) {
        game->result.winner = Game_LastOf(warPlayers);
    } else {
        game->result.outcome = PYWAR_OUTCOME_BOTH_LOSE;
        return 1;
    }
    if (iofall && game->potCount > 0) {
        Game_Collect(game, spec, game->result.winner);
    }
    return 1;
}

/* At the end of a round, the players with no cards left are out: after a battle won
 * by 'winner' (who has just taken the pot, so is never one of them), or after a war
 * that left the pot to nobody (winner -1) among warPlayers. */
STEP void Game_CheckOut(Game *game, Spec spec, int winner, unsigned warPlayers)
{
    unsigned losers = 0;
    if (spec.players == 2 && winner >= 0) {     /* only the loser can be out */
        losers = Game_Holds(game, spec, 1 - winner) == 0 ? BIT(1 - winner) : 0u;
    }
    for (int p = 0; p < spec.players && !(spec.players == 2 && winner >= 0); p++) {
        if (p != winner && (game->inGame & BIT(p)) && Game_Holds(game, spec, p) == 0) {
            losers |= BIT(p);
        }
    }
    if (losers != 0) {
        Game_RunOut(game, spec, losers);
        Game_EndIfOver(game, spec, warPlayers);
    }
}

/* How a player with n cards meets a war (docs/rules.md 7.6). */
STEP WarPlan Game_PlanWar(const Game *game, Spec spec, int player)
{
    int n = Game_Holds(game, spec, player);
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

/* A player's face-down cards of a war go into the pot.  An observed game tells them
 * in one event, or in two around a refill that comes in the middle. */
STEP void Game_FaceDown(Game *game, Spec spec, Running *running, int player, int down)
{
    int first = game->potCount;
    for (int i = 0; i < down; i++) {
        int refilling = !spec.queue && game->toPlay[player].count == 0;
        if (spec.observed && refilling && game->potCount > first) {
            Game_TellCards(game, TRACE_FACE_DOWN, player, game->pot + first,
                           game->potCount - first);
            first = game->potCount;
        }
        CardId card = Game_Draw(game, spec, running, player);
        Game_PutInPot(game, spec, player, card, 0);
        Game_FoldCard(running, DIGEST_FACE_DOWN, player, card);
    }
    if (spec.observed && game->potCount > first) {
        Game_TellCards(game, TRACE_FACE_DOWN, player, game->pot + first, game->potCount - first);
    }
}

/* The war's losers are out; the war goes on if two or more of its players are left;
 * one left takes the pot; none left (with others still playing) strands it. */
STEP int Game_AfterWarLosses(Game *game, Spec spec, Running *running, unsigned warPlayers,
                             unsigned losers, unsigned *left)
{
    Game_RunOut(game, spec, losers);
    *left = warPlayers & ~losers;
    if (Game_EndIfOver(game, spec, warPlayers)) {
        return WAR_ENDS_ROUND;
    }
    if (Game_SeveralIn(*left)) {
        return WAR_GOES_ON;
    }
    if (*left != 0) {
        int winner = Game_FirstOf(*left);
        Game_Collect(game, spec, winner);
        Game_AfterBattle(game, spec, running);
        Game_CheckOut(game, spec, winner, *left);
    } else {
        Game_CheckOut(game, spec, -1, warPlayers);
    }
    return WAR_ENDS_ROUND;
}

/* After a tie among warPlayers: face-down cards in seat order, then new face-up cards.
 * Returns WAR_ENDS_ROUND when the war ends the round instead; warPlayers becomes the
 * players left in the war. */
STEP int Game_War(Game *game, Spec spec, Running *running, unsigned *warPlayers)
{
    WarPlan plans[PYWAR_MAX_PLAYERS];
    unsigned players = *warPlayers, losers = 0, takers = 0;
    for (int p = 0; p < spec.players; p++) {
        if (players & BIT(p)) {
            plans[p] = Game_PlanWar(game, spec, p);
            losers |= (unsigned)plans[p].loses << p;
            takers |= (unsigned)plans[p].takesBack << p;
        }
    }
    if (takers == players) {
        losers = takers;   /* all would play their tied cards again, and tie forever */
    }
    if (losers != 0 && spec.shortWar != PYWAR_SHORT_IOFALL) {
        /* a player who cannot go on is out before anyone puts a card down */
        if (Game_AfterWarLosses(game, spec, running, players, losers, &players)
            == WAR_ENDS_ROUND) {
            return WAR_ENDS_ROUND;
        }
        takers &= players;
    }
    for (int p = 0; p < spec.players; p++) {
        if (players & BIT(p)) {
            Game_FaceDown(game, spec, running, p, plans[p].down);
        }
    }
    if (losers != 0 && spec.shortWar == PYWAR_SHORT_IOFALL) {
        /* iofall: a player runs out when it must show a card, after the face-down ones */
        if (Game_AfterWarLosses(game, spec, running, players, losers & players, &players)
            == WAR_ENDS_ROUND) {
            return WAR_ENDS_ROUND;
        }
    }
    game->result.wars++;
    Game_FaceUp(game, spec, running, players, takers);
    *warPlayers = players;
    return WAR_GOES_ON;
}

/* The winner of the battle among inBattle, or -1 for a tie: tied gets the players who
 * share the highest rank. */
STEP int Game_Compare(const Game *game, Spec spec, unsigned inBattle, unsigned *tied)
{
    if (spec.players == 2) {
        int rankA = game->rank[game->faceUp[PYWAR_PLAYER_A]];
        int rankB = game->rank[game->faceUp[PYWAR_PLAYER_B]];
        *tied = rankA == rankB ? BIT(PYWAR_PLAYER_A) | BIT(PYWAR_PLAYER_B) : 0u;
        return rankA == rankB ? -1 : rankA > rankB ? PYWAR_PLAYER_A : PYWAR_PLAYER_B;
    }
    int best = -1;
    unsigned top = 0;
    for (int p = 0; p < spec.players; p++) {
        int rank = game->rank[game->faceUp[p]];
        if (!(inBattle & BIT(p)) || rank < best) {
            continue;
        }
        top = rank > best ? BIT(p) : top | BIT(p);
        best = rank;
    }
    *tied = Game_SeveralIn(top) ? top : 0u;
    return Game_SeveralIn(top) ? -1 : Game_FirstOf(top);
}

/* A battle's digest code: the winner; a tie DIGEST_TIE with two players, with more
 * DIGEST_TIED_MANY and the tied players' bits. */
STEP uint32_t Game_BattleCode(Spec spec, int winner, unsigned tied)
{
    if (winner >= 0) {
        return DIGEST_BATTLE | (uint32_t)winner;
    }
    return DIGEST_BATTLE | (spec.players == 2 ? DIGEST_TIE : DIGEST_TIED_MANY | tied);
}

/* After the deal and after each round: the round's statistics (tally.h), from the cards
 * each player holds. */
STEP void Game_Tally(Game *game, Spec spec, Lead *lead, int wars)
{
    int held[PYWAR_MAX_PLAYERS];
    if (spec.players == 2) {    /* a constant of the loop: Tally_Round's own branch folds */
        held[PYWAR_PLAYER_A] = Game_Holds(game, spec, PYWAR_PLAYER_A);
        held[PYWAR_PLAYER_B] = Game_Holds(game, spec, PYWAR_PLAYER_B);
        Tally_Round(lead, &game->result, wars, held, 2);
        return;
    }
    for (int p = 0; p < spec.players; p++) {
        held[p] = Game_Holds(game, spec, p);
    }
    Tally_Round(lead, &game->result, wars, held, spec.players);
}

/* The end of a one-card game: the one player with the most battles won wins; the most
 * shared is a draw. */
STEP void Game_OneCardEnd(Game *game, Spec spec)
{
    int most = -1, leader = PYWAR_NOBODY;
    Tally_Record(&game->result, spec.players);
    for (int p = 0; p < spec.players; p++) {
        int won = game->result.record[p][0];
        leader = won > most ? p : won == most ? PYWAR_NOBODY : leader;
        most = won > most ? won : most;
    }
    game->over = 1;
    game->result.winner = leader;
    game->result.outcome = leader == PYWAR_NOBODY ? PYWAR_OUTCOME_DRAW : PYWAR_OUTCOME_WIN;
}

/* A round of a one-card game (docs/rules.md 7.10): every player's top card face up, one
 * battle, no war; the cards stay in the pot, out of play.  The game ends once a hand is
 * empty. */
STEP int Game_PlayOneCard(Game *game, Spec spec, Running *running)
{
    PywarResult *result = &game->result;
    unsigned tied;
    result->rounds++;
    if (spec.observed) {
        Game_TellCards(game, TRACE_ROUND, -1, NULL, 0);
    }
    Game_FaceUp(game, spec, running, game->inGame, 0);
    int winner = Game_Compare(game, spec, game->inGame, &tied);
    Tally_Battle(result, game->inGame, winner, tied, spec.players);
    Game_Fold(running, Game_BattleCode(spec, winner, tied));
    if (winner < 0) {
        result->ties++;
        result->longest_tie_streak = 1;
    }
    if (spec.observed) {
        Game_TellBattle(game, winner, tied);
    }
    Game_Tally(game, spec, &running->lead, 0);
    int empty = 0;
    for (int p = 0; p < spec.players; p++) {
        empty |= game->toPlay[p].count == 0;
    }
    if (empty) {
        Game_OneCardEnd(game, spec);
    }
    return game->over;
}

/* One round: battles until the pot is won or a war ends the round (a one-card game's:
 * one battle). Returns 1 at the end of the game. */
STEP int Game_PlayRound(Game *game, Spec spec, Running *running)
{
    PywarResult *result = &game->result;
    unsigned inBattle = game->inGame;
    int streak = 0, wars = 0;
    if (spec.oneCard) {
        return Game_PlayOneCard(game, spec, running);
    }
    result->rounds++;
    if (spec.observed) {
        Game_TellCards(game, TRACE_ROUND, -1, NULL, 0);
    }
    Game_FaceUp(game, spec, running, inBattle, 0);
    for (;;) {
        unsigned tied;
        int winner = Game_Compare(game, spec, inBattle, &tied);
        Tally_Battle(result, inBattle, winner, tied, spec.players);
        Game_Fold(running, Game_BattleCode(spec, winner, tied));
        if (winner >= 0) {
            if (spec.observed) {
                Game_TellBattle(game, winner, 0);
            }
            Game_Collect(game, spec, winner);
            Game_AfterBattle(game, spec, running);
            Game_CheckOut(game, spec, winner, BIT(winner));
            break;
        }
        result->ties++;
        streak++;
        if (streak > result->longest_tie_streak) {
            result->longest_tie_streak = streak;
        }
        if (spec.observed) {
            Game_TellBattle(game, -1, tied);
        }
        Game_AfterBattle(game, spec, running);
        inBattle = tied;
        if (Game_War(game, spec, running, &inBattle) == WAR_ENDS_ROUND) {
            break;
        }
        wars++;
    }
    Game_Tally(game, spec, &running->lead, wars);
    return game->over;
}

/* ---- The whole game ---- */

/* Between rounds the state is every hand in order: the counts, then the cards. */
static void Game_GetState(const Game *game, uint8_t *state)
{
    int k = 0;
    memset(state, CYCLE_NO_CARD, CYCLE_STATE_BYTES);
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
    Game copies[2];
    Running runs[2] = {RUNNING_START, RUNNING_START};
    uint8_t states[2][CYCLE_STATE_BYTES];
    int32_t start = 0;
    spec.observed = 0;
    for (int i = 0; i < 2; i++) {
        Game_Init(&copies[i], model->seed, &model->rules, NULL, NULL);
        if (model->given) {
            Game_SetDeal(&copies[i], model->deal, model->handCounts);
        }
        Game_NewGame(&copies[i], model->seed);
        Game_Deal(&copies[i], spec, &runs[i]);
    }
    for (int32_t i = 0; i < period; i++) {
        Game_PlayRound(&copies[1], spec, &runs[1]);
    }
    for (int i = 0; i < 2; i++) {
        Game_GetState(&copies[i], states[i]);
    }
    while (memcmp(states[0], states[1], CYCLE_STATE_BYTES) != 0) {
        for (int i = 0; i < 2; i++) {
            Game_PlayRound(&copies[i], spec, &runs[i]);
            Game_GetState(&copies[i], states[i]);
        }
        start++;
    }
    return start;
}

/* The round cap: the one player holding the most cards wins; a tie for the most wins
 * for nobody. */
static void Game_Cap(Game *game, Spec spec)
{
    int most = -1, leader = PYWAR_NOBODY;
    if (spec.observed) {
        Game_TellCards(game, TRACE_CAP, -1, NULL, 0);
    }
    for (int p = 0; p < spec.players; p++) {
        int held = Game_Holds(game, spec, p);
        leader = held > most ? p : held == most ? PYWAR_NOBODY : leader;
        most = held > most ? held : most;
    }
    game->over = 1;
    game->result.outcome = PYWAR_OUTCOME_CAPPED;
    game->result.winner = leader;
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
STEP void Game_Finish(Game *game, Spec spec, Running *running)
{
    PywarResult *result = &game->result;
    for (int p = 0; p < spec.players; p++) {
        result->piles[p][0] = (int32_t)game->toPlay[p].count;
        result->piles[p][1] = (int32_t)game->played[p].count;
    }
    result->stranded = game->potCount;
    Game_Fold(running, DIGEST_END | (uint32_t)result->outcome << DIGEST_OUTCOME_SHIFT
                           | (uint32_t)(result->winner + 1));
    result->digest = running->digest;
    if (spec.observed) {
        Game_TellEnd(game);
    }
}

/* The whole game: deal, rounds until an end, the cap, or a repeat. */
STEP int Game_PlayWith(Game *game, Spec spec)
{
    uint8_t state[CYCLE_STATE_BYTES];
    Cycle cycle;
    Running running = RUNNING_START;
    Game_Deal(game, spec, &running);
    Game_Tally(game, spec, &running.lead, 0);   /* the leader after the deal */
    if (spec.watching) {
        Game_GetState(game, state);
        Cycle_Init(&cycle, state);
    }
    while (!game->over) {
        if (game->result.rounds >= game->rules.max_rounds) {
            Game_Cap(game, spec);
            break;
        }
        if (Stop_IsSet(game->stop)) {
            game->result.digest = running.digest;   /* of the rounds played */
            return PYWAR_ESTOPPED;
        }
        if (Game_PlayRound(game, spec, &running) || !spec.watching) {
            continue;
        }
        Game_GetState(game, state);
        if (Cycle_Saw(&cycle, state)) {
            Game_Cycle(game, spec, cycle.lambda);
        }
    }
    Tally_End(&running.lead, &game->result, spec.players);
    Game_Finish(game, spec, &running);
    return PYWAR_OK;
}

/* One copy of the loop per preset, its rules constants (see the top of the file). */
static const Spec SPEC_SMU = {
    .players = 2, .faceDown = 0, .shortWar = PYWAR_SHORT_LOSE, .pickup = PYWAR_PICKUP_SMU,
    .queue = 0, .shuffle = PYWAR_SHUFFLE_SMU, .keep = 0, .owners = 0, .battles = 0,
    .watching = 0, .observed = 0, .oneCard = 0,
};
static const Spec SPEC_CECS325 = {
    .players = 2, .faceDown = 0, .shortWar = PYWAR_SHORT_LOSE, .pickup = PYWAR_PICKUP_SMU,
    .queue = 0, .shuffle = PYWAR_SHUFFLE_SMU, .keep = 0, .owners = 0, .battles = 0,
    .watching = 0, .observed = 0, .oneCard = 1,
};
static const Spec SPEC_LEHIGH = {
    .players = 2, .faceDown = 3, .shortWar = PYWAR_SHORT_ALL_BUT_ONE,
    .pickup = PYWAR_PICKUP_POT_ORDER, .queue = 1, .shuffle = PYWAR_SHUFFLE_SWAP_EACH,
    .keep = 0, .owners = 1, .battles = 0, .watching = 1, .observed = 0, .oneCard = 0,
};
static const Spec SPEC_IOFALL = {
    .players = 2, .faceDown = 3, .shortWar = PYWAR_SHORT_IOFALL, .pickup = PYWAR_PICKUP_RANDOM,
    .queue = 1, .shuffle = PYWAR_SHUFFLE_FISHER_YATES, .keep = 0, .owners = 0, .battles = 0,
    .watching = 0, .observed = 0, .oneCard = 0,
};
static const Spec SPEC_IOFALL_SINGLE = {
    .players = 2, .faceDown = 1, .shortWar = PYWAR_SHORT_IOFALL, .pickup = PYWAR_PICKUP_RANDOM,
    .queue = 1, .shuffle = PYWAR_SHUFFLE_FISHER_YATES, .keep = 0, .owners = 0, .battles = 0,
    .watching = 0, .observed = 0, .oneCard = 0,
};

static int Game_PlaySmu(Game *game) { return Game_PlayWith(game, SPEC_SMU); }
static int Game_PlayLehigh(Game *game) { return Game_PlayWith(game, SPEC_LEHIGH); }
static int Game_PlayIofall(Game *game) { return Game_PlayWith(game, SPEC_IOFALL); }
static int Game_PlayIofallSingle(Game *game) { return Game_PlayWith(game, SPEC_IOFALL_SINGLE); }
static int Game_PlayCecs325(Game *game) { return Game_PlayWith(game, SPEC_CECS325); }
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
    if (Spec_Same(spec, SPEC_CECS325)) {
        return Game_PlayCecs325(game);
    }
    return Game_PlayAny(game, spec);
}

/* The next game of a batch, on the same Game: a new seed, no text, no deal. */
int Game_PlayNext(Game *game, uint32_t seed)
{
    game->seed = seed;
    return Game_Play(game);
}
