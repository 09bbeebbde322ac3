/* pickup.h: the pieces of a pickup (docs/rules.md 7.4), the winner taking the pot: the
 * order it takes the cards in, the slots of its hand where they land, and the counts
 * that grow by them.  Game_Collect (game.c) puts them together, with the pot's count
 * and the pickup's event.  The twin's Game.collect and its helpers
 * (pywar/twin/game.py) take the same steps, without the slots. */
#ifndef PYWAR_PICKUP_H
#define PYWAR_PICKUP_H

#include <stdint.h>

#include "game.h"
#include "hand.h"
#include "pywar.h"
#include "shuffle.h"
#include "spec.h"
#include "../common/rng.h"

/* One seat's pot cards, in the order they were put down. */
STEP int Game_SeatCards(const Game *game, int seat, CardId *cards)
{
    int count = 0;
    for (int i = 0; i < game->potCount; i++) {
        if (game->potOwner[i] == seat) {
            cards[count++] = game->pot[i];
        }
    }
    return count;
}

/* The pot's cards seat by seat, from firstSeat round the table: each seat's cards in
 * turn, or one card of each seat in turn (interleave). */
static void Game_OrderBySeat(const Game *game, int firstSeat, int interleave, CardId *order)
{
    CardId bySeat[PYWAR_MAX_PLAYERS][PYWAR_MAXCARDS];
    int counts[PYWAR_MAX_PLAYERS], most = 0, k = 0;
    for (int i = 0; i < game->players; i++) {
        int seat = (firstSeat + i) % game->players;
        counts[i] = Game_SeatCards(game, seat, bySeat[i]);
        most = counts[i] > most ? counts[i] : most;
    }
    for (int round = 0; round < (interleave ? most : 1); round++) {
        for (int i = 0; i < game->players; i++) {
            int from = interleave ? round : 0;
            int to = interleave ? (round < counts[i] ? round + 1 : round) : counts[i];
            for (int c = from; c < to; c++) {
                order[k++] = bySeat[i][c];
            }
        }
    }
}

/* The pot from the top, the highest rank first within each run: each battle's face-up
 * cards (byBattle, the natural pickup; a face-down card is a run of its own) or the
 * whole pot (the sorted pickup).  Cards of one rank in a run stay top first: an
 * insertion sort, stable, on runs of at most a pot's 52 cards. */
static void Game_OrderHighFirst(const Game *game, int byBattle, CardId *order)
{
    int first = 0;
    for (int i = game->potCount - 1, k = 0; i >= 0; i--, k++) {
        int32_t battle = byBattle ? game->potBattle[i] : -1;
        if (battle == 0 || (byBattle && i + 1 < game->potCount
                            && game->potBattle[i + 1] != battle)) {
            first = k;          /* a new run: a face-down card, or another battle's */
        }
        CardId card = game->pot[i];
        int j = k;
        while (j > first && game->rank[order[j - 1]] < game->rank[card]) {
            order[j] = order[j - 1];
            j--;
        }
        order[j] = card;
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
        Game_OrderBySeat(game, winner + 1, 0, order);   /* the others, the winner last */
        return order;
    case PYWAR_PICKUP_SEAT_INTERLEAVED:
        Game_OrderBySeat(game, PYWAR_PLAYER_A, 1, order);
        return order;
    case PYWAR_PICKUP_NATURAL:
        Game_OrderHighFirst(game, 1, order);
        return order;
    case PYWAR_PICKUP_SORTED:
        Game_OrderHighFirst(game, 0, order);
        return order;
    default: /* seat-block */
        Game_OrderBySeat(game, PYWAR_PLAYER_A, 0, order);
        return order;
    }
}

/* Where the pot lands: the winner's hand, and the ring slots that pushing the taken
 * cards one by one would give them: the i-th card taken goes below the bottom card of
 * a queue (slot first - i) or on top of 'played' (slot first + i). */
typedef struct Landing {
    Hand *hand;
    uint32_t first;     /* the slot of the card taken first */
    uint32_t step;      /* from one card taken to the next: -1 (a queue) or 1 */
} Landing;

STEP Landing Game_Landing(Game *game, Spec spec, int winner)
{
    Landing landing;
    landing.hand = spec.queue ? &game->toPlay[winner] : &game->played[winner];
    landing.first = spec.queue ? landing.hand->bottom - 1u
                               : landing.hand->bottom + landing.hand->count;
    landing.step = spec.queue ? (uint32_t)-1 : 1u;
    return landing;
}

STEP void Landing_Put(Landing landing, int i, CardId card)
{
    landing.hand->cards[(landing.first + landing.step * (uint32_t)i) & HAND_MASK] = card;
}

