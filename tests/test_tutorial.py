"""docs/tutorial.md runs as it is shown, its exercises' answers included."""

import doctest

from conftest import ROOT


def test_the_tutorial_runs():
    failures, tried = doctest.testfile(str(ROOT / "docs" / "tutorial.md"),
                                       module_relative=False)
    assert tried >= 40 and failures == 0
