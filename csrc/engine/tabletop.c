/* tabletop.c: the game board (SMU's TableTop): the deck, the deal, a battle,
 * refills, wars, the pickup of a won pot, and the end of the game.
 * docs/rules.md states every step; pywar/twin/tabletop.py takes the same ones. */
#include <string.h>

#include "cycle.h"
#include "narrator.h"
#include "text.h"
#include "tabletop.h"

/* Event codes for the digest (docs/rules.md, "The digest"). */
#define EVENT_DEAL 0x1000u
#define EVENT_FACE_UP 0x2000u
#define EVENT_FACE_DOWN 0x3000u
#define EVENT_BATTLE 0x4000u
#define EVENT_REFILL 0x5000u
#define EVENT_TAKE_BACK 0x6000u
#define EVENT_END 0x7000u
#define BATTLE_TIE 2u
#define FNV_OFFSET 0xcbf29ce484222325ull
#define FNV_PRIME 0x100000001b3ull

/* How a player meets a war: cards to put face down, and whether it runs out
 * or takes back its last face-up card to play it again. */
typedef struct WarPlan {
    int down;
    int loses;
    int takesBack;
} WarPlan;

static void OldTableTop_Event(TableTop *table, uint32_t code)
{
    table->result.digest = (table->result.digest ^ code) * FNV_PRIME;
}

static void OldTableTop_CardEvent(TableTop *table, uint32_t kind, int player, const Card *card)
{
    OldTableTop_Event(table, kind | (uint32_t)player << 8 | (uint32_t)OldCard_GetId(card));
}

/* SMU and iofall build hearts, diamonds, spades, clubs; Lehigh's Card(n) clubs first. */
static void OldTableTop_SetCard(const TableTop *table, Card *card, int i)
{
    static const SUIT LEHIGH_SUITS[4] = {CLUB, DIAMOND, HEART, SPADE};
    int suit = i / NUM_RANKS;
    RANK rank = (RANK)(i % NUM_RANKS);
    if (table->rules.narration == PYWAR_NARRATION_LEHIGH) {
        OldCard_SetSuitAndRank(card, LEHIGH_SUITS[suit], rank);
    } else {
        OldCard_SetSuitAndRank(card, (SUIT)suit, rank);
    }
}

int OldTableTop_Init(TableTop *table, uint32_t seed, const PywarRules *rules, PywarText *text)
{
    memset(table, 0, sizeof *table);
    table->rules = *rules;
    table->text = text;
    if (OldPlayer_Init(&table->players[PLAYER_A]) != PYWAR_OK
        || OldPlayer_Init(&table->players[PLAYER_B]) != PYWAR_OK) {
        OldTableTop_Destroy(table);
        return PYWAR_ENOMEM;
    }
    for (int i = 0; i < MAXCARDS; i++) {
        table->deck[i] = OldCard_New();
        if (table->deck[i] == NULL) {
            OldTableTop_Destroy(table);
            return PYWAR_ENOMEM;
        }
    }
    OldTableTop_NewGame(table, seed);
    return PYWAR_OK;
}

/* Ready the table for a game with this seed: the deck built in the pot, in order,
 * and nothing counted.  A batch plays many games on one table this way. */
void OldTableTop_NewGame(TableTop *table, uint32_t seed)
{
    PywarResult fresh = {0};
    fresh.winner = PYWAR_NOBODY;
    fresh.cycle_start = -1;
    fresh.cycle_period = -1;
    fresh.digest = FNV_OFFSET;
    table->result = fresh;
    table->seed = seed;
    table->over = 0;
    table->lost[PLAYER_A] = table->lost[PLAYER_B] = 0;
    table->customDeal = 0;
    Rng_Seed(&table->rng, seed);
    for (int player = PLAYER_A; player <= PLAYER_B; player++) {
        OldPile_Init(OldPlayer_GetToPlay(&table->players[player]));
        OldPile_Init(OldPlayer_GetPlayed(&table->players[player]));
    }
    OldPile_Init(&table->currentlyInPlay);
    for (int i = 0; i < MAXCARDS; i++) {
        OldTableTop_SetCard(table, table->deck[i], i);
        OldPile_AddCardToPile(&table->currentlyInPlay, table->deck[i]);
    }
}

void OldTableTop_Destroy(TableTop *table)
{
    for (int i = 0; i < MAXCARDS; i++) {
        OldCard_Delete(table->deck[i]);
        table->deck[i] = NULL;
    }
    OldPlayer_Destroy(&table->players[PLAYER_A]);
    OldPlayer_Destroy(&table->players[PLAYER_B]);
}

