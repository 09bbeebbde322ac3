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

Card *OldCard_New(void);
void OldCard_Delete(Card *card);
void OldCard_SetSuitAndRank(Card *card, SUIT suit, RANK rank);
RANK OldCard_GetRank(const Card *card);
SUIT OldCard_GetSuit(const Card *card);
int OldCard_GetId(const Card *card);
const char *OldCard_GetRankString(const Card *card);
const char *OldCard_GetSuitString(const Card *card);

#endif
