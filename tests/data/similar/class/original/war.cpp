// War, for Program 6.  In my version the ace counts as one, the lowest card.
#include <cstdlib>
#include <ctime>
#include <iostream>
#include "pile.h"

using namespace std;

void shuffle(Pile &pile);
void printPile(char player, const Pile &pile);
int cardValue(const Card *card);
void refill(char player, Pile &toPlay, Pile &played);
void printCounts(char player, const Pile &toPlay, const Pile &played);
bool battle(Pile &playA, Pile &playB, Pile &pot, Pile &wonA, Pile &wonB);

// Shuffle: move the cards to an array, swap each with a random one before it, put them back.
void shuffle(Pile &pile) {
    Card *held[Pile::CAPACITY];
    int total = 0;
    while (!pile.isEmpty()) {
        held[total] = pile.pop();
        total++;
    }
    for (int i = total - 1; i > 0; i--) {
        int j = rand() % (i + 1);
        Card *swapped = held[i];
        held[i] = held[j];
        held[j] = swapped;
    }
    for (int i = 0; i < total; i++) {
        pile.push(held[i]);
    }
}

// List a player's pile from the bottom up.
void printPile(char player, const Pile &pile) {
    cout << "Player " << player << ":" << endl;
    cout << "There are " << pile.size() << " cards in the pile." << endl;
    for (int i = 0; i < pile.size(); i++) {
        cout << "Card " << i + 1 << ", " << nameOf(pile.at(i)) << endl;
    }
    cout << endl;
}

// The ace counts as one: a two is 1, ..., a king 12, an ace 0.
int cardValue(const Card *card) {
    return (card->rank + 1) % 13;
}

// When the 'to play' pile is empty, the played cards are shuffled and played again.
void refill(char player, Pile &toPlay, Pile &played) {
    if (!toPlay.isEmpty() || played.isEmpty()) {
        return;
    }
    cout << "Player " << player << " is out of cards to play, so the played ones come back."
         << endl;
    cout << "Shuffling player " << player << " cards..." << endl << endl;
    shuffle(played);
    while (!played.isEmpty()) {
        toPlay.push(played.pop());
    }
}

void printCounts(char player, const Pile &toPlay, const Pile &played) {
    cout << "Player " << player << " has " << toPlay.size() << " in their 'to play' pile and "
         << played.size() << " in their 'played' pile." << endl;
}

// One battle.  Returns true on a tie, when another battle must follow.
bool battle(Pile &playA, Pile &playB, Pile &pot, Pile &wonA, Pile &wonB) {
    Card *cardA = playA.pop();
    Card *cardB = playB.pop();
    cout << "Player A plays " << nameOf(cardA) << endl;
    cout << "Player B plays " << nameOf(cardB) << endl;
    pot.push(cardA);
    pot.push(cardB);
    if (cardValue(cardA) == cardValue(cardB)) {
        cout << "There is a tie... Doing another battle." << endl << endl;
        return true;
    }
    bool aWins = cardValue(cardA) > cardValue(cardB);
    Pile &winner = aWins ? wonA : wonB;
    cout << "Player " << (aWins ? 'A' : 'B') << " takes the whole pot!" << endl << endl;
    for (int i = 0; i < pot.size(); i++) {
        winner.push(pot.at(i));
    }
    pot.clear();
    return false;
}

int main() {
    srand(time(NULL));
    cout << "Welcome to the Game of War!" << endl << endl;
    cout << "Shuffling initial deck..." << endl << endl;

    Pile deck;
    for (int face = 0; face < 4; face++) {
        for (int kind = 0; kind < 13; kind++) {
            deck.push(new Card{kind, face});
        }
    }
    shuffle(deck);

    Pile playA, playB, wonA, wonB, pot;
    for (int i = 0; i < deck.size(); i++) {
        if (i % 2 == 0) {
            playA.push(deck.at(i));
        } else {
            playB.push(deck.at(i));
        }
    }
    cout << "Initial 'to play' piles:" << endl << endl;
    printPile('A', playA);
    printPile('B', playB);

    int round = 0;
    bool over = false;
    while (!over) {
        round++;
        cout << "======== Round " << round << " ========" << endl;
        bool tie = true;
        while (tie && !over) {
            tie = battle(playA, playB, pot, wonA, wonB);
            refill('A', playA, wonA);
            refill('B', playB, wonB);
            printCounts('A', playA, wonA);
            printCounts('B', playB, wonB);
            cout << endl;
            if (playA.isEmpty()) {
                cout << "Player A ran out of cards.  Player A has lost." << endl;
                over = true;
            }
            if (playB.isEmpty()) {
                cout << "Player B ran out of cards.  Player B has lost." << endl;
                over = true;
            }
        }
    }
    for (int i = 0; i < deck.size(); i++) {
        delete deck.at(i);
    }
    return 0;
}
