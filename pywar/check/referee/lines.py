"""What a line of a student's transcript carries, whatever its words: docs/grading.md,
"What the referee understands".

    >>> meaning("Player A plays the Ace of Spades!")
    Said(kind='plays', player=0, card=38)
    >>> meaning("It's a tie... battle again!")
    Said(kind='tie')
    >>> meaning("Player B wins the loot!")
    Said(kind='wins', player=1)
    >>> meaning("Player A has 12 in their 'to play' pile and 3 in their 'played' pile.")
    Said(kind='counts', player=0, to_play=12, played=3)
    >>> meaning("Player 2 has 3 cards in their played pile and 12 cards in their deck")
    Said(kind='counts', player=1, to_play=12, played=3)
    >>> Reader().events("A shows the four of clubs, B shows the ten of hearts")
    [Said(kind='plays', player=0, card=41), Said(kind='plays', player=1, card=8)]
    >>> meaning("DEBUG: i = 3") is None
    True

A line is read by what it carries, not by a list of phrasings: it is put in lower case
and cut into words (every run of characters other than letters and digits a space);
then its cards (a rank word, digit or letter "of" a suit), its players (A and B, 1 and
2, one and two, or the two names the file gives its players), its numbers and its cue
words (wins, tie, out of cards, refill, ...) tell what it says.  A line may say more than
one thing: "A shows the four of clubs, B shows the ten of hearts" is two plays.  The
reference's own words for each kind (pywar.check.referee.exact) tell a departure from its
format.
"""

import re
from typing import NamedTuple

from .words import (ACE, OPENING, RANKS, SUITS, TIE_LINE, card_id, counts_line, listed_line,
                    lost_line, pile_line, plays_line, refill_lines, round_line, size_line,
                    wins_line)

LINE_READ = 400          # characters of a line read: a transcript's lines are under 100
NUMBER_DIGITS = 9        # a longer run of digits is no count, round or place
RANK_WORDS = {**{rank: number for number, rank in enumerate(RANKS)},
              **{str(number + 2): number for number in range(9)},
              "j": 9, "q": 10, "k": 11, "a": ACE, "deuce": 0, "one": ACE, "1": ACE,
              "jack": 9, "queen": 10, "king": 11}
ACE_AS_ONE = {"one", "1"}          # the ace printed as a one (and, as a rule, ranked low)
SUIT_WORDS = {**{suit: number for number, suit in enumerate(SUITS)},
              **{suit + "s": number for number, suit in enumerate(SUITS)}}
PLAYER_WORDS = {"a": 0, "b": 1, "1": 0, "2": 1, "one": 0, "two": 1, "first": 0,
                "second": 1}
PLAY_VERBS = {"plays", "played", "play", "shows", "show", "puts", "put", "lays", "flips",
              "turns", "draws", "deals", "places", "reveals", "throws"}
WIN_WORDS = {"wins", "win", "won", "takes", "take", "took", "collects", "gets", "loot",
             "winner", "winning"}
GAME_WORDS = {"game", "war", "match"}          # "wins the game": the end, not a battle
TIE_WORDS = {"tie", "tied", "ties", "draw", "tying", "stalemate"}
LOSS_WORDS = {"lost", "loses", "lose", "losing", "loser", "eliminated", "defeated"}
REFILL_WORDS = {"refill", "refills", "refilled", "refilling", "shuffling", "shuffles",
                "shuffle", "shuffled", "reshuffling", "reshuffles", "reshuffle",
                "reshuffled", "getting", "moving", "recycling", "recycles"}
TO_PLAY_WORDS = ("to play", "deck", "hand", "draw", "stack", "unplayed", "remaining",
                 "left")
REFILL_VERBS = {"picks", "pick", "uses", "using", "moves", "moving", "takes", "taking",
                "gets", "turns", "flips"}     # with 'played pile': the played pile turned over
PLAYED_WORDS = ("played", "discard", "discards", "won", "winnings", "win", "used", "side",
                "captured")


