// CSE 1342 Program 6: the card game War, two players.
// Each player has a 'to play' pile and a 'played' pile; the winner of a battle
// puts the cards in play on its 'played' pile, which refills 'to play' (shuffled)
// when 'to play' runs out.  The game is played quietly: only the winner is printed
// (player A is player 1, player B is player 2).
#include <cstdlib>
#include <ctime>
#include <iostream>
#include <vector>

using namespace std;

struct Card {
    int rank;   // 0 is a two, 12 an ace
    int suit;
};

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

    Card *playCard() {
        Card *card = toPlay.back();
        toPlay.pop_back();
        return card;
    }

    void refill() {
        if (!toPlay.empty() || played.empty()) return;
        shuffleCards(played);
        toPlay = played;
        played.clear();
    }
};

int main() {
    srand(time(NULL));

    vector<Card *> deck;
    for (int suit = 0; suit < 4; suit++)
        for (int rank = 0; rank < 13; rank++)
            deck.push_back(new Card{rank, suit});
    shuffleCards(deck);

    Player a('A'), b('B');
    for (size_t i = 0; i < deck.size(); i++)
        (i % 2 == 0 ? a : b).toPlay.push_back(deck[i]);

    vector<Card *> pot;
    bool over = false;
    while (!over) {
        bool tie = true;
        while (tie && !over) {
            Card *cardA = a.playCard();
            Card *cardB = b.playCard();
            pot.push_back(cardA);
            pot.push_back(cardB);
            if (cardA->rank == cardB->rank) {
                // a tie: the pot stays, another battle
            } else {
                Player &winner = cardA->rank > cardB->rank ? a : b;
                for (Card *card : pot) winner.played.push_back(card);
                pot.clear();
                tie = false;
            }
            a.refill();
            b.refill();
            if (a.toPlay.empty() || b.toPlay.empty())
                over = true;
        }
    }
    if (a.toPlay.empty() && b.toPlay.empty())
        cout << "Nobody wins" << endl;
    else if (b.toPlay.empty())
        cout << "Player 1 wins" << endl;
    else
        cout << "Player 2 wins" << endl;
    for (Card *card : pot) delete card;
    return 0;
}
