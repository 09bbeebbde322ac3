// card.cpp: a card prints itself and compares its rank with another's.
// Honor statement: I certify that this program is my own original work.
#include <iostream>
#include <string>
#include "card.h"
using namespace std;

// The ranks from lowest to highest: aces are low.
const string RANK_ORDER = "A23456789TJQK";

Card::Card(char rank, char suit)
{
    this->rank = rank;
    this->suit = suit;
}

Card::Card()
{
    rank = 'A';
    suit = 'C';
}

void Card::print()
{
    if (rank == 'T')
        cout << "10";
    else
        cout << rank;
    cout << suit;
}

int Card::compare(Card other)
{
    int mine = RANK_ORDER.find(rank);
    int theirs = RANK_ORDER.find(other.rank);
    if (mine > theirs)
        return 1;
    if (mine < theirs)
        return -1;
    return 0;
}
