// card.h: one playing card.
#ifndef CARD_H
#define CARD_H

#include <string>

class Card {
public:
    Card(int value, int suit);
    int getValue() const;           // 2 .. 14 (jack 11, queen 12, king 13, ace 14)
    std::string toString() const;   // for example "Queen of Hearts"

private:
    int value;
    int suit;                       // 0 clubs, 1 diamonds, 2 hearts, 3 spades
};

#endif
