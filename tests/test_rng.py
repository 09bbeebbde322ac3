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


def test_below_is_rand_modulo_n():
    first, second = Rng(7), Rng(7)
    for n in range(1, 200):
        assert first.below(n) == second.rand() % n


@needs_c
def test_c_and_twin_agree_without_glibc():
    rng = Rng(123456789)
    assert _checked.rng_draws(123456789, 3000) == [rng.rand() for _ in range(3000)]
