// Handout for the War assignment: the pile's members.
#include "pile.h"

static const std::string RANKS[13] = {"two", "three", "four", "five", "six", "seven",
                                      "eight", "nine", "ten", "jack", "queen", "king", "ace"};
static const std::string SUITS[4] = {"hearts", "diamonds", "spades", "clubs"};

std::string nameOf(const Card *card) {
    return RANKS[card->rank] + " of " + SUITS[card->suit];
}

Pile::Pile() : count(0) {}

bool Pile::isEmpty() const {
    return count == 0;
}

int Pile::size() const {
    return count;
}

void Pile::push(Card *card) {
    if (count < CAPACITY) {
        cards[count] = card;
        count++;
    }
}

Card *Pile::pop() {
    if (count == 0) {
        return nullptr;
    }
    count--;
    return cards[count];
}

Card *Pile::at(int place) const {
    return cards[place];
}

void Pile::clear() {
    count = 0;
}