/* The pile a player's winnings go to: 'played', or the bottom of a queue. */
Pile *OldTableTop_GetWinnings(const TableTop *table, int player)
{
    const Player *owner = &table->players[player];
    return table->rules.piles == PYWAR_PILES_QUEUE ? OldPlayer_GetToPlay(owner)
                                                   : OldPlayer_GetPlayed(owner);
}

/* A card joins a pile of a hand: on top of a stack, at the bottom of a queue. */
static void OldTableTop_Place(const TableTop *table, Pile *pile, Card *card)
{
    if (table->rules.piles == PYWAR_PILES_QUEUE) {
        OldPile_AddCardToBottom(pile, card);
    } else {
        OldPile_AddCardToPile(pile, card);
    }
}

/* A won card joins the winner's hand. */
static void OldTableTop_Give(TableTop *table, int player, Card *card)
{
    OldTableTop_Place(table, OldTableTop_GetWinnings(table, player), card);
}

/* Use a given deal: distinct card ids, at least one card each. */
int OldTableTop_SetDeal(TableTop *table, const uint8_t *deal, int countA, int countB)
{
    int seen[MAXCARDS] = {0};
    if (deal == NULL || countA < 1 || countB < 1 || countA + countB > MAXCARDS) {
        return PYWAR_EINVAL;
    }
    for (int i = 0; i < countA + countB; i++) {
        if (deal[i] >= MAXCARDS || seen[deal[i]]) {
            return PYWAR_EINVAL;
        }
        seen[deal[i]] = 1;
        table->deal[i] = deal[i];
    }
    table->customDeal = 1;
    table->dealCount[PLAYER_A] = countA;
    table->dealCount[PLAYER_B] = countB;
    return PYWAR_OK;
}

/* A dealt card joins a player's 'to play' pile. */
static void OldTableTop_GiveToHand(TableTop *table, int player, Card *card)
{
    OldTableTop_Place(table, OldPlayer_GetToPlay(&table->players[player]), card);
    OldTableTop_CardEvent(table, EVENT_DEAL, player, card);
}

static Card *OldTableTop_FindCard(const TableTop *table, int id)
{
    for (int i = 0; i < MAXCARDS; i++) {
        if (OldCard_GetId(table->deck[i]) == id) {
            return table->deck[i];
        }
    }
    return NULL;
}

/* A given deal, placed as dealt cards are: a queue gets each hand top card first,
 * a stack bottom card first.  Cards not dealt stay out of play. */
static void OldTableTop_DealGiven(TableTop *table)
{
    const uint8_t *ids = table->deal;
    int queue = table->rules.piles == PYWAR_PILES_QUEUE;
    OldPile_Init(&table->currentlyInPlay);
    for (int player = PLAYER_A; player <= PLAYER_B; player++) {
        int count = table->dealCount[player];
        for (int i = 0; i < count; i++) {
            int k = queue ? i : count - 1 - i;
            OldTableTop_GiveToHand(table, player, OldTableTop_FindCard(table, ids[k]));
        }
        ids += count;
    }
}

/* Shuffle the deck in the pot, then deal it from the top, A first, one card each. */
void OldTableTop_Deal(TableTop *table)
{
    Pile *deck = &table->currentlyInPlay;
    Narrator_Welcome(table);
    if (table->customDeal) {
        OldTableTop_DealGiven(table);
    } else {
        OldPile_Shuffle(deck, &table->rng, table->rules.shuffle);
        for (int i = 0; i < MAXCARDS; i++) {
            OldTableTop_GiveToHand(table, i % 2 == 0 ? PLAYER_A : PLAYER_B,
                                OldPile_RemoveTopCard(deck));
        }
    }
    Narrator_Dealt(table);
}

/* Move the whole 'played' pile to 'to play' (reversing it) and shuffle it. */
static void OldTableTop_Refill(TableTop *table, int player)
{
    Pile *toPlay = OldPlayer_GetToPlay(&table->players[player]);
    Pile *played = OldPlayer_GetPlayed(&table->players[player]);
    Narrator_Refill(table, player);
    while (OldPile_GetNumCards(played) > 0) {
        OldPile_AddCardToPile(toPlay, OldPile_RemoveTopCard(played));
    }
    OldPile_Shuffle(toPlay, &table->rng, table->rules.shuffle);
    OldTableTop_Event(table, EVENT_REFILL | (uint32_t)player << 8
                              | (uint32_t)OldPile_GetNumCards(toPlay));
}

