"""Whether cards were shuffled, as a transcript shows it (docs/grading.md, "The shuffle"):
a deal listed in a natural order of the deck, and a refilled 'to play' pile whose cards
come back in the order they were won.

    >>> natural([suit * 13 + rank for suit in range(4) for rank in range(13)][::2])
    True
    >>> in_won_order([(3, 17), (40, 2), (9, 30)], [30, 9, 2, 40, 17, 3])
    'the last won first'
    >>> round(chance([(3, 17), (40, 2), (9, 30)]) * 720)   # of the 6! orders: 2 * 2 * 2 * 2
    16
"""

from math import factorial, prod

from .words import HAND, rank_of, suit_of

# A deal is in a natural order when, in each pile as listed, at least NEAR of its 25 pairs
# of neighbours are near in the deck: the same rank, ranks one apart, or ranks two apart in
# one suit.  A deck built suit by suit (or rank by rank, in any order of the suits, either
# way) and dealt alternately or in halves gives 22 to 25; a fair shuffle's pile gave at
# most 18 in 1,000,000 (python -m pywar.check.referee.shuffled, 12 s), so its chance of
# two piles past 21 is far below one in a million.
NEAR = 22
# A refill's cards come back in the order they were won (block by block, either way, any
# order inside a block) by chance with probability 2 * prod(len(block)!) / n!; a refill is
# judged only where that is below CHANCE: 18 cards won in plain battles (pots of 2) are
# 1.6e-13.  A submission's 40 seeds, each refereed up to 2 MiB (about 500 bytes a battle,
# nine battles at least a judged refill), judge at most about 20,000 refills: a fair
# shuffle is taken for none with a chance below 2e-8 per submission.
CHANCE = 1e-12


def near(a, b):
    """Whether two cards are neighbours in a natural order of the deck."""
    apart = abs(rank_of(a) - rank_of(b))
    return apart <= 1 or (apart == 2 and suit_of(a) == suit_of(b))


def natural(pile):
    """Whether a pile of HAND cards, as listed, is in a natural order of the deck."""
    return len(pile) == HAND and sum(near(a, b) for a, b in zip(pile, pile[1:])) >= NEAR


def in_won_order(blocks, played):
    """'the first won first' or 'the last won first' if the cards played come back block
    by block in the order the blocks were won (any order inside a block), else None."""
    for order, words in ((blocks, "the first won first"),
                         (blocks[::-1], "the last won first")):
        at = 0
        for block in order:
            if set(played[at:at + len(block)]) != set(block):
                break
            at += len(block)
        else:
            return words
    return None


def chance(blocks):
    """The chance that a fair shuffle puts the blocks' cards in their won order, either way."""
    return 2 * prod(factorial(len(block)) for block in blocks) / factorial(
        sum(map(len, blocks)))


def unshuffled(blocks, played):
    """How the cards of a refill came back ('the last won first', ...) when that shows it
    was not shuffled; None when it was, or when too few cards were won to tell."""
    if chance(blocks) >= CHANCE:
        return None
    return in_won_order(blocks, played)


if __name__ == "__main__":
    import random
    deck = list(range(52))
    most = 0
    for _ in range(1_000_000):
        random.shuffle(deck)
        most = max(most, sum(near(a, b) for a, b in zip(deck[:26], deck[1:26])))
    print(f"the most near pairs in a fair shuffle's pile, of 1,000,000: {most} of 25")
