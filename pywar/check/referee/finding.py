"""The one record of a broken rule, shared by the checkers: the referee that keeps going
(judge), the referee that stops at the first fault (exact) and the trace's replay
(pywar.check.implementations.replay); RuleBroken raises one.

    >>> Finding(line=12, round=3, required="player A to win", said="'Player B wins'").text()
    "line 12 (round 3): the rules require player A to win; the file says 'Player B wins'"
    >>> str(RuleBroken(Finding(line=4, reason="a blank line after the battle")))
    'line 4: a blank line after the battle'
"""

from dataclasses import dataclass, field

from .rubric import asks


@dataclass
class Finding:
    """One broken rule: where (the file's line from 1, the round, the battle), what the
    rules require and what the file says (or the reason in one sentence), the rubric item
    and the mistake (a row's name) it is charged to, and the lines around it.  While the
    referee still plays a battle, `at` holds the Event (or line index) it is found at."""
    line: object = None
    round: object = None
    required: str = None
    said: str = None
    reason: str = None
    item: str = None
    mistake: str = None
    context: list = field(default_factory=list)
    battle: object = None
    at: object = None
    file_round: object = None       # the number of the file's own round header above the line

    def round_words(self):
        """'round 7', or 'round 7, the file's Round 6' where the file numbers it otherwise."""
        return round_words(self.round, self.file_round)

    def words(self):
        """What is wrong, in one sentence."""
        if self.reason is not None:
            return self.reason
        return f"{asks(self.item)} {self.required}; the file says {self.said}"

    def where(self):
        """'line 12 (round 3)', 'line 4 (before round 1)' or '' (a finding of the whole file)."""
        if self.line is None:
            return ""
        if self.battle is not None:
            return f"line {self.line} (round {self.round}, battle {self.battle})"
        if self.reason is not None:
            return f"line {self.line}" + (f" ({self.round_words()})" if self.round else "")
        return f"line {self.line}" + (f" ({self.round_words()})" if self.round else
                                      " (before round 1)")

    def text(self):
        """The finding in one line."""
        where = self.where()
        return f"{where}: {self.words()}" if where else self.words()

    def to_json(self, seed=None):
        """The finding as a JSON-ready dict (with the seed it was found on, if given)."""
        found = {"line": self.line, "round": self.round, "file_round": self.file_round,
                 "required": self.required, "said": self.said, "context": self.context,
                 "mistake": self.mistake}
        return found if seed is None else {"seed": seed, **found}


def round_words(round_, file_round=None):
    """A round as pywar counts it, and as the file's own header numbers it where that
    differs: 'round 7', 'round 7, the file's Round 6' (rounds numbered from 0, say)."""
    if file_round is None or file_round == round_:
        return f"round {round_}"
    return f"round {round_}, the file's Round {file_round}"


class RuleBroken(Exception):
    """A checker that stops at its first broken rule raises it, with the Finding."""

    def __init__(self, finding):
        super().__init__(finding.text())
        self.finding = finding

    @property
    def line(self):
        """The line of the file (from 1)."""
        return self.finding.line

    @property
    def round(self):
        """The round the line is in."""
        return self.finding.round

    @property
    def battle(self):
        """The battle the line is in (a trace's replay)."""
        return self.finding.battle

    @property
    def reason(self):
        """What is wrong, in one sentence."""
        return self.finding.words()
