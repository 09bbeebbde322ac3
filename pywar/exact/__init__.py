"""Exact counts for small decks: every deal played (enumeration.py).

Its function is pywar.exact_counts (enumeration.exact); pywar.exact(...), the package
called, is kept for old code and warns (pywar.common.callable_package)."""

from ..common.callable_package import callable_as
from .enumeration import ExactResult, exact

callable_as(__name__, "pywar.exact.enumeration:exact", "pywar.exact_counts")
