/* narrator.c: the transcript, in the words of each rule set's own program. */
#include "narrator.h"
#include "text.h"

static const char *const SMU_NAMES[2] = {"A", "B"};
static const char *const IOFALL_NAMES[2] = {"User", "Computer"};
static const char *const LEHIGH_FACES[NUM_RANKS] = {
    "Deuce", "3", "4", "5", "6", "7", "8", "9", "10", "Jack", "Queen", "King", "Ace"};
static const char *const LEHIGH_SUITS[4] = {"Hearts", "Diamonds", "Spades", "Clubs"};

static int Narrator_Style(const TableTop *table)
{
    return table->rules.narration;
}

/* Lehigh's show(): "Ace of Diamonds". */
static void Narrator_Show(const TableTop *table, const Card *card, const char *after)
{
    Text_Printf(table->text, "%s of %s%s", LEHIGH_FACES[OldCard_GetRank(card)],
                LEHIGH_SUITS[OldCard_GetSuit(card)], after);
}

/* The first lines; the shuffling line only when the deck is shuffled. */
void Narrator_Welcome(const TableTop *table)
{
    if (table->text == NULL) {
        return;
    }
    int shuffled = !table->customDeal;
    switch (Narrator_Style(table)) {
    case PYWAR_NARRATION_LEHIGH:
        Text_Printf(table->text, "%s", shuffled ? "Shuffling deck\n" : "");
        break;
    case PYWAR_NARRATION_IOFALL:
        Text_Printf(table->text, "Welcome to War, let's begin...\n");
        break;
    default:
        Text_Printf(table->text, "Welcome to the Game of War!\n\n%s",
                    shuffled ? "Shuffling initial deck...\n\n" : "");
        break;
    }
}

void Narrator_Dealt(const TableTop *table)
{
    if (table->text == NULL) {
        return;
    }
    if (Narrator_Style(table) == PYWAR_NARRATION_LEHIGH) {
        Text_Printf(table->text, "Dealing deck into two piles\n");
    } else if (Narrator_Style(table) == PYWAR_NARRATION_SMU) {
        Text_Printf(table->text, "Initial 'to play' piles:\n\n");
        for (int p = PLAYER_A; p <= PLAYER_B; p++) {
            Text_Printf(table->text, "Player %s:\n", SMU_NAMES[p]);
            OldPile_PrintCards(OldPlayer_GetToPlay(&table->players[p]), table->text);
        }
    }
}

void Narrator_RoundStart(const TableTop *table)
{
    if (table->text == NULL) {
        return;
    }
    if (Narrator_Style(table) == PYWAR_NARRATION_SMU) {
        Text_Printf(table->text, "======== Round %d ========\n", (int)table->result.rounds);
    }
}

void Narrator_FaceUp(const TableTop *table)
{
    if (table->text == NULL) {
        return;
    }
    if (Narrator_Style(table) == PYWAR_NARRATION_LEHIGH) {
        Narrator_Show(table, table->faceUp[PLAYER_A], " against ");
        Narrator_Show(table, table->faceUp[PLAYER_B], "\n");
    } else if (Narrator_Style(table) == PYWAR_NARRATION_SMU) {
        for (int p = PLAYER_A; p <= PLAYER_B; p++) {
            const Card *card = table->faceUp[p];
            Text_Printf(table->text, "Player %s plays %s of %ss\n", SMU_NAMES[p],
                        OldCard_GetRankString(card), OldCard_GetSuitString(card));
        }
    }
}

void Narrator_Win(const TableTop *table, int winner)
{
    if (table->text == NULL) {
        return;
    }
    if (Narrator_Style(table) == PYWAR_NARRATION_LEHIGH) {
        Narrator_Show(table, table->faceUp[winner], " wins\n");
    } else if (Narrator_Style(table) == PYWAR_NARRATION_SMU) {
        Text_Printf(table->text, "Player %s wins the 'currently in play' pile.\n\n",
                    SMU_NAMES[winner]);
    }
}

void Narrator_Tie(const TableTop *table)
{
    if (table->text == NULL) {
        return;
    }
    if (Narrator_Style(table) == PYWAR_NARRATION_LEHIGH) {
        Text_Printf(table->text, "War!\n");
    } else if (Narrator_Style(table) == PYWAR_NARRATION_SMU) {
        Text_Printf(table->text, "There is a tie... Doing another battle.\n\n");
    }
}

void Narrator_Gets(const TableTop *table, int winner, const Card *card)
{
    if (table->text == NULL) {
        return;
    }
    if (Narrator_Style(table) == PYWAR_NARRATION_LEHIGH) {
        Text_Printf(table->text, "player %d gets ", winner + 1);
        Narrator_Show(table, card, "\n");
    }
}

