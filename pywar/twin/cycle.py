"""Brent's cycle finding over whole game states, in constant memory. C: csrc/engine/cycle.c."""


class Cycle:
    """The state saved at the last power of two, and rounds since. C: struct Cycle."""

    def __init__(self, state):
        """Start watching from the state after the deal. C: Cycle_Init."""
        self.saved = state
        self.power = 1
        self.lam = 0

    def saw(self, state):
        """Call after every round. True when the state repeats: lam is the period.
        C: Cycle_Saw."""
        self.lam += 1
        if state == self.saved:
            return True
        if self.lam == self.power:
            self.saved = state
            self.power *= 2
            self.lam = 0
        return False
