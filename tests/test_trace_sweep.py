"""Slow: the four implementations write one trace on 1,006 seeds, and replay
finds every one of them, and the engines' traces under every rule set, legal.
(.ci/run runs this file.)"""

import json
import random

import pytest

import pywar
from conftest import needs_c
from pywar.check.implementations.replay import check_trace, header_of

pytestmark = [pytest.mark.slow, needs_c]
SEEDS = [0, 1, 1553, 17455, 2 ** 31, 2 ** 32 - 1] + random.Random(9).sample(range(2 ** 32), 1000)


PARTS = 8      # the seeds in eight parts, so that pytest-xdist's workers share them (one
               # part, 2,006 seeds then, took 10 minutes on one core of the 2-core VM)


@pytest.mark.parametrize("part", range(PARTS))
def test_the_four_implementations_write_one_trace_replay_accepts(part):
    """The traces are the same bytes from the second line on, so replay checks their
    events once (the C engine's) and each header."""
    for i, seed in list(enumerate(SEEDS))[part::PARTS]:
        stack = ("pile", "adt")[i % 2]
        traces = [pywar.play(seed, engine=engine, stack=given, trace=True).trace
                  for engine, given in [("c", None), ("python", None), ("port-c", "pile"),
                                        ("port-c", "adt"), ("port-python", stack)]]
        headers, events = zip(*(trace.split("\n", 1) for trace in traces))
        assert len(set(events)) == 1, seed
        assert [header_of(header)["engine"] for header in headers] == [
            "c", "python", "port-c", "port-c", "port-python"]
        result = check_trace(traces[0])
        assert result.fault is None, (seed, result.fault)


RULES = [("smu", {}), ("lehigh", {}), ("iofall", {}), ("iofall-single", {}),
         ("smu", {"face_down": 1, "short_war": "last-card"}),
         ("smu", {"face_down": 2, "short_war": "all-but-one", "pickup": "seat-interleaved"}),
         ("lehigh", {"pickup": "winner-first"}), ("lehigh", {"pickup": "loser-first"}),
         ("lehigh", {"players": 5, "pickup": "seat-block"}),
         ("lehigh", {"players": 4, "face_down": 1, "pickup": "natural"}),
         ("smu", {"face_down": 2, "short_war": "all-but-one", "pickup": "natural"}),
         ("iofall", {"pickup": "sorted"}),
         ("iofall", {"players": 3, "face_down": 2}),
         ("smu", {"refill": "keep", "max_rounds": 2000, "pickup": "pot-order"}),
         ("lehigh", {"deck": "6x2", "face_down": 1}),
         ("smu", {"shuffle": "fisher-yates", "deck": "9x3", "players": 4})]


RULE_SET_SEEDS = 60     # 150 took 11 minutes of CPU on the 2-core VM (5 players' seat-block alone
                        # 3), a third of CI's slow run


@pytest.mark.parametrize("rules, dimensions", RULES,
                         ids=[json.dumps(d) or r for r, d in RULES])
def test_replay_accepts_the_engines_traces_under_every_rule_set(rules, dimensions):
    for seed in range(RULE_SET_SEEDS):
        trace = pywar.play(seed, rules, engine="c", trace=True, **dimensions).trace
        result = check_trace(trace)
        assert result.fault is None, (seed, result.fault)
