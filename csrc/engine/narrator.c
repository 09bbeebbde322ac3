/* narrator.c: the transcript, told from the game's events (docs/rules.md section 10).
 *
 * Each event says its own lines, with two exceptions that wait for the next event:
 * smu's pile counts come after a battle's pickup and refills, and iofall's line after a
 * round's last event.  A refill of a player whose 'to play' pile was already empty
 * before it is one of the battle's own refills; any other refill comes later, in a war. */
#include <string.h>

#include "narrator.h"
#include "spec.h"                  /* BIT: a player's bit, as in faceUps */
#include "../common/text.h"

#define LEHIGH_WORDED_PILES 2   /* Lehigh's deal says "two piles" in words, others in digits */

static const char *const PLAYER_NAMES = "ABCDEFGH";
static const char *const IOFALL_NAMES[NARRATOR_IOFALL_SEATS] = {"User", "Computer"};
static const char *const RANK_WORDS[STANDARD_RANKS] = {
    "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "jack", "queen",
    "king", "ace"};
static const char *const SUIT_WORDS[STANDARD_SUITS] = {"heart", "diamond", "spade", "club"};
static const char *const LEHIGH_FACES[STANDARD_RANKS] = {
    "Deuce", "3", "4", "5", "6", "7", "8", "9", "10", "Jack", "Queen", "King", "Ace"};
static const char *const LEHIGH_SUITS[STANDARD_SUITS] = {"Hearts", "Diamonds", "Spades", "Clubs"};

void Narrator_Init(Narrator *narrator, PywarText *text, const PywarRules *rules, int shuffled)
{
    narrator->text = text;
    narrator->style = rules->narration;
    narrator->ranks = rules->ranks;
    narrator->suits = rules->suits;
    narrator->shuffled = shuffled;
    narrator->oneCard = rules->game == PYWAR_GAME_ONE_CARD;
    memset(narrator->record, 0, sizeof narrator->record);
    narrator->countsDue = 0;
    narrator->roundOpen = 0;
    narrator->faceUps = 0u;
    narrator->cycleStart = -1;
    narrator->cyclePeriod = -1;
}

/* A card's name (docs/rules.md section 2): smu "ace of hearts", Lehigh "Ace of Hearts";
 * a deck of other than 13 ranks names ranks by number, 1 the lowest, and a deck of more
 * than 4 suits names the others "suit5" (Lehigh "Suit5") and on. */
static void Narrator_Say(const Narrator *narrator, int card, const char *after)
{
    PywarText *text = narrator->text;
    int rank = card % narrator->ranks;
    int suit = card / narrator->ranks;
    int lehigh = narrator->style == PYWAR_NARRATION_LEHIGH;
    if (narrator->ranks != STANDARD_RANKS) {
        Text_Printf(text, "%d of ", rank + 1);
    } else {
        Text_Printf(text, "%s of ", lehigh ? LEHIGH_FACES[rank] : RANK_WORDS[rank]);
    }
    if (suit >= STANDARD_SUITS) {
        Text_Printf(text, "%s%d%s", lehigh ? "Suit" : "suit", suit + 1, lehigh ? "" : "s");
    } else if (lehigh) {
        Text_Printf(text, "%s", LEHIGH_SUITS[suit]);
    } else {
        Text_Printf(text, "%ss", SUIT_WORDS[suit]);
    }
    Text_Printf(text, "%s", after);
}

/* smu: "Player A has ... 'played' pile." for each player, after a battle. */
static void Narrator_Counts(const Narrator *narrator)
{
    const TraceEvent *last = &narrator->last;
    for (int p = 0; p < last->players; p++) {
        Text_Printf(narrator->text, "Player %c has %ld in their 'to play' pile and %ld in their "
                    "'played' pile.\n", PLAYER_NAMES[p], (long)last->piles[p][0],
                    (long)last->piles[p][1]);
    }
    Text_Printf(narrator->text, "\n");
}

/* iofall: "12. User: 27 Comp:25, Total: 52" after a round; with more than two
 * players, "12. Player 1: 20 Player 2: 12 Player 3: 20, Total: 52". */
