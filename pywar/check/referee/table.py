"""The game as a transcript tells it: each thing a line says (Event), and the table the
referee plays the file's battles on (Table)."""

from dataclasses import dataclass, field

from .words import player


@dataclass
class Event:
    """One thing a line of the file says: the line's index (from 0), its text, and what
    it says (a pywar.check.referee.lines.Said)."""
    index: int
    text: str
    said: object

    @property
    def kind(self):
        """What kind of thing it says: plays, wins, tie, counts, ..."""
        return self.said.kind

    @property
    def player(self):
        """The player it names."""
        return self.said.player

    @property
    def card(self):
        """The card it names."""
        return self.said.card

    @property
    def counts(self):
        """A counts line's [to play, played]."""
        return [self.said.to_play, self.said.played]


@dataclass
class Table:
    """The game as the file has told it so far."""
    order: list                   # each 'to play' pile top first while its order is known
    to_play: list                 # the cards that may be in each 'to play' pile
    played: list
    count: list                   # [to play, played] of each player
    pot: list = field(default_factory=list)         # (card, player), in the order played
    floating: set = field(default_factory=set)      # cards whose pile is unknown
    over: bool = False                              # the rules ended the game
    stranded: int = 0                               # cards lost from pots (pot_kept "part")
    won: list = field(default_factory=lambda: [[], []])    # each 'played' pile's blocks of
                                                    # cards, in the order won (None: unknown)
    refilled: list = field(default_factory=lambda: [None, None])  # a refilled pile's blocks,
                                                    # and its cards played since, in order
    played_out: list = field(default_factory=list)  # (player, blocks, cards played) of each
                                                    # refilled pile played to its last card
    told: list = field(default_factory=lambda: [False, False])   # a lazy refill's lines
                                                    # printed before the battle that needs it

    @classmethod
    def empty(cls):
        """A table before the deal."""
        return cls([None, None], [set(), set()], [set(), set()], [[0, 0], [0, 0]])

    def copy(self):
        """A copy to play a battle on (a battle tried is not yet the story)."""
        return Table([None if pile is None else list(pile) for pile in self.order],
                     [set(pile) for pile in self.to_play], [set(pile) for pile in self.played],
                     [list(pair) for pair in self.count], list(self.pot), set(self.floating),
                     self.over, self.stranded, [list(blocks) for blocks in self.won],
                     [None if refill is None else (refill[0], list(refill[1]))
                      for refill in self.refilled], list(self.played_out), list(self.told))

    def take(self, card):
        """Take a card out of wherever it may be."""
        self.floating.discard(card)
        for number in (0, 1):
            self.to_play[number].discard(card)
            self.played[number].discard(card)
            if self.order[number] is not None and card in self.order[number]:
                self.order[number].remove(card)

    def add_played(self, number, cards, count=None):
        """Cards won onto a player's 'played' pile, as one block (count: how many, where
        some of them are not known)."""
        count = len(cards) if count is None else count
        self.played[number].update(cards)
        self.count[number][1] += count
        if count:
            self.won[number].append(tuple(cards) if count == len(cards) else None)

    def refill(self, number):
        """'played' turned over into 'to play' (shuffled: its order unknown); the blocks it
        was won in are kept, to tell from the plays whether it was shuffled."""
        blocks = self.won[number]
        whole = self.count[number][0] == 0 and None not in blocks and \
            sum(map(len, blocks)) == self.count[number][1] > 0
        self.refilled[number] = (tuple(blocks), []) if whole else None
        self.won[number] = []
        self.to_play[number] |= self.played[number]
        self.played[number] = set()
        self.count[number] = [self.count[number][0] + self.count[number][1], 0]
        self.order[number] = None

    def played_from(self, number, card):
        """A card taken from a player's 'to play' pile (None: no line names it)."""
        refill = self.refilled[number]
        if refill is not None:
            if card is None:
                self.refilled[number] = None
                return
            refill[1].append(card)
            if len(refill[1]) == sum(map(len, refill[0])):
                self.played_out.append((number, *refill))
                self.refilled[number] = None

    def place_of(self, card):
        """Where a card may be now, in words."""
        for number in (0, 1):
            if card in self.to_play[number]:
                return f"in {player(number)}'s 'to play' pile"
            if card in self.played[number]:
                return f"in {player(number)}'s 'played' pile"
        return "in no pile (it was never dealt)"

    def lose_track(self, number):
        """A player's cards may be anywhere now (the file's counts are taken as the state)."""
        self.floating |= self.to_play[number] | self.played[number]
        self.floating.update(card for card, _ in self.pot if card is not None)
        self.order[number] = None
        self.won[number] = [None]
        self.refilled[number] = None