/* Take a player's next card, refilling 'to play' first if it is empty. */
static Card *OldTableTop_Draw(TableTop *table, int player)
{
    Pile *toPlay = OldPlayer_GetToPlay(&table->players[player]);
    if (OldPile_GetNumCards(toPlay) == 0) {
        OldTableTop_Refill(table, player);
    }
    return OldPile_RemoveTopCard(toPlay);
}

static void OldTableTop_PutInPot(TableTop *table, int player, Card *card)
{
    Pile *pot = &table->currentlyInPlay;
    table->potOwner[OldPile_GetNumCards(pot)] = (unsigned char)player;
    OldPile_AddCardToPile(pot, card);
}

/* Lehigh's "put top card back": the player's last face-up card leaves the pot. */
static Card *OldTableTop_TakeBack(TableTop *table, int player)
{
    Pile *pot = &table->currentlyInPlay;
    int position = OldPile_GetNumCards(pot) - 1;
    while (table->potOwner[position] != player) {
        position--;
    }
    for (int i = position; i < OldPile_GetNumCards(pot) - 1; i++) {
        table->potOwner[i] = table->potOwner[i + 1];
    }
    return OldPile_RemoveCardAt(pot, position);
}

/* A, then B, put a card face up in the pot. */
static void OldTableTop_FaceUp(TableTop *table, const int *takesBack)
{
    for (int player = PLAYER_A; player <= PLAYER_B; player++) {
        Card *card;
        if (takesBack != NULL && takesBack[player]) {
            card = OldTableTop_TakeBack(table, player);
            OldTableTop_CardEvent(table, EVENT_TAKE_BACK, player, card);
        } else {
            card = OldTableTop_Draw(table, player);
        }
        OldTableTop_PutInPot(table, player, card);
        table->faceUp[player] = card;
        OldTableTop_CardEvent(table, EVENT_FACE_UP, player, card);
    }
    Narrator_FaceUp(table);
}

/* The pot positions of one seat's cards, in the order they were put down. */
static int OldTableTop_SeatCards(const TableTop *table, int seat, int *positions)
{
    int count = 0;
    for (int i = 0; i < OldPile_GetNumCards(&table->currentlyInPlay); i++) {
        if (table->potOwner[i] == seat) {
            positions[count++] = i;
        }
    }
    return count;
}

/* The order in which the pot's cards go to the winner, as pot positions. */
static int OldTableTop_PickupOrder(TableTop *table, int winner, int *order)
{
    int n = OldPile_GetNumCards(&table->currentlyInPlay);
    int first[MAXCARDS], second[MAXCARDS];
    int firstSeat = PLAYER_A;
    int k = 0;
    switch (table->rules.pickup) {
    case PYWAR_PICKUP_SMU:
        for (int i = 0; i < n; i++) {
            order[i] = n - 1 - i;
        }
        return n;
    case PYWAR_PICKUP_RANDOM:
    case PYWAR_PICKUP_POT_ORDER:
        if (table->rules.pickup == PYWAR_PICKUP_RANDOM) {
            OldPile_Shuffle(&table->currentlyInPlay, &table->rng, table->rules.shuffle);
        }
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        return n;
    case PYWAR_PICKUP_WINNER_FIRST:
        firstSeat = winner;
        break;
    case PYWAR_PICKUP_LOSER_FIRST:
        firstSeat = 1 - winner;
        break;
    default:
        break;
    }
    int firstCount = OldTableTop_SeatCards(table, firstSeat, first);
    int secondCount = OldTableTop_SeatCards(table, 1 - firstSeat, second);
    if (table->rules.pickup == PYWAR_PICKUP_SEAT_INTERLEAVED) {
        for (int i = 0; i < firstCount || i < secondCount; i++) {
            if (i < firstCount) {
                order[k++] = first[i];
            }
            if (i < secondCount) {
                order[k++] = second[i];
            }
        }
        return k;
    }
    for (int i = 0; i < firstCount; i++) {
        order[k++] = first[i];
    }
    for (int i = 0; i < secondCount; i++) {
        order[k++] = second[i];
    }
    return k;
}

/* The winner takes the whole pot, in the order of the pickup rule. */
static void OldTableTop_Collect(TableTop *table, int winner)
{
    Pile *pot = &table->currentlyInPlay;
    int order[MAXCARDS];
    int n = OldTableTop_PickupOrder(table, winner, order);
    for (int i = 0; i < n; i++) {
        Card *card = OldPile_GetCard(pot, order[i]);
        Narrator_Gets(table, winner, card);
        OldTableTop_Give(table, winner, card);
    }
    OldPile_Init(pot);
}