KINDS = ("welcome", "deck", "initial", "round", "pile", "size", "listed", "plays", "down",
         "wins", "tie", "refill", "counts", "lost", "announce", "blank")
KIND = type("Kinds", (), {"__slots__": (), **{kind: kind for kind in KINDS}})()
                                    # KIND.plays: a kind by attribute (a misspelt one fails)


class Said(NamedTuple):
    """One thing a line says: its kind (of KINDS: welcome, deck, initial, round, pile, size,
    listed, plays, down, wins, tie, refill, counts, lost, announce or blank; asked as
    KIND.plays, never by a string) and the fields of that
    kind ('down': a card put face down, named or not, or a number of them):
    the player, the card (and whether the ace was printed as a one), the number (a
    round's, a pile's size, a listed card's place) and a player's two counts."""
    kind: str
    player: object = None
    card: object = None
    ace_as_one: bool = False
    number: object = None
    to_play: object = None
    played: object = None

    def __repr__(self):
        """Its kind and the fields it has."""
        shown = [f"kind={self.kind!r}"] + [f"{name}={value!r}" for name, value in
                                           zip(self._fields[1:], self[1:])
                                           if value is not None and value is not False]
        return f"Said({', '.join(shown)})"


def normalised(line):
    """A line in lower case, each run of other characters than letters and digits one
    space (of its first LINE_READ characters); a minus sign before a number is kept
    ('-1', a count printed one less than an empty pile's)."""
    text = MINUS.sub("\0", line[:LINE_READ].lower())
    return re.sub(r"[^a-z0-9\0]+", " ", text).replace("\0", "-").strip()


MINUS = re.compile(r"(?<![a-z0-9])-(?=[0-9])")


def is_number(word):
    """Whether a word is a number, a negative one too."""
    return (word[1:] if word.startswith("-") else word).isdigit()


def numbers_at(words, negative=True):
    """The positions of a line's numbers, but a player's ('player 2'); negative ones
    too, unless told not."""
    found = is_number if negative else str.isdigit
    return [at for at, w in enumerate(words) if found(w) and not (at and words[at - 1] == "player")]


COUNT_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "a": 1, "an": 1}


def number(word):
    """A word's value as a count, a round or a place, or None (too long or no digits)."""
    digits = word[1:] if word.startswith("-") else word
    return int(word) if digits.isdigit() and len(digits) <= NUMBER_DIGITS else None


def card_at(words, at):
    """(card id, ace as one) of a card named at words[at:at + 3] ('rank of suit'), or None."""
    if at + 2 >= len(words):
        return None
    rank, of, suit = words[at], words[at + 1], words[at + 2]
    if of != "of" or rank not in RANK_WORDS or suit not in SUIT_WORDS:
        return None
    return card_id(SUIT_WORDS[suit], RANK_WORDS[rank]), rank in ACE_AS_ONE


def cards_in(words):
    """[(position, card id, ace as one)] of every card a line names."""
    found = []
    for at in range(len(words) - 2):
        card = card_at(words, at)
        if card is not None:
            found.append((at, *card))
    return found


def has_phrase(text, phrase):
    """Whether the normalised text holds a phrase as whole words."""
    return f" {phrase} " in f" {text} "


