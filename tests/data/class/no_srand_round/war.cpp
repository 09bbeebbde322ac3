/* Program 6 - WAR  (rand() shuffles, no seed needed)
 * A card is a number from 0 to 51: its rank is card % 13 (0 = two ... 12 = ace)
 * and its suit is card / 13.  Each player has a deck (the cards it plays, deck[0]
 * on top) and a played pile (the cards it won).  When the deck is empty the played
 * pile is shuffled and becomes the deck.  Whoever cannot play loses.
 */
#include <cstdio>
#include <cstdlib>
#include <ctime>

#define DECK_SIZE 52

const char *RANKS[13] = {"two", "three", "four", "five", "six", "seven", "eight", "nine",
                         "ten", "jack", "queen", "king", "ace"};
const char *SUITS[4] = {"clubs", "diamonds", "hearts", "spades"};

struct Hand {
    int deck[DECK_SIZE];
    int deckCount;
    int played[DECK_SIZE];
    int playedCount;
};

/* three passes of swapping every card with a random one */
void shuffle(int *cards, int n) {
    for (int pass = 0; pass < 3; pass++) {
        for (int i = 0; i < n; i++) {
            int j = rand() % n;
            int t = cards[i];
            cards[i] = cards[j];
            cards[j] = t;
        }
    }
}

int drawTop(Hand *hand) {
    int card = hand->deck[0];
    for (int i = 1; i < hand->deckCount; i++)
        hand->deck[i - 1] = hand->deck[i];
    hand->deckCount--;
    return card;
}

void refill(Hand *hand, char name) {
    if (hand->deckCount == 0 && hand->playedCount > 0) {
        printf("Player %c's deck is empty. Shuffling their played pile into their deck.\n", name);
        shuffle(hand->played, hand->playedCount);
        for (int i = 0; i < hand->playedCount; i++)
            hand->deck[i] = hand->played[i];
        hand->deckCount = hand->playedCount;
        hand->playedCount = 0;
    }
}

void printHand(const Hand *hand, char name) {
    printf("Player %c's deck:\n", name);
    for (int i = 0; i < hand->deckCount; i++)
        printf("%d) %s of %s\n", i + 1, RANKS[hand->deck[i] % 13], SUITS[hand->deck[i] / 13]);
    printf("\n");
}

void printCounts(const Hand *hand, char name) {
    printf("Player %c has %d cards in their deck and %d cards in their played pile\n", name,
           hand->deckCount, hand->playedCount);
}

int main() {
    printf("WAR - the card game\n\n");

    int cards[DECK_SIZE];
    for (int i = 0; i < DECK_SIZE; i++)
        cards[i] = i;
    shuffle(cards, DECK_SIZE);

    Hand a = {}, b = {};
    for (int i = 0; i < DECK_SIZE; i++) {
        if (i % 2 == 0)
            a.deck[a.deckCount++] = cards[i];
        else
            b.deck[b.deckCount++] = cards[i];
    }
    printHand(&a, 'A');
    printHand(&b, 'B');

    int pot[DECK_SIZE];
    int potCount = 0;
    int round = 0;
    bool done = false;
    while (!done) {
        round++;
        printf("========== Round %d ==========\n", round);
        bool war = true;
        while (war && !done) {
            int cardA = drawTop(&a);
            int cardB = drawTop(&b);
            printf("Player A draws the %s of %s\n", RANKS[cardA % 13], SUITS[cardA / 13]);
            printf("Player B draws the %s of %s\n", RANKS[cardB % 13], SUITS[cardB / 13]);
            pot[potCount++] = cardA;
            pot[potCount++] = cardB;
            if (cardA % 13 == cardB % 13) {
                printf("WAR! The cards are tied.\n");
            } else {
                Hand *winner = cardA % 13 > cardB % 13 ? &a : &b;
                printf("Player %c wins the round!\n", winner == &a ? 'A' : 'B');
                for (int i = 0; i < potCount; i++)
                    winner->played[winner->playedCount++] = pot[i];
                potCount = 0;
                war = false;
            }
            refill(&a, 'A');
            refill(&b, 'B');
            printCounts(&a, 'A');
            printCounts(&b, 'B');
            printf("\n");
            if (a.deckCount == 0 && b.deckCount == 0) {
                printf("Both players are out of cards. It's a draw!\n");
                done = true;
            } else if (a.deckCount == 0) {
                printf("Player A is out of cards. Player B wins!\n");
                done = true;
            } else if (b.deckCount == 0) {
                printf("Player B is out of cards. Player A wins!\n");
                done = true;
            }
        }
    }
    return 0;
}
