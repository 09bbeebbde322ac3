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

static void TableTop_Event(TableTop *table, uint32_t code)
{
    table->result.digest = (table->result.digest ^ code) * FNV_PRIME;
}

static void TableTop_CardEvent(TableTop *table, uint32_t kind, int player, const Card *card)
{
    TableTop_Event(table, kind | (uint32_t)player << 8 | (uint32_t)Card_GetId(card));
}

/* SMU and iofall build hearts, diamonds, spades, clubs; Lehigh's Card(n) clubs first. */
static void TableTop_SetCard(const TableTop *table, Card *card, int i)
{
    static const SUIT LEHIGH_SUITS[4] = {CLUB, DIAMOND, HEART, SPADE};
    int suit = i / NUM_RANKS;
    RANK rank = (RANK)(i % NUM_RANKS);
    if (table->rules.narration == PYWAR_NARRATION_LEHIGH) {
        Card_SetSuitAndRank(card, LEHIGH_SUITS[suit], rank);
    } else {
        Card_SetSuitAndRank(card, (SUIT)suit, rank);
    }
}

int TableTop_Init(TableTop *table, uint32_t seed, const PywarRules *rules, PywarText *text)
{
    memset(table, 0, sizeof *table);
    table->rules = *rules;
    table->text = text;
    if (Player_Init(&table->players[PLAYER_A]) != PYWAR_OK
        || Player_Init(&table->players[PLAYER_B]) != PYWAR_OK) {
        TableTop_Destroy(table);
        return PYWAR_ENOMEM;
    }
    for (int i = 0; i < MAXCARDS; i++) {
        table->deck[i] = Card_New();
        if (table->deck[i] == NULL) {
            TableTop_Destroy(table);
            return PYWAR_ENOMEM;
        }
    }
    TableTop_NewGame(table, seed);
    return PYWAR_OK;
}

/* Ready the table for a game with this seed: the deck built in the pot, in order,
 * and nothing counted.  A batch plays many games on one table this way. */
void TableTop_NewGame(TableTop *table, uint32_t seed)
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
        Pile_Init(Player_GetToPlay(&table->players[player]));
        Pile_Init(Player_GetPlayed(&table->players[player]));
    }
    Pile_Init(&table->currentlyInPlay);
    for (int i = 0; i < MAXCARDS; i++) {
        TableTop_SetCard(table, table->deck[i], i);
        Pile_AddCardToPile(&table->currentlyInPlay, table->deck[i]);
    }
}

void TableTop_Destroy(TableTop *table)
{
    for (int i = 0; i < MAXCARDS; i++) {
        Card_Delete(table->deck[i]);
        table->deck[i] = NULL;
    }
    Player_Destroy(&table->players[PLAYER_A]);
    Player_Destroy(&table->players[PLAYER_B]);
}

/* The pile a player's winnings go to: 'played', or the bottom of a queue. */
Pile *TableTop_GetWinnings(const TableTop *table, int player)
{
    const Player *owner = &table->players[player];
    return table->rules.piles == PYWAR_PILES_QUEUE ? Player_GetToPlay(owner)
                                                   : Player_GetPlayed(owner);
}

/* A card joins a pile of a hand: on top of a stack, at the bottom of a queue. */
static void TableTop_Place(const TableTop *table, Pile *pile, Card *card)
{
    if (table->rules.piles == PYWAR_PILES_QUEUE) {
        Pile_AddCardToBottom(pile, card);
    } else {
        Pile_AddCardToPile(pile, card);
    }
}

/* A won card joins the winner's hand. */
static void TableTop_Give(TableTop *table, int player, Card *card)
{
    TableTop_Place(table, TableTop_GetWinnings(table, player), card);
}

/* Use a given deal: distinct card ids, at least one card each. */
int TableTop_SetDeal(TableTop *table, const uint8_t *deal, int countA, int countB)
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
static void TableTop_GiveToHand(TableTop *table, int player, Card *card)
{
    TableTop_Place(table, Player_GetToPlay(&table->players[player]), card);
    TableTop_CardEvent(table, EVENT_DEAL, player, card);
}

