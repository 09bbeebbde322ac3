/* tabletop.c: the reference's tabletop.cpp. */
#include <string.h>
#include "tabletop.h"
#include "../common/text.h"

static int TableTop_ReadPile(const void *table, int number, uint8_t *ids);
static int TableTop_CountPile(const void *table, int number);

/* TableTop::TableTop; the seed replaces srand(time(NULL)).  Without memory it frees what
 * it made and returns PYWAR_ENOMEM. */
int TableTop_Init(TableTop *tableTop, uint32_t seed, int stack, PywarText *text,
                  PywarText *trace)
{
    memset(tableTop, 0, sizeof *tableTop);  /* all NULL, for TableTop_Destroy */
    Player *playerA = &tableTop->playerA;
    Player *playerB = &tableTop->playerB;
    Pile *currentlyInPlay = &tableTop->currentlyInPlay;
    if (Player_Init(playerA, stack) != PYWAR_OK || Player_Init(playerB, stack) != PYWAR_OK
        || Pile_Init(currentlyInPlay, stack) != PYWAR_OK) {
        TableTop_Destroy(tableTop);
        return PYWAR_ENOMEM;
    }
    tableTop->text = text;
    Observer_Init(&tableTop->observer, tableTop, TableTop_ReadPile, TableTop_CountPile, trace);
    Rng_Seed(&tableTop->rng, seed);
    Text_Printf(text, "Welcome to the Game of War!\n\n");
    for (int i = 0; i < MAXCARDS; i++) {
        Card *card = Card_New();            /* a card on the heap */
        if (card == NULL) {
            TableTop_Destroy(tableTop);
            return PYWAR_ENOMEM;
        }
        tableTop->deck[i] = card;           /* kept, to be freed at the end */
        int suit = i / 13;
        int rank = i % 13;
        Card_SetSuitAndRank(card, suit, rank);
        Pile_AddCardToPile(currentlyInPlay, card);
    }
    Text_Printf(text, "Shuffling initial deck...\n\n");
    Pile_Shuffle(currentlyInPlay, &tableTop->rng);
    /* Hand the shuffled pile out to A and B in turn, each card taken off its top. */
    for (int i = 0; i < MAXCARDS; i++) {
        Card *card = Pile_RemoveTopCard(currentlyInPlay);
        if (i % 2 == 0) {
            Pile_AddCardToPile(Player_GetToPlayPile(playerA), card);
        } else {
            Pile_AddCardToPile(Player_GetToPlayPile(playerB), card);
        }
    }
    Observer_Deal(&tableTop->observer);
    Text_Printf(text, "Initial 'to play' piles:\n\n");
    Text_Printf(text, "Player A:\n");
    Pile_PrintCards(Player_GetToPlayPile(playerA), text);
    Text_Printf(text, "\n");
    Text_Printf(text, "Player B:\n");
    Pile_PrintCards(Player_GetToPlayPile(playerB), text);
    Text_Printf(text, "\n");
    return PYWAR_OK;
}

/* TableTop::~TableTop; then, as C++ does after its body, the members, last made first. */
void TableTop_Destroy(TableTop *tableTop)
{
    for (int i = 0; i < MAXCARDS; i++) {
        Card_Delete(tableTop->deck[i]);
    }
    Pile_Destroy(&tableTop->currentlyInPlay);
    Player_Destroy(&tableTop->playerB);
    Player_Destroy(&tableTop->playerA);
}