static void Narrator_RoundLine(const Narrator *narrator)
{
    const TraceEvent *last = &narrator->last;
    long total = 0;
    Text_Printf(narrator->text, "%ld.", (long)last->round);
    for (int p = 0; p < last->players; p++) {
        long held = (long)(last->piles[p][0] + last->piles[p][1]);
        total += held;
        if (last->players == NARRATOR_IOFALL_SEATS) {
            Text_Printf(narrator->text, p == PYWAR_PLAYER_A ? " User: %ld" : " Comp:%ld", held);
        } else {
            Text_Printf(narrator->text, " Player %d: %ld", p + 1, held);
        }
    }
    Text_Printf(narrator->text, ", Total: %ld\n", total);
}

/* Say what waited for this event. */
static void Narrator_SayWaiting(Narrator *narrator, const TraceEvent *event)
{
    int battlesOwn = event->kind == TRACE_PICKUP
                     || (event->kind == TRACE_REFILL && narrator->last.piles[event->player][0] == 0);
    if (narrator->countsDue && !battlesOwn) {
        Narrator_Counts(narrator);
        narrator->countsDue = 0;
    }
    if (narrator->roundOpen && (event->kind == TRACE_ROUND || event->kind == TRACE_CAP
                                || event->kind == TRACE_CYCLE || event->kind == TRACE_END)) {
        Narrator_RoundLine(narrator);
        narrator->roundOpen = 0;
    }
}

static void Narrator_Deal(const Narrator *narrator, const TraceEvent *event)
{
    PywarText *text = narrator->text;
    const uint8_t *hand = event->cards;
    if (narrator->style == PYWAR_NARRATION_LEHIGH) {
        Text_Printf(text, "%s", narrator->shuffled ? "Shuffling deck\n" : "");
        if (event->players == LEHIGH_WORDED_PILES) {
            Text_Printf(text, "Dealing deck into two piles\n");
        } else {
            Text_Printf(text, "Dealing deck into %d piles\n", event->players);
        }
        return;
    }
    if (narrator->style == PYWAR_NARRATION_IOFALL) {
        Text_Printf(text, "Welcome to War, let's begin...\n");
        return;
    }
    Text_Printf(text, "Welcome to the Game of War!\n\n%sInitial 'to play' piles:\n\n",
                narrator->shuffled ? "Shuffling initial deck...\n\n" : "");
    for (int p = 0; p < event->players; p++) {
        int count = event->handCounts[p];
        Text_Printf(text, "Player %c:\nThere are %d cards in the pile.\n", PLAYER_NAMES[p], count);
        for (int i = 0; i < count; i++) {              /* bottom first */
            Text_Printf(text, "Card %d, ", i + 1);
            Narrator_Say(narrator, hand[count - 1 - i], "\n");
        }
        Text_Printf(text, "\n");
        hand += count;
    }
}

/* A battle's face-up cards are said with the battle, once every player's is down. */
static void Narrator_FaceUps(Narrator *narrator, const TraceEvent *event)
{
    const char *between = "";
    for (int p = 0; p < event->players; p++) {
        if (!(narrator->faceUps & BIT(p))) {
            continue;
        }
        if (narrator->style == PYWAR_NARRATION_LEHIGH) {
            Text_Printf(narrator->text, "%s", between);
            Narrator_Say(narrator, narrator->faceUp[p], "");
            between = " against ";
        } else if (narrator->style == PYWAR_NARRATION_SMU) {
            Text_Printf(narrator->text, "Player %c plays ", PLAYER_NAMES[p]);
            Narrator_Say(narrator, narrator->faceUp[p], "\n");
        }
    }
    if (narrator->style == PYWAR_NARRATION_LEHIGH) {
        Text_Printf(narrator->text, "\n");
    }
    narrator->faceUps = 0;
}