/* After every battle: refill A, then B, where 'to play' is empty; then the counts. */
static void OldTableTop_AfterBattle(TableTop *table)
{
    if (table->rules.piles == PYWAR_PILES_TWO) {
        for (int player = PLAYER_A; player <= PLAYER_B; player++) {
            const Player *owner = &table->players[player];
            if (OldPile_GetNumCards(OldPlayer_GetToPlay(owner)) == 0
                && OldPile_GetNumCards(OldPlayer_GetPlayed(owner)) > 0) {
                OldTableTop_Refill(table, player);
            }
        }
    }
    Narrator_Counts(table);
}

/* The game ends with players out of cards; iofall's survivor takes the pot. */
static void OldTableTop_RunOut(TableTop *table, int losesA, int losesB)
{
    int iofall = table->rules.short_war == PYWAR_SHORT_IOFALL;
    table->lost[PLAYER_A] = losesA;
    table->lost[PLAYER_B] = losesB;
    table->over = 1;
    table->result.outcome = PYWAR_OUTCOME_WIN;
    if (losesA && losesB && !iofall) {
        table->result.outcome = PYWAR_OUTCOME_BOTH_LOSE;
        return;
    }
    table->result.winner = losesA ? PLAYER_B : PLAYER_A;   /* iofall: both out, B wins */
    if (iofall) {
        OldTableTop_Collect(table, table->result.winner);
    }
}

/* After a decided battle, a player with no cards left has lost. */
static void OldTableTop_CheckOut(TableTop *table)
{
    int outA = OldPlayer_GetNumCards(&table->players[PLAYER_A]) == 0;
    int outB = OldPlayer_GetNumCards(&table->players[PLAYER_B]) == 0;
    if (outA || outB) {
        OldTableTop_RunOut(table, outA, outB);
    }
}

static WarPlan OldTableTop_PlanWar(const TableTop *table, int player)
{
    int n = OldPlayer_GetNumCards(&table->players[player]);
    int faceDown = table->rules.face_down;
    WarPlan plan = {faceDown, 0, 0};
    if (n >= faceDown + 1) {
        return plan;
    }
    plan.down = n > 0 ? n - 1 : 0;
    switch (table->rules.short_war) {
    case PYWAR_SHORT_LOSE:
        plan.down = 0;
        plan.loses = 1;
        break;
    case PYWAR_SHORT_LAST_CARD:
        plan.loses = n == 0;
        break;
    case PYWAR_SHORT_ALL_BUT_ONE:
        plan.takesBack = n == 0;
        break;
    default: /* iofall: the whole war if it can, else all but one, but at least one */
        plan.down = n >= faceDown ? faceDown : (n - 1 > 1 ? n - 1 : 1);
        plan.down = n == 0 ? 0 : plan.down;
        plan.loses = n - plan.down == 0;
        break;
    }
    return plan;
}

/* After a tie: face-down cards, A's then B's, then a new face-up pair.
 * Returns 1 when a player runs out instead. */
static int OldTableTop_War(TableTop *table)
{
    WarPlan plan[2] = {OldTableTop_PlanWar(table, PLAYER_A), OldTableTop_PlanWar(table, PLAYER_B)};
    if (plan[PLAYER_A].takesBack && plan[PLAYER_B].takesBack) {
        /* both would play their tied cards again, and tie forever */
        plan[PLAYER_A].loses = plan[PLAYER_B].loses = 1;
    }
    int anyLoses = plan[PLAYER_A].loses || plan[PLAYER_B].loses;
    if (anyLoses && table->rules.short_war != PYWAR_SHORT_IOFALL) {
        OldTableTop_RunOut(table, plan[PLAYER_A].loses, plan[PLAYER_B].loses);
        return 1;
    }
    for (int player = PLAYER_A; player <= PLAYER_B; player++) {
        for (int i = 0; i < plan[player].down; i++) {
            Card *card = OldTableTop_Draw(table, player);
            OldTableTop_PutInPot(table, player, card);
            OldTableTop_CardEvent(table, EVENT_FACE_DOWN, player, card);
        }
    }
    if (anyLoses) {
        OldTableTop_RunOut(table, plan[PLAYER_A].loses, plan[PLAYER_B].loses);
        return 1;
    }
    int takesBack[2] = {plan[PLAYER_A].takesBack, plan[PLAYER_B].takesBack};
    table->result.wars++;
    OldTableTop_FaceUp(table, takesBack);
    return 0;
}

