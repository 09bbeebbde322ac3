"""The referee's work, counted, and its deadline (docs/grading.md, "The referee's time").

    >>> effort = Effort()
    >>> effort.step(3); effort.steps
    3
    >>> Effort(seconds=0).step()
    Traceback (most recent call last):
    ...
    pywar.check.referee.effort.OutOfTime: the referee's time (0 s) ran out

A step is one unit of the referee's work: a line read, an event sorted into its battle, a
battle played on the table (counted by the events it walks and the cards of the pot it
copies).  The work is linear in the transcript's size: a file of twice the lines costs
at most about twice the steps (tests/test_referee_time.py), so the steps measure the
referee's time without a clock, and the deadline, checked at each step, bounds it by one.
"""

import time


class OutOfTime(Exception):
    """The referee's deadline passed before it finished a transcript."""


class Effort:
    """The steps the referee has taken on one transcript, and its deadline (None: none)."""

    def __init__(self, seconds=None):
        self.steps = 0
        self.seconds = seconds
        self.deadline = None if seconds is None else time.monotonic() + seconds

    def step(self, amount=1):
        """amount steps more; OutOfTime once the deadline has passed."""
        self.steps += amount
        if self.deadline is not None and time.monotonic() >= self.deadline:
            raise OutOfTime(f"the referee's time ({self.seconds:g} s) ran out")
