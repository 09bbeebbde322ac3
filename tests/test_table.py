"""pywar.common.table_state rebuilds a game from its trace alone, and the narrator tells its
transcript event by event."""

import json

import pytest

import pywar
from conftest import needs_c
from pywar.common.trace import TraceError, read
from pywar.common.table_state import TableState
from pywar.twin.narrator import narrate_steps

GAMES = [(seed, rules, dimensions) for seed in (1, 12, 351, 1553, 17455)
         for rules, dimensions in [("smu", {}), ("lehigh", {}), ("iofall", {}),
                                   ("smu", {"face_down": 2, "short_war": "all-but-one"}),
                                   ("lehigh", {"players": 3}), ("smu", {"refill": "keep", "max_rounds": 3000})]]


@needs_c
@pytest.mark.parametrize("seed, rules, dimensions", GAMES)
def test_the_table_rebuilds_every_game(seed, rules, dimensions):
    game = pywar.play(seed, rules, engine="c", trace=True, transcript=True, **dimensions)
    table = TableState.from_trace(game.trace.splitlines())
    table.run()
    state = table.state()
    assert table.over
    held = {name: {"to_play": len(pile["to_play"]), "played": len(pile["played"])}
            for name, pile in state["piles"].items()}
    assert held == game.piles
    assert len(state["pot"]) == game.stranded
    counters = state["counters"]
    assert (counters["rounds"], counters["battles"], counters["ties"], counters["wars"]) \
        == (game.rounds, game.battles, game.ties, game.wars)
    assert state["outcome"] == game.outcome
    winner = None if state["winner"] is None else "ABCDEFGH"[state["winner"]]
    assert winner == game.winner


@needs_c
@pytest.mark.parametrize("seed, rules, dimensions", GAMES[:12])
def test_the_steps_narrate_the_transcript(seed, rules, dimensions):
    game = pywar.play(seed, rules, engine="c", trace=True, transcript=True, **dimensions)
    header, events = read(game.trace.splitlines())
    steps = narrate_steps(header, events)
    assert "".join(steps) == game.transcript
    assert len(steps) == len(events)


def test_a_face_up_line_names_the_round_of_the_smu_header():
    """Each step says its own lines: the round header with the round, the plays with
    the battle, the counts with the pickup (or the last refill after it)."""
    game = pywar.play(17455, engine="python", trace=True)
    header, events = read(game.trace.splitlines())
    steps = narrate_steps(header, events)
    kinds = [event["event"] for event in events]
    assert steps[kinds.index("round")] == "======== Round 1 ========\n"
    first_battle = kinds.index("battle")
    assert steps[first_battle].startswith("Player A plays three of spades\n"
                                          "Player B plays four of hearts\nPlayer B wins")
    assert steps[first_battle + 1].startswith("Player A has 25 in their 'to play' pile")


def test_an_edited_trace_is_refused_at_its_line():
    game = pywar.play(17455, engine="python", trace=True)
    lines = game.trace.splitlines()
    event = json.loads(lines[3])                      # A's first face-up card
    assert event["event"] == "face_up"
    event["card"] = (event["card"] + 1) % 52
    lines[3] = json.dumps(event, separators=(",", ":"))
    table = TableState.from_trace(lines)
    with pytest.raises(TraceError, match="line 4 .*not the top of player A's pile"):
        table.run()


def test_a_wrong_size_is_refused():
    game = pywar.play(17455, engine="python", trace=True)
    lines = game.trace.splitlines()
    event = json.loads(lines[2])
    event["pot"] = 7
    lines[2] = json.dumps(event, separators=(",", ":"))
    with pytest.raises(TraceError, match="line 3 .*pot 7"):
        TableState.from_trace(lines).run()


def test_a_table_can_stop_at_any_event():
    game = pywar.play(1553, engine="python", trace=True)
    table = TableState.from_trace(game.trace.splitlines())
    table.run(until=50)
    middle = table.state()
    assert middle["event"] == 50 and not table.over
    cards = sum(len(pile["to_play"]) + len(pile["played"]) for pile in middle["piles"].values())
    assert cards + len(middle["pot"]) == 52