static Card *TableTop_FindCard(const TableTop *table, int id)
{
    for (int i = 0; i < MAXCARDS; i++) {
        if (Card_GetId(table->deck[i]) == id) {
            return table->deck[i];
        }
    }
    return NULL;
}

/* A given deal, placed as dealt cards are: a queue gets each hand top card first,
 * a stack bottom card first.  Cards not dealt stay out of play. */
static void TableTop_DealGiven(TableTop *table)
{
    const uint8_t *ids = table->deal;
    int queue = table->rules.piles == PYWAR_PILES_QUEUE;
    Pile_Init(&table->currentlyInPlay);
    for (int player = PLAYER_A; player <= PLAYER_B; player++) {
        int count = table->dealCount[player];
        for (int i = 0; i < count; i++) {
            int k = queue ? i : count - 1 - i;
            TableTop_GiveToHand(table, player, TableTop_FindCard(table, ids[k]));
        }
        ids += count;
    }
}

/* Shuffle the deck in the pot, then deal it from the top, A first, one card each. */
void TableTop_Deal(TableTop *table)
{
    Pile *deck = &table->currentlyInPlay;
    Narrator_Welcome(table);
    if (table->customDeal) {
        TableTop_DealGiven(table);
    } else {
        Pile_Shuffle(deck, &table->rng, table->rules.shuffle);
        for (int i = 0; i < MAXCARDS; i++) {
            TableTop_GiveToHand(table, i % 2 == 0 ? PLAYER_A : PLAYER_B,
                                Pile_RemoveTopCard(deck));
        }
    }
    Narrator_Dealt(table);
}

/* Move the whole 'played' pile to 'to play' (reversing it) and shuffle it. */
static void TableTop_Refill(TableTop *table, int player)
{
    Pile *toPlay = Player_GetToPlay(&table->players[player]);
    Pile *played = Player_GetPlayed(&table->players[player]);
    Narrator_Refill(table, player);
    while (Pile_GetNumCards(played) > 0) {
        Pile_AddCardToPile(toPlay, Pile_RemoveTopCard(played));
    }
    Pile_Shuffle(toPlay, &table->rng, table->rules.shuffle);
    TableTop_Event(table, EVENT_REFILL | (uint32_t)player << 8
                              | (uint32_t)Pile_GetNumCards(toPlay));
}

/* Take a player's next card, refilling 'to play' first if it is empty. */
static Card *TableTop_Draw(TableTop *table, int player)
{
    Pile *toPlay = Player_GetToPlay(&table->players[player]);
    if (Pile_GetNumCards(toPlay) == 0) {
        TableTop_Refill(table, player);
    }
    return Pile_RemoveTopCard(toPlay);
}

static void TableTop_PutInPot(TableTop *table, int player, Card *card)
{
    Pile *pot = &table->currentlyInPlay;
    table->potOwner[Pile_GetNumCards(pot)] = (unsigned char)player;
    Pile_AddCardToPile(pot, card);
}

/* Lehigh's "put top card back": the player's last face-up card leaves the pot. */
static Card *TableTop_TakeBack(TableTop *table, int player)
{
    Pile *pot = &table->currentlyInPlay;
    int position = Pile_GetNumCards(pot) - 1;
    while (table->potOwner[position] != player) {
        position--;
    }
    for (int i = position; i < Pile_GetNumCards(pot) - 1; i++) {
        table->potOwner[i] = table->potOwner[i + 1];
    }
    return Pile_RemoveCardAt(pot, position);
}

/* A, then B, put a card face up in the pot. */
static void TableTop_FaceUp(TableTop *table, const int *takesBack)
{
    for (int player = PLAYER_A; player <= PLAYER_B; player++) {
        Card *card;
        if (takesBack != NULL && takesBack[player]) {
            card = TableTop_TakeBack(table, player);
            TableTop_CardEvent(table, EVENT_TAKE_BACK, player, card);
        } else {
            card = TableTop_Draw(table, player);
        }
        TableTop_PutInPot(table, player, card);
        table->faceUp[player] = card;
        TableTop_CardEvent(table, EVENT_FACE_UP, player, card);
    }
    Narrator_FaceUp(table);
}

