// deck.h: a pile of cards, face down.  The deck owns its cards.
#ifndef DECK_H
#define DECK_H

#include <deque>

#include "card.h"

class Deck {
public:
    Deck() = default;
    Deck(const Deck &) = delete;
    Deck &operator=(const Deck &) = delete;
    ~Deck();

    void addToBottom(Card *card);
    Card *drawTop();                // the deck gives the card up
    bool isEmpty() const;
    int size() const;
    void shuffle();
    void moveAllTo(Deck &other);    // every card, in order, under the other deck
    void list() const;              // numbered from the bottom card up

private:
    std::deque<Card *> cards;       // front() is the top card
};

#endif
