/* card.c: one playing card, allocated on the heap (SMU's Card class). */
#include <stdlib.h>

#include "card.h"

static const char *const RANK_STRINGS[NUM_RANKS] = {
    "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    "jack", "queen", "king", "ace"};
static const char *const SUIT_STRINGS[4] = {"heart", "diamond", "spade", "club"};

Card *OldCard_New(void)
{
    Card *card = malloc(sizeof *card);
    if (card != NULL) {
        card->suit = -1;
        card->rank = -1;
    }
    return card;
}

void OldCard_Delete(Card *card)
{
    free(card);
}

void OldCard_SetSuitAndRank(Card *card, SUIT suit, RANK rank)
{
    card->suit = suit;
    card->rank = rank;
}

RANK OldCard_GetRank(const Card *card)
{
    return (RANK)card->rank;
}

SUIT OldCard_GetSuit(const Card *card)
{
    return (SUIT)card->suit;
}

/* The card's number 0..51: suit * 13 + rank, in SMU's enum order. */
int OldCard_GetId(const Card *card)
{
    return card->suit * NUM_RANKS + card->rank;
}

const char *OldCard_GetRankString(const Card *card)
{
    return RANK_STRINGS[card->rank];
}

const char *OldCard_GetSuitString(const Card *card)
{
    return SUIT_STRINGS[card->suit];
}