class Reader:
    """Reads a transcript's lines in order; it learns the players' names from the file
    (the first two names that play a card) so that 'Alice plays ...' is player A."""

    def __init__(self):
        self.names = {}                     # a player's own name -> 0 or 1
        self.seen = {}                      # a line's text -> its events, once names are known
        self.nothing = set()                # (names known, a line) read as saying nothing

    # ---- Players

    def players_in(self, words, cards):
        """[(position, player)] of each mention of a player, in order."""
        taken = {at + step for at, *_ in cards for step in (0, 1, 2)}
        found = []
        for at, word in enumerate(words):
            if at in taken:
                continue
            if word == "player" and at + 1 < len(words) and words[at + 1] in PLAYER_WORDS:
                found.append((at, PLAYER_WORDS[words[at + 1]]))
            elif word in self.names:
                found.append((at, self.names[word]))
            elif word in ("a", "b") and self.bare_player(words, at, taken):
                found.append((at, PLAYER_WORDS[word]))
        return [(at, who) for n, (at, who) in enumerate(found)
                if not (n and found[n - 1][0] == at - 1 and words[at - 1] == "player")]

    # a bare A or B is a player before these words ('A picks up the played pile', "A's")
    BARE_BEFORE = {"has", "is", "ran", "runs", "s", "cards", "pile", "picks", "uses", "moves",
                   "turns", "gets", ""}

    @staticmethod
    def bare_player(words, at, taken):
        """Whether a lone 'a' or 'b' is a player ('A shows ...', 'B: 3 to play'), not an
        article."""
        after = words[at + 1] if at + 1 < len(words) else ""
        if after == "s" and at + 2 < len(words) and words[at + 2] in ("cards", "pile", "deck",
                                                                      "hand", "played"):
            return True                     # 'Shuffling A's cards...'
        return (at == 0 or at - 1 in taken) and (
            after in PLAY_VERBS or after in WIN_WORDS or after in REFILL_WORDS
            or after in LOSS_WORDS or after.startswith(("shuffl", "refill", "reshuffl"))
            or after in Reader.BARE_BEFORE or after.isdigit() or at + 1 in taken)

    def learn(self, words, cards):
        """Learn a player's name from a play: '<name> plays the <card>'."""
        if len(self.names) >= 2 or not cards:
            return
        at = cards[0][0]
        before = [w for w in words[:at] if w not in ("the", "a", "an")]
        if len(before) >= 2 and before[-1] in PLAY_VERBS and before[0] not in (
                "player", "card") and before[0].isalpha() and len(before[0]) > 2:
            self.names.setdefault(before[0], len(self.names))

    # ---- A line

    def events(self, line):
        """What a line says: a list of (kind, fields...), [('blank',)] for a blank line,
        [] for a line that says nothing the referee knows."""
        if line in self.seen:               # a transcript says the same lines again and again
            return self.seen[line]
        unread = (len(self.names), line)    # names are only added: as many, the same ones
        if unread in self.nothing:
            return []
        found = self.read(line)
        if found or len(self.names) == 2:   # a name learned later changes only lines unread
            self.seen[line] = found
        else:
            self.nothing.add(unread)
        return found

    def read(self, line):
        """What a line says, read afresh."""
        text = normalised(line)
        if not text:
            return [Said(KIND.blank)]
        words = text.split()
        cards = cards_in(words)
        self.learn(words, cards)
        players = self.players_in(words, cards)
        for reading in (self.opening, self.header, self.face_down, self.with_cards, self.end,
                        self.refill, self.counts, self.verdict, self.deal_header):
            found = reading(text, words, cards, players)
            if found:
                return found
        return []

    @staticmethod
    def opening(text, words, cards, players):
        """The welcome, the initial shuffle, the heading of the initial piles."""
        if cards or players:
            return None
        if "welcome" in words:
            return [Said(KIND.welcome)]
        if words[0].startswith("shuffl") and ("deck" in words or "initial" in words):
            return [Said(KIND.deck)]
        if "initial" in words and any(w.startswith("pile") or w == "hands" for w in words):
            return [Said(KIND.initial)]
        return None

    @staticmethod
    def header(text, words, cards, players):
        """A round's header: 'Round 3', '======== Round 3 ========', 'ROUND #3 begins'."""
        if cards or players or "round" not in words:
            return None
        at = words.index("round")
        rest = words[at + 1:at + 2]
        if len(words) <= 6 and rest and rest[0].isdigit():
            return [Said(KIND.round, number=number(rest[0]))]
        return None

    @staticmethod
    def face_down(text, words, cards, players):
        """Cards put face down in a war: 'Player A puts a card face down', 'A puts 3 cards
        face down', 'Player B puts the two of clubs face down'."""
        if not players or not (has_phrase(text, "face down") or has_phrase(text, "facedown")):
            return None
        player = players[0][1]
        if cards:
            return [Said(KIND.down, player, card) for _, card, _ in cards]
        counted = [number(words[at]) for at in numbers_at(words, negative=False)]
        worded = [COUNT_WORDS[w] for w in words[players[0][0] + 1:] if w in COUNT_WORDS]
        return [Said(KIND.down, player, number=(counted or worded or [1])[0])]

    def with_cards(self, text, words, cards, players):
        """A line that names cards: plays (one or two), a verdict with the cards, or a
        card of the deal's listing."""
        if not cards:
            return None
        if not players:
            if any(w in WIN_WORDS or w in TIE_WORDS for w in words) or len(cards) > 1:
                return None
            at = cards[0][0]
            place = next((number(w) for w in words[:at] if w.isdigit()), None)
            return [Said(KIND.listed, card=cards[0][1], ace_as_one=cards[0][2], number=place)]
        plays = []
        for at, card, one in cards:
            owner = [who for where, who in players if where < at]
            if owner:
                plays.append(Said(KIND.plays, owner[-1], card, one))
        last_card = cards[-1][0]
        after = words[last_card + 3:]
        won = [who for where, who in players if where > last_card]
        if won and any(w in WIN_WORDS for w in after):
            return [play._replace(ace_as_one=False) for play in plays] + [Said(KIND.wins, won[0])]
        first_player = players[0][0]
        verbs = words[first_player:cards[0][0]]
        if any(w in WIN_WORDS for w in verbs) and not any(w in PLAY_VERBS for w in verbs):
            return [Said(KIND.wins, players[0][1])]
        return plays or None

    @staticmethod
    def end(text, words, cards, players):
        """A player who ran out and lost, both players losing, or the game's winner."""
        if any(has_phrase(text, cue) for cue in ("to play", "getting", "refill")) or any(
                w.startswith(("shuffl", "reshuffl", "refill")) for w in words):
            if not any(w in LOSS_WORDS for w in words):
                return None
        if "both" in words and any(w in LOSS_WORDS for w in words):
            return [Said(KIND.lost, 0), Said(KIND.lost, 1)]
        out = [at for at, w in enumerate(words) if w in LOSS_WORDS or (
            w == "out" and at + 1 < len(words) and words[at + 1] == "of")
            or (w == "no" and at + 2 < len(words) and words[at + 1] in ("cards", "more"))]
        if out and players:
            before = [who for where, who in players if where < out[0]]
            loser = before[-1] if before else players[0][1]
            return [Said(KIND.lost, loser)]
        if players and any(w in WIN_WORDS for w in words) and (
                any(w in GAME_WORDS for w in words) or "winner" in words
                or has_phrase(text, "game over")):
            return [Said(KIND.announce, players[0][1])]
        if has_phrase(text, "game over") or has_phrase(text, "the end"):
            return [Said(KIND.announce)]
        return None

    @staticmethod
    def refill(text, words, cards, players):
        """A line of a refill: 'ran out of cards in their to play pile', 'Shuffling
        player A cards', 'A refills from the played pile', "Player A's deck is empty!",
        'A picks up the played pile'; one that names no player ('Shuffling...', 'They
        are using their played cards.') is the refill just begun's (the judge's to say)."""
        if cards:
            return None
        cued = any(w in REFILL_WORDS or w.startswith(("shuffl", "reshuffl", "refill"))
                   for w in words) or (has_phrase(text, "to play") and "out" in words) or (
            "empty" in words and any(has_phrase(text, pile) for pile in TO_PLAY_WORDS)) or (
            any(w in REFILL_VERBS for w in words) and any(
                has_phrase(text, f"played {pile}") for pile in ("pile", "cards", "deck")))
        counted = len(numbers_at(words))
        if not cued or counted >= 2:
            return None
        if not players:
            return [Said(KIND.refill)] if not any(w in LOSS_WORDS for w in words) else None
        return [Said(KIND.refill, players[0][1])]

    @staticmethod
    def counts(text, words, cards, players):
        """A player's pile counts: two numbers, told apart by the pile words beside them
        ('to play', 'deck', 'hand' ... against 'played', 'discard', 'won' ...); a count
        may be printed negative."""
        numbers = numbers_at(words)
        if not players or cards or len(numbers) != 2:
            return None
        values = [number(words[at]) for at in numbers]
        if None in values:
            return None
        if pile_kinds(words, players[0][0] + 1, numbers) == ["played", "to play"]:
            values.reverse()
        return [Said(KIND.counts, players[0][1], to_play=values[0], played=values[1])]

    @staticmethod
    def verdict(text, words, cards, players):
        """A battle won, or a tie."""
        if players and any(w in WIN_WORDS for w in words):
            return [Said(KIND.wins, players[0][1])]
        if any(w in TIE_WORDS for w in words) or has_phrase(text, "battle again") or \
                has_phrase(text, "another battle") or (
                    "war" in words and not players and len(words) <= 4
                    and not set(words) & GAME_WORDS - {"war"}):
            return [Said(KIND.tie)]
        return None

    @staticmethod
    def deal_header(text, words, cards, players):
        """A pile's heading in the deal ('Player A:', "Alice's cards") or its size
        ('There are 26 cards in the pile.')."""
        numbers = [number(words[at]) for at in numbers_at(words, negative=False)]
        if players and len(numbers) <= 1:
            found = [Said(KIND.pile, players[0][1])]
            return found + ([Said(KIND.size, number=numbers[0])] if numbers and numbers[0] is not None
                            else [])
        if not players and len(numbers) == 1 and numbers[0] is not None and any(
                w.startswith("card") for w in words):
            return [Said(KIND.size, number=numbers[0])]
        return None