/* The pot positions of one seat's cards, in the order they were put down. */
static int TableTop_SeatCards(const TableTop *table, int seat, int *positions)
{
    int count = 0;
    for (int i = 0; i < Pile_GetNumCards(&table->currentlyInPlay); i++) {
        if (table->potOwner[i] == seat) {
            positions[count++] = i;
        }
    }
    return count;
}

/* The order in which the pot's cards go to the winner, as pot positions. */
static int TableTop_PickupOrder(TableTop *table, int winner, int *order)
{
    int n = Pile_GetNumCards(&table->currentlyInPlay);
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
            Pile_Shuffle(&table->currentlyInPlay, &table->rng, table->rules.shuffle);
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
    int firstCount = TableTop_SeatCards(table, firstSeat, first);
    int secondCount = TableTop_SeatCards(table, 1 - firstSeat, second);
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
static void TableTop_Collect(TableTop *table, int winner)
{
    Pile *pot = &table->currentlyInPlay;
    int order[MAXCARDS];
    int n = TableTop_PickupOrder(table, winner, order);
    for (int i = 0; i < n; i++) {
        Card *card = Pile_GetCard(pot, order[i]);
        Narrator_Gets(table, winner, card);
        TableTop_Give(table, winner, card);
    }
    Pile_Init(pot);
}

/* After every battle: refill A, then B, where 'to play' is empty; then the counts. */
static void TableTop_AfterBattle(TableTop *table)
{
    if (table->rules.piles == PYWAR_PILES_TWO) {
        for (int player = PLAYER_A; player <= PLAYER_B; player++) {
            const Player *owner = &table->players[player];
            if (Pile_GetNumCards(Player_GetToPlay(owner)) == 0
                && Pile_GetNumCards(Player_GetPlayed(owner)) > 0) {
                TableTop_Refill(table, player);
            }
        }
    }
    Narrator_Counts(table);
}

/* The game ends with players out of cards; iofall's survivor takes the pot. */
static void TableTop_RunOut(TableTop *table, int losesA, int losesB)
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
        TableTop_Collect(table, table->result.winner);
    }
}

/* After a decided battle, a player with no cards left has lost. */
static void TableTop_CheckOut(TableTop *table)
{
    int outA = Player_GetNumCards(&table->players[PLAYER_A]) == 0;
    int outB = Player_GetNumCards(&table->players[PLAYER_B]) == 0;
    if (outA || outB) {
        TableTop_RunOut(table, outA, outB);
    }
}

