// deck.h: the deck of 52 cards of One Card WAR, kept in an array.
// Honor statement: I certify that this program is my own original work.
#ifndef DECK_H
#define DECK_H

#include "card.h"

const int DECK_SIZE = 52;

class Deck
{
public:
    Deck();         // constructor which creates a deck of 52 cards
    Card deal();    // deal a card
    void print();   // show all the cards in the deck
    void shuffle(); // shuffle the cards in the deck

private:
    Card cards[DECK_SIZE]; // the cards, top first
    int top;               // the next card to deal
};

#endif
