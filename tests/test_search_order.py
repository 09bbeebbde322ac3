"""The order in which the referee's search tries the deviations is data beside the rows
(mistakes.SEARCH_ORDER), read by the search; a row that refines another (a narrower case
of it) must come before it there, and check_table says so (docs/development.md, the
checklist "add a student mistake")."""

from types import MappingProxyType

import pytest

from pywar.check.referee import mistakes
from pywar.check.referee.mistakes import MISTAKES, SEARCH_ORDER, candidates, deviation

SUITS_DECIDE = deviation("tie_by_suit", "verdict", "ties", "a tie decided by the suits' order",
                         refines="tie_decided", tie_verdict="a winner named")


def with_row(monkeypatch, row, order):
    """The table with one more row, and the search's order given."""
    rows = MISTAKES + (row,)
    table = MappingProxyType({m.name: m for m in rows})
    monkeypatch.setattr(mistakes, "MISTAKES", rows)
    monkeypatch.setattr(mistakes, "MISTAKE", table)
    monkeypatch.setattr(mistakes, "SEARCH_ORDER", order)
    monkeypatch.setattr(mistakes, "DEVIATIONS", tuple(table[name] for name in order))


def test_the_search_tries_one_deviation_more_in_the_order_given():
    """With nothing adopted, the sets of one deviation come in SEARCH_ORDER's order."""
    singles = [tuple(names)[0] for names, _ in candidates(frozenset()) if len(names) == 1]
    assert singles == list(SEARCH_ORDER)


def test_the_order_is_what_the_search_reads(monkeypatch):
    """The order changed, the search changes with it: it is read, not written twice."""
    turned = SEARCH_ORDER[::-1]
    monkeypatch.setattr(mistakes, "SEARCH_ORDER", turned)
    monkeypatch.setattr(mistakes, "DEVIATIONS", tuple(mistakes.MISTAKE[n] for n in turned))
    singles = [tuple(names)[0] for names, _ in candidates(frozenset()) if len(names) == 1]
    assert singles == list(turned)
    assert mistakes.in_search_order({"ace_low", "counts_total"}) == ("counts_total", "ace_low")


def test_a_refining_row_before_the_row_it_refines_is_sound(monkeypatch):
    at = SEARCH_ORDER.index("tie_decided")
    with_row(monkeypatch, SUITS_DECIDE, SEARCH_ORDER[:at] + ("tie_by_suit",) + SEARCH_ORDER[at:])
    mistakes.check_table()


def test_a_refining_row_after_the_row_it_refines_is_refused(monkeypatch):
    """Placed after tie_decided, a tie decided by suits would never be chosen: every
    battle it explains, tie_decided explains first."""
    with_row(monkeypatch, SUITS_DECIDE, SEARCH_ORDER + ("tie_by_suit",))
    with pytest.raises(AssertionError, match="tie_by_suit refines tie_decided"):
        mistakes.check_table()


def test_a_deviation_left_out_of_the_order_is_refused(monkeypatch):
    with_row(monkeypatch, SUITS_DECIDE, SEARCH_ORDER)
    with pytest.raises(AssertionError):
        mistakes.check_table()
