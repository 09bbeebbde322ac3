/* narrator.h: the transcript, told from the game's events in the words of each rule
 * set's own program (docs/rules.md section 10).  pywar/twin/narrator.py says the same
 * words from the same events, and the front ends use it to narrate a trace. */
#ifndef PYWAR_NARRATOR_H
#define PYWAR_NARRATOR_H

#include "pywar.h"
#include "../common/trace.h"

/* The standard deck, whose ranks and suits have names (docs/rules.md section 2); a deck
 * of another shape names ranks by number and suits past these by number. */
#define STANDARD_RANKS 13
#define STANDARD_SUITS 4
#define NARRATOR_IOFALL_SEATS 2   /* iofall's two seats have names: User and Computer */

typedef struct Narrator {
    PywarText *text;                        /* NULL: nobody reads it */
    int style;                              /* enum PywarNarration */
    int ranks;                              /* the deck: ranks and suits, for card names */
    int suits;
    int shuffled;                           /* the deal was shuffled, not given */
    int oneCard;                            /* game one-card: its own battle and end lines */
    int32_t record[PYWAR_MAX_PLAYERS][3];   /* one-card: each one's battles won, lost, tied */
    int countsDue;                          /* smu: a battle's counts are still to say */
    int roundOpen;                          /* iofall: a round's line is still to say */
    TraceEvent last;                        /* the event before: the sizes after it */
    uint8_t faceUp[PYWAR_MAX_PLAYERS];      /* this battle's face-up cards ... */
    unsigned faceUps;                       /* ... of these players (bit p) */
    int32_t cycleStart;
    int32_t cyclePeriod;
} Narrator;

void Narrator_Init(Narrator *narrator, PywarText *text, const PywarRules *rules, int shuffled);
void Narrator_Event(Narrator *narrator, const TraceEvent *event);

#endif