/* TableTop::DoBattle: true once someone has run out of cards; after a tie, it recurs. */
bool TableTop_DoBattle(TableTop *tableTop)
{
    Player *playerA = &tableTop->playerA;
    Player *playerB = &tableTop->playerB;
    Pile *currentlyInPlay = &tableTop->currentlyInPlay;
    PywarText *text = tableTop->text;
    Observer *observer = &tableTop->observer;
    /* Each player turns up the top card of its 'to play' pile. */
    Card *cardA = Pile_RemoveTopCard(Player_GetToPlayPile(playerA));
    Card *cardB = Pile_RemoveTopCard(Player_GetToPlayPile(playerB));
    Pile_AddCardToPile(currentlyInPlay, cardA);
    Pile_AddCardToPile(currentlyInPlay, cardB);
    Observer_FaceUp(observer);
    Text_Printf(text, "Player A plays %s of %ss\n", Card_GetRankString(cardA),
                Card_GetSuitString(cardA));
    Text_Printf(text, "Player B plays %s of %ss\n", Card_GetRankString(cardB),
                Card_GetSuitString(cardB));
    bool tie = false;
    if (Card_GetRank(cardA) > Card_GetRank(cardB)) {
        Observer_Battle(observer, PYWAR_PLAYER_A);
        Text_Printf(text, "Player A wins the 'currently in play' pile.\n\n");
        while (Pile_GetNumCards(currentlyInPlay) > 0) {
            Card *wonCard = Pile_RemoveTopCard(currentlyInPlay);
            Pile_AddCardToPile(Player_GetPlayedPile(playerA), wonCard);
            Observer_Take(observer, PYWAR_PLAYER_A);
        }
    } else if (Card_GetRank(cardA) < Card_GetRank(cardB)) {
        Observer_Battle(observer, PYWAR_PLAYER_B);
        Text_Printf(text, "Player B wins the 'currently in play' pile.\n\n");
        while (Pile_GetNumCards(currentlyInPlay) > 0) {
            Card *wonCard = Pile_RemoveTopCard(currentlyInPlay);
            Pile_AddCardToPile(Player_GetPlayedPile(playerB), wonCard);
            Observer_Take(observer, PYWAR_PLAYER_B);
        }
    } else {
        Observer_Battle(observer, -1);
        Text_Printf(text, "There is a tie... Doing another battle.\n\n");
        tie = true;
    }

    /* A player whose 'to play' pile is empty takes up its 'played' pile instead. */
    if (Pile_GetNumCards(Player_GetToPlayPile(playerA)) == 0
        && Pile_GetNumCards(Player_GetPlayedPile(playerA)) > 0) {
        Text_Printf(text, "Player A ran out of cards in their 'to play' pile.  "
                          "Getting cards from the 'played' pile.\n");
        while (Pile_GetNumCards(Player_GetPlayedPile(playerA)) > 0) {
            Card *replacementCard = Pile_RemoveTopCard(Player_GetPlayedPile(playerA));
            Pile_AddCardToPile(Player_GetToPlayPile(playerA), replacementCard);
        }
        Text_Printf(text, "Shuffling player A cards...\n\n");
        Pile_Shuffle(Player_GetToPlayPile(playerA), &tableTop->rng);
        Observer_Refill(observer, PYWAR_PLAYER_A);
    }

    if (Pile_GetNumCards(Player_GetToPlayPile(playerB)) == 0
        && Pile_GetNumCards(Player_GetPlayedPile(playerB)) > 0) {
        Text_Printf(text, "Player B ran out of cards in their 'to play' pile.  "
                          "Getting cards from the 'played' pile.\n");
        while (Pile_GetNumCards(Player_GetPlayedPile(playerB)) > 0) {
            Card *replacementCard = Pile_RemoveTopCard(Player_GetPlayedPile(playerB));
            Pile_AddCardToPile(Player_GetToPlayPile(playerB), replacementCard);
        }
        Text_Printf(text, "Shuffling player B cards...\n\n");
        Pile_Shuffle(Player_GetToPlayPile(playerB), &tableTop->rng);
        Observer_Refill(observer, PYWAR_PLAYER_B);
    }

    /* Show where everyone's cards are. */
    Text_Printf(text, "Player A has %d in their 'to play' pile and %d in their 'played' pile.\n",
                Pile_GetNumCards(Player_GetToPlayPile(playerA)),
                Pile_GetNumCards(Player_GetPlayedPile(playerA)));
    Text_Printf(text, "Player B has %d in their 'to play' pile and %d in their 'played' pile.\n",
                Pile_GetNumCards(Player_GetToPlayPile(playerB)),
                Pile_GetNumCards(Player_GetPlayedPile(playerB)));
    Text_Printf(text, "\n");

    /* Is anyone out of cards? */
    bool someoneRanOutOfCards = false;
    if (Pile_GetNumCards(Player_GetToPlayPile(playerA)) == 0) {
        someoneRanOutOfCards = true;
        Text_Printf(text, "Player A ran out of cards.  Player A has lost.\n");
        Observer_RunOut(observer, PYWAR_PLAYER_A);
    }
    if (Pile_GetNumCards(Player_GetToPlayPile(playerB)) == 0) {
        someoneRanOutOfCards = true;
        Text_Printf(text, "Player B ran out of cards.  Player B has lost.\n");
        Observer_RunOut(observer, PYWAR_PLAYER_B);
    }

    /* Answer main; after a tie with nobody out, battle again: the function calls itself. */
    if (!someoneRanOutOfCards && tie) {
        return TableTop_DoBattle(tableTop);
    } else {
        return someoneRanOutOfCards;
    }
}

/* Not in the reference: the pile an observer's pile number names. */
static Pile *TableTop_PileOf(TableTop *tableTop, int number)
{
    if (number == OBSERVER_POT) {
        return &tableTop->currentlyInPlay;
    }
    Player *player = number / 2 == 0 ? &tableTop->playerA : &tableTop->playerB;
    return number % 2 == 0 ? Player_GetToPlayPile(player) : Player_GetPlayedPile(player);
}

/* Not in the reference: the observer's ObserverCountPile, with Pile_GetNumCards, which
 * disturbs no stack. */
static int TableTop_CountPile(const void *table, int number)
{
    return Pile_GetNumCards(TableTop_PileOf((TableTop *)table, number));
}

/* Not in the reference: the observer's ObserverReadPile, a pile's card ids bottom first.
 * Program 6 pops a stack and pushes it back to read it, so the table is not const. */
static int TableTop_ReadPile(const void *table, int number, uint8_t *ids)
{
    Pile *pile = TableTop_PileOf((TableTop *)table, number);
    Card *popped[MAXCARDS];
    int numCards = Pile_GetNumCards(pile);
    Card **cards = Pile_GetArray(pile, popped);
    for (int i = 0; i < numCards; i++) {
        ids[i] = (uint8_t)(Card_GetSuit(cards[i]) * 13 + Card_GetRank(cards[i]));
    }
    Pile_PutArray(pile, cards, numCards);
    return numCards;
}
