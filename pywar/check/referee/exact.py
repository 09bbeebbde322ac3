"""A transcript in the SMU reference's format, the kind a student's program prints,
refereed line by line: pywar referee.

    >>> import pywar
    >>> from pywar.check.referee.exact import referee
    >>> text = pywar.play(17455, transcript=True).transcript
    >>> referee(text).fault is None, referee(text, seed=17455).fault is None
    (True, True)

Without a seed it checks what the rules fix whatever the deal: the opening lines and a
deal of the 52 cards, 26 each; in each round the top card of each 'to play' pile played
(while its order is known: from the deal until its first refill, which shuffles it), or
at least a card of that pile; the winner holding the higher rank, a tie going on; the
pile counts; the refills exactly when a 'to play' pile is empty and 'played' is not; the
run-out lines exactly when a 'to play' pile is still empty; and nothing after them.
With a seed it also checks that the file is the reference's game of that seed, line for
line.  The format and the rules are those of the SMU reference program's transcripts
(docs/rules.md, which cites the reference); the referee keeps its own card words and uses no engine, except to
tell the reference's game of a seed.
"""

import re
from dataclasses import dataclass

from .finding import Finding, RuleBroken
from .quote import line_shown, shown
from .words import (CARD_NAMES, HAND, LINES, NAME_OF, OPENING, PLAYERS, RANKS, ROUND_HEADER,
                    TIE_LINE, counts_line, line_pattern, lost_line, pile_line, rank_of,
                    refill_lines, round_line, size_line, wins_line)

PLAYS = line_pattern("plays", player="|".join(map(re.escape, PLAYERS)), card=".*")
LISTED = line_pattern("listed", place=r"\d+", card=".*")


def in_words(line):
    """A line quoted (cut short if it is longer than any transcript's line), or 'a blank
    line'."""
    return line_shown(line) if line else "a blank line"


class NotATranscript(ValueError):
    """A file that is not a transcript in the reference's format."""


@dataclass
class Refereed:
    """What the referee found: the first fault or None, and how far the game went."""
    fault: object = None
    rounds: int = 0
    losers: tuple = ()


class Referee:
    """Reads a transcript line by line, keeping every card's place, and stops at the
    first line that breaks a rule (a RuleBroken)."""

    def __init__(self, lines):
        self.lines = lines
        self.at = 0                       # the index of the next line
        self.round = 0
        self.to_play = [[], []]           # top first
        self.ordered = [True, True]       # False once a refill has shuffled 'to play'
        self.played = [[], []]            # top first
        self.pot = []                     # (card, player), bottom first
        self.losers = ()

    # ---- Lines

    def fault(self, reason):
        """Raise a RuleBroken at the next line."""
        raise RuleBroken(Finding(self.at + 1, self.round, reason=reason))

    def next_line(self, required):
        """The next line, or a RuleBroken if the file ends where the rules require one."""
        if self.at == len(self.lines):
            self.fault(f"the file ends here, where the rules require {required}")
        return self.lines[self.at]

    def expect(self, wanted, why=""):
        """The next line must be wanted, exactly."""
        line = self.next_line(in_words(wanted))
        if line != wanted:
            because = f" ({why})" if why else ""
            self.fault(f"the rules require {in_words(wanted)}{because}; the file says "
                       f"{in_words(line)}")
        self.at += 1

    # ---- Cards

    def place_of(self, card):
        """Where a card is now, in words."""
        for player in (0, 1):
            if card in self.to_play[player]:
                return f"in player {PLAYERS[player]}'s 'to play' pile"
            if card in self.played[player]:
                return f"in player {PLAYERS[player]}'s 'played' pile"
        if any(card == in_pot for in_pot, _ in self.pot):
            return "in the pot (played already in this round)"
        return "nowhere: it was never dealt"

    def card_of(self, name, required):
        """The id of a card's name, or a RuleBroken."""
        if name not in CARD_NAMES:
            self.fault(f"{line_shown(name)} is not a card's name, where the rules require "
                       f"{required}")
        return CARD_NAMES[name]

    # ---- The deal

    def opening(self):
        """The welcome, and both players' piles as dealt."""
        for wanted in OPENING:
            self.expect(wanted, "the reference's opening")
        seen = set()
        for player in (0, 1):
            self.expect(pile_line(player), "the deal")
            self.expect(size_line(HAND), f"{HAND} cards are dealt to each")
            for number in range(1, HAND + 1):
                card = self.listed(number, seen)
                self.to_play[player].insert(0, card)           # listed bottom first
            self.expect("", "a blank line after each pile")

    def listed(self, number, seen):
        """The card of the line 'Card <number>, <name>' of the deal."""
        required = repr(LINES["listed"].format(place=number, card="<card>"))
        line = self.next_line(required)
        match = LISTED.fullmatch(line)
        if not match or int(match["place"]) != number or match["place"] != str(number):
            self.fault(f"the rules require {required}; the file says {line_shown(line)}")
        card = self.card_of(match["card"], "a card of the deck")
        if card in seen:
            self.fault(f"the {match['card']} is dealt twice")
        seen.add(card)
        self.at += 1
        return card

    # ---- A battle

    def face_up(self, player):
        """A player's face-up card: the top of its 'to play' pile."""
        hand = self.to_play[player]
        name = PLAYERS[player]
        required = (f"player {name}'s face-up card, {NAME_OF[hand[0]]!r}" if self.ordered[player]
                    else f"player {name}'s face-up card, one of its 'to play' pile")
        line = self.next_line(required)
        match = PLAYS.fullmatch(line)
        if not match or match["player"] != name:
            self.fault(f"the rules require {required}; the file says {line_shown(line)}")
        card = self.card_of(match["card"], required)
        if card not in hand:
            self.fault(f"the rules require {required}; the file plays the "
                       f"{match['card']}, which is {self.place_of(card)}")
        if self.ordered[player] and card != hand[0]:
            listed_first = self.round == 1 and len(hand) == HAND and card == hand[-1]
            hint = ("; the deal lists it as Card 1: the piles look listed top first, which "
                    "pywar referee --all reads as a format departure") if listed_first else ""
            self.fault(f"the rules require {required}, the top of the pile as dealt; the "
                       f"file plays the {match['card']}{hint}")
        hand.remove(card)
        self.pot.append((card, player))
        self.at += 1
        return card

    def battle(self):
        """One battle: both cards, the verdict, refills, counts and run-outs.  True once
        the battle has settled the round (won, or the game over)."""
        cards = [self.face_up(player) for player in (0, 1)]
        ranks = [rank_of(card) for card in cards]
        names = [NAME_OF[card] for card in cards]
        if ranks[0] == ranks[1]:
            rank = RANKS[ranks[0]]
            self.expect(TIE_LINE, f"both play {'an' if rank[0] in 'aeiou' else 'a'} {rank}")
        else:
            winner = 0 if ranks[0] > ranks[1] else 1
            self.expect(wins_line(winner), f"the {names[winner]} beats the "
                        f"{names[1 - winner]}")
            self.played[winner] = [card for card, _ in self.pot] + self.played[winner]
            self.pot = []
        self.expect("", "a blank line after the battle")
        self.refills()
        self.counts()
        self.run_outs()
        return ranks[0] != ranks[1] or bool(self.losers)

    def refills(self):
        """A refill for A, then B, exactly when 'to play' is empty and 'played' is not."""
        for player in (0, 1):
            due = not self.to_play[player] and self.played[player]
            lines = refill_lines(player)
            if due:
                why = (f"player {PLAYERS[player]}'s 'to play' pile is empty and its "
                       f"'played' pile holds {len(self.played[player])} cards")
                for wanted in lines:
                    self.expect(wanted, why)
                self.to_play[player] = self.played[player]
                self.played[player] = []
                self.ordered[player] = False
            elif self.at < len(self.lines) and self.lines[self.at] == lines[0]:
                self.fault(f"no refill is due: player {PLAYERS[player]}'s 'to play' pile "
                           f"holds {len(self.to_play[player])} cards and its 'played' pile "
                           f"{len(self.played[player])}")

    def counts(self):
        """Both players' pile counts, then a blank line."""
        for player in (0, 1):
            to_play, played = len(self.to_play[player]), len(self.played[player])
            self.expect(counts_line(player, to_play, played),
                        f"player {PLAYERS[player]} holds {to_play} cards to play and "
                        f"{played} played")
        self.expect("", "a blank line after the counts")

    def run_outs(self):
        """A player whose 'to play' pile is still empty has lost: A's line, then B's."""
        losers = tuple(player for player in (0, 1) if not self.to_play[player])
        for player in losers:
            self.expect(lost_line(player), f"player {PLAYERS[player]} has no card left")
        self.losers = losers

    # ---- The game

    def run(self):
        """Referee the whole transcript; raise the first RuleBroken."""
        self.opening()
        while not self.losers:
            self.round += 1
            self.expect(round_line(self.round), "a new round")
            while not self.battle():
                pass
        if self.at < len(self.lines):
            self.fault(f"a line after the end ({line_shown(self.lines[self.at])}): the game is over "
                       "once a player has run out")


