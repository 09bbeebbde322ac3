/* observer.c: the counters, the digest and the trace of a game told event by event.
 * The port's games are smu games: two players, two piles each, a shuffled deal. */
#include <string.h>

#include "digest.h"
#include "observer.h"
#include "tally.h"
#include "text.h"

#define PLAYERS 2

void Observer_Init(Observer *observer, const void *table, ObserverReadPile readPile,
                   ObserverCountPile countPile, PywarText *trace)
{
    memset(observer, 0, sizeof *observer);
    observer->table = table;
    observer->readPile = readPile;
    observer->countPile = countPile;
    observer->trace = trace;
    observer->result.winner = PYWAR_NOBODY;
    observer->result.cycle_start = -1;
    observer->result.cycle_period = -1;
    observer->result.digest = DIGEST_OFFSET;
    observer->lead = (Lead)LEAD_START;
}

static int Observer_Read(const Observer *observer, int pile, uint8_t *ids)
{
    return observer->readPile(observer->table, pile, ids);
}

static int Observer_Count(const Observer *observer, int pile)
{
    return observer->countPile(observer->table, pile);
}

/* The sizes of every pile now. */
static void Observer_ReadSizes(const Observer *observer, TraceEvent *event)
{
    for (int p = 0; p < PLAYERS; p++) {
        event->piles[p][0] = Observer_Count(observer, OBSERVER_TO_PLAY(p));
        event->piles[p][1] = Observer_Count(observer, OBSERVER_PLAYED(p));
    }
    event->pot = Observer_Count(observer, OBSERVER_POT);
}

/* A new event of this kind, with the counters and the sizes of the piles now. */
static void Observer_Start(const Observer *observer, TraceEvent *event, int kind)
{
    memset(event, 0, sizeof *event);
    event->kind = kind;
    event->round = observer->result.rounds;
    event->battle = observer->result.battles;
    event->player = -1;
    event->players = PLAYERS;
    Observer_ReadSizes(observer, event);
}

/* Write a pickup told card by card, once its last card is taken. */
static void Observer_Flush(Observer *observer)
{
    if (observer->takingPickup) {
        Trace_Write(observer->trace, &observer->pickup);
        observer->takingPickup = 0;
    }
}

/* After the deal and after each round, as the engine's Game_Tally: the round's
 * statistics (tally.h), from the cards each player holds. */
static void Observer_Tally(Observer *observer)
{
    int held[PLAYERS];
    for (int p = 0; p < PLAYERS; p++) {
        held[p] = Observer_Count(observer, OBSERVER_TO_PLAY(p))
                  + Observer_Count(observer, OBSERVER_PLAYED(p));
    }
    Tally_Round(&observer->lead, &observer->result, observer->wars, held, PLAYERS);
    observer->wars = 0;
}

/* The hands dealt; the digest folds the cards in the order they were dealt:
 * the bottom cards of A's and B's piles first, one each in turn. */
void Observer_Deal(Observer *observer)
{
    uint8_t hands[PLAYERS][PYWAR_MAXCARDS];
    int counts[PLAYERS];
    TraceEvent event;
    Observer_Start(observer, &event, TRACE_DEAL);
    for (int p = 0; p < PLAYERS; p++) {
        counts[p] = Observer_Read(observer, OBSERVER_TO_PLAY(p), hands[p]);
        for (int i = 0; i < counts[p]; i++) {   /* top first */
            event.cards[event.count++] = hands[p][counts[p] - 1 - i];
        }
        event.handCounts[p] = counts[p];
    }
    Observer_Tally(observer);
    for (int i = 0; i < counts[0] || i < counts[1]; i++) {
        for (int p = 0; p < PLAYERS; p++) {
            if (i < counts[p]) {
                observer->result.digest = Digest_FoldCard(observer->result.digest,
                                                          DIGEST_DEAL, p, hands[p][i]);
            }
        }
    }
    Trace_Write(observer->trace, &event);
}

void Observer_Round(Observer *observer)
{
    TraceEvent event;
    Observer_Flush(observer);
    if (observer->result.rounds > 0) {
        Observer_Tally(observer);
    }
    observer->result.rounds++;
    observer->streak = 0;
    observer->lastWasTie = 0;
    Observer_Start(observer, &event, TRACE_ROUND);
    Trace_Write(observer->trace, &event);
}

/* Both face-up cards are on top of the pot, A's then B's: one event each.  The
 * reference takes both cards before it puts either down, so A's event gives the sizes
 * as they would be with A's card down and B's not yet taken. */