static void Narrator_Battle(Narrator *narrator, const TraceEvent *event)
{
    int winner = event->player;
    Narrator_FaceUps(narrator, event);
    if (narrator->style == PYWAR_NARRATION_LEHIGH) {
        if (winner < 0) {
            Text_Printf(narrator->text, "War!\n");
        } else {
            Narrator_Say(narrator, narrator->faceUp[winner], " wins\n");
        }
    } else if (narrator->style == PYWAR_NARRATION_SMU) {
        if (winner < 0) {
            Text_Printf(narrator->text, "There is a tie... Doing another battle.\n\n");
        } else {
            Text_Printf(narrator->text, "Player %c wins the 'currently in play' pile.\n\n",
                        PLAYER_NAMES[winner]);
        }
        narrator->countsDue = 1;
    }
}

/* A one-card battle, in the narration's card names: "Battle 3: A plays nine of clubs, B
 * plays eight of hearts. A wins." (a tie: "A and B tie."), counted for the end's tally. */
static void Narrator_OneCardBattle(Narrator *narrator, const TraceEvent *event)
{
    PywarText *text = narrator->text;
    const char *between = " ";
    Text_Printf(text, "Battle %ld:", (long)event->battle);
    for (int p = 0; p < event->players; p++) {
        if (narrator->faceUps & BIT(p)) {
            Text_Printf(text, "%s%c plays ", between, PLAYER_NAMES[p]);
            Narrator_Say(narrator, narrator->faceUp[p], "");
            between = ", ";
        }
    }
    between = ". ";
    for (int p = 0; p < event->players; p++) {
        int tied = (event->tied & (int)BIT(p)) != 0;
        if (narrator->faceUps & BIT(p)) {
            narrator->record[p][p == event->player ? 0 : tied ? 2 : 1]++;
        }
        if (tied) {
            Text_Printf(text, "%s%c", between, PLAYER_NAMES[p]);
            between = " and ";
        }
    }
    if (event->player >= 0) {
        Text_Printf(text, ". %c wins.\n", PLAYER_NAMES[event->player]);
    } else {
        Text_Printf(text, " tie.\n");
    }
    narrator->faceUps = 0;
}

/* The end of a one-card game: each player's battles won, lost and tied, and who wins. */
static void Narrator_OneCardEnd(const Narrator *narrator, const TraceEvent *event)
{
    PywarText *text = narrator->text;
    if (event->outcome == PYWAR_OUTCOME_CAPPED) {
        Text_Printf(text, "\nThe game was stopped at its round cap.");
    }
    Text_Printf(text, "\nAfter %ld battles:\n", (long)event->battle);
    for (int p = 0; p < event->players; p++) {
        Text_Printf(text, "Player %c won %ld, lost %ld, tied %ld.\n", PLAYER_NAMES[p],
                    (long)narrator->record[p][0], (long)narrator->record[p][1],
                    (long)narrator->record[p][2]);
    }
    if (event->player >= 0) {
        Text_Printf(text, "Player %c wins.\n", PLAYER_NAMES[event->player]);
    } else {
        Text_Printf(text, "Nobody wins: a draw.\n");
    }
}

static void Narrator_Pickup(const Narrator *narrator, const TraceEvent *event)
{
    if (narrator->style == PYWAR_NARRATION_LEHIGH) {
        for (int i = 0; i < event->count; i++) {
            Text_Printf(narrator->text, "player %d gets ", event->player + 1);
            Narrator_Say(narrator, event->cards[i], "\n");
        }
    }
}

static void Narrator_Refill(const Narrator *narrator, const TraceEvent *event)
{
    if (narrator->style == PYWAR_NARRATION_SMU) {
        char name = PLAYER_NAMES[event->player];
        Text_Printf(narrator->text, "Player %c ran out of cards in their 'to play' pile.  "
                    "Getting cards from the 'played' pile.\nShuffling player %c cards...\n\n",
                    name, name);
    }
}

static void Narrator_RunOut(const Narrator *narrator, const TraceEvent *event)
{
    if (narrator->style == PYWAR_NARRATION_SMU) {
        char name = PLAYER_NAMES[event->player];
        Text_Printf(narrator->text, "Player %c ran out of cards.  Player %c has lost.\n", name,
                    name);
    }
}

