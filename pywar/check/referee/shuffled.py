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

from collections import Counter
from itertools import permutations
from math import factorial, prod

from .words import HAND, RANKS, rank_of, suit_of

# A deal is in a natural order when each pile, as listed, has at least NATURAL of its 25
# pairs of neighbours in one natural order of the deck (order_score): by suit (the same
# suit, the rank going one way) or by rank (the same rank or the next one way), the ace
# high or low.  Every deck a student builds suit by suit or rank by rank (the ace first or
# last, either way, in any order of the suits), dealt alternately, in halves or in blocks
# of 2 or 13 (26 cards each), from the deck's front or its back, listed top or bottom
# first, gives 22 to 25 (the table of docs/grading.md, "The deal is shuffled"); a fair
# shuffle's pile gave at most 14 in 2,000,000, and the lower of a deal's two piles at most
# 10 in 1,000,000 (python -m pywar.check.referee.shuffled, 20 s with numpy).
NATURAL = 20
# A refill's cards come back in the order they were won (block by block, either way, any
# order inside a block) by chance with probability 2 * prod(len(block)!) / n!; a refill is
# judged only where that is below CHANCE: 18 cards won in plain battles (pots of 2) are
# 1.6e-13.  A submission's 40 seeds, each refereed up to 2 MiB (about 500 bytes a battle,
# nine battles at least a judged refill), judge at most about 20,000 refills: a fair
# shuffle is taken for none with a chance below 2e-8 per submission.
CHANCE = 1e-12


def ace_low(card):
    """A card's rank with the ace low: 0 for the ace, 1 for the two."""
    return (rank_of(card) + 1) % len(RANKS)


def order_score(pile):
    """The most pairs of neighbours of a pile, as listed, that follow one natural order of
    the deck: by suit (the same suit, the rank going one way) or by rank (the same rank, or
    the next one way); the ace high or low."""
    pairs = list(zip(pile, pile[1:]))
    best = 0
    for rank in (rank_of, ace_low):
        for way in (1, -1):
            steps = [(suit_of(a) == suit_of(b), way * (rank(b) - rank(a))) for a, b in pairs]
            best = max(best, sum(same and step > 0 for same, step in steps),
                       sum(0 <= step <= 1 for _, step in steps))
    return best


def natural(pile):
    """Whether a pile of HAND cards, as listed, is in a natural order of the deck."""
    return len(pile) == HAND and order_score(pile) >= NATURAL


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


def natural_deals():
    """Every natural order a student writes: ((how the deck is built, its ranks' order, how
    it is dealt), its two piles as listed), for every order of the suits, the deck dealt
    from its front or back, either player first, the piles listed top or bottom first."""
    ranks = {"two to ace": list(range(13)), "ace to king": [12, *range(12)]}
    for build in ("suit by suit", "rank by rank"):
        for name, order in ranks.items():
            for way in (order, order[::-1]):
                for suits in permutations(range(4)):
                    deck = [suit * 13 + rank for suit in suits for rank in way] \
                        if build == "suit by suit" else \
                        [suit * 13 + rank for rank in way for suit in suits]
                    for end in (deck, deck[::-1]):
                        for dealt, piles in dealt_ways(end):
                            for first in (piles, piles[::-1]):
                                for listed in (first, [pile[::-1] for pile in first]):
                                    yield (build, name, dealt), listed


def dealt_ways(deck):
    """(how, the two piles) of a deck dealt alternately, in halves, in blocks of 2 or 13."""
    yield "alternately", [deck[0::2], deck[1::2]]
    yield "in halves", [deck[:HAND], deck[HAND:]]
    for block in (2, 13):
        piles = [[], []]
        for at in range(0, len(deck), block):
            piles[at // block % 2].extend(deck[at:at + block])
        yield f"in blocks of {block}", piles


def fair_scores(deals, seed=46, chunk=100_000):
    """The order_score of both piles of deals fair deals (numpy): (each pile's, the
    lower of each deal's), as Counters."""
    import numpy as np
    rng = np.random.default_rng(seed)
    piles, lower = Counter(), Counter()
    for _ in range(deals // chunk):
        decks = rng.permuted(np.tile(np.arange(52), (chunk, 1)), axis=1)
        scores = [np_order_score(decks[:, 0::2]), np_order_score(decks[:, 1::2])]
        for score in scores:
            piles.update(score.tolist())
        lower.update(np.minimum(*scores).tolist())
    return piles, lower


def np_order_score(piles):
    """order_score of each row of an array of piles."""
    import numpy as np
    same = piles[:, 1:] // 13 == piles[:, :-1] // 13
    best = np.zeros(len(piles), dtype=int)
    for rank in (piles % 13, (piles % 13 + 1) % 13):
        for way in (1, -1):
            step = way * (rank[:, 1:] - rank[:, :-1])
            best = np.maximum(best, ((step > 0) & same).sum(1))
            best = np.maximum(best, ((step >= 0) & (step <= 1)).sum(1))
    return best


if __name__ == "__main__":
    lowest = {}
    for key, piles in natural_deals():
        lowest[key] = min(lowest.get(key, 99), *map(order_score, piles))
    print("| the deck built | its ranks | dealt | pairs in order, of 25 (the lower pile) |")
    print("|---|---|---|---|")
    for (build, ranks, dealt), score in lowest.items():
        print(f"| {build} | {ranks}, either way | {dealt} | {score} |")
    piles, lower = fair_scores(1_000_000)
    print(f"a fair shuffle, 1,000,000 deals: a pile's most {max(piles)} of 25 "
          f"(the tail: {sorted(piles.items())[-4:]}); the lower pile's most {max(lower)}")
