/* pile.c: a pile of card pointers in a fixed array (SMU's Pile class). */
#include <stdlib.h>

#include "pile.h"
#include "text.h"

Pile *Pile_New(void)
{
    Pile *pile = malloc(sizeof *pile);
    if (pile != NULL) {
        Pile_Init(pile);
    }
    return pile;
}

void Pile_Delete(Pile *pile)
{
    free(pile);
}

void Pile_Init(Pile *pile)
{
    pile->numCards = 0;
    pile->bottom = 0;
}

/* The array index of a position counted from the bottom. */
static int Pile_Index(const Pile *pile, int position)
{
    int index = pile->bottom + position;
    return index >= MAXCARDS ? index - MAXCARDS : index;
}

void Pile_AddCardToPile(Pile *pile, Card *card)
{
    pile->cards[Pile_Index(pile, pile->numCards)] = card;
    pile->numCards++;
}

void Pile_AddCardToBottom(Pile *pile, Card *card)
{
    pile->bottom = pile->bottom == 0 ? MAXCARDS - 1 : pile->bottom - 1;
    pile->cards[pile->bottom] = card;
    pile->numCards++;
}

/* Like the reference, no check for an empty pile: callers check first. */
Card *Pile_RemoveTopCard(Pile *pile)
{
    pile->numCards--;
    Card *card = pile->cards[Pile_Index(pile, pile->numCards)];
    if (pile->numCards == 0) {
        pile->bottom = 0;
    }
    return card;
}

/* Take out the card at a position; the cards above it move down one. */
Card *Pile_RemoveCardAt(Pile *pile, int position)
{
    Card *card = Pile_GetCard(pile, position);
    for (int i = position; i < pile->numCards - 1; i++) {
        pile->cards[Pile_Index(pile, i)] = pile->cards[Pile_Index(pile, i + 1)];
    }
    pile->numCards--;
    return card;
}

int Pile_GetNumCards(const Pile *pile)
{
    return pile->numCards;
}

Card *Pile_GetCard(const Pile *pile, int position)
{
    return pile->cards[Pile_Index(pile, position)];
}

/* Rotate the ring so that the bottom card is at cards[0]. */
static void Pile_MakeFlat(Pile *pile)
{
    Card *flat[MAXCARDS];
    if (pile->bottom == 0) {
        return;
    }
    for (int i = 0; i < pile->numCards; i++) {
        flat[i] = Pile_GetCard(pile, i);
    }
    for (int i = 0; i < pile->numCards; i++) {
        pile->cards[i] = flat[i];
    }
    pile->bottom = 0;
}

static void Pile_Swap(Pile *pile, uint32_t i, uint32_t j)
{
    Card *card = pile->cards[i];
    pile->cards[i] = pile->cards[j];
    pile->cards[j] = card;
}

/* SMU: MAXCARDS * 2 times, swap two cards drawn as rand() % n, the first drawn first. */
static void Pile_ShuffleSmu(Pile *pile, Rng *rng)
{
    RngModulus n = Rng_Modulus((uint32_t)pile->numCards);
    const uint32_t *words = Rng_Words(rng, MAXCARDS * 4);   /* the 208 draws at once */
    for (int i = 0; i < MAXCARDS * 4; i += 2) {
        uint32_t c1 = Rng_Reduce(words[i] >> 1, &n);
        uint32_t c2 = Rng_Reduce(words[i + 1] >> 1, &n);
        Pile_Swap(pile, c1, c2);
    }
}

/* Lehigh: for each card from the bottom up, swap it with the card at rand() % n. */
static void Pile_ShuffleSwapEach(Pile *pile, Rng *rng)
{
    RngModulus n = Rng_Modulus((uint32_t)pile->numCards);
    for (int i = 0; i < pile->numCards; i++) {
        Pile_Swap(pile, (uint32_t)i, Rng_BelowModulus(rng, &n));
    }
}

/* Fisher-Yates from the top down: swap position i with rand() % (i + 1). */
static void Pile_ShuffleFisherYates(Pile *pile, Rng *rng)
{
    for (int i = pile->numCards - 1; i > 0; i--) {
        Pile_Swap(pile, (uint32_t)i, Rng_Below(rng, (uint32_t)i + 1));
    }
}

void Pile_Shuffle(Pile *pile, Rng *rng, int method)
{
    if (pile->numCards == 0) {
        return;
    }
    Pile_MakeFlat(pile);
    switch (method) {
    case PYWAR_SHUFFLE_SWAP_EACH:
        Pile_ShuffleSwapEach(pile, rng);
        break;
    case PYWAR_SHUFFLE_FISHER_YATES:
        Pile_ShuffleFisherYates(pile, rng);
        break;
    default:
        Pile_ShuffleSmu(pile, rng);
        break;
    }
}

void Pile_PrintCards(const Pile *pile, PywarText *text)
{
    Text_Printf(text, "There are %d cards in the pile.\n", pile->numCards);
    for (int i = 0; i < pile->numCards; i++) {
        Card *card = Pile_GetCard(pile, i);
        Text_Printf(text, "Card %d, %s of %ss\n", i + 1, Card_GetRankString(card),
                    Card_GetSuitString(card));
    }
    Text_Printf(text, "\n");
}
