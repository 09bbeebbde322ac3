/* tally.h: every statistic of a game (docs/rules.md section 15), counted in one place
 * for both editions.  The engine (game.c) and the port's observer (observer.c) call
 * Tally_Round after the deal and after each round, Tally_Battle as a battle is decided,
 * Tally_Pot as a pot is won,
 * Tally_Refill at a refill and Tally_End when the game is over.  pywar/common/tally.py
 * is the Python twin, which the twin and the port's Python observer share.
 *
 * Static inline, as shuffle.h is: the engine calls Tally_Round once a round with the
 * players' number a constant of its loop, so the two-player branch is chosen when the
 * loop is compiled, and the Lead stays in registers (a local of the engine's loop,
 * reached only from inlined steps). */
#ifndef PYWAR_TALLY_H
#define PYWAR_TALLY_H

#include <stdint.h>

#include "inline.h"
#include "pywar.h"


/* Who leads, and how far behind each player has been. */
typedef struct Lead {
    int leader;                             /* the one player with the most cards, or -1 */
    int32_t changes;                        /* changes of leader after the first */
    int deficit[PYWAR_MAX_PLAYERS];         /* the most cards each has been behind */
} Lead;

#define LEAD_START {PYWAR_NOBODY, 0, {0}}

/* After the deal (wars 0) and after each round, given the cards each player holds: the
 * round's war depth, a round with a war, the leader (the one player holding the most
 * cards, if any), counting each change of leader after the first, and the deficit each
 * has faced. */
/* Its cost (2026-12-02, Zen 4; timed in turn, pinned, as bench/pairs.py times them): a
 * build without the tally takes smu 0.925 of the time and iofall 0.897 (41 pairs each);
 * the leader chosen without a branch took 1.036 (61 pairs), so the branch stays.
 * war_rounds is one increment in the branch of a war (about 16 a game of smu).
 *   python bench/pairs.py --pairs 41 BEFORE AFTER -- 40000 1 0 0 0 0 0 0 10000000 1 2 13 4 0 */
STEP void Tally_Round(Lead *lead, PywarResult *result, int wars,
                      const int *held, int players)
{
    int most = -1, second = -1, leader = PYWAR_NOBODY;
    if (wars > 0) {
        result->war_depths[wars < PYWAR_WAR_DEPTHS ? wars : PYWAR_WAR_DEPTHS - 1]++;
        result->deepest_war = wars > result->deepest_war ? wars : result->deepest_war;
        result->war_rounds++;
    }
    if (players == 2) {         /* the same, from one margin, with fewer branches */
        int margin = held[PYWAR_PLAYER_A] - held[PYWAR_PLAYER_B];
        lead->deficit[PYWAR_PLAYER_B] = margin > lead->deficit[PYWAR_PLAYER_B]
                                         ? margin : lead->deficit[PYWAR_PLAYER_B];
        lead->deficit[PYWAR_PLAYER_A] = -margin > lead->deficit[PYWAR_PLAYER_A]
                                         ? -margin : lead->deficit[PYWAR_PLAYER_A];
        if (margin != 0) {
            leader = margin > 0 ? PYWAR_PLAYER_A : PYWAR_PLAYER_B;
            lead->changes += lead->leader != PYWAR_NOBODY && leader != lead->leader;
            lead->leader = leader;
        }
        return;
    }
    for (int p = 0; p < players; p++) {
        if (held[p] > most) {
            second = most;
            most = held[p];
            leader = p;
        } else if (held[p] > second) {
            second = held[p];
        }
    }
    for (int p = 0; p < players; p++) {
        int ahead = (p == leader ? second : most) - held[p];
        lead->deficit[p] = ahead > lead->deficit[p] ? ahead : lead->deficit[p];
    }
    if (most == second) {
        return;            /* a tie for the most cards: nobody leads */
    }
    lead->changes += lead->leader != PYWAR_NOBODY && leader != lead->leader;
    lead->leader = leader;
}

/* A pot of this many cards is won (or, in the port, has been taken so far). */
STEP void Tally_Pot(PywarResult *result, int cards)
{
    result->biggest_pot = cards > result->biggest_pot ? cards : result->biggest_pot;
}

/* A battle among inBattle (bit p: player p) is decided: a win for winner and a loss for
 * each other player, or, winner -1, a tie for the tied players and a loss for the others
 * (docs/rules.md 7.10).  With two players both are in every battle, and only A's wins
 * are counted here, without a branch: Tally_Record makes the rest from them, the
 * battles and the ties. */
/* Measured (2026-12-06, 2 cores shared at load 3.4 to 4; CPU time, bench/pairs.py
 * --cpu-time, before and after in turn, median of 25 pairs): each player's won, lost or
 * tied counted at every battle, with a branch, cost iofall 1.068 of its time (0.99 to
 * 1.28); A's wins alone 0.971 (0.75 to 1.16), and 0.979 of main's instructions
 * (callgrind): docs/performance.md (the record).
 *   python bench/pairs.py --pairs 25 --cpu-time BEFORE AFTER -- 60000 1 3 3 2 1 2 2 100000 1 2 13 4 0 0 */
STEP void Tally_Battle(PywarResult *result, unsigned inBattle, int winner, unsigned tied,
                       int players)
{
    if (players == 2) {
        result->record[PYWAR_PLAYER_A][0] += winner == PYWAR_PLAYER_A;
        return;
    }
    for (int p = 0; p < players; p++) {
        if (inBattle & (1u << p)) {
            result->record[p][p == winner ? 0 : (tied & (1u << p)) ? 2 : 1]++;
        }
    }
}

/* A 'played' pile has become a 'to play' pile. */
STEP void Tally_Refill(PywarResult *result)
{
    result->refills++;
}

/* Each player's record, whole: with two players, B's wins are the battles neither A won
 * nor tied, each one's losses the other's wins, and both tied every tie.  (More players
 * are counted whole by Tally_Battle.)  Setting, not adding: it may be called again. */
STEP void Tally_Record(PywarResult *result, int players)
{
    if (players == 2) {
        int32_t *a = result->record[PYWAR_PLAYER_A], *b = result->record[PYWAR_PLAYER_B];
        b[0] = result->battles - result->ties - a[0];
        a[1] = b[0];
        b[1] = a[0];
        a[2] = b[2] = result->ties;
    }
}

/* The game is over, its winner known: the changes of leader, and the largest deficit
 * the winner came back from (with two players chosen without indexing, so that the
 * Lead stays in registers). */
STEP void Tally_End(const Lead *lead, PywarResult *result, int players)
{
    int winner = result->winner;
    Tally_Record(result, players);
    result->lead_changes = lead->changes;
    if (players == 2) {
        result->comeback = winner == PYWAR_PLAYER_A ? lead->deficit[PYWAR_PLAYER_A]
                           : winner == PYWAR_PLAYER_B ? lead->deficit[PYWAR_PLAYER_B] : 0;
        return;
    }
    result->comeback = winner >= 0 ? lead->deficit[winner] : 0;
}

#endif
