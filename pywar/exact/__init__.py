"""Exact counts for small decks: every deal played (enumeration.py).

The package is also its function: pywar.exact(...) is enumeration.exact(...)."""

from ..common.callable_package import callable_as
from .enumeration import ExactResult, exact

callable_as(__name__, exact)
