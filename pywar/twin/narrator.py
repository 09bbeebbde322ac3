"""The transcript, told from a game's events in the words of each rule set's own
program (docs/rules.md section 10). C: csrc/engine/narrator.c.

An event is a dict, as a trace line spells it (docs/trace.md), so the same narrator
tells the twin's games and any trace read from a file.  Each event says its own lines,
with two exceptions that wait for the next event: smu's pile counts come after a
battle's pickup and refills, and iofall's line after a round's last event.  A refill of
a player whose 'to play' pile was already empty before it is one of the battle's own
refills; any other refill comes later, in a war.
"""

from ..common.fields import PLAYER_NAMES
from ..rules import parse_deck

IOFALL_NAMES = ("User", "Computer")
RANK_WORDS = ("two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
              "jack", "queen", "king", "ace")
SUIT_WORDS = ("heart", "diamond", "spade", "club")
LEHIGH_FACES = ("Deuce", "3", "4", "5", "6", "7", "8", "9", "10", "Jack", "Queen", "King",
                "Ace")
LEHIGH_SUITS = ("Hearts", "Diamonds", "Spades", "Clubs")
ROUND_CLOSERS = ("round", "cap", "cycle", "end")


def player_names(narration, players):
    """How a narration names each player, as the page labels its piles: [(label, tag)],
    the tag for a card's owner.  smu says Player A, B, ...; lehigh player 1, 2, ...;
    iofall User and Computer (with more than two players, Player 1, 2, ...)."""
    if narration == "iofall" and players == 2:
        return [(name, name[0]) for name in IOFALL_NAMES]
    if narration in ("lehigh", "iofall"):
        return [(f"Player {seat + 1}", str(seat + 1)) for seat in range(players)]
    return [(f"Player {name}", name) for name in PLAYER_NAMES[:players]]


