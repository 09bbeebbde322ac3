// war.cpp: Program 6, the card game War for two players, A and B, with real wars
// (three cards face down each after a tie).
// Each player has a "to play" deck and a "played" deck.  The winner of a battle
// takes the loot into its played deck; an empty to play deck is refilled from the
// played deck, shuffled.  A player with no cards left to play loses.
#include <cstdlib>
#include <ctime>
#include <iostream>
#include <vector>

#include "card.h"
#include "deck.h"

using namespace std;

struct Player {
    char name;
    Deck toPlay;
    Deck played;

    explicit Player(char n) : name(n) {}
};

void showCounts(const Player &player) {
    cout << "Player " << player.name << ": " << player.toPlay.size()
         << " cards in the to play deck, " << player.played.size() << " in the played deck"
         << endl;
}

void refillIfEmpty(Player &player) {
    if (player.toPlay.isEmpty() && !player.played.isEmpty()) {
        cout << "Player " << player.name
             << "'s to play deck is empty! Shuffling the played deck into it..." << endl;
        player.played.shuffle();
        player.played.moveAllTo(player.toPlay);
    }
}

// A war: up to three cards face down into the loot, keeping one to flip over.
void putFaceDown(Player &player, vector<Card *> &loot) {
    for (int k = 0; k < 3 && player.toPlay.size() > 1; k++) {
        loot.push_back(player.toPlay.drawTop());
        cout << "Player " << player.name << " puts a card face down." << endl;
    }
}

int main() {
    srand(time(NULL));
    cout << "*** THE GAME OF WAR ***" << endl;
    cout << "Shuffling the deck..." << endl << endl;

    Deck deck;
    for (int suit = 0; suit < 4; suit++)
        for (int value = 2; value <= 14; value++)
            deck.addToBottom(new Card(value, suit));
    deck.shuffle();

    Player a('A'), b('B');
    bool toA = true;
    while (!deck.isEmpty()) {
        (toA ? a : b).toPlay.addToBottom(deck.drawTop());
        toA = !toA;
    }
    for (Player *player : {&a, &b}) {
        cout << "Player " << player->name << "'s to play deck (" << player->toPlay.size()
             << " cards):" << endl;
        player->toPlay.list();
    }

    vector<Card *> loot;
    int round = 0;
    bool gameOver = false;
    while (!gameOver) {
        round++;
        cout << endl << "--- Round " << round << " ---" << endl;
        bool battle = true;
        while (battle && !gameOver) {
            Card *cardA = a.toPlay.drawTop();
            Card *cardB = b.toPlay.drawTop();
            cout << "Player A flips over the " << cardA->toString() << endl;
            cout << "Player B flips over the " << cardB->toString() << endl;
            loot.push_back(cardA);
            loot.push_back(cardB);
            if (cardA->getValue() == cardB->getValue()) {
                cout << "It's a tie... battle again!" << endl;
            } else {
                Player &winner = cardA->getValue() > cardB->getValue() ? a : b;
                cout << "Player " << winner.name << " wins the loot!" << endl;
                for (Card *card : loot) winner.played.addToBottom(card);
                loot.clear();
                battle = false;
            }
            refillIfEmpty(a);
            refillIfEmpty(b);
            showCounts(a);
            showCounts(b);
            bool outA = a.toPlay.isEmpty(), outB = b.toPlay.isEmpty();
            if (outA && outB) {
                cout << "Both players are out of cards! Nobody wins." << endl;
                gameOver = true;
            } else if (outA) {
                cout << "Player A has no cards left! Player B wins the game!" << endl;
                gameOver = true;
            } else if (outB) {
                cout << "Player B has no cards left! Player A wins the game!" << endl;
                gameOver = true;
            }
            if (battle && !gameOver) {
                putFaceDown(a, loot);
                putFaceDown(b, loot);
            }
        }
    }
    for (Card *card : loot) delete card;
    return 0;
}
