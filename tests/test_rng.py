"""The generator matches the C library's rand() bit for bit (glibc, through ctypes)."""

import ctypes
import ctypes.util
import random

import pytest

from conftest import needs_c
from pywar import _checked
from pywar.common.rng import Rng

SEEDS = [0, 1, 2, 2 ** 31 - 1, 2 ** 31, 2 ** 31 + 1, 2 ** 32 - 1]
SEEDS += random.Random(2026).sample(range(2 ** 32), 8)
DRAWS = 10_000


def glibc():
    """The C library, if it is glibc (its rand() is what the reference used)."""
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        libc.gnu_get_libc_version.restype = ctypes.c_char_p
        libc.gnu_get_libc_version()
    except (OSError, AttributeError):
        return None
    libc.srand.argtypes = [ctypes.c_uint]
    libc.rand.restype = ctypes.c_int
    return libc


LIBC = glibc()
needs_glibc = pytest.mark.skipif(LIBC is None, reason="the C library is not glibc")


def libc_draws(seed, count):
    """count values of the C library's rand() after srand(seed)."""
    LIBC.srand(seed)
    return [LIBC.rand() for _ in range(count)]


@needs_glibc
@pytest.mark.parametrize("seed", SEEDS)
def test_twin_matches_glibc(seed):
    rng = Rng(seed)
    assert [rng.rand() for _ in range(DRAWS)] == libc_draws(seed, DRAWS)


@needs_glibc
@needs_c
@pytest.mark.parametrize("seed", SEEDS)
def test_c_core_matches_glibc(seed):
    assert _checked.rng_draws(seed, DRAWS * 5) == libc_draws(seed, DRAWS * 5)


def c_draws(seed, count):
    """count values of the C core's rand() after srand(seed)."""
    return _checked.rng_draws(seed, count)


@pytest.mark.parametrize("draws", [pytest.param(libc_draws, marks=needs_glibc, id="glibc"),
                                   pytest.param(c_draws, marks=needs_c, id="c")])
def test_below_is_rand_modulo_n(draws):
    """The twin's k-th draw below n is the k-th rand() of another generator, mod n."""
    rng = Rng(7)
    moduli = list(range(1, 200)) + [2 ** 31 - 1, 2 ** 31]
    expected = [value % n for value, n in zip(draws(7, len(moduli)), moduli)]
    assert [rng.below(n) for n in moduli] == expected


EDGE_WORDS = [0, 1, 2, 2 ** 31 - 1, 2 ** 31, 2 ** 31 + 1, 2 ** 32 - 2, 2 ** 32 - 1]
MODULI = list(range(1, 53)) + [53, 64, 100, 1000, 65535, 65536, 2 ** 31 - 1, 2 ** 31,
                               2 ** 32 - 1]
SAMPLE = 20_000


def words_for(n, rng):
    """32-bit words to reduce mod n: the edges (n - 1, n, n + 1, multiples of n and
    their neighbours, the largest multiple below 2^32), then a random sample."""
    multiples = [k * n for k in (1, 2, 3, 1000, 2 ** 31 // n, (2 ** 32 - 1) // n)]
    edges = EDGE_WORDS + [m + step for m in multiples for step in (-1, 0, 1)]
    sample = [rng.getrandbits(32) for _ in range(SAMPLE)]
    return [word for word in edges if 0 <= word < 2 ** 32] + sample


@needs_c
@pytest.mark.parametrize("n", MODULI)
def test_c_fastmod_is_percent(n):
    """Rng_Reduce (Lemire's fastmod, used for draws below n) against Python's %."""
    words = words_for(n, random.Random(n))
    assert _checked.rng_reduce(n, words) == [word % n for word in words]


@needs_c
def test_c_fastmod_refuses_modulus_0():
    with pytest.raises(ValueError, match="modulus 0"):
        _checked.rng_reduce(0, [1, 2])
    assert _checked.rng_reduce(5, []) == []


@needs_c
def test_c_and_twin_agree_without_glibc():
    rng = Rng(123456789)
    assert _checked.rng_draws(123456789, 3000) == [rng.rand() for _ in range(3000)]
