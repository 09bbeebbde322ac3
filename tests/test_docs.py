"""The README's examples run, and docs/rules.md's test vectors hold in both engines."""

import doctest
import re

import pytest

import pywar
from conftest import ROOT


def test_readme_examples():
    failures, tried = doctest.testfile(str(ROOT / "README.md"), module_relative=False)
    assert tried > 0 and failures == 0


def rules_md_vectors():
    """The rows of the 'Whole games' table in docs/rules.md."""
    text = (ROOT / "docs" / "rules.md").read_text()
    table = text[text.index("Whole games"):]
    rows = re.findall(r"^\| (smu|lehigh|iofall|iofall-single) \| (.*)\|$", table, re.M)
    return [(name, [cell.strip() for cell in cells.split("|")]) for name, cells in rows]


@pytest.mark.parametrize("name, cells", rules_md_vectors())
def test_rules_md_vectors(name, cells):
    seed, winner, outcome, rounds, battles, ties, wars, streak, stranded, digest = cells
    game = pywar.play(int(seed), name, engine="python")
    assert (game.winner or "nobody") == winner
    assert outcome.startswith(game.outcome)
    if game.outcome == "cycle":
        assert f"start {game.cycle_start}, period {game.cycle_period}" in outcome
    assert [game.rounds, game.battles, game.ties, game.wars, game.longest_tie_streak,
            game.stranded] == [int(rounds), int(battles), int(ties), int(wars), int(streak),
                               int(stranded)]
    assert f"{game.digest:016x}" == digest


def test_rules_md_has_vectors_for_every_preset():
    assert {name for name, _ in rules_md_vectors()} == set(pywar.PRESETS)
