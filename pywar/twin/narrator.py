"""The transcript, in the words of each rule set's own program. C: csrc/narrator.c.

Every function appends lines to table.text, a list of strings, and does nothing
when table.text is None (a game that nobody reads).
"""

from .card import NUM_RANKS

SMU_NAMES = ("A", "B")
IOFALL_NAMES = ("User", "Computer")
LEHIGH_FACES = ("Deuce", "3", "4", "5", "6", "7", "8", "9", "10",
                "Jack", "Queen", "King", "Ace")
LEHIGH_SUITS = ("Hearts", "Diamonds", "Spades", "Clubs")   # by SMU's suit numbers
assert len(LEHIGH_FACES) == NUM_RANKS


def say(table, line):
    """Append a piece of text to the transcript, if there is one. C: Text_Printf."""
    if table.text is not None:
        table.text.append(line)


def smu_card(card):
    """SMU's name of a card: 'ace of hearts'."""
    return f"{card.get_rank_string()} of {card.get_suit_string()}s"


def lehigh_card(card):
    """Lehigh's show(): 'Ace of Hearts'. C: Narrator_Show."""
    return f"{LEHIGH_FACES[card.get_rank()]} of {LEHIGH_SUITS[card.get_suit()]}"


def welcome(table):
    """The first lines; the shuffling line only when the deck is shuffled.
    C: Narrator_Welcome."""
    style = table.rules.narration
    shuffled = table.given_deal is None
    if style == "lehigh":
        say(table, "Shuffling deck\n" if shuffled else "")
    elif style == "iofall":
        say(table, "Welcome to War, let's begin...\n")
    else:
        say(table, "Welcome to the Game of War!\n\n"
                   + ("Shuffling initial deck...\n\n" if shuffled else ""))


def dealt(table):
    """After the deal: SMU lists both 'to play' piles. C: Narrator_Dealt."""
    style = table.rules.narration
    if style == "lehigh":
        say(table, "Dealing deck into two piles\n")
    elif style == "smu" and table.text is not None:
        say(table, "Initial 'to play' piles:\n\n")
        for name, player in zip(SMU_NAMES, table.players):
            say(table, f"Player {name}:\n")
            player.get_to_play().print_cards(table.text)


def round_start(table):
    """SMU's round header. C: Narrator_RoundStart."""
    if table.rules.narration == "smu":
        say(table, f"======== Round {table.result.rounds} ========\n")


def face_up(table):
    """The two face-up cards of a battle. C: Narrator_FaceUp."""
    card_a, card_b = table.face_up
    style = table.rules.narration
    if style == "lehigh":
        say(table, f"{lehigh_card(card_a)} against {lehigh_card(card_b)}\n")
    elif style == "smu":
        say(table, f"Player A plays {smu_card(card_a)}\n")
        say(table, f"Player B plays {smu_card(card_b)}\n")


def win(table, winner):
    """A battle is won. C: Narrator_Win."""
    style = table.rules.narration
    if style == "lehigh":
        say(table, f"{lehigh_card(table.face_up[winner])} wins\n")
    elif style == "smu":
        say(table, f"Player {SMU_NAMES[winner]} wins the 'currently in play' pile.\n\n")


def tie(table):
    """A battle is tied. C: Narrator_Tie."""
    style = table.rules.narration
    if style == "lehigh":
        say(table, "War!\n")
    elif style == "smu":
        say(table, "There is a tie... Doing another battle.\n\n")


def gets(table, winner, card):
    """Lehigh names each card the winner picks up. C: Narrator_Gets."""
    if table.rules.narration == "lehigh":
        say(table, f"player {winner + 1} gets {lehigh_card(card)}\n")


def refill(table, player):
    """SMU's lines when 'played' becomes 'to play'. C: Narrator_Refill."""
    if table.rules.narration == "smu":
        name = SMU_NAMES[player]
        say(table, f"Player {name} ran out of cards in their 'to play' pile.  "
                   f"Getting cards from the 'played' pile.\nShuffling player {name} cards...\n\n")


def counts(table):
    """SMU's pile counts after every battle. C: Narrator_Counts."""
    if table.rules.narration != "smu":
        return
    for name, player in zip(SMU_NAMES, table.players):
        to_play = player.get_to_play().get_num_cards()
        played = player.get_played().get_num_cards()
        say(table, f"Player {name} has {to_play} in their 'to play' pile "
                   f"and {played} in their 'played' pile.\n")
    say(table, "\n")


def round_end(table):
    """iofall's line after every round. C: Narrator_RoundEnd."""
    if table.rules.narration == "iofall":
        user = table.players[0].get_num_cards()
        computer = table.players[1].get_num_cards()
        say(table, f"{table.result.rounds}. User: {user} Comp:{computer}, "
                   f"Total: {user + computer}\n")


def game_over_smu(table):
    """SMU's last lines. C: Narrator_GameOverSmu."""
    result = table.result
    if result.outcome == "cycle":
        say(table, f"The game repeats every {result.cycle_period} rounds from round "
                   f"{result.cycle_start + 1} on.  Nobody wins.\n")
    elif result.outcome == "capped":
        say(table, f"The game was stopped after {result.rounds} rounds.  ")
        if result.winner is None:
            say(table, "Nobody wins.\n")
        else:
            say(table, f"Player {SMU_NAMES[result.winner]} has more cards and wins.\n")
    else:
        for name, lost in zip(SMU_NAMES, table.lost):
            if lost:
                say(table, f"Player {name} ran out of cards.  Player {name} has lost.\n")


def game_over_lehigh(table):
    """The Lehigh design's last lines. C: Narrator_GameOverLehigh."""
    result = table.result
    if result.outcome == "cycle":
        say(table, f"The game repeats every {result.cycle_period} rounds from round "
                   f"{result.cycle_start + 1} on\n")
    elif result.outcome == "capped":
        say(table, f"The game was stopped after {result.rounds} rounds\n")
    if result.winner is None:
        say(table, "Nobody wins\n")
    else:
        say(table, f"Player {result.winner + 1} wins\n")


def game_over_iofall(table):
    """iofall's banner. C: Narrator_GameOverIofall."""
    dashes = "-" * 20
    winner = table.result.winner
    verdict = "Match draw" if winner is None else f"Winner is {IOFALL_NAMES[winner]}!"
    say(table, f"\n{dashes}\n{verdict}\n{dashes}\n")


def game_over(table):
    """The end of the transcript. C: Narrator_GameOver."""
    style = table.rules.narration
    if style == "lehigh":
        game_over_lehigh(table)
    elif style == "iofall":
        game_over_iofall(table)
    else:
        game_over_smu(table)
