"""war_rounds, the statistic added by following docs/development.md's checklist: the
rounds of a game with at least one war, counted alike by the four implementations, the
batch and the twin, and equal to what the game's trace shows."""

import json
from collections import Counter

import numpy as np
import pytest

import pywar
from conftest import needs_c

SEEDS = (1553, 17455, 12, 286)


def rounds_with_a_war(trace):
    """The rounds of a trace with two battles or more (a war is a further battle)."""
    events = [json.loads(line) for line in trace.splitlines()[1:]]
    battles = Counter(event["round"] for event in events if event["event"] == "battle")
    return sum(1 for count in battles.values() if count > 1)


@pytest.mark.parametrize("engine", [pytest.param("c", marks=needs_c), "python",
                                    pytest.param("port-c", marks=needs_c), "port-python"])
@pytest.mark.parametrize("seed", SEEDS)
def test_war_rounds_are_the_rounds_whose_trace_has_a_war(engine, seed):
    """Each implementation's count is the trace's rounds with more than one battle, and
    the war depths' rounds added up."""
    game = pywar.play(seed, engine=engine, trace=True)
    assert game.war_rounds == rounds_with_a_war(game.trace) == sum(game.war_depths.values())
    assert game.war_rounds <= game.wars


@pytest.mark.parametrize("rules", ["smu", "iofall", "lehigh"])
def test_a_batch_counts_war_rounds_as_the_twin(rules):
    """simulate's arrays: the C batch and the Python twin give the same column, and not
    a column of zeros."""
    twin = pywar.simulate(40, rules, seed=3, engine="python").arrays["war_rounds"]
    if pywar._checked.available():
        c = pywar.simulate(40, rules, seed=3, engine="c").arrays["war_rounds"]
        assert np.array_equal(c, twin)
    assert twin.sum() > 0


def test_the_summary_spreads_war_rounds():
    """The summary gives war_rounds' mean and maximum, as the games' column gives them."""
    simulation = pywar.simulate(60, "smu", seed=0, engine="python")
    column = simulation.arrays["war_rounds"]
    summary = simulation.summary()
    shown = {key: value for key, value in summary.items() if "war_rounds" in key}
    assert shown, sorted(summary)
    assert any(value == column.max() for value in shown.values())
    assert any(abs(value - column.mean()) < 1e-9 for value in shown.values()
               if isinstance(value, float))