void Observer_FaceUp(Observer *observer)
{
    uint8_t pot[PYWAR_MAXCARDS];
    Observer_Flush(observer);
    int n = Observer_Read(observer, OBSERVER_POT, pot);
    observer->result.battles++;
    if (observer->lastWasTie) {
        observer->result.wars++;
        observer->wars++;
    }
    for (int p = 0; p < PLAYERS; p++) {
        TraceEvent event;
        Observer_Start(observer, &event, TRACE_FACE_UP);
        event.player = p;
        event.cards[0] = pot[n - PLAYERS + p];
        event.count = 1;
        for (int later = p + 1; later < PLAYERS; later++) {
            event.piles[later][0]++;
            event.pot--;
        }
        observer->result.digest = Digest_FoldCard(observer->result.digest, DIGEST_FACE_UP, p,
                                                  event.cards[0]);
        Trace_Write(observer->trace, &event);
    }
}

/* The face-up cards compared: a winner, or -1 for a tie. */
void Observer_Battle(Observer *observer, int winner)
{
    PywarResult *result = &observer->result;
    TraceEvent event;
    Observer_Flush(observer);
    observer->lastWasTie = winner < 0;
    if (winner < 0) {
        result->ties++;
        observer->streak++;
        if (observer->streak > result->longest_tie_streak) {
            result->longest_tie_streak = observer->streak;
        }
    }
    Tally_Battle(result, 3u, winner, winner < 0 ? 3u : 0u, PLAYERS);
    result->digest = Digest_Fold(result->digest,
                                 DIGEST_BATTLE | (winner < 0 ? DIGEST_TIE : (uint32_t)winner));
    Observer_Start(observer, &event, TRACE_BATTLE);
    event.player = winner;
    event.tied = winner < 0 ? 3 : 0;
    Trace_Write(observer->trace, &event);
}

/* One card of the pot has gone on top of the player's 'played' pile. */
void Observer_Take(Observer *observer, int player)
{
    uint8_t played[PYWAR_MAXCARDS];
    TraceEvent *pickup = &observer->pickup;
    int n = Observer_Read(observer, OBSERVER_PLAYED(player), played);
    if (!observer->takingPickup) {
        Observer_Start(observer, pickup, TRACE_PICKUP);
        pickup->player = player;
        observer->takingPickup = 1;
    }
    pickup->cards[pickup->count++] = played[n - 1];
    Tally_Pot(&observer->result, pickup->count);
    Observer_ReadSizes(observer, pickup);       /* the sizes after the last card */
}

/* The player's 'to play' pile was refilled and shuffled. */
void Observer_Refill(Observer *observer, int player)
{
    uint8_t hand[PYWAR_MAXCARDS];
    TraceEvent event;
    Observer_Flush(observer);
    int n = Observer_Read(observer, OBSERVER_TO_PLAY(player), hand);
    Tally_Refill(&observer->result);
    observer->result.digest = Digest_Fold(observer->result.digest,
                                          DIGEST_REFILL | (uint32_t)player << DIGEST_PLAYER_SHIFT | (uint32_t)n);
    Observer_Start(observer, &event, TRACE_REFILL);
    event.player = player;
    for (int i = 0; i < n; i++) {
        event.cards[event.count++] = hand[n - 1 - i];
    }
    Trace_Write(observer->trace, &event);
}

void Observer_RunOut(Observer *observer, int player)
{
    TraceEvent event;
    Observer_Flush(observer);
    observer->lost[player] = 1;
    Observer_Start(observer, &event, TRACE_RUN_OUT);
    event.player = player;
    Trace_Write(observer->trace, &event);
}

/* The game is over: who won, what is left where, and the end of the digest. */
void Observer_End(Observer *observer)
{
    PywarResult *result = &observer->result;
    TraceEvent event;
    Observer_Flush(observer);
    Observer_Tally(observer);
    if (observer->lost[0] && observer->lost[1]) {
        result->outcome = PYWAR_OUTCOME_BOTH_LOSE;
    } else {
        result->outcome = PYWAR_OUTCOME_WIN;
        result->winner = observer->lost[0] ? PYWAR_PLAYER_B : PYWAR_PLAYER_A;
    }
    for (int p = 0; p < PLAYERS; p++) {
        result->piles[p][0] = Observer_Count(observer, OBSERVER_TO_PLAY(p));
        result->piles[p][1] = Observer_Count(observer, OBSERVER_PLAYED(p));
    }
    result->stranded = Observer_Count(observer, OBSERVER_POT);
    Tally_End(&observer->lead, result, PLAYERS);
    result->digest = Digest_Fold(result->digest, DIGEST_END | (uint32_t)result->outcome << DIGEST_OUTCOME_SHIFT
                                                     | (uint32_t)(result->winner + 1));
    Observer_Start(observer, &event, TRACE_END);
    event.player = result->winner;
    event.outcome = result->outcome;
    Trace_Write(observer->trace, &event);
    Text_Flush(observer->trace);
}
