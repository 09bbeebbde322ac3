"""The order in which the referee's search tries the deviations is data beside the rows
(mistakes.SEARCH_ORDER), read by the search; a row that refines another (a narrower case
of it) must come before it there, and check_table says so (docs/development.md, the
checklist "add a student mistake")."""

import re
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


def test_two_deviations_adopted_that_conflict_resolve_by_the_search_s_order():
    """A program that prints its counts swapped on one battle and on the other player's
    line on another adopts both (issue 51): they set one field of the Policy, and the game
    goes on by the one first in SEARCH_ORDER (docs/grading.md), not the first by name."""
    from conftest import reference_transcript
    from pywar.check.referee.judge import Judge
    pair = ("counts_swapped", "counts_other_player")
    first = min(pair, key=SEARCH_ORDER.index)
    assert first != min(pair)              # the order by name would resolve it the other way
    lines = reference_transcript(1).split("\n")[:-1]
    counts = re.compile(r"(Player [AB] has )(\d+)( in their 'to play' pile and )(\d+)(.*)")
    # round 1 (lines 70 and 71): each line's two counts swapped
    for index in (69, 70):
        lines[index] = counts.sub(r"\g<1>\g<4>\g<3>\g<2>\g<5>", lines[index])
    # round 4, a tie (lines 94 and 95: A 22 and 2, B 22 and 4): each on the other's line
    a, b = counts.fullmatch(lines[93]), counts.fullmatch(lines[94])
    assert (a[2], a[4], b[2], b[4]) == ("22", "2", "22", "4")
    lines[93], lines[94] = (f"{a[1]}{b[2]}{a[3]}{b[4]}{a[5]}", f"{b[1]}{a[2]}{b[3]}{a[4]}{b[5]}")
    judge = Judge(lines)
    judged = judge.run()
    assert judge.adopted == set(pair) and set(pair) <= set(judged.mistakes)
    assert judge.policy.follows(mistakes.MISTAKE[first])
    assert judge.policy.counts_shown == dict(mistakes.MISTAKE[first].effects)["counts_shown"]
    assert judged.broken() == ["counts"]