/* One round: battles until the pot is won or a player runs out. Returns 1 at the end. */
int OldTableTop_PlayRound(TableTop *table)
{
    PywarResult *result = &table->result;
    int streak = 0;
    result->rounds++;
    Narrator_RoundStart(table);
    OldTableTop_FaceUp(table, NULL);
    for (;;) {
        RANK rankA = OldCard_GetRank(table->faceUp[PLAYER_A]);
        RANK rankB = OldCard_GetRank(table->faceUp[PLAYER_B]);
        result->battles++;
        if (rankA != rankB) {
            int winner = rankA > rankB ? PLAYER_A : PLAYER_B;
            OldTableTop_Event(table, EVENT_BATTLE | (uint32_t)winner);
            Narrator_Win(table, winner);
            OldTableTop_Collect(table, winner);
            OldTableTop_AfterBattle(table);
            OldTableTop_CheckOut(table);
            break;
        }
        OldTableTop_Event(table, EVENT_BATTLE | BATTLE_TIE);
        result->ties++;
        streak++;
        if (streak > result->longest_tie_streak) {
            result->longest_tie_streak = streak;
        }
        Narrator_Tie(table);
        OldTableTop_AfterBattle(table);
        if (OldTableTop_War(table)) {
            break;
        }
    }
    Narrator_RoundEnd(table);
    return table->over;
}

/* A game can repeat only when nothing random happens after the deal. */
int OldTableTop_CanCycle(const TableTop *table)
{
    return table->rules.piles == PYWAR_PILES_QUEUE && table->rules.pickup != PYWAR_PICKUP_RANDOM;
}

/* Between rounds the state is both hands in order: [nA, nB, A's cards, B's cards]. */
void OldTableTop_GetState(const TableTop *table, uint8_t *state)
{
    int k = 2;
    memset(state, 0xff, PYWAR_STATE_BYTES);
    for (int player = PLAYER_A; player <= PLAYER_B; player++) {
        const Pile *hand = OldPlayer_GetToPlay(&table->players[player]);
        state[player] = (uint8_t)OldPile_GetNumCards(hand);
        for (int i = 0; i < OldPile_GetNumCards(hand); i++) {
            state[k++] = (uint8_t)OldCard_GetId(OldPile_GetCard(hand, i));
        }
    }
}

/* The round cap: whoever holds more cards wins, and equal counts win for nobody. */
static void OldTableTop_Cap(TableTop *table)
{
    int cardsA = OldPlayer_GetNumCards(&table->players[PLAYER_A]);
    int cardsB = OldPlayer_GetNumCards(&table->players[PLAYER_B]);
    table->over = 1;
    table->result.outcome = PYWAR_OUTCOME_CAPPED;
    table->result.winner = cardsA == cardsB ? PYWAR_NOBODY
                           : cardsA > cardsB ? PLAYER_A : PLAYER_B;
}

static void OldTableTop_Finish(TableTop *table)
{
    PywarResult *result = &table->result;
    for (int player = PLAYER_A; player <= PLAYER_B; player++) {
        const Player *owner = &table->players[player];
        result->piles[player][0] = OldPile_GetNumCards(OldPlayer_GetToPlay(owner));
        result->piles[player][1] = OldPile_GetNumCards(OldPlayer_GetPlayed(owner));
    }
    result->stranded = OldPile_GetNumCards(&table->currentlyInPlay);
    OldTableTop_Event(table, EVENT_END | (uint32_t)result->outcome << 4
                              | (uint32_t)(result->winner + 1));
    Narrator_GameOver(table);
}

/* The whole game: deal, rounds until an end, the cap, or a repeat. */
int OldTableTop_PlayGame(TableTop *table)
{
    int watching = table->rules.detect_cycles && OldTableTop_CanCycle(table);
    uint8_t state[PYWAR_STATE_BYTES];
    Cycle cycle;
    OldTableTop_Deal(table);
    if (watching) {
        OldTableTop_GetState(table, state);
        Cycle_Init(&cycle, state);
    }
    while (!table->over) {
        if (table->result.rounds >= table->rules.max_rounds) {
            OldTableTop_Cap(table);
            break;
        }
        if (OldTableTop_PlayRound(table) || !watching) {
            continue;
        }
        OldTableTop_GetState(table, state);
        if (Cycle_Saw(&cycle, state)) {
            int32_t start;
            int status = Cycle_FindStart(table, cycle.lambda, &start);
            if (status != PYWAR_OK) {
                return status;
            }
            table->over = 1;
            table->result.outcome = PYWAR_OUTCOME_CYCLE;
            table->result.cycle_start = start;
            table->result.cycle_period = cycle.lambda;
        }
    }
    OldTableTop_Finish(table);
    Text_Flush(table->text);
    return table->text != NULL && table->text->failed ? PYWAR_ENOMEM : PYWAR_OK;
}
