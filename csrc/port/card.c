/* card.c: the reference's card.cpp. */
#include <stdlib.h>
#include "card.h"

/* Card::Card, as 'new Card': a card on the heap, suit and rank unset; NULL if no memory. */
Card *Card_New(void)
{
    Card *card = malloc(sizeof *card);
    if (card != NULL) {
        card->suit = -1;
        card->rank = -1;
    }
    return card;
}

/* delete card (Card has no destructor of its own: TableTop::~TableTop deletes it). */
void Card_Delete(Card *card)
{
    free(card);
}

/* Card::SetSuitAndRank */
void Card_SetSuitAndRank(Card *card, int suit, int rank)
{
    card->suit = suit;
    card->rank = rank;
}

/* Card::GetRankString */
const char *Card_GetRankString(const Card *card)
{
    switch (card->rank) {
    case TWO: return "two";
    case THREE: return "three";
    case FOUR: return "four";
    case FIVE: return "five";
    case SIX: return "six";
    case SEVEN: return "seven";
    case EIGHT: return "eight";
    case NINE: return "nine";
    case TEN: return "ten";
    case JACK: return "jack";
    case QUEEN: return "queen";
    case KING: return "king";
    case ACE: return "ace";
    default: return "error";
    }
}

/* Card::GetRank */
int Card_GetRank(const Card *card)
{
    return card->rank;
}

/* Card::GetSuitString */
const char *Card_GetSuitString(const Card *card)
{
    switch (card->suit) {
    case HEART: return "heart";
    case DIAMOND: return "diamond";
    case SPADE: return "spade";
    case CLUB: return "club";
    default: return "error";
    }
}

/* Card::GetSuit */
int Card_GetSuit(const Card *card)
{
    return card->suit;
}
