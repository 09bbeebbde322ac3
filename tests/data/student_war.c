/* A student's War: the SMU CSE1342 assignment in plain C, the kind of program an
   instructor checks against the reference with pywar check and pywar referee.

       cc -o student student_war.c              the game as the reference plays it
       cc -DPLANTED -o student student_war.c    a mistake: the winner takes the pile
                                                bottom first
       ./student --seed N                       the transcript of seed N

   It uses the C library's srand() and rand(): on glibc, srand(N) gives the reference's
   game of seed N (the reference calls srand(time(NULL)); seeding is the one change). */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXCARDS 52

static const char *RANKS[] = {"two", "three", "four", "five", "six", "seven", "eight",
                              "nine", "ten", "jack", "queen", "king", "ace"};
static const char *SUITS[] = {"heart", "diamond", "spade", "club"};

typedef struct {
    int cards[MAXCARDS];    /* suit * 13 + rank; the top is the last */
    int n;
} Pile;

static void Push(Pile *pile, int card) { pile->cards[pile->n++] = card; }

static int Pop(Pile *pile) { return pile->cards[--pile->n]; }

#ifdef PLANTED
static int PopBottom(Pile *pile)
{
    int card = pile->cards[0];
    memmove(pile->cards, pile->cards + 1, (size_t)(pile->n - 1) * sizeof(int));
    pile->n--;
    return card;
}
#endif

static void Shuffle(Pile *pile)
{
    for (int i = 0; i < MAXCARDS * 2; i++) {
        int c1 = rand() % pile->n;
        int c2 = rand() % pile->n;
        int card = pile->cards[c1];
        pile->cards[c1] = pile->cards[c2];
        pile->cards[c2] = card;
    }
}

static void PrintCard(int card) { printf("%s of %ss", RANKS[card % 13], SUITS[card / 13]); }

static void PrintPile(const Pile *pile)
{
    printf("There are %d cards in the pile.\n", pile->n);
    for (int i = 0; i < pile->n; i++) {
        printf("Card %d, ", i + 1);
        PrintCard(pile->cards[i]);
        printf("\n");
    }
}

static void Refill(Pile *toPlay, Pile *played, char name)
{
    if (toPlay->n > 0 || played->n == 0)
        return;
    printf("Player %c ran out of cards in their 'to play' pile.  Getting cards from the "
           "'played' pile.\n", name);
    while (played->n > 0)
        Push(toPlay, Pop(played));
    printf("Shuffling player %c cards...\n\n", name);
    Shuffle(toPlay);
}

/* One battle, and the battles after its ties; 1 once someone has run out. */
static int DoBattle(Pile *pot, Pile toPlay[2], Pile played[2])
{
    for (;;) {
        int a = Pop(&toPlay[0]), b = Pop(&toPlay[1]);
        int over = 0;
        Push(pot, a);
        Push(pot, b);
        printf("Player A plays ");
        PrintCard(a);
        printf("\nPlayer B plays ");
        PrintCard(b);
        printf("\n");
        if (a % 13 == b % 13) {
            printf("There is a tie... Doing another battle.\n\n");
        } else {
            int winner = a % 13 > b % 13 ? 0 : 1;
            printf("Player %c wins the 'currently in play' pile.\n\n", 'A' + winner);
            while (pot->n > 0) {
#ifdef PLANTED
                Push(&played[winner], PopBottom(pot));
#else
                Push(&played[winner], Pop(pot));
#endif
            }
        }
        Refill(&toPlay[0], &played[0], 'A');
        Refill(&toPlay[1], &played[1], 'B');
        for (int p = 0; p < 2; p++)
            printf("Player %c has %d in their 'to play' pile and %d in their 'played' pile.\n",
                   'A' + p, toPlay[p].n, played[p].n);
        printf("\n");
        for (int p = 0; p < 2; p++) {
            if (toPlay[p].n == 0) {
                printf("Player %c ran out of cards.  Player %c has lost.\n", 'A' + p, 'A' + p);
                over = 1;
            }
        }
        if (over || a % 13 != b % 13)
            return over;
    }
}

int main(int argc, char **argv)
{
    Pile pot = {{0}, 0}, toPlay[2] = {{{0}, 0}, {{0}, 0}}, played[2] = {{{0}, 0}, {{0}, 0}};
    char *end;
    unsigned long seed;

    if (argc != 3 || strcmp(argv[1], "--seed") != 0) {
        fprintf(stderr, "usage: %s --seed N\n", argv[0]);
        return 2;
    }
    seed = strtoul(argv[2], &end, 10);
    if (*argv[2] == '\0' || *end != '\0' || seed > 4294967295UL) {
        fprintf(stderr, "%s: the seed is 0 to 4294967295, not %s\n", argv[0], argv[2]);
        return 2;
    }
    srand((unsigned int)seed);
    printf("Welcome to the Game of War!\n\n");
    for (int i = 0; i < MAXCARDS; i++)
        Push(&pot, i);
    printf("Shuffling initial deck...\n\n");
    Shuffle(&pot);
    for (int i = 0; i < MAXCARDS; i++)
        Push(&toPlay[i % 2], Pop(&pot));
    printf("Initial 'to play' piles:\n\n");
    for (int p = 0; p < 2; p++) {
        printf("Player %c:\n", 'A' + p);
        PrintPile(&toPlay[p]);
        printf("\n");
    }
    for (int round = 1, over = 0; !over; round++) {
        printf("======== Round %d ========\n", round);
        over = DoBattle(&pot, toPlay, played);
    }
    return 0;
}
