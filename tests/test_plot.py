"""The figure of pywar simulate --plot (pywar.sim.plot.figure_of), read from the matplotlib
Figure itself: the game lengths stacked by how the games ended, with a legend that
counts them, thousands separators on the axes, and '1 game' for one.  The expected
counts come from the simulation's kept arrays, counted here."""

import numpy as np
import pytest

import pywar
from conftest import needs_c

pytest.importorskip("matplotlib")
from pywar.sim.plot import figure_of  # noqa: E402  (after the skip: it needs matplotlib)


@pytest.fixture(scope="module")
def lehigh():
    """3,000 lehigh games capped at 1,500 rounds: won, cycled and capped games, kept."""
    return pywar.simulate(3000, "lehigh", seed=0, max_rounds=1500)


def tick_labels(axis):
    """The text of an axis's tick labels, once the figure is drawn."""
    axis.figure.canvas.draw()
    return [label.get_text() for label in axis.get_ticklabels() if label.get_text()]


@needs_c
def test_the_lengths_are_stacked_by_how_the_games_ended(lehigh):
    lengths = figure_of(lehigh).axes[0]
    kinds = {"won": 0, "ended in a cycle": 2, "capped at max rounds": 3}
    counts = {words: int(np.count_nonzero(lehigh.outcome == kind)) for words, kind in kinds.items()}
    assert all(counts.values())
    legend = [text.get_text() for text in lengths.get_legend().get_texts()]
    assert legend[:3] == [f"{words} ({count:,} games)" for words, count in counts.items()]
    assert len(lengths.containers) == 3                   # one set of bars an outcome
    for bars, kind in zip(lengths.containers, kinds.values()):
        right = max(bar.get_x() + bar.get_width() for bar in bars)
        shown = np.count_nonzero((lehigh.outcome == kind) & (lehigh.rounds <= right))
        assert sum(bar.get_height() for bar in bars) == shown


@needs_c
def test_the_axes_have_thousands_separators(lehigh):
    lengths, depths = figure_of(lehigh).axes
    assert lehigh.rounds.max() > 1000
    assert "1,000" in tick_labels(lengths.xaxis)
    assert lehigh.war_depths[1] > 10_000 and "10,000" in tick_labels(depths.yaxis)
    assert all("^" not in label and "e+" not in label for label in tick_labels(depths.yaxis))


def test_one_game_is_one_game():
    figure = figure_of(pywar.simulate(1, seed=17455, engine="python"))
    titles = [text.get_text() for text in figure.texts]           # the suptitle
    assert titles == ["pywar: 1 game (smu rules, seeds from 17,455)"]
    legend = [text.get_text() for text in figure.axes[0].get_legend().get_texts()]
    assert legend[0] == "won (1 game)"
    labels = tick_labels(figure.axes[0].yaxis)
    assert {"0", "1"} <= set(labels) and not any("." in label for label in labels)
