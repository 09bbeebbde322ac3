"""The three shuffles of docs/rules.md section 4, on a list of card ids whose index 0 is
the bottom card. C: csrc/engine/shuffle.h.  Every draw is rand() % n."""

from ..rules import MAX_CARDS as MAXCARDS     # C: PYWAR_MAXCARDS


def swap(cards, i, j):
    """Swap the cards at positions i and j. C: Shuffle_Swap."""
    cards[i], cards[j] = cards[j], cards[i]


def shuffle_smu(cards, rng):
    """SMU: 104 times swap two cards drawn as rand() % n, the first drawn first.
    C: Shuffle_Smu."""
    n = len(cards)
    for _ in range(MAXCARDS * 2):
        c1 = rng.below(n)
        c2 = rng.below(n)
        swap(cards, c1, c2)


def shuffle_swap_each(cards, rng):
    """Lehigh: each card from the bottom up swaps with the card at rand() % n.
    C: Shuffle_SwapEach."""
    n = len(cards)
    for i in range(n):
        swap(cards, i, rng.below(n))


def shuffle_fisher_yates(cards, rng):
    """Fisher-Yates from the top down: position i swaps with rand() % (i + 1).
    C: Shuffle_FisherYates."""
    for i in range(len(cards) - 1, 0, -1):
        swap(cards, i, rng.below(i + 1))


SHUFFLES = {"smu": shuffle_smu, "swap-each": shuffle_swap_each,
            "fisher-yates": shuffle_fisher_yates}


def shuffle_cards(cards, rng, method):
    """Shuffle a list of card ids in place by the rules' method; an empty list draws
    nothing. C: Shuffle_Cards."""
    if cards:
        SHUFFLES[method](cards, rng)
