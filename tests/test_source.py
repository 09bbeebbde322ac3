"""Where each event was made (pywar.source): the line the page marks, in Python and in C,
holds the observer call that told that event, for every event of a game; the pairing of
the two ports' calls covers every call of the port; and a C port that drifts from the
Python is refused."""

import inspect
import re

import pytest

import pywar
import pywar.source as source
from pywar.port import program4, tabletop

CALL_OF_EVENT = {"deal": "deal", "round": "round", "face_up": "face_up", "battle": "battle",
                 "pickup": "take", "refill": "refill", "run_out": "run_out", "end": "end"}


def camel(name):
    """face_up -> FaceUp."""
    return "".join(word.capitalize() for word in name.split("_"))


def port_methods():
    """Every function of the port's table and main that tells the observer something."""
    found = [program4.main]
    for _, member in inspect.getmembers(tabletop.TableTop, inspect.isfunction):
        if "observer." in inspect.getsource(member):
            found.append(member)
    return found


def test_every_observer_call_of_the_port_has_its_c_line():
    paired = 0
    for function in port_methods():
        pairs = source.pairing(function.__code__)
        lines, first = inspect.getsourcelines(function)
        python_calls = [first + i for i, line in enumerate(lines) if "observer." in line
                        and not line.strip().startswith("#")
                        and re.search(r"observer\.\w+\(", line)]
        assert sorted(pairs) == python_calls, function.__qualname__
        for py_line, (c_file, c_line, _) in pairs.items():
            call = re.search(r"observer\.(\w+)\(", source.line_of(
                f"pywar/port/{function.__module__.split('.')[-1]}.py", py_line))[1]
            assert f"Observer_{camel(call)}(" in source.line_of(c_file, c_line)
            paired += 1
    assert paired >= 12         # deal, 2 in main, 10 in do_battle (counted by hand)


@pytest.mark.parametrize("seed, stack", [(1553, "pile"), (17455, "adt")])
def test_each_event_is_marked_at_the_call_that_told_it(seed, stack):
    game = pywar.Game(seed, stack=stack)
    for event, place in zip(game.events, game.places):
        call = CALL_OF_EVENT[event["event"]]
        player = {0: "PLAYER_A", 1: "PLAYER_B", None: "None"}.get(
            event.get("player", event.get("winner", "")), "")
        python = source.line_of(place.file, place.line)
        c_file, c_line, _ = source.c_place(place)
        c = source.line_of(c_file, c_line)
        assert python.startswith(f"self.observer.{call}(") or \
            python.startswith(f"table_top.observer.{call}("), (event, python)
        assert f"Observer_{camel(call)}(" in c, (event, c)
        if event["event"] in ("battle", "pickup", "refill", "run_out"):
            assert f"({player})" in python, (event, python)
            assert c.endswith({"PLAYER_A": "PYWAR_PLAYER_A);", "PLAYER_B": "PYWAR_PLAYER_B);",
                               "None": "-1);"}[player]), (event, c)


def test_a_c_port_that_drifts_is_refused(monkeypatch):
    real = source.read_source

    def swapped(relative):
        """tabletop.c with its first two Observer_Battle calls swapped."""
        text = real(relative)
        if relative.endswith("tabletop.c"):
            text = (text.replace("Observer_Battle(observer, PYWAR_PLAYER_A)", "@A@")
                    .replace("Observer_Battle(observer, PYWAR_PLAYER_B)",
                             "Observer_Battle(observer, PYWAR_PLAYER_A)")
                    .replace("@A@", "Observer_Battle(observer, PYWAR_PLAYER_B)"))
        return text

    monkeypatch.setattr(source, "read_source", swapped)
    source.pairing.cache_clear()
    try:
        with pytest.raises(source.SourceDrift, match="TableTop.do_battle tells the observer"):
            source.pairing(tabletop.TableTop.do_battle.__code__)
    finally:
        source.pairing.cache_clear()


def test_the_module_example_runs():
    import doctest
    failures, tried = doctest.testmod(source)
    assert tried > 0 and failures == 0


def test_without_the_c_sources_the_pane_shows_the_python(monkeypatch):
    real = source.read_source

    def no_csrc(relative):
        """As in a wheel: the package's files, no csrc/."""
        if relative.startswith("csrc/"):
            raise FileNotFoundError(relative)
        return real(relative)

    monkeypatch.setattr(source, "read_source", no_csrc)
    source.pairing.cache_clear()
    try:
        game = pywar.Game(17455)
        pane = source.pane(game.header, game.events)
    finally:
        source.pairing.cache_clear()
    assert sorted(pane["files"]) == ["pywar/port/program4.py", "pywar/port/tabletop.py"]
    assert {tuple(place[3:]) for place in pane["places"]} == {("", 0, "")}
    assert len(pane["at"]) == len(game.events)


def test_a_trace_the_port_does_not_make_has_no_pane():
    game = pywar.Game(17455)
    events = [dict(event) for event in game.events]
    events[3]["card"] = (events[3]["card"] + 1) % 52          # not the seed's game
    assert source.pane(game.header, events) is None
