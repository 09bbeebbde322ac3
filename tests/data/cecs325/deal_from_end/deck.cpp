// deck.cpp: the deck is built suit by suit, printed 13 to a row, shuffled and dealt.
// Honor statement: I certify that this program is my own original work.
#include <iostream>
#include <cstdlib>
#include "deck.h"
using namespace std;

const char SUITS[] = "CSDH";          // the order the deck is built in
const char RANKS[] = "A23456789TJQK"; // each suit from ace to king
const int SUIT_SIZE = 13;             // the cards of a suit, and of a printed row

Deck::Deck()
{
    int n = 0;
    for (int s = 0; s < 4; s++)
        for (int r = 0; r < SUIT_SIZE; r++)
            cards[n++] = Card(RANKS[r], SUITS[s]);
    top = 0;
}

Card Deck::deal()
{
    return cards[DECK_SIZE - 1 - top++];
}

void Deck::print()
{
    for (int i = 0; i < DECK_SIZE; i++)
    {
        cards[i].print();
        if ((i + 1) % SUIT_SIZE == 0)
            cout << endl;
        else
            cout << ",";
    }
}

// Fisher-Yates: each card in turn, from the last, swaps with one at or before it.
void Deck::shuffle()
{
    for (int i = DECK_SIZE - 1; i > 0; i--)
    {
        int j = rand() % (i + 1);
        Card held = cards[i];
        cards[i] = cards[j];
        cards[j] = held;
    }
}
