/* card.h: one playing card, allocated on the heap (SMU's Card class). */
#ifndef PYWAR_CARD_H
#define PYWAR_CARD_H

typedef enum SUIT { HEART, DIAMOND, SPADE, CLUB } SUIT;
typedef enum RANK { TWO, THREE, FOUR, FIVE, SIX, SEVEN, EIGHT, NINE, TEN,
                    JACK, QUEEN, KING, ACE } RANK;

#define NUM_RANKS 13

typedef struct Card {
    int suit;   /* -1 until set */
    int rank;   /* -1 until set */
} Card;

Card *Card_New(void);
void Card_Delete(Card *card);
void Card_SetSuitAndRank(Card *card, SUIT suit, RANK rank);
RANK Card_GetRank(const Card *card);
SUIT Card_GetSuit(const Card *card);
int Card_GetId(const Card *card);
const char *Card_GetRankString(const Card *card);
const char *Card_GetSuitString(const Card *card);

#endif
