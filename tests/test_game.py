"""pywar.Game: stepping through a game gives the transcript and the result that play gives,
and each step stands where the hand-worked facts say."""

import dataclasses
import functools
import json
import subprocess
import sys
from pathlib import Path

import pytest

import pywar
from conftest import ROOT, reference_transcript
import pywar.step.model
from pywar import _checked
from pywar.common.observer import Observer
from pywar.step.model import StepError
from pywar import Game

CHECK_ENGINE = "c" if _checked.available() else "python"


@functools.lru_cache(maxsize=None)
def recorded(seed):
    """The smu Game of a seed, recorded once for the module's tests."""
    return Game(seed)


def fresh(seed):
    """The recorded Game of a seed, back before the deal."""
    game = recorded(seed)
    game.goto(0)
    return game


def played(seed, rules="smu", **dimensions):
    """The game as pywar.play gives it (the C engine where it is built): its result
    and transcript."""
    return pywar.play(seed, rules, engine=CHECK_ENGINE, transcript=True, **dimensions)


def same_result(game, expected):
    """The Game's result equals play's, apart from the engine named and the transcript."""
    return game.result == dataclasses.replace(expected, engine=game.engine, transcript=None)


# ---- Stepping to the end is playing the game

@pytest.mark.parametrize("seed", [1, 1553, 17455])
def test_stepping_prints_the_reference_transcript(seed):
    game = fresh(seed)
    told = "".join(step.narration for step in game)
    assert game.engine == "port-python" and game.over
    assert told == reference_transcript(seed)
    assert same_result(game, played(seed))


@pytest.mark.parametrize("seed, rules, engine, stack, dimensions", [
    (17455, "smu", "port-python", "adt", {}),
    (17455, "smu", "python", None, {}),
    (12, "lehigh", None, None, {}),                      # repeats: the cycle is found
    (7, "iofall", None, None, {}),
    (6, "iofall-single", None, None, {}),
    (1, "smu", None, None, {"max_rounds": 5}),           # the cap
    (351, "lehigh", None, None, {"players": 3}),
    (12, "smu", None, None, {"face_down": 2, "short_war": "all-but-one"}),
])
def test_stepping_to_the_end_equals_play(seed, rules, engine, stack, dimensions):
    game = Game(seed, rules, engine=engine, stack=stack, **dimensions)
    steps = game.run()
    expected = played(seed, rules, **dimensions)
    assert "".join(step.narration for step in steps) == expected.transcript
    assert same_result(game, expected)
    assert [step.index for step in steps] == list(range(len(game.events)))


def test_every_preset_is_stepped():
    presets = {"smu", "lehigh", "iofall", "iofall-single", "cecs325"}
    assert presets == set(pywar.PRESETS)
    assert Game(12, "lehigh").engine == "python" and Game(1).engine == "port-python"


def test_the_trace_is_plays_trace():
    game = Game(17455, "smu", engine="python")
    assert game.trace == pywar.play(17455, engine="python", trace=True).trace


# ---- Hand-worked facts

def test_seed_17455_has_29_rounds():
    game = Game(17455)
    game.until(round=29)
    assert game.last.kind == "round" and not game.over
    with pytest.raises(StepError, match="round 29 has begun already"):
        game.until(round=29)
    game.run()
    assert game.result.rounds == 29 and game.result.winner == "B"


def test_seed_1553_has_five_ties_in_a_row():
    game = fresh(1553)
    game.until(round=286)
    ties = [game.tie()[-1].event for _ in range(5)]
    assert [(tie["round"], tie["battle"]) for tie in ties] == [(286, b) for b in range(306, 311)]
    assert game.battle()[-1].event["winner"] == 1          # B wins battle 311


def test_seed_1_ends_with_two_cards_stranded_in_the_pot():
    game = fresh(1)
    game.run()
    state = game.state()
    assert state["pot"] == [{"card": 20, "player": "B"}, {"card": 46, "player": "A"}]
    assert state["out"] == ["B"] and game.result.stranded == 2
    assert "pot (2): 9D(B) 9C(A)" in str(state)           # two nines: the tie B could not go on


def test_seed_0_plays_as_seed_1():
    assert Game(0).events == recorded(1).events


def test_the_first_battle_of_seed_17455():
    """docs/trace.md: card 27 is A's three of spades, card 2 B's four of hearts."""
    game = Game(17455)
    steps = game.battle()
    assert [step.kind for step in steps] == ["deal", "round", "face_up", "face_up", "battle"]
    state = game.state()
    assert state["pot"] == [{"card": 2, "player": "B"}, {"card": 27, "player": "A"}]
    assert str(state).splitlines()[-2:] == ["pot (2): 4H(B) 3S(A)", "ties 0, wars 0, refills 0"]
    assert json.loads(json.dumps(state)) == state


# ---- The units of a step

