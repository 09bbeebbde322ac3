"""glibc's srand()/rand() (the TYPE_3 generator of random_r), one state per game.

C: csrc/common/rng.c.  The C core makes its numbers in blocks for speed, on one of its
paths (RNG_PATHS); the twin makes them one at a time, the way glibc's random_r does,
with a front and a rear pointer walking round a table of 31 words.  All give the same
numbers in the same order.
"""

# The C generator's paths, each name's index its C number (enum PywarRngPath): "best"
# is the one whole games are fastest on with the processor (csrc/common/rng.c,
# Rng_BestPath), the others name one.  PYWAR_RNG_PATH picks one for the C core's games
# (pywar._checked.rng_path); no path changes a game.
RNG_PATHS = ("best", "scalar", "avx2", "avx512")
RNG_PATH_VARIABLE = "PYWAR_RNG_PATH"


class RngPathError(ValueError):
    """A generator's path this processor cannot run, named by PYWAR_RNG_PATH or a caller."""

DEGREE = 31          # words in the table
SEPARATION = 3       # the front pointer starts this far ahead of the rear one
DISCARDED = 310      # glibc throws away 10 * DEGREE numbers after seeding
WORD = 2 ** 32


def to_int32(value):
    """The signed 32-bit reading of an unsigned value, as C's (int32_t) cast."""
    return value - WORD if value >= 2 ** 31 else value


def c_divide(a, b):
    """a / b as C computes it for a positive b: the quotient truncated toward zero."""
    quotient = abs(a) // b
    return quotient if a >= 0 else -quotient


def schrage_step(word):
    """16807 * word mod (2^31 - 1), exactly as glibc computes it (Schrage's method).
    C: the loop in Rng_Seed."""
    hi = c_divide(word, 127773)
    lo = word - hi * 127773            # C's remainder takes the sign of word
    word = 16807 * lo - 2836 * hi
    if word < 0:
        word += 2147483647
    return word


class Rng:
    """The generator's state. C: struct Rng."""

    def __init__(self, seed):
        """Seed the table as srand(seed) does. C: Rng_Seed."""
        word = to_int32(seed or 1)     # glibc: seed 0 is seed 1
        table = [word % WORD]
        for _ in range(1, DEGREE):
            word = schrage_step(word)
            table.append(word)
        self.table = table
        self.front = SEPARATION
        self.rear = 0
        for _ in range(DISCARDED):
            self.rand()

    def rand(self):
        """The next rand(): a number from 0 to 2^31 - 1. C: Rng_Rand."""
        total = (self.table[self.front] + self.table[self.rear]) % WORD
        self.table[self.front] = total
        self.front = (self.front + 1) % DEGREE
        self.rear = (self.rear + 1) % DEGREE
        return total >> 1

    def below(self, n):
        """rand() % n, a number from 0 to n - 1. C: Rng_Below."""
        return self.rand() % n
