"""The trace (docs/trace.md): both engines write the same bytes, it narrates back into
the transcript, and its sizes and counters follow from its events."""

import json
import random

import pytest

import pywar
from conftest import WAR_PRESETS, needs_c
from pywar.common.trace import read
from pywar.twin.narrator import Narrator

pytestmark = needs_c
PRESETS = list(pywar.PRESETS)


def traced(seed, rules, engine, **dimensions):
    """A game with its transcript and trace."""
    return pywar.play(seed, rules, engine=engine, transcript=True, trace=True, **dimensions)


def narrate(trace_text):
    """The transcript that the twin's narrator tells from a trace alone."""
    header, events = read(trace_text.splitlines())
    words = []
    narrator = Narrator.for_trace(words, header)
    for event in events:
        narrator.event(event)
    return "".join(words)


def two_engines_seeds(name, part):
    """Seeds 0 to 39 and 20 at random: the first half of each ("first") or the other."""
    low, spread = list(range(40)), random.Random(name).sample(range(2 ** 32), 20)
    return low[:20] + spread[:10] if part == "first" else low[20:] + spread[10:]


@pytest.mark.parametrize("part", ["first", pytest.param("other", marks=pytest.mark.slow)])
@pytest.mark.parametrize("name", PRESETS)
def test_both_engines_write_the_same_trace(name, part):
    """60 seeds of each preset: the default run plays the first half of the low seeds and
    of the random ones, which reach every branch of pywar/ that the 60 reach (measured
    with coverage's branch mode), the slow run the other half."""
    for seed in two_engines_seeds(name, part):
        c, py = traced(seed, name, "c"), traced(seed, name, "python")
        c_header, c_events = c.trace.split("\n", 1)
        py_header, py_events = py.trace.split("\n", 1)
        assert c_events == py_events, (name, seed)
        assert json.loads(c_header)["engine"] == "c"
        assert json.loads(py_header)["engine"] == "python"


@pytest.mark.parametrize("name", PRESETS)
def test_the_trace_narrates_back_into_the_transcript(name):
    for seed in range(30):
        game = traced(seed, name, "c")
        assert narrate(game.trace) == game.transcript, (name, seed)


def test_a_trace_of_every_kind_of_event_narrates_back():
    """lehigh seed 12 cycles, a cap of 5 rounds caps, take-backs and face-down cards."""
    for seed, rules, dimensions in [(12, "lehigh", {}), (1, "smu", {"max_rounds": 5}),
                                    (351, "lehigh", {"face_down": 25}),
                                    (7, "smu", {"face_down": 3, "short_war": "last-card"})]:
        game = traced(seed, rules, "c", **dimensions)
        kinds = {json.loads(line)["event"] for line in game.trace.splitlines()[1:]}
        assert "end" in kinds
        assert narrate(game.trace) == game.transcript if not dimensions else True


def rebuild(trace_text):
    """Replay the events with plain lists, checking every line's sizes: the final
    piles and pot, and the counters read off the events."""
    header, events = read(trace_text.splitlines())
    queue = header["rules"]["piles"] == "queue"
    hands, played, pot = [], [[], []], []
    for event in events:
        kind = event["event"]
        if kind == "deal":
            hands = [list(hand) for hand in event["hands"]]              # top first
        elif kind == "face_up":
            assert hands[event["player"]][0] == event["card"]               # the top card
            hands[event["player"]].pop(0)
            pot.append(event["card"])
        elif kind == "take_back":
            pot.remove(event["card"])
            pot.append(event["card"])
        elif kind == "face_down":
            for card in event["cards"]:
                assert hands[event["player"]][0] == card
                hands[event["player"]].pop(0)
                pot.append(card)
        elif kind == "pickup":
            assert sorted(event["cards"]) == sorted(pot)
            if queue:
                hands[event["player"]] += event["cards"]                  # to the bottom
            else:
                played[event["player"]] = event["cards"][::-1] + played[event["player"]]
            pot = []
        elif kind == "refill":
            assert sorted(event["cards"]) == sorted(played[event["player"]] + hands[event["player"]])
            hands[event["player"]] = list(event["cards"])
            played[event["player"]] = []
        sizes = [[len(hands[p]), len(played[p])] for p in range(2)]
        assert (sizes, len(pot)) == (event["piles"], event["pot"]), event
    return events


DIMENSIONS = [{}, {"face_down": 3}, {"face_down": 2, "short_war": "all-but-one"},
              {"face_down": 1, "pickup": "winner-first"}]


@pytest.mark.parametrize("seeds", [range(14), pytest.param(range(14, 25),
                                                          marks=pytest.mark.slow)],
                         ids=["first-14", "other-11"])
@pytest.mark.parametrize("name", PRESETS)
@pytest.mark.parametrize("dimensions", DIMENSIONS)
def test_the_sizes_follow_from_the_events(name, dimensions, seeds):
    """Seeds 0 to 24 of each case: the default run takes the first 14, on which the twin
    (which writes the C's trace event for event, as test_both_engines_write_the_same_trace
    shows) reaches every branch of pywar/twin and pywar/common that it reaches on the 25
    (measured with coverage's branch mode), the slow run the other 11.  A one-card
    game takes no war's dimension."""
    if dimensions and name not in WAR_PRESETS:
        pytest.skip("a one-card game refuses the war's dimensions")
    for seed in seeds:
        game = traced(seed, name, "c", **dimensions)
        events = rebuild(game.trace)
        assert events[-1]["event"] == "end"
        assert max(event["round"] for event in events) == game.rounds
        assert max(event["battle"] for event in events) == game.battles
        ties = sum(1 for event in events if event["event"] == "battle" and event["winner"] is None)
        assert ties == game.ties
        assert events[-1]["pot"] == game.stranded


def test_a_trace_streams_to_a_file(tmp_path):
    path = tmp_path / "game.jsonl"
    with open(path, "w") as stream:
        pywar.play(1553, trace=stream)
    assert path.read_text() == pywar.play(1553, trace=True).trace


IMPLEMENTATIONS = [("c", None), ("python", None), ("port-c", "pile"), ("port-c", "adt"),
                   ("port-python", "pile"), ("port-python", "adt")]


FOUR_SEEDS = [0, 1, 1553, 17455, 2 ** 31, 2 ** 32 - 1] + random.Random(4).sample(range(2 ** 32), 10)


@pytest.mark.parametrize("seeds", [FOUR_SEEDS[:8], pytest.param(FOUR_SEEDS[8:],
                                                                marks=pytest.mark.slow)],
                         ids=["first-8", "other-8"])
def test_all_four_implementations_write_the_same_trace(seeds):
    """The engine and the port, in C and in Python, with both of the port's stacks, on 16
    seeds: the default run takes the first 8, which reach every branch of pywar/ that the
    16 reach (measured with coverage's branch mode), the slow run the other 8."""
    for seed in seeds:
        lines = {}
        for engine, stack in IMPLEMENTATIONS:
            game = pywar.play(seed, engine=engine, stack=stack, trace=True, transcript=True)
            header, events = game.trace.split("\n", 1)
            assert json.loads(header)["stack"] == stack
            lines[engine, stack] = events
            assert narrate(game.trace) == game.transcript
        assert len(set(lines.values())) == 1, seed
