// A program that plays no game: it prints one game of the reference's (seed 17455),
// recorded beforehand, with each rank's four suits shuffled by the clock, so that every
// seed deals cards of its own in the same game (tests/test_canned.py: not_its_game).
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <string>

static const char *RANKS[] = {"two", "three", "four", "five", "six", "seven", "eight",
                              "nine", "ten", "jack", "queen", "king", "ace"};
static const char *SUITS[] = {"hearts", "diamonds", "clubs", "spades"};
static const char *GAME = R"GAME(Welcome to the Game of War!

Shuffling initial deck...

Initial 'to play' piles:

Player A:
There are 26 cards in the pile.
Card 1, three of clubs
Card 2, four of clubs
Card 3, ace of hearts
Card 4, six of hearts
Card 5, four of spades
Card 6, jack of hearts
Card 7, queen of spades
Card 8, two of diamonds
Card 9, three of hearts
Card 10, five of hearts
Card 11, nine of spades
Card 12, nine of clubs
Card 13, seven of clubs
Card 14, five of spades
Card 15, seven of spades
Card 16, six of clubs
Card 17, four of diamonds
Card 18, five of diamonds
Card 19, six of spades
Card 20, ten of clubs
Card 21, eight of hearts
Card 22, ten of diamonds
Card 23, jack of spades
Card 24, eight of clubs
Card 25, three of diamonds
Card 26, three of spades

Player B:
There are 26 cards in the pile.
Card 1, two of hearts
Card 2, nine of hearts
Card 3, queen of clubs
Card 4, nine of diamonds
Card 5, five of clubs
Card 6, ace of clubs
Card 7, queen of diamonds
Card 8, king of hearts
Card 9, eight of spades
Card 10, seven of diamonds
Card 11, queen of hearts
Card 12, ten of spades
Card 13, seven of hearts
Card 14, jack of clubs
Card 15, eight of diamonds
Card 16, king of diamonds
Card 17, king of spades
Card 18, jack of diamonds
Card 19, six of diamonds
Card 20, ten of hearts
Card 21, ace of spades
Card 22, two of clubs
Card 23, king of clubs
Card 24, ace of diamonds
Card 25, two of spades
Card 26, four of hearts

======== Round 1 ========
Player A plays three of spades
Player B plays four of hearts
Player B wins the 'currently in play' pile.

Player A has 25 in their 'to play' pile and 0 in their 'played' pile.
Player B has 25 in their 'to play' pile and 2 in their 'played' pile.

======== Round 2 ========
Player A plays three of diamonds
Player B plays two of spades
Player A wins the 'currently in play' pile.

Player A has 24 in their 'to play' pile and 2 in their 'played' pile.
Player B has 24 in their 'to play' pile and 2 in their 'played' pile.

======== Round 3 ========
Player A plays eight of clubs
Player B plays ace of diamonds
Player B wins the 'currently in play' pile.

Player A has 23 in their 'to play' pile and 2 in their 'played' pile.
Player B has 23 in their 'to play' pile and 4 in their 'played' pile.

======== Round 4 ========
Player A plays jack of spades
Player B plays king of clubs
Player B wins the 'currently in play' pile.

Player A has 22 in their 'to play' pile and 2 in their 'played' pile.
Player B has 22 in their 'to play' pile and 6 in their 'played' pile.

======== Round 5 ========
Player A plays ten of diamonds
Player B plays two of clubs
Player A wins the 'currently in play' pile.

Player A has 21 in their 'to play' pile and 4 in their 'played' pile.
Player B has 21 in their 'to play' pile and 6 in their 'played' pile.

======== Round 6 ========
Player A plays eight of hearts
Player B plays ace of spades
Player B wins the 'currently in play' pile.

Player A has 20 in their 'to play' pile and 4 in their 'played' pile.
Player B has 20 in their 'to play' pile and 8 in their 'played' pile.

======== Round 7 ========
Player A plays ten of clubs
Player B plays ten of hearts
There is a tie... Doing another battle.

Player A has 19 in their 'to play' pile and 4 in their 'played' pile.
Player B has 19 in their 'to play' pile and 8 in their 'played' pile.

Player A plays six of spades
Player B plays six of diamonds
There is a tie... Doing another battle.

Player A has 18 in their 'to play' pile and 4 in their 'played' pile.
Player B has 18 in their 'to play' pile and 8 in their 'played' pile.