/* Count n cards already put in their slots of a hand: under the queue its bottom moves
 * down by n. */
STEP void Game_GrowHand(Hand *hand, Spec spec, uint32_t n)
{
    if (spec.queue) {
        hand->bottom = (hand->bottom - n) & HAND_MASK;
    }
    hand->count += n;
}

/* The winner's hand grows by the n cards put in its slots.  With two players both hands'
 * counts and bottoms are written, the loser's grown by zero (gcc compiles the choice to
 * conditional moves, not a branch), so that no store to a count or a bottom has an
 * address that waits for the battle's winner: the next round begins by reading both
 * counts, and a processor that cannot yet tell whether those reads depend on a store
 * whose address is still unknown either waits or guesses, and loses the work done
 * ahead at each wrong guess (the figures below).  With more players
 * only the winner's hand is written: a store to every hand cost more than it saved. */
/* Measured (2026-12-02, Zen 4; the driver without and with the two-hand write timed in
 * turn, pinned, 9 pairs, as bench/pairs.py times them): iofall 0.81 of the time,
 * iofall-single 0.81, lehigh 0.96, smu 1.00; every hand written with 3 or 4 players:
 * 1.04 to 1.08, so only the winner's is.
 *   python bench/pairs.py --pairs 9 BEFORE AFTER -- 200000 1 3 3 2 1 2 2 100000 1 2 13 4 0 */
STEP void Game_GrowHands(Game *game, Spec spec, int winner, int n)
{
    Hand *hands = spec.queue ? game->toPlay : game->played;
    if (spec.players == 2) {
        /* n or 0 by a mask: written as '?:', gcc made smu's choice a branch on the
         * battle's winner, which no predictor can guess */
        uint32_t toA = 0u - (uint32_t)(winner == PYWAR_PLAYER_A);
        Game_GrowHand(&hands[PYWAR_PLAYER_A], spec, (uint32_t)n & toA);
        Game_GrowHand(&hands[PYWAR_PLAYER_B], spec, (uint32_t)n & ~toA);
    } else {
        Game_GrowHand(&hands[winner], spec, (uint32_t)n);
    }
}

/* The random pickup by Fisher-Yates (iofall's): the pot shuffled as Shuffle_FisherYates
 * shuffles it, each card put in its slot in the winner's hand as soon as the shuffle
 * settles it (they settle from the last down); the caller counts them (Game_GrowHands).
 * One loop where shuffling, then pushing, took two: a second loop ends at a new count
 * at every pickup, where the branch predictor must guess.  The n - 1 words come from
 * the generator at once: one check for a refill, not one a draw. */
/* Measured (2026-12-02, Zen 4; timed in turn, pinned, as bench/pairs.py times them):
 * the two-card pot in moves, 0.907 of the time before (21 pairs; least times 0.788 and
 * 0.867 s); one loop for Fisher-Yates took the engine from 1.065 of bench/tight_iofall.c's
 * time to 1.02.
 *   python bench/pairs.py --pairs 21 BEFORE AFTER -- 200000 1 3 3 2 1 2 2 100000 1 2 13 4 0 */
STEP void Game_CollectShuffled(Game *game, Spec spec, Landing landing)
{
    int n = game->potCount;
    if (n == 2) {
        /* a battle without a war (most rounds): the one draw is rand() % 2, the low bit
         * of rand(), which keeps the two cards or swaps them: moves, not a loop */
        uint32_t keep = 0u - ((Rng_Words(&game->rng, 1)[0] >> 1) & 1u);    /* all ones to keep */
        uint32_t a = game->pot[0], b = game->pot[1], swap = (a ^ b) & ~keep;
        CardId first = (CardId)(a ^ swap), second = (CardId)(b ^ swap);
        if (spec.observed) {     /* the pickup's event tells the pot as shuffled */
            game->pot[0] = first;
            game->pot[1] = second;
        }
        Landing_Put(landing, 0, first);
        Landing_Put(landing, 1, second);
        return;
    }
    const uint32_t *words = Rng_Words(&game->rng, n > 0 ? n - 1 : 0);
    for (int i = n - 1; i > 0; i--) {
        RngModulus m = Rng_SmallModulus((uint32_t)i + 1);
        Shuffle_Swap(game->pot, (uint32_t)i, Rng_Reduce(words[n - 1 - i] >> 1, &m));
        Landing_Put(landing, i, game->pot[i]);
    }
    if (n > 0) {
        Landing_Put(landing, 0, game->pot[0]);
    }
}

#endif
