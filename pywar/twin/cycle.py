"""Brent's cycle finding over whole game states, in constant memory. C: csrc/cycle.c."""


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


def replay(model):
    """A silent copy of a game as it was before the deal. C: Cycle_Replay."""
    return type(model)(model.seed, model.rules, deal=model.given_deal)


def find_start(model, period):
    """The rounds before the cycle: replay the game twice, silently, one copy
    'period' rounds ahead, and step both until their states meet. C: Cycle_FindStart."""
    tortoise = replay(model)
    hare = replay(model)
    tortoise.deal()
    hare.deal()
    for _ in range(period):
        hare.play_round()
    start = 0
    while tortoise.get_state() != hare.get_state():
        tortoise.play_round()
        hare.play_round()
        start += 1
    return start
