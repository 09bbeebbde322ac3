/* pile.h: a pile of card pointers in a fixed array (SMU's Pile class).
 *
 * SMU's Pile is a stack: AddCardToPile puts a card on top and RemoveTopCard takes
 * the top one.  A queue also puts cards at the bottom, so the array is a ring:
 * position 0 is the bottom card, at cards[bottom], and the top is position
 * numCards - 1.  A pile that is only used as a stack keeps bottom at 0.
 */
#ifndef PYWAR_PILE_H
#define PYWAR_PILE_H

#include "card.h"
#include "pywar.h"
#include "rng.h"

#define MAXCARDS PYWAR_MAXCARDS

typedef struct Pile {
    Card *cards[MAXCARDS];
    int numCards;
    int bottom;
} Pile;

Pile *OldPile_New(void);
void OldPile_Delete(Pile *pile);
void OldPile_Init(Pile *pile);
void OldPile_AddCardToPile(Pile *pile, Card *card);
void OldPile_AddCardToBottom(Pile *pile, Card *card);
Card *OldPile_RemoveTopCard(Pile *pile);
Card *OldPile_RemoveCardAt(Pile *pile, int position);
int OldPile_GetNumCards(const Pile *pile);
Card *OldPile_GetCard(const Pile *pile, int position);
void OldPile_Shuffle(Pile *pile, Rng *rng, int method);
void OldPile_PrintCards(const Pile *pile, PywarText *text);

#endif
