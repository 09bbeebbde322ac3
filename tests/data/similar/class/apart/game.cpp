/*
 * Program 6 - War
 * Two players, each with a hand and a pile of won cards.
 */
#include <iostream>
#include <cstdlib>
#include <ctime>
#include "pile.h"

struct Player {
    char letter;
    Pile hand;
    Pile won;
};

static int strength(Card *c)
{
    if (c->rank == 12)          /* aces are low */
        return -1;
    return c->rank;
}

static void mix(Pile &p)
{
    /* pick a random card out of the ones left, one at a time */
    Card *left[52];
    int n = p.size();
    for (int k = 0; k < n; ++k)
        left[k] = p.at(k);
    p.clear();
    while (n > 0) {
        int pick = std::rand() % n;
        p.push(left[pick]);
        left[pick] = left[n - 1];
        --n;
    }
}

static void show(Player &pl)
{
    std::cout << "Player " << pl.letter << ":\n";
    std::cout << "There are " << pl.hand.size() << " cards in the pile.\n";
    int k = 0;
    while (k < pl.hand.size()) {
        std::cout << "Card " << (k + 1) << ", " << nameOf(pl.hand.at(k)) << "\n";
        ++k;
    }
    std::cout << "\n";
}

static void status(Player &pl)
{
    if (pl.hand.size() == 0 && pl.won.size() > 0) {
        std::cout << "Player " << pl.letter << " ran out of cards in their 'to play' pile.  "
                  << "Getting cards from the 'played' pile.\n";
        std::cout << "Shuffling player " << pl.letter << " cards...\n\n";
        mix(pl.won);
        for (int k = 0; k < pl.won.size(); ++k)
            pl.hand.push(pl.won.at(k));
        pl.won.clear();
    }
}

int main()
{
    std::srand(std::time(0));
    std::cout << "Welcome to the Game of War!\n\n" << "Shuffling initial deck...\n\n";
    Pile all;
    Card storage[52];
    for (int k = 0; k < 52; ++k) {
        storage[k].rank = k % 13;
        storage[k].suit = k / 13;
        all.push(&storage[k]);
    }
    mix(all);
    Player one, two;
    one.letter = 'A';
    two.letter = 'B';
    for (int k = 0; k < 52; k += 2) {
        one.hand.push(all.at(k));
        two.hand.push(all.at(k + 1));
    }
    std::cout << "Initial 'to play' piles:\n\n";
    show(one);
    show(two);

    Pile middle;
    int number = 1;
    bool done = false;
    std::cout << "======== Round " << number << " ========\n";
    while (!done) {
        Card *x = one.hand.pop(), *y = two.hand.pop();
        std::cout << "Player A plays " << nameOf(x) << "\nPlayer B plays " << nameOf(y) << "\n";
        middle.push(x);
        middle.push(y);
        bool tied = strength(x) == strength(y);
        if (tied) {
            std::cout << "There is a tie... Doing another battle.\n\n";
        } else {
            Player &taker = strength(x) > strength(y) ? one : two;
            std::cout << "Player " << taker.letter << " wins the 'currently in play' pile.\n\n";
            for (int k = 0; k < middle.size(); ++k)
                taker.won.push(middle.at(k));
            middle.clear();
        }
        status(one);
        status(two);
        for (Player *pl : {&one, &two})
            std::cout << "Player " << pl->letter << " has " << pl->hand.size()
                      << " in their 'to play' pile and " << pl->won.size()
                      << " in their 'played' pile.\n";
        std::cout << "\n";
        for (Player *pl : {&one, &two})
            if (pl->hand.size() == 0) {
                std::cout << "Player " << pl->letter << " ran out of cards.  Player "
                          << pl->letter << " has lost.\n";
                done = true;
            }
        if (!done && !tied)
            std::cout << "======== Round " << ++number << " ========\n";
    }
    return 0;
}
