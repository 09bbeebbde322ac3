/* pile.c: the reference's pile.cpp.  Each operation shows Program 4's way (the array)
 * and then Program 6's (the stack ADT). */
#include <stdlib.h>
#include "pile.h"
#include "../common/text.h"

/* Pile::Pile, in place.  Without memory: PYWAR_ENOMEM, and Pile_Destroy frees the rest. */
int Pile_Init(Pile *pile, int stack)
{
    pile->numCards = 0;
    pile->stack = stack == PYWAR_STACK_ADT ? Stack_New() : NULL;
    return stack == PYWAR_STACK_ADT && pile->stack == NULL ? PYWAR_ENOMEM : PYWAR_OK;
}

/* Pile's implicit destructor (Program 6: the stack's own). */
void Pile_Destroy(Pile *pile)
{
    Stack_Delete(pile->stack);
}

/* new Pile: NULL if there is no memory. */
Pile *Pile_New(int stack)
{
    Pile *pile = malloc(sizeof *pile);
    if (pile != NULL && Pile_Init(pile, stack) != PYWAR_OK) {
        Pile_Delete(pile);
        pile = NULL;
    }
    return pile;
}

/* delete pile */
void Pile_Delete(Pile *pile)
{
    if (pile != NULL) {
        Pile_Destroy(pile);
        free(pile);
    }
}

/* Pile::AddCardToPile */
void Pile_AddCardToPile(Pile *pile, Card *card)
{
    if (pile->stack == NULL) {              /* Program 4: at the end of the array */
        pile->cards[pile->numCards] = card;
        pile->numCards++;
    } else {                                /* Program 6: push */
        Stack_Push(pile->stack, card);
    }
}

/* Pile::RemoveTopCard (the pile must not be empty) */
Card *Pile_RemoveTopCard(Pile *pile)
{
    Card *cardToReturn;
    if (pile->stack == NULL) {              /* Program 4: from the end of the array */
        cardToReturn = pile->cards[pile->numCards - 1];
        pile->numCards--;
    } else {                                /* Program 6: top, then pop */
        cardToReturn = Stack_Top(pile->stack);
        Stack_Pop(pile->stack);
    }
    return cardToReturn;
}

/* Pile::GetNumCards */
int Pile_GetNumCards(const Pile *pile)
{
    return pile->stack == NULL ? pile->numCards : Stack_Size(pile->stack);
}

/* The cards as an array, bottom first: Program 4's own, or Program 6's stack popped
 * into 'popped' (a stack has no index); Pile_PutArray pushes them back. */
Card **Pile_GetArray(Pile *pile, Card **popped)
{
    int i = Pile_GetNumCards(pile);
    while (pile->stack != NULL && !Stack_Empty(pile->stack)) {
        popped[--i] = Stack_Top(pile->stack);
        Stack_Pop(pile->stack);
    }
    return pile->stack == NULL ? pile->cards : popped;
}

/* Program 6: push back the array of Pile_GetArray, bottom first. */
void Pile_PutArray(Pile *pile, Card **cards, int numCards)
{
    for (int i = 0; pile->stack != NULL && i < numCards; i++) {
        Stack_Push(pile->stack, cards[i]);
    }
}

/* Pile::Shuffle: 104 random swaps.  rand() is Rng_Rand on the table's generator. */
void Pile_Shuffle(Pile *pile, Rng *rng)
{
    Card *popped[MAXCARDS];
    int numCards = Pile_GetNumCards(pile);
    Card **cards = Pile_GetArray(pile, popped);
    int n = MAXCARDS * 2;
    for (int i = 0; i < n; i++) {
        int c1 = (int)Rng_Rand(rng) % numCards;
        int c2 = (int)Rng_Rand(rng) % numCards;
        Card *temp = cards[c1];
        cards[c1] = cards[c2];
        cards[c2] = temp;
    }
    Pile_PutArray(pile, cards, numCards);
}

/* Pile::PrintCards, to the text sink that stands for cout. */
void Pile_PrintCards(Pile *pile, PywarText *text)
{
    Card *popped[MAXCARDS];
    int numCards = Pile_GetNumCards(pile);
    Card **cards = Pile_GetArray(pile, popped);
    Text_Printf(text, "There are %d cards in the pile.\n", numCards);
    for (int i = 0; i < numCards; i++) {
        Text_Printf(text, "Card %d, %s of %ss\n", i + 1, Card_GetRankString(cards[i]),
                    Card_GetSuitString(cards[i]));
    }
    Pile_PutArray(pile, cards, numCards);
}
