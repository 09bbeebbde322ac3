// Handout for the War assignment: a pile of cards kept as a stack in a fixed array.
// Do not change this file; write the game in your own files.
#ifndef PILE_H
#define PILE_H

#include <string>

struct Card {
    int rank;   // 0 is a two, 12 an ace
    int suit;   // 0 hearts, 1 diamonds, 2 spades, 3 clubs
};

std::string nameOf(const Card *card);

class Pile {
public:
    static const int CAPACITY = 52;

    Pile();
    bool isEmpty() const;
    int size() const;
    void push(Card *card);
    Card *pop();
    Card *at(int place) const;      // place 0 is the bottom of the pile
    void clear();

private:
    Card *cards[CAPACITY];
    int count;
};

#endif
