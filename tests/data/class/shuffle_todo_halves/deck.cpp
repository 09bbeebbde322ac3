// deck.cpp
#include "deck.h"

#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <random>

using namespace std;

Deck::~Deck() {
    for (Card *card : cards) delete card;
}

void Deck::addToBottom(Card *card) {
    cards.push_back(card);
}

Card *Deck::drawTop() {
    Card *card = cards.front();
    cards.pop_front();
    return card;
}

bool Deck::isEmpty() const {
    return cards.empty();
}

int Deck::size() const {
    return (int)cards.size();
}

// Shuffle the deck.
void Deck::shuffle() {
    // TODO: shuffle the cards
}

void Deck::moveAllTo(Deck &other) {
    for (Card *card : cards) other.cards.push_back(card);
    cards.clear();
}

void Deck::list() const {
    int number = 1;
    for (auto it = cards.rbegin(); it != cards.rend(); ++it, ++number)
        cout << "  " << number << ": " << (*it)->toString() << endl;
}