void Narrator_Refill(const TableTop *table, int player)
{
    if (table->text == NULL) {
        return;
    }
    if (Narrator_Style(table) == PYWAR_NARRATION_SMU) {
        const char *name = SMU_NAMES[player];
        Text_Printf(table->text,
                    "Player %s ran out of cards in their 'to play' pile.  "
                    "Getting cards from the 'played' pile.\nShuffling player %s cards...\n\n",
                    name, name);
    }
}

void Narrator_Counts(const TableTop *table)
{
    if (table->text == NULL) {
        return;
    }
    if (Narrator_Style(table) != PYWAR_NARRATION_SMU) {
        return;
    }
    for (int p = PLAYER_A; p <= PLAYER_B; p++) {
        const Player *player = &table->players[p];
        Text_Printf(table->text, "Player %s has %d in their 'to play' pile and %d in their "
                    "'played' pile.\n", SMU_NAMES[p], OldPile_GetNumCards(OldPlayer_GetToPlay(player)),
                    OldPile_GetNumCards(OldPlayer_GetPlayed(player)));
    }
    Text_Printf(table->text, "\n");
}

void Narrator_RoundEnd(const TableTop *table)
{
    if (table->text == NULL) {
        return;
    }
    if (Narrator_Style(table) == PYWAR_NARRATION_IOFALL) {
        int user = OldPlayer_GetNumCards(&table->players[PLAYER_A]);
        int computer = OldPlayer_GetNumCards(&table->players[PLAYER_B]);
        Text_Printf(table->text, "%d. User: %d Comp:%d, Total: %d\n",
                    (int)table->result.rounds, user, computer, user + computer);
    }
}

static void Narrator_GameOverSmu(const TableTop *table)
{
    const PywarResult *result = &table->result;
    if (result->outcome == PYWAR_OUTCOME_CYCLE) {
        Text_Printf(table->text, "The game repeats every %d rounds from round %d on.  "
                    "Nobody wins.\n", (int)result->cycle_period, (int)result->cycle_start + 1);
        return;
    }
    if (result->outcome == PYWAR_OUTCOME_CAPPED) {
        Text_Printf(table->text, "The game was stopped after %d rounds.  ", (int)result->rounds);
        if (result->winner == PYWAR_NOBODY) {
            Text_Printf(table->text, "Nobody wins.\n");
        } else {
            Text_Printf(table->text, "Player %s has more cards and wins.\n",
                        SMU_NAMES[result->winner]);
        }
        return;
    }
    for (int p = PLAYER_A; p <= PLAYER_B; p++) {
        if (table->lost[p]) {
            Text_Printf(table->text, "Player %s ran out of cards.  Player %s has lost.\n",
                        SMU_NAMES[p], SMU_NAMES[p]);
        }
    }
}

static void Narrator_GameOverLehigh(const TableTop *table)
{
    const PywarResult *result = &table->result;
    if (result->outcome == PYWAR_OUTCOME_CYCLE) {
        Text_Printf(table->text, "The game repeats every %d rounds from round %d on\n",
                    (int)result->cycle_period, (int)result->cycle_start + 1);
    } else if (result->outcome == PYWAR_OUTCOME_CAPPED) {
        Text_Printf(table->text, "The game was stopped after %d rounds\n", (int)result->rounds);
    }
    if (result->winner == PYWAR_NOBODY) {
        Text_Printf(table->text, "Nobody wins\n");
    } else {
        Text_Printf(table->text, "Player %d wins\n", result->winner + 1);
    }
}

static void Narrator_GameOverIofall(const TableTop *table)
{
    const char *dashes = "--------------------";
    Text_Printf(table->text, "\n%s\n", dashes);
    if (table->result.winner == PYWAR_NOBODY) {
        Text_Printf(table->text, "Match draw\n");
    } else {
        Text_Printf(table->text, "Winner is %s!\n", IOFALL_NAMES[table->result.winner]);
    }
    Text_Printf(table->text, "%s\n", dashes);
}

void Narrator_GameOver(const TableTop *table)
{
    if (table->text == NULL) {
        return;
    }
    switch (Narrator_Style(table)) {
    case PYWAR_NARRATION_LEHIGH:
        Narrator_GameOverLehigh(table);
        break;
    case PYWAR_NARRATION_IOFALL:
        Narrator_GameOverIofall(table);
        break;
    default:
        Narrator_GameOverSmu(table);
        break;
    }
}