class Narrator:
    """Says each event's lines into text (anything with .append). C: struct Narrator."""

    def __init__(self, text, narration="smu", deck="13x4", shuffled=True, game="war"):
        """A narrator in the words of a narration (smu, lehigh or iofall), naming the
        cards of a deck 'RxS', of a game of War or a one-card game. C: Narrator_Init."""
        self.text = text
        self.style = narration
        self.ranks, self.suits = parse_deck(deck)
        self.shuffled = shuffled
        self.one_card = game == "one-card"
        self.record = {}                 # one-card: each one's battles [won, lost, tied]
        self.counts_due = False
        self.round_open = False
        self.last = None
        self.face_up = {}                # this battle's face-up cards, by player
        self.last_face_up = {}           # the last battle's, by player
        self.cycle = (None, None)
        self.handlers = {"deal": self.deal, "round": self.round, "face_up": self.face_up_card,
                         "take_back": self.face_up_card,
                         "battle": self.battle, "pickup": self.pickup, "refill": self.refill,
                         "run_out": self.run_out, "end": self.end}

    @classmethod
    def for_trace(cls, text, header):
        """A narrator for the game of a trace's header (docs/trace.md)."""
        rules = header["rules"]
        return cls(text, rules["narration"], rules.get("deck", "13x4"),
                   shuffled=header["deal"] is None, game=rules.get("game", "war"))

    def say(self, words):
        """Add words to the transcript. C: Text_Printf."""
        self.text.append(words)

    def card(self, card):
        """A card's name (docs/rules.md section 2). C: Narrator_Say."""
        rank, suit = card % self.ranks, card // self.ranks
        lehigh = self.style == "lehigh"
        if self.ranks != 13:
            rank_name = str(rank + 1)
        else:
            rank_name = LEHIGH_FACES[rank] if lehigh else RANK_WORDS[rank]
        if suit >= 4:
            suit_name = f"Suit{suit + 1}" if lehigh else f"suit{suit + 1}s"
        else:
            suit_name = LEHIGH_SUITS[suit] if lehigh else SUIT_WORDS[suit] + "s"
        return f"{rank_name} of {suit_name}"

    def counts(self):
        """smu: each player's pile counts, after a battle. C: Narrator_Counts."""
        for name, (to_play, played) in zip(PLAYER_NAMES, self.last["piles"]):
            self.say(f"Player {name} has {to_play} in their 'to play' pile "
                     f"and {played} in their 'played' pile.\n")
        self.say("\n")

    def round_line(self):
        """iofall: the line after a round; with more than two players, one "Player N: n"
        each. C: Narrator_RoundLine."""
        held = [sum(pile) for pile in self.last["piles"]]
        if len(held) == 2:
            counts = f" User: {held[0]} Comp:{held[1]}"
        else:
            counts = "".join(f" Player {p + 1}: {n}" for p, n in enumerate(held))
        self.say(f"{self.last['round']}.{counts}, Total: {sum(held)}\n")

    def say_waiting(self, event):
        """Say what waited for this event. C: Narrator_SayWaiting."""
        kind = event["event"]
        battles_own = kind == "pickup" or (
            kind == "refill" and self.last["piles"][event["player"]][0] == 0)
        if self.counts_due and not battles_own:
            self.counts()
            self.counts_due = False
        if self.round_open and kind in ROUND_CLOSERS:
            self.round_line()
            self.round_open = False

    def deal(self, event):
        """The opening lines. C: Narrator_Deal."""
        if self.style == "lehigh":
            piles = "two" if len(event["hands"]) == 2 else len(event["hands"])
            self.say(("Shuffling deck\n" if self.shuffled else "")
                     + f"Dealing deck into {piles} piles\n")
        elif self.style == "iofall":
            self.say("Welcome to War, let's begin...\n")
        else:
            self.say("Welcome to the Game of War!\n\n"
                     + ("Shuffling initial deck...\n\n" if self.shuffled else "")
                     + "Initial 'to play' piles:\n\n")
            for name, hand in zip(PLAYER_NAMES, event["hands"]):
                self.say(f"Player {name}:\nThere are {len(hand)} cards in the pile.\n")
                for i, card in enumerate(reversed(hand)):      # bottom first
                    self.say(f"Card {i + 1}, {self.card(card)}\n")
                self.say("\n")

    def round(self, event):
        """smu's round header; iofall's round line waits for the round's end; a
        one-card game's battle says its number."""
        if self.one_card:
            return
        if self.style == "smu":
            self.say(f"======== Round {event['round']} ========\n")
        self.round_open = self.style == "iofall"

    def face_up_card(self, event):
        """A player's face-up card (or the one it took back), said with the battle.
        C: in Narrator_Event."""
        self.face_up[event["player"]] = event["card"]

    def face_ups(self):
        """A battle's face-up cards, in seat order. C: Narrator_FaceUps."""
        cards = {player: self.face_up[player] for player in sorted(self.face_up)}
        self.face_up = {}
        self.last_face_up = cards
        if self.style == "lehigh":
            self.say(" against ".join(self.card(card) for card in cards.values()) + "\n")
        elif self.style == "smu":
            for player, card in cards.items():
                self.say(f"Player {PLAYER_NAMES[player]} plays {self.card(card)}\n")

    def one_card_battle(self, event):
        """A one-card battle, in the narration's card names, counted for the end's
        tally. C: Narrator_OneCardBattle."""
        winner, tied = event["winner"], event["tied"]
        cards = {player: self.face_up[player] for player in sorted(self.face_up)}
        self.face_up = {}
        plays = ", ".join(f"{PLAYER_NAMES[p]} plays {self.card(card)}"
                          for p, card in cards.items())
        for p in cards:
            record = self.record.setdefault(p, [0, 0, 0])
            record[0 if p == winner else 2 if p in tied else 1] += 1
        verdict = (f"{PLAYER_NAMES[winner]} wins" if winner is not None
                   else " and ".join(PLAYER_NAMES[p] for p in tied) + " tie")
        self.say(f"Battle {event['battle']}: {plays}. {verdict}.\n")

    def one_card_end(self, event):
        """Each player's battles won, lost and tied, and who wins.
        C: Narrator_OneCardEnd."""
        if event["outcome"] == "capped":
            self.say("\nThe game was stopped at its round cap.")
        self.say(f"\nAfter {event['battle']} battles:\n")
        for p in range(len(event["piles"])):
            won, lost, tied = self.record.get(p, [0, 0, 0])
            self.say(f"Player {PLAYER_NAMES[p]} won {won}, lost {lost}, tied {tied}.\n")
        winner = event["winner"]
        self.say("Nobody wins: a draw.\n" if winner is None
                 else f"Player {PLAYER_NAMES[winner]} wins.\n")

    def battle(self, event):
        """A battle is won or tied. C: Narrator_Battle."""
        if self.one_card:
            self.one_card_battle(event)
            return
        winner = event["winner"]
        self.face_ups()
        if self.style == "lehigh":
            self.say("War!\n" if winner is None
                     else f"{self.card(self.last_face_up[winner])} wins\n")
        elif self.style == "smu":
            self.say("There is a tie... Doing another battle.\n\n" if winner is None
                     else f"Player {PLAYER_NAMES[winner]} wins the 'currently in play' pile.\n\n")
            self.counts_due = True

    def pickup(self, event):
        """Lehigh names each card the winner picks up. C: Narrator_Pickup."""
        if self.style == "lehigh":
            for card in event["cards"]:
                self.say(f"player {event['player'] + 1} gets {self.card(card)}\n")

    def refill(self, event):
        """smu's lines when 'played' becomes 'to play'. C: Narrator_Refill."""
        if self.style == "smu":
            name = PLAYER_NAMES[event["player"]]
            self.say(f"Player {name} ran out of cards in their 'to play' pile.  Getting "
                     f"cards from the 'played' pile.\nShuffling player {name} cards...\n\n")

    def run_out(self, event):
        """smu's line for a player who has lost. C: Narrator_RunOut."""
        if self.style == "smu":
            name = PLAYER_NAMES[event["player"]]
            self.say(f"Player {name} ran out of cards.  Player {name} has lost.\n")

    def end_smu(self, event):
        """smu's last lines for a cycle or a cap. C: Narrator_EndSmu."""
        start, period = self.cycle
        winner = event["winner"]
        if event["outcome"] == "cycle":
            self.say(f"The game repeats every {period} rounds from round {start + 1} on.  "
                     "Nobody wins.\n")
        elif event["outcome"] == "capped":
            self.say(f"The game was stopped after {event['round']} rounds.  ")
            self.say("Nobody wins.\n" if winner is None
                     else f"Player {PLAYER_NAMES[winner]} has more cards and wins.\n")

    def end_lehigh(self, event):
        """The Lehigh design's last lines. C: Narrator_EndLehigh."""
        start, period = self.cycle
        winner = event["winner"]
        if event["outcome"] == "cycle":
            self.say(f"The game repeats every {period} rounds from round {start + 1} on\n")
        elif event["outcome"] == "capped":
            self.say(f"The game was stopped after {event['round']} rounds\n")
        self.say("Nobody wins\n" if winner is None else f"Player {winner + 1} wins\n")

    def end_iofall(self, event):
        """iofall's banner. C: Narrator_EndIofall."""
        dashes = "-" * 20
        winner = event["winner"]
        names = IOFALL_NAMES if len(event["piles"]) == 2 else [
            f"Player {p + 1}" for p in range(len(event["piles"]))]
        verdict = "Match draw" if winner is None else f"Winner is {names[winner]}!"
        self.say(f"\n{dashes}\n{verdict}\n{dashes}\n")

    def end(self, event):
        """The end of the transcript. C: Narrator_End."""
        if self.one_card:
            self.one_card_end(event)
            return
        ends = {"lehigh": self.end_lehigh, "iofall": self.end_iofall}
        ends.get(self.style, self.end_smu)(event)

    def event(self, event):
        """Say an event's lines, and what waited for it. C: Narrator_Event."""
        if self.text is None:
            return
        if self.last is not None:
            self.say_waiting(event)
        self.say_own(event)

    def say_own(self, event):
        """Say the event's own lines. C: the switch in Narrator_Event."""
        kind = event["event"]
        if kind == "cycle":
            self.cycle = (event["start"], event["period"])
        elif kind in self.handlers:
            self.handlers[kind](event)
        self.last = event


def narrate_steps(header, events):
    """The transcript of a trace, split by event: the lines each event makes the
    narrator say, with the lines that waited for the next event (smu's counts, iofall's
    round line) given to the event they belong to.  "".join(...) is the transcript."""
    steps = [[] for _ in events]
    narrator = Narrator.for_trace(None, header)
    for i, event in enumerate(events):
        if i > 0:
            narrator.text = steps[i - 1]
            narrator.say_waiting(event)
        narrator.text = steps[i]
        narrator.say_own(event)
    return ["".join(words) for words in steps]