def lines_of(text):
    """A transcript's lines, without their newlines."""
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    return lines


def departure(lines, seed):
    """(index, the reference's line or None) of the first line that departs from the
    reference's game of the seed, or None."""
    from ...one_game import play
    reference = lines_of(play(seed, "smu", transcript=True).transcript)
    for index, (line, wanted) in enumerate(zip(lines, reference)):
        if line != wanted:
            return index, wanted
    if len(lines) < len(reference):
        return len(lines), reference[len(lines)]
    if len(lines) > len(reference):
        return len(reference), None
    return None


def seed_fault(lines, seed, rule_fault):
    """The fault to report with a seed: where the file departs from the reference's
    game, unless a rule fault comes no later (it says why)."""
    found = departure(lines, seed)
    if found is None or (rule_fault is not None and rule_fault.line <= found[0] + 1):
        return rule_fault
    index, wanted = found
    said = line_shown(lines[index]) if index < len(lines) else "nothing (the file ends)"
    required = "nothing more (the game is over)" if wanted is None else repr(wanted)
    round_ = sum(1 for line in lines[:index + 1] if line.startswith(ROUND_HEADER.split("{")[0]))
    reason = f"the reference's game of seed {seed} has {required} here; the file says {said}"
    return RuleBroken(Finding(index + 1, round_, reason=reason))


def referee(text, seed=None):
    """Referee a transcript's text: a Refereed.  NotATranscript if its first line is not
    the reference's first line."""
    lines = lines_of(text) if text else []
    if not lines or lines[0] != OPENING[0]:
        first = shown(lines[0]) if lines else "nothing"
        raise NotATranscript(f"not a transcript in the reference's format: its first line is "
                             f"{first}, not {OPENING[0]!r}")
    judge = Referee(lines)
    verdict = Refereed()
    try:
        judge.run()
        if not text.endswith("\n"):
            raise RuleBroken(Finding(len(lines), judge.round,
                                          reason="the last line has no newline at its end"))
    except RuleBroken as fault:
        verdict.fault = fault
    if seed is not None:
        verdict.fault = seed_fault(lines, seed, verdict.fault)
    verdict.rounds, verdict.losers = judge.round, judge.losers
    return verdict
