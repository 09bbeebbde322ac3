// Program 6: War.  Two players, A and B; one line per battle.
// Cards are values, not pointers, so nothing needs deleting.
#include <cstdlib>
#include <ctime>
#include <deque>
#include <iostream>
#include <string>
#include <vector>

using namespace std;

struct Card {
    int rank;   // 2 .. 14, the ace is 14
    int suit;   // 0 .. 3
};

string name(const Card &card) {
    static const char *RANK[] = {"two", "three", "four", "five", "six", "seven", "eight",
                                 "nine", "ten", "jack", "queen", "king", "ace"};
    static const char *SUIT[] = {"clubs", "diamonds", "hearts", "spades"};
    return string(RANK[card.rank - 2]) + " of " + SUIT[card.suit];
}

// Each card goes into a new pile at a random place.
void mix(vector<Card> &cards) {
    vector<Card> mixed;
    for (const Card &card : cards)
        mixed.insert(mixed.begin() + rand() % (mixed.size() + 1), card);
    cards = mixed;
}

struct Side {
    string name;
    deque<Card> toPlay;   // front() is the next card played
    vector<Card> played;
};

void refill(Side &side) {
    if (side.toPlay.empty() && !side.played.empty()) {
        cout << side.name << " picks up the played pile." << endl;
        cout << "Shuffling " << side.name << "'s cards..." << endl;
        mix(side.played);
        side.toPlay.assign(side.played.begin(), side.played.end());
        side.played.clear();
    }
}

void counts(const Side &side) {
    cout << side.name << ": " << side.toPlay.size() << " to play, " << side.played.size()
         << " played" << endl;
}

void show(const Side &side) {
    cout << side.name << "'s hand, bottom to top:" << endl;
    for (auto card = side.toPlay.rbegin(); card != side.toPlay.rend(); ++card)
        cout << "  " << name(*card) << endl;
}

int main() {
    srand(time(NULL));
    cout << "WAR: A against B" << endl;
    vector<Card> deck;
    for (int suit = 0; suit < 4; suit++)
        for (int rank = 2; rank <= 14; rank++)
            deck.push_back({rank, suit});
    mix(deck);
    cout << "Dealing 52 cards, one at a time." << endl << endl;

    Side a{"A", {}, {}}, b{"B", {}, {}};
    for (size_t i = 0; i < deck.size(); i++)
        (i % 2 == 0 ? a : b).toPlay.push_back(deck[i]);
    show(a);
    show(b);

    vector<Card> pile;
    bool over = false;
    for (int round = 1; !over; round++) {
        cout << endl << "Round " << round << endl;
        bool tied = true;
        while (tied && !over) {
            Card cardA = a.toPlay.front(), cardB = b.toPlay.front();
            a.toPlay.pop_front();
            b.toPlay.pop_front();
            cout << "A shows the " << name(cardA) << ", B shows the " << name(cardB) << endl;
            pile.push_back(cardA);
            pile.push_back(cardB);
            tied = cardA.rank == cardB.rank;
            if (tied) {
                cout << "Tie! Another battle." << endl;
            } else {
                Side &winner = cardA.rank > cardB.rank ? a : b;
                cout << winner.name << " takes the pile." << endl;
                winner.played.insert(winner.played.end(), pile.begin(), pile.end());
                pile.clear();
            }
            refill(a);
            refill(b);
            counts(a);
            counts(b);
            if (a.toPlay.empty() && b.toPlay.empty()) {
                cout << "Both are out of cards. Nobody wins." << endl;
                over = true;
            } else if (a.toPlay.empty() || b.toPlay.empty()) {
                const Side &loser = a.toPlay.empty() ? a : b;
                const Side &other = a.toPlay.empty() ? b : a;
                cout << loser.name << " is out of cards. " << other.name << " wins the game!" << endl;
                over = true;
            }
        }
    }
    return 0;
}
