// card.h: one playing card of One Card WAR (CECS 325, Prog 1).
// Honor statement: I certify that this program is my own original work.
#ifndef CARD_H
#define CARD_H

class Card
{
public:
    Card(char rank, char suit); // constructor to create a card, setting the suit and rank
    Card();                     // default Card needed for array
    void print();               // display the card example: AC, 10S, KD
    int compare(Card other);    // return 1 for win, 0 for tie, -1 for lose

private:
    char rank; // A 2 3 4 5 6 7 8 9 T J Q K (T is the ten)
    char suit; // C S D H
};

#endif
