// My War game (Program 6), in my own words.  Counts: the won pile, then the hand.
// Each player has a 'to play' pile and a 'played' pile; the winner of a battle
// puts the cards in play on its 'played' pile, which refills 'to play' (shuffled)
// when 'to play' runs out.
#include <cstdlib>
#include <ctime>
#include <iostream>
#include <string>
#include <vector>

using namespace std;

const string RANK_NAMES[13] = {"two", "three", "four", "five", "six", "seven", "eight",
                               "nine", "ten", "jack", "queen", "king", "ace"};
const string SUIT_NAMES[4] = {"hearts", "diamonds", "spades", "clubs"};

struct Card {
    int rank;   // 0 is a two, 12 an ace
    int suit;
};

string cardName(const Card *card) {
    return RANK_NAMES[card->rank] + " of " + SUIT_NAMES[card->suit];
}

// Draw the cards out one at a time in a random order.
void shuffleCards(vector<Card *> &cards) {
    vector<Card *> left = cards;
    cards.clear();
    while (!left.empty()) {
        int pick = rand() % left.size();
        cards.push_back(left[pick]);
        left.erase(left.begin() + pick);
    }
}

class Player {
public:
    char name;
    vector<Card *> toPlay;   // the back is the top of the pile
    vector<Card *> played;

    explicit Player(char n) : name(n) {}

    ~Player() {
        for (Card *card : toPlay) delete card;
        for (Card *card : played) delete card;
    }

    void listPile() const {
        cout << "Player " << name << "'s cards:" << endl;
        cout << "There are " << toPlay.size() << " cards." << endl;
        for (size_t i = 0; i < toPlay.size(); i++)
            cout << "  " << i + 1 << ". " << cardName(toPlay[i]) << endl;
        cout << endl;
    }

    Card *playCard() {
        Card *card = toPlay.back();
        toPlay.pop_back();
        cout << "Player " << name << " puts down the " << cardName(card) << "." << endl;
        return card;
    }

    void refill() {
        if (!toPlay.empty() || played.empty()) return;
        cout << "Player " << name << " refills from the played pile" << endl;
        shuffleCards(played);
        toPlay = played;
        played.clear();
    }

    void printCounts() const {
        cout << "Player " << name << ": to play: " << played.size() << ", played: "
             << toPlay.size() << endl;
    }
};

int main() {
    srand(time(NULL));
    cout << "WELCOME TO WAR!!!" << endl;
    cout << "Shuffling the deck" << endl << endl;

    vector<Card *> deck;
    for (int suit = 0; suit < 4; suit++)
        for (int rank = 0; rank < 13; rank++)
            deck.push_back(new Card{rank, suit});
    shuffleCards(deck);

    Player a('A'), b('B');
    for (size_t i = 0; i < deck.size(); i++)
        (i % 2 == 0 ? a : b).toPlay.push_back(deck[i]);

    cout << "Initial piles" << endl;
    a.listPile();
    b.listPile();

    vector<Card *> pot;
    bool over = false;
    int round = 0;
    while (!over) {
        round++;
        cout << "--- Round #" << round << " ---" << endl;
        bool tie = true;
        while (tie && !over) {
            Card *cardA = a.playCard();
            Card *cardB = b.playCard();
            pot.push_back(cardA);
            pot.push_back(cardB);
            if (cardA->rank == cardB->rank) {
                cout << "It's a tie... battle again!" << endl;
            } else {
                Player &winner = cardA->rank > cardB->rank ? a : b;
                cout << "Player " << winner.name << " wins the loot!" << endl;
                for (Card *card : pot) winner.played.push_back(card);
                pot.clear();
                tie = false;
            }
            a.refill();
            b.refill();
            a.printCounts();
            b.printCounts();
            cout << endl;
            if (a.toPlay.empty()) {
                cout << "Player A is out of cards and loses." << endl;
                over = true;
            }
            if (b.toPlay.empty()) {
                cout << "Player B is out of cards and loses." << endl;
                over = true;
            }
        }
    }
    for (Card *card : pot) delete card;
    return 0;
}