def test_a_round_goes_to_the_start_of_the_next():
    game = Game(17455)
    assert [step.kind for step in game.round()] == ["deal", "round"]
    rest = game.round()
    assert rest[-1].kind == "round" and rest[-1].event["round"] == 2
    assert [step.kind for step in rest[:-1]].count("round") == 0


def test_a_war_is_the_battle_after_a_tie():
    game = fresh(1553)
    war = game.war()[-1]
    before = game.events[:war.index]
    last_battle = max(i for i, event in enumerate(before) if event["event"] == "battle")
    assert war.kind == "battle" and before[last_battle]["winner"] is None
    assert before[last_battle]["round"] == war.event["round"]
    assert game.state()["counters"]["wars"] == 1


def test_back_goes_back_one_step():
    game = Game(17455)
    states = []
    for _ in range(12):
        game.step()
        states.append(game.state())
    game.back()
    game.back()
    assert game.position == 10 and game.state() == states[9]
    assert game.step().index == 10 and game.state() == states[10]
    game.goto(0)
    with pytest.raises(StepError, match="before the deal"):
        game.back()


# ---- Errors say what is wrong in one line

def test_stepping_past_the_end_is_an_error():
    game = Game(17455)
    game.run()
    for move in (game.step, game.battle, game.run, game.round):
        with pytest.raises(StepError, match="the game is over"):
            move()
    assert game.result is not None


def test_state_before_the_deal_is_an_error():
    game = Game(17455)
    assert game.result is None and game.last is None
    with pytest.raises(StepError, match="no cards are dealt yet"):
        game.state()


@pytest.mark.parametrize("kwargs, words", [
    ({"engine": "c"}, "engine 'port-python' or 'python', not 'c'"),
    ({"engine": "port-c"}, "not 'port-c'"),
    ({"engine": "port-python", "rules": "lehigh"}, "the port plays only the smu rules"),
    ({"engine": "python", "stack": "adt"}, "stack is for the port engines"),
    ({"rules": "war"}, "unknown rules 'war'"),
    ({"engine": "port-python", "deal": ([1], [2])}, "the port deals a shuffled deck only"),
])
def test_bad_arguments_are_refused_in_one_line(kwargs, words):
    with pytest.raises(ValueError, match=words) as caught:
        Game(1, **kwargs)
    assert "\n" not in str(caught.value)


def test_a_game_too_long_to_keep_is_refused(monkeypatch):
    monkeypatch.setattr(pywar.step.model, "MAX_EVENTS", 100)
    with pytest.raises(StepError, match="longer than 100 events"):
        Game(17455)


def test_a_given_deal_is_stepped():
    game = Game(0, "smu", deal=([2, 0], [1]))
    game.run()
    assert game.result == pywar.play(0, "smu", engine="python", deal=([2, 0], [1]))


# ---- Where the port made each event

OBSERVER_CALLS = {"deal": "observer.deal()", "round": "observer.round()",
                  "face_up": "observer.face_up()", "battle": "observer.battle(",
                  "pickup": "observer.take(", "refill": "observer.refill(",
                  "run_out": "observer.run_out(", "end": "observer.end()"}


@pytest.mark.parametrize("seed", [1, 17455])
def test_each_event_names_the_line_of_the_port_that_made_it(seed):
    game = fresh(seed)
    root = Path(pywar.__file__).parent.parent
    sources = {name: (root / name).read_text().splitlines()
               for name in ("pywar/port/tabletop.py", "pywar/port/program4.py")}
    places = set()
    for step in game:
        place = step.place
        assert OBSERVER_CALLS[step.kind] in sources[place.file][place.line - 1], (step, place)
        places.add(place)
    assert {place.function for place in places} == {"TableTop.__init__", "TableTop.do_battle",
                                                    "main"}
    for place in places:
        first, source = place.source()
        assert first <= place.line < first + len(source)
        assert source[0].lstrip().startswith(f"def {place.function.split('.')[-1]}(")


def test_the_observer_keeps_no_places_unless_asked():
    assert Observer(lambda pile: [], []).places is None
    assert Game(17455, engine="python").places is None


def test_the_port_game_needs_nothing_beyond_the_standard_library():
    code = ("import sys, pywar; game = pywar.Game(17455); game.run(); "
            "assert game.engine == 'port-python' and game.result.rounds == 29; "
            "assert 'numpy' not in sys.modules and 'pywar._core' not in sys.modules")
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)


def test_steps_and_games_print_readably():
    game = Game(17455)
    assert repr(game) == "<Game of seed 17455, smu, port-python: event 0 of 165, round 0>"
    assert repr(game.step()) == "<Step: event 1 (deal), round 0, battle 0>"
    assert str(game.last.place) == "pywar/port/tabletop.py:49 in TableTop.__init__"


def test_the_module_examples_run():
    import doctest
    failures, tried = doctest.testmod(pywar.step.model)
    assert tried > 0 and failures == 0