def pile_kinds(words, start, numbers):
    """The pile ('to play', 'played' or None) each of two counts is of: by the words
    before each number when the line names a pile before its first number ('to play:
    24, played: 2'), else by the words after it ('24 to play and 2 played')."""
    first, second = numbers
    if phrase_kind(" ".join(words[start:first])) is not None:
        pieces = (words[start:first], words[first + 1:second])
    else:
        pieces = (words[first + 1:second], words[second + 1:])
    return [phrase_kind(" ".join(piece)) for piece in pieces]


def phrase_kind(text):
    """'to play', 'played' or None for the pile words of a piece of a line."""
    text = f" {text} "
    played = any(f" {word} " in text for word in PLAYED_WORDS)
    to_play = any(f" {word} " in text for word in TO_PLAY_WORDS) or " play " in text
    if played and not to_play:
        return "played"
    if to_play and not played:
        return "to play"
    if to_play and played:
        return "to play" if " to play " in text and " played " not in text else "played"
    return None


def meaning(line):
    """The first thing a line says (a Said; of kind 'blank' for a blank line), None for a
    line the referee does not understand."""
    found = Reader().events(line)
    return found[0] if found else None


def reference_words(said):
    """The reference's own line for a thing said, or None where the reference has no
    single line for it."""
    words = {
        KIND.welcome: lambda: OPENING[0], KIND.deck: lambda: OPENING[2],
        KIND.initial: lambda: OPENING[4], KIND.round: lambda: round_line(said.number),
        KIND.pile: lambda: pile_line(said.player), KIND.size: lambda: size_line(said.number),
        KIND.listed: lambda: None if said.number is None else listed_line(said.number,
                                                                          said.card),
        KIND.plays: lambda: plays_line(said.player, said.card),
        KIND.wins: lambda: wins_line(said.player), KIND.tie: lambda: TIE_LINE,
        KIND.counts: lambda: counts_line(said.player, said.to_play, said.played),
        KIND.lost: lambda: lost_line(said.player), KIND.blank: lambda: "",
    }
    return words[said.kind]() if said.kind in words else None


def refill_words(player):
    """The reference's two refill lines of a player."""
    return refill_lines(player)[:2]