static void Narrator_EndSmu(const Narrator *narrator, const TraceEvent *event)
{
    if (event->outcome == PYWAR_OUTCOME_CYCLE) {
        Text_Printf(narrator->text, "The game repeats every %ld rounds from round %ld on.  "
                    "Nobody wins.\n", (long)narrator->cyclePeriod, (long)narrator->cycleStart + 1);
    } else if (event->outcome == PYWAR_OUTCOME_CAPPED) {
        Text_Printf(narrator->text, "The game was stopped after %ld rounds.  ", (long)event->round);
        if (event->player < 0) {
            Text_Printf(narrator->text, "Nobody wins.\n");
        } else {
            Text_Printf(narrator->text, "Player %c has more cards and wins.\n",
                        PLAYER_NAMES[event->player]);
        }
    }
}

static void Narrator_EndLehigh(const Narrator *narrator, const TraceEvent *event)
{
    if (event->outcome == PYWAR_OUTCOME_CYCLE) {
        Text_Printf(narrator->text, "The game repeats every %ld rounds from round %ld on\n",
                    (long)narrator->cyclePeriod, (long)narrator->cycleStart + 1);
    } else if (event->outcome == PYWAR_OUTCOME_CAPPED) {
        Text_Printf(narrator->text, "The game was stopped after %ld rounds\n", (long)event->round);
    }
    if (event->player < 0) {
        Text_Printf(narrator->text, "Nobody wins\n");
    } else {
        Text_Printf(narrator->text, "Player %d wins\n", event->player + 1);
    }
}

static void Narrator_EndIofall(const Narrator *narrator, const TraceEvent *event)
{
    const char *dashes = "--------------------";
    Text_Printf(narrator->text, "\n%s\n", dashes);
    if (event->player < 0) {
        Text_Printf(narrator->text, "Match draw\n");
    } else if (event->players == NARRATOR_IOFALL_SEATS) {
        Text_Printf(narrator->text, "Winner is %s!\n", IOFALL_NAMES[event->player]);
    } else {
        Text_Printf(narrator->text, "Winner is Player %d!\n", event->player + 1);
    }
    Text_Printf(narrator->text, "%s\n", dashes);
}

static void Narrator_End(const Narrator *narrator, const TraceEvent *event)
{
    if (narrator->style == PYWAR_NARRATION_LEHIGH) {
        Narrator_EndLehigh(narrator, event);
    } else if (narrator->style == PYWAR_NARRATION_IOFALL) {
        Narrator_EndIofall(narrator, event);
    } else {
        Narrator_EndSmu(narrator, event);
    }
}

void Narrator_Event(Narrator *narrator, const TraceEvent *event)
{
    if (narrator->text == NULL) {
        return;
    }
    Narrator_SayWaiting(narrator, event);
    switch (event->kind) {
    case TRACE_DEAL:
        Narrator_Deal(narrator, event);
        break;
    case TRACE_ROUND:
        if (narrator->oneCard) {
            break;
        }
        if (narrator->style == PYWAR_NARRATION_SMU) {
            Text_Printf(narrator->text, "======== Round %ld ========\n", (long)event->round);
        }
        narrator->roundOpen = narrator->style == PYWAR_NARRATION_IOFALL;
        break;
    case TRACE_FACE_UP:
    case TRACE_TAKE_BACK:
        narrator->faceUp[event->player] = event->cards[0];
        narrator->faceUps |= BIT(event->player);
        break;
    case TRACE_BATTLE:
        if (narrator->oneCard) {
            Narrator_OneCardBattle(narrator, event);
        } else {
            Narrator_Battle(narrator, event);
        }
        break;
    case TRACE_PICKUP:
        Narrator_Pickup(narrator, event);
        break;
    case TRACE_REFILL:
        Narrator_Refill(narrator, event);
        break;
    case TRACE_RUN_OUT:
        Narrator_RunOut(narrator, event);
        break;
    case TRACE_CYCLE:
        narrator->cycleStart = event->start;
        narrator->cyclePeriod = event->period;
        break;
    case TRACE_END:
        if (narrator->oneCard) {
            Narrator_OneCardEnd(narrator, event);
        } else {
            Narrator_End(narrator, event);
        }
        Text_Flush(narrator->text);
        break;
    default: /* face down, cap: nothing is said */
        break;
    }
    narrator->last = *event;
}
