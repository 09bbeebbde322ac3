/* pile.h: the reference's Pile: Program 4's array and count beside Program 6's stack ADT.
 * Pile_Init/_Destroy work in place (a member); Pile_New/_Delete are new and delete. */
#ifndef PYWAR_PORT_PILE_H
#define PYWAR_PORT_PILE_H

#include "card.h"
#include "pywar.h"
#include "../common/rng.h"
#include "stack.h"

#define MAXCARDS PYWAR_MAXCARDS   /* the reference's name for the deck's 52 cards */

typedef struct Pile {
    Card *cards[MAXCARDS];   /* Program 4: an array of card pointers, the top last */
    int numCards;
    Stack *stack;            /* Program 6: the stack ADT; NULL in Program 4 */
} Pile;

int Pile_Init(Pile *pile, int stack);
void Pile_Destroy(Pile *pile);
Pile *Pile_New(int stack);
void Pile_Delete(Pile *pile);
void Pile_AddCardToPile(Pile *pile, Card *card);
Card *Pile_RemoveTopCard(Pile *pile);
int Pile_GetNumCards(const Pile *pile);
void Pile_Shuffle(Pile *pile, Rng *rng);
void Pile_PrintCards(Pile *pile, PywarText *text);
Card **Pile_GetArray(Pile *pile, Card **popped);
void Pile_PutArray(Pile *pile, Card **cards, int numCards);
#endif