Player A plays five of diamonds
Player B plays jack of diamonds
Player B wins the 'currently in play' pile.

Player A has 17 in their 'to play' pile and 4 in their 'played' pile.
Player B has 17 in their 'to play' pile and 14 in their 'played' pile.

======== Round 8 ========
Player A plays four of diamonds
Player B plays king of spades
Player B wins the 'currently in play' pile.

Player A has 16 in their 'to play' pile and 4 in their 'played' pile.
Player B has 16 in their 'to play' pile and 16 in their 'played' pile.

======== Round 9 ========
Player A plays six of clubs
Player B plays king of diamonds
Player B wins the 'currently in play' pile.

Player A has 15 in their 'to play' pile and 4 in their 'played' pile.
Player B has 15 in their 'to play' pile and 18 in their 'played' pile.

======== Round 10 ========
Player A plays seven of spades
Player B plays eight of diamonds
Player B wins the 'currently in play' pile.

Player A has 14 in their 'to play' pile and 4 in their 'played' pile.
Player B has 14 in their 'to play' pile and 20 in their 'played' pile.

======== Round 11 ========
Player A plays five of spades
Player B plays jack of clubs
Player B wins the 'currently in play' pile.

Player A has 13 in their 'to play' pile and 4 in their 'played' pile.
Player B has 13 in their 'to play' pile and 22 in their 'played' pile.

======== Round 12 ========
Player A plays seven of clubs
Player B plays seven of hearts
There is a tie... Doing another battle.

Player A has 12 in their 'to play' pile and 4 in their 'played' pile.
Player B has 12 in their 'to play' pile and 22 in their 'played' pile.

Player A plays nine of clubs
Player B plays ten of spades
Player B wins the 'currently in play' pile.

Player A has 11 in their 'to play' pile and 4 in their 'played' pile.
Player B has 11 in their 'to play' pile and 26 in their 'played' pile.

======== Round 13 ========
Player A plays nine of spades
Player B plays queen of hearts
Player B wins the 'currently in play' pile.

Player A has 10 in their 'to play' pile and 4 in their 'played' pile.
Player B has 10 in their 'to play' pile and 28 in their 'played' pile.

======== Round 14 ========
Player A plays five of hearts
Player B plays seven of diamonds
Player B wins the 'currently in play' pile.

Player A has 9 in their 'to play' pile and 4 in their 'played' pile.
Player B has 9 in their 'to play' pile and 30 in their 'played' pile.

======== Round 15 ========
Player A plays three of hearts
Player B plays eight of spades
Player B wins the 'currently in play' pile.

Player A has 8 in their 'to play' pile and 4 in their 'played' pile.
Player B has 8 in their 'to play' pile and 32 in their 'played' pile.

======== Round 16 ========
Player A plays two of diamonds
Player B plays king of hearts
Player B wins the 'currently in play' pile.

Player A has 7 in their 'to play' pile and 4 in their 'played' pile.
Player B has 7 in their 'to play' pile and 34 in their 'played' pile.

======== Round 17 ========
Player A plays queen of spades
Player B plays queen of diamonds
There is a tie... Doing another battle.

Player A has 6 in their 'to play' pile and 4 in their 'played' pile.
Player B has 6 in their 'to play' pile and 34 in their 'played' pile.

Player A plays jack of hearts
Player B plays ace of clubs
Player B wins the 'currently in play' pile.

Player A has 5 in their 'to play' pile and 4 in their 'played' pile.
Player B has 5 in their 'to play' pile and 38 in their 'played' pile.

======== Round 18 ========
Player A plays four of spades
Player B plays five of clubs
Player B wins the 'currently in play' pile.

Player A has 4 in their 'to play' pile and 4 in their 'played' pile.
Player B has 4 in their 'to play' pile and 40 in their 'played' pile.

======== Round 19 ========
Player A plays six of hearts
Player B plays nine of diamonds
Player B wins the 'currently in play' pile.

Player A has 3 in their 'to play' pile and 4 in their 'played' pile.
Player B has 3 in their 'to play' pile and 42 in their 'played' pile.

======== Round 20 ========
Player A plays ace of hearts
Player B plays queen of clubs
Player A wins the 'currently in play' pile.