static WarPlan TableTop_PlanWar(const TableTop *table, int player)
{
    int n = Player_GetNumCards(&table->players[player]);
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
static int TableTop_War(TableTop *table)
{
    WarPlan plan[2] = {TableTop_PlanWar(table, PLAYER_A), TableTop_PlanWar(table, PLAYER_B)};
    if (plan[PLAYER_A].takesBack && plan[PLAYER_B].takesBack) {
        /* both would play their tied cards again, and tie forever */
        plan[PLAYER_A].loses = plan[PLAYER_B].loses = 1;
    }
    int anyLoses = plan[PLAYER_A].loses || plan[PLAYER_B].loses;
    if (anyLoses && table->rules.short_war != PYWAR_SHORT_IOFALL) {
        TableTop_RunOut(table, plan[PLAYER_A].loses, plan[PLAYER_B].loses);
        return 1;
    }
    for (int player = PLAYER_A; player <= PLAYER_B; player++) {
        for (int i = 0; i < plan[player].down; i++) {
            Card *card = TableTop_Draw(table, player);
            TableTop_PutInPot(table, player, card);
            TableTop_CardEvent(table, EVENT_FACE_DOWN, player, card);
        }
    }
    if (anyLoses) {
        TableTop_RunOut(table, plan[PLAYER_A].loses, plan[PLAYER_B].loses);
        return 1;
    }
    int takesBack[2] = {plan[PLAYER_A].takesBack, plan[PLAYER_B].takesBack};
    table->result.wars++;
    TableTop_FaceUp(table, takesBack);
    return 0;
}

/* One round: battles until the pot is won or a player runs out. Returns 1 at the end. */
int TableTop_PlayRound(TableTop *table)
{
    PywarResult *result = &table->result;
    int streak = 0;
    result->rounds++;
    Narrator_RoundStart(table);
    TableTop_FaceUp(table, NULL);
    for (;;) {
        RANK rankA = Card_GetRank(table->faceUp[PLAYER_A]);
        RANK rankB = Card_GetRank(table->faceUp[PLAYER_B]);
        result->battles++;
        if (rankA != rankB) {
            int winner = rankA > rankB ? PLAYER_A : PLAYER_B;
            TableTop_Event(table, EVENT_BATTLE | (uint32_t)winner);
            Narrator_Win(table, winner);
            TableTop_Collect(table, winner);
            TableTop_AfterBattle(table);
            TableTop_CheckOut(table);
            break;
        }
        TableTop_Event(table, EVENT_BATTLE | BATTLE_TIE);
        result->ties++;
        streak++;
        if (streak > result->longest_tie_streak) {
            result->longest_tie_streak = streak;
        }
        Narrator_Tie(table);
        TableTop_AfterBattle(table);
        if (TableTop_War(table)) {
            break;
        }
    }
    Narrator_RoundEnd(table);
    return table->over;
}

/* A game can repeat only when nothing random happens after the deal. */
int TableTop_CanCycle(const TableTop *table)
{
    return table->rules.piles == PYWAR_PILES_QUEUE && table->rules.pickup != PYWAR_PICKUP_RANDOM;
}

/* Between rounds the state is both hands in order: [nA, nB, A's cards, B's cards]. */
void TableTop_GetState(const TableTop *table, uint8_t *state)
{
    int k = 2;
    memset(state, 0xff, PYWAR_STATE_BYTES);
    for (int player = PLAYER_A; player <= PLAYER_B; player++) {
        const Pile *hand = Player_GetToPlay(&table->players[player]);
        state[player] = (uint8_t)Pile_GetNumCards(hand);
        for (int i = 0; i < Pile_GetNumCards(hand); i++) {
            state[k++] = (uint8_t)Card_GetId(Pile_GetCard(hand, i));
        }
    }
}

/* The round cap: whoever holds more cards wins, and equal counts win for nobody. */
static void TableTop_Cap(TableTop *table)
{
    int cardsA = Player_GetNumCards(&table->players[PLAYER_A]);
    int cardsB = Player_GetNumCards(&table->players[PLAYER_B]);
    table->over = 1;
    table->result.outcome = PYWAR_OUTCOME_CAPPED;
    table->result.winner = cardsA == cardsB ? PYWAR_NOBODY
                           : cardsA > cardsB ? PLAYER_A : PLAYER_B;
}

static void TableTop_Finish(TableTop *table)
{
    PywarResult *result = &table->result;
    for (int player = PLAYER_A; player <= PLAYER_B; player++) {
        const Player *owner = &table->players[player];
        result->piles[player][0] = Pile_GetNumCards(Player_GetToPlay(owner));
        result->piles[player][1] = Pile_GetNumCards(Player_GetPlayed(owner));
    }
    result->stranded = Pile_GetNumCards(&table->currentlyInPlay);
    TableTop_Event(table, EVENT_END | (uint32_t)result->outcome << 4
                              | (uint32_t)(result->winner + 1));
    Narrator_GameOver(table);
}

/* The whole game: deal, rounds until an end, the cap, or a repeat. */
int TableTop_PlayGame(TableTop *table)
{
    int watching = table->rules.detect_cycles && TableTop_CanCycle(table);
    uint8_t state[PYWAR_STATE_BYTES];
    Cycle cycle;
    TableTop_Deal(table);
    if (watching) {
        TableTop_GetState(table, state);
        Cycle_Init(&cycle, state);
    }
    while (!table->over) {
        if (table->result.rounds >= table->rules.max_rounds) {
            TableTop_Cap(table);
            break;
        }
        if (TableTop_PlayRound(table) || !watching) {
            continue;
        }
        TableTop_GetState(table, state);
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
    TableTop_Finish(table);
    Text_Flush(table->text);
    return table->text != NULL && table->text->failed ? PYWAR_ENOMEM : PYWAR_OK;
}
