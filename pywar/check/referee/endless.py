"""An endless game, as a transcript shows it: the rounds it tells repeat themselves.

    >>> repeats([(1, 2), (3, 4), (5, 6), (7, 8), (5, 6), (7, 8), (5, 6), (7, 8)], 4)
    (3, 2)
    >>> repeats([(1, 2), (3, 4), (1, 2), (3, 4)], 8) is None     # 4 of 8 cards played
    True

A game whose last rounds repeat with period P, at least twice over, each period playing
every card the file ever played face up, repeats from then on: each 'to play' pile has been played
out and rebuilt in the same order, and the rules decide the rest.  The period is found in
one pass (the Z-function of the rounds read backwards), so a 2 MiB transcript of 15,000
rounds costs milliseconds.
"""


def z_function(items):
    """z[i]: the length of the longest common prefix of items and items[i:]."""
    n = len(items)
    z = [0] * n
    left = right = 0
    for i in range(1, n):
        if i < right:
            z[i] = min(right - i, z[i - left])
        while i + z[i] < n and items[z[i]] == items[i + z[i]]:
            z[i] += 1
        if i + z[i] > right:
            left, right = i, i + z[i]
    if n:
        z[0] = n
    return z


def repeats(rounds, in_game):
    """(the first round, from 1, of the repeating part; its period in rounds) of a game
    whose last rounds repeat at least twice over, each period playing in_game cards (the
    judge gives the number of cards the file ever played face up: a cycle's piles are
    played out, every card of them); or None.  rounds: each round's cards played, in
    order."""
    backwards = rounds[::-1]
    z = z_function(backwards)
    seen = set()                                # the cards of the last period rounds
    for period in range(1, len(rounds) // 2 + 1):
        seen.update(backwards[period - 1])
        length = period + z[period]             # the last rounds that repeat with period
        if length < 2 * period:
            continue
        if len(seen) >= in_game:
            return len(rounds) - length + 1, period
    return None