Player A has 2 in their 'to play' pile and 6 in their 'played' pile.
Player B has 2 in their 'to play' pile and 42 in their 'played' pile.

======== Round 21 ========
Player A plays four of clubs
Player B plays nine of hearts
Player B wins the 'currently in play' pile.

Player A has 1 in their 'to play' pile and 6 in their 'played' pile.
Player B has 1 in their 'to play' pile and 44 in their 'played' pile.

======== Round 22 ========
Player A plays three of clubs
Player B plays two of hearts
Player A wins the 'currently in play' pile.

Player A ran out of cards in their 'to play' pile.  Getting cards from the 'played' pile.
Shuffling player A cards...

Player B ran out of cards in their 'to play' pile.  Getting cards from the 'played' pile.
Shuffling player B cards...

Player A has 8 in their 'to play' pile and 0 in their 'played' pile.
Player B has 44 in their 'to play' pile and 0 in their 'played' pile.

======== Round 23 ========
Player A plays two of hearts
Player B plays eight of diamonds
Player B wins the 'currently in play' pile.

Player A has 7 in their 'to play' pile and 0 in their 'played' pile.
Player B has 43 in their 'to play' pile and 2 in their 'played' pile.

======== Round 24 ========
Player A plays two of clubs
Player B plays eight of clubs
Player B wins the 'currently in play' pile.

Player A has 6 in their 'to play' pile and 0 in their 'played' pile.
Player B has 42 in their 'to play' pile and 4 in their 'played' pile.

======== Round 25 ========
Player A plays ace of hearts
Player B plays ace of diamonds
There is a tie... Doing another battle.

Player A has 5 in their 'to play' pile and 0 in their 'played' pile.
Player B has 41 in their 'to play' pile and 4 in their 'played' pile.

Player A plays three of diamonds
Player B plays queen of diamonds
Player B wins the 'currently in play' pile.

Player A has 4 in their 'to play' pile and 0 in their 'played' pile.
Player B has 40 in their 'to play' pile and 8 in their 'played' pile.

======== Round 26 ========
Player A plays two of spades
Player B plays ace of clubs
Player B wins the 'currently in play' pile.

Player A has 3 in their 'to play' pile and 0 in their 'played' pile.
Player B has 39 in their 'to play' pile and 10 in their 'played' pile.

======== Round 27 ========
Player A plays queen of clubs
Player B plays ace of spades
Player B wins the 'currently in play' pile.

Player A has 2 in their 'to play' pile and 0 in their 'played' pile.
Player B has 38 in their 'to play' pile and 12 in their 'played' pile.

======== Round 28 ========
Player A plays ten of diamonds
Player B plays jack of spades
Player B wins the 'currently in play' pile.

Player A has 1 in their 'to play' pile and 0 in their 'played' pile.
Player B has 37 in their 'to play' pile and 14 in their 'played' pile.

======== Round 29 ========
Player A plays three of clubs
Player B plays jack of clubs
Player B wins the 'currently in play' pile.

Player A has 0 in their 'to play' pile and 0 in their 'played' pile.
Player B has 36 in their 'to play' pile and 16 in their 'played' pile.

Player A ran out of cards.  Player A has lost.
)GAME";

int main()
{
    srand(time(NULL));
    int suit_of[13][4];
    for (int rank = 0; rank < 13; rank++) {
        for (int suit = 0; suit < 4; suit++)
            suit_of[rank][suit] = suit;
        for (int suit = 3; suit > 0; suit--) {
            int other = rand() % (suit + 1);
            int kept = suit_of[rank][suit];
            suit_of[rank][suit] = suit_of[rank][other];
            suit_of[rank][other] = kept;
        }
    }
    std::string text = GAME, out;
    size_t at = 0;
    while (at < text.size()) {
        bool renamed = false;
        for (int rank = 0; rank < 13 && !renamed; rank++) {
            for (int suit = 0; suit < 4 && !renamed; suit++) {
                std::string card = std::string(RANKS[rank]) + " of " + SUITS[suit];
                if (text.compare(at, card.size(), card) == 0) {
                    out += std::string(RANKS[rank]) + " of " + SUITS[suit_of[rank][suit]];
                    at += card.size();
                    renamed = true;
                }
            }
        }
        if (!renamed)
            out += text[at++];
    }
    std::fputs(out.c_str(), stdout);
    return 0;
}
