/* pile.c: a pile of card pointers in a fixed array (SMU's Pile class). */
#include <stdlib.h>

#include "pile.h"
#include "text.h"

Pile *OldPile_New(void)
{
    Pile *pile = malloc(sizeof *pile);
    if (pile != NULL) {
        OldPile_Init(pile);
    }
    return pile;
}

void OldPile_Delete(Pile *pile)
{
    free(pile);
}

void OldPile_Init(Pile *pile)
{
    pile->numCards = 0;
    pile->bottom = 0;
}

/* The array index of a position counted from the bottom. */
static int OldPile_Index(const Pile *pile, int position)
{
    int index = pile->bottom + position;
    return index >= MAXCARDS ? index - MAXCARDS : index;
}

void OldPile_AddCardToPile(Pile *pile, Card *card)
{
    pile->cards[OldPile_Index(pile, pile->numCards)] = card;
    pile->numCards++;
}

void OldPile_AddCardToBottom(Pile *pile, Card *card)
{
    pile->bottom = pile->bottom == 0 ? MAXCARDS - 1 : pile->bottom - 1;
    pile->cards[pile->bottom] = card;
    pile->numCards++;
}

/* Like the reference, no check for an empty pile: callers check first. */
Card *OldPile_RemoveTopCard(Pile *pile)
{
    pile->numCards--;
    Card *card = pile->cards[OldPile_Index(pile, pile->numCards)];
    if (pile->numCards == 0) {
        pile->bottom = 0;
    }
    return card;
}

/* Take out the card at a position; the cards above it move down one. */
Card *OldPile_RemoveCardAt(Pile *pile, int position)
{
    Card *card = OldPile_GetCard(pile, position);
    for (int i = position; i < pile->numCards - 1; i++) {
        pile->cards[OldPile_Index(pile, i)] = pile->cards[OldPile_Index(pile, i + 1)];
    }
    pile->numCards--;
    return card;
}

int OldPile_GetNumCards(const Pile *pile)
{
    return pile->numCards;
}

Card *OldPile_GetCard(const Pile *pile, int position)
{
    return pile->cards[OldPile_Index(pile, position)];
}

/* Rotate the ring so that the bottom card is at cards[0]. */
static void OldPile_MakeFlat(Pile *pile)
{
    Card *flat[MAXCARDS];
    if (pile->bottom == 0) {
        return;
    }
    for (int i = 0; i < pile->numCards; i++) {
        flat[i] = OldPile_GetCard(pile, i);
    }
    for (int i = 0; i < pile->numCards; i++) {
        pile->cards[i] = flat[i];
    }
    pile->bottom = 0;
}

static void OldPile_Swap(Pile *pile, uint32_t i, uint32_t j)
{
    Card *card = pile->cards[i];
    pile->cards[i] = pile->cards[j];
    pile->cards[j] = card;
}

/* SMU: MAXCARDS * 2 times, swap two cards drawn as rand() % n, the first drawn first. */
static void OldPile_ShuffleSmu(Pile *pile, Rng *rng)
{
    RngModulus n = Rng_Modulus((uint32_t)pile->numCards);
    const uint32_t *words = Rng_Words(rng, MAXCARDS * 4);   /* the 208 draws at once */
    for (int i = 0; i < MAXCARDS * 4; i += 2) {
        uint32_t c1 = Rng_Reduce(words[i] >> 1, &n);
        uint32_t c2 = Rng_Reduce(words[i + 1] >> 1, &n);
        OldPile_Swap(pile, c1, c2);
    }
}

/* Lehigh: for each card from the bottom up, swap it with the card at rand() % n. */
static void OldPile_ShuffleSwapEach(Pile *pile, Rng *rng)
{
    RngModulus n = Rng_Modulus((uint32_t)pile->numCards);
    for (int i = 0; i < pile->numCards; i++) {
        OldPile_Swap(pile, (uint32_t)i, Rng_BelowModulus(rng, &n));
    }
}

/* Fisher-Yates from the top down: swap position i with rand() % (i + 1). */
static void OldPile_ShuffleFisherYates(Pile *pile, Rng *rng)
{
    for (int i = pile->numCards - 1; i > 0; i--) {
        OldPile_Swap(pile, (uint32_t)i, Rng_Below(rng, (uint32_t)i + 1));
    }
}

void OldPile_Shuffle(Pile *pile, Rng *rng, int method)
{
    if (pile->numCards == 0) {
        return;
    }
    OldPile_MakeFlat(pile);
    switch (method) {
    case PYWAR_SHUFFLE_SWAP_EACH:
        OldPile_ShuffleSwapEach(pile, rng);
        break;
    case PYWAR_SHUFFLE_FISHER_YATES:
        OldPile_ShuffleFisherYates(pile, rng);
        break;
    default:
        OldPile_ShuffleSmu(pile, rng);
        break;
    }
}

void OldPile_PrintCards(const Pile *pile, PywarText *text)
{
    Text_Printf(text, "There are %d cards in the pile.\n", pile->numCards);
    for (int i = 0; i < pile->numCards; i++) {
        Card *card = OldPile_GetCard(pile, i);
        Text_Printf(text, "Card %d, %s of %ss\n", i + 1, OldCard_GetRankString(card),
                    OldCard_GetSuitString(card));
    }
    Text_Printf(text, "\n");
}
