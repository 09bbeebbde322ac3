// war.cpp: One Card WAR (CECS 325, Prog 1): 26 games of one card each, then the statistics.
// Honor statement: I certify that this program is my own original work.
#include <iostream>
#include <iomanip>
#include <string>
#include <cstdlib>
#include <ctime>
#include "card.h"
#include "deck.h"
using namespace std;

const int GAMES = 26;        // two cards a game: the whole deck
const int COLUMN = 12;       // the width of the first player's statistics
const string INDENT = "        ";

int main()
{
    Deck deck;
    string first, second;
    cout << "Enter the name of the first player: ";
    cin >> first;
    cout << "Enter the name of the second player: ";
    cin >> second;

    cout << " Original Deck" << endl;
    deck.print();
    srand(time(NULL));
    deck.shuffle();
    cout << " Shuffled Deck" << endl;
    deck.print();

    int wins1 = 0, wins2 = 0, ties = 0;
    for (int game = 1; game <= GAMES; game++)
    {
        Card card1 = deck.deal();
        Card card2 = deck.deal();
        cout << "Game " << game << endl;
        cout << "--------" << endl;
        cout << INDENT << first << "=>";
        card1.print();
        cout << endl;
        cout << INDENT << second << "=>";
        card2.print();
        cout << endl;
        int result = card1.compare(card2);
        if (result == 1)
        {
            cout << first << "=> Winner" << endl;
            wins1++;
        }
        else if (result == -1)
        {
            cout << second << "=> Winner" << endl;
            wins2++;
        }
        else
        {
            cout << "Tie game" << endl;
            ties++;
        }
    }

    cout << "------Final Stats-------" << endl;
    cout << "       " << first << " vs. " << second << endl;
    cout << left;
    cout << "Wins   " << setw(COLUMN) << wins1 << wins2 << endl;
    cout << "Losses " << setw(COLUMN) << wins2 << wins1 << endl;
    cout << "Ties   " << setw(COLUMN) << ties << ties << endl;
    return 0;
}
