// card.cpp
#include "card.h"

using namespace std;

static const string VALUE_NAMES[15] = {"", "", "Two", "Three", "Four", "Five", "Six", "Seven",
                                       "Eight", "Nine", "Ten", "Jack", "Queen", "King", "Ace"};
static const string SUIT_NAMES[4] = {"Clubs", "Diamonds", "Hearts", "Spades"};

Card::Card(int value, int suit) : value(value), suit(suit) {}

int Card::getValue() const {
    return value;
}

string Card::toString() const {
    return VALUE_NAMES[value] + " of " + SUIT_NAMES[suit];
}
