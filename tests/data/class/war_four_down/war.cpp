// CSE 1342 Program 6: the card game War, two players.  A tie is a war of four cards
// face down each, then the next battle takes everything.
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

// Fisher-Yates, with the C library's rand().
void shuffleCards(vector<Card *> &cards) {
    for (int i = (int)cards.size() - 1; i > 0; i--) {
        int j = rand() % (i + 1);
        Card *held = cards[i];
        cards[i] = cards[j];
        cards[j] = held;
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
        cout << "Player " << name << ":" << endl;
        cout << "There are " << toPlay.size() << " cards in the pile." << endl;
        for (size_t i = 0; i < toPlay.size(); i++)
            cout << "Card " << i + 1 << ", " << cardName(toPlay[i]) << endl;
        cout << endl;
    }

    Card *playCard() {
        Card *card = toPlay.back();
        toPlay.pop_back();
        cout << "Player " << name << " plays " << cardName(card) << endl;
        return card;
    }

    void refill() {
        if (!toPlay.empty() || played.empty()) return;
        cout << "Player " << name << " ran out of cards in their 'to play' pile.  "
             << "Getting cards from the 'played' pile." << endl;
        cout << "Shuffling player " << name << " cards..." << endl << endl;
        shuffleCards(played);
        toPlay = played;
        played.clear();
    }

    // A war: up to four cards face down into the pot, keeping one to play face up.
    void putFaceDown(vector<Card *> &pot) {
        for (int k = 0; k < 4 && toPlay.size() > 1; k++) {
            pot.push_back(toPlay.back());
            toPlay.pop_back();
        }
    }

    void printCounts() const {
        cout << "Player " << name << " has " << toPlay.size() << " in their 'to play' pile and "
             << played.size() << " in their 'played' pile." << endl;
    }
};

int main() {
    srand(time(NULL));
    cout << "Welcome to the Game of War!" << endl << endl;
    cout << "Shuffling initial deck..." << endl << endl;

    vector<Card *> deck;
    for (int suit = 0; suit < 4; suit++)
        for (int rank = 0; rank < 13; rank++)
            deck.push_back(new Card{rank, suit});
    shuffleCards(deck);

    Player a('A'), b('B');
    for (size_t i = 0; i < deck.size(); i++)
        (i % 2 == 0 ? a : b).toPlay.push_back(deck[i]);

    cout << "Initial 'to play' piles:" << endl << endl;
    a.listPile();
    b.listPile();

    vector<Card *> pot;
    bool over = false;
    int round = 0;
    while (!over) {
        round++;
        cout << "======== Round " << round << " ========" << endl;
        bool tie = true;
        while (tie && !over) {
            Card *cardA = a.playCard();
            Card *cardB = b.playCard();
            pot.push_back(cardA);
            pot.push_back(cardB);
            if (cardA->rank == cardB->rank) {
                cout << "There is a tie... Doing another battle." << endl << endl;
            } else {
                Player &winner = cardA->rank > cardB->rank ? a : b;
                cout << "Player " << winner.name << " wins the 'currently in play' pile."
                     << endl << endl;
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
                cout << "Player A ran out of cards.  Player A has lost." << endl;
                over = true;
            }
            if (b.toPlay.empty()) {
                cout << "Player B ran out of cards.  Player B has lost." << endl;
                over = true;
            }
            if (tie && !over) {
                a.putFaceDown(pot);
                b.putFaceDown(pot);
            }
        }
    }
    for (Card *card : pot) delete card;
    return 0;
}
