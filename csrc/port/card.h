/* card.h: the reference's Card.  Cards live on the heap: Card_New is 'new Card' (the
 * constructor), Card_Delete is 'delete card'. */
#ifndef PYWAR_PORT_CARD_H
#define PYWAR_PORT_CARD_H

enum SUIT { HEART, DIAMOND, SPADE, CLUB };
enum RANK { TWO, THREE, FOUR, FIVE, SIX, SEVEN, EIGHT, NINE, TEN, JACK, QUEEN, KING, ACE };

typedef struct Card {
    int suit;   /* enum SUIT, -1 until set */
    int rank;   /* enum RANK, -1 until set */
} Card;

Card *Card_New(void);
void Card_Delete(Card *card);
void Card_SetSuitAndRank(Card *card, int suit, int rank);
const char *Card_GetRankString(const Card *card);
int Card_GetRank(const Card *card);
const char *Card_GetSuitString(const Card *card);
int Card_GetSuit(const Card *card);
#endif
