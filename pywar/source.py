"""Where in the source each event of a game was made: the page's code pane.

    >>> import pywar
    >>> game = pywar.Game(1553)
    >>> tie = next(i for i, e in enumerate(game.events) if e["event"] == "battle"
    ...            and e["winner"] is None)
    >>> python, c = game.places[tie], c_place(game.places[tie])
    >>> python.function, line_of(python.file, python.line)
    ('TableTop.do_battle', 'self.observer.battle(None)')
    >>> c[2], line_of(c[0], c[1])
    ('TableTop_DoBattle', 'Observer_Battle(observer, -1);')

The port (smu rules): every event is told by a call to the observer, so its Python line
is that call (pywar.game's Place) and its C line is the same call in csrc/port/.  The
pairing is worked out, not written down: the observer calls of a Python method are
paired in order with those of the C function its docstring names (C: TableTop_DoBattle),
and a pair whose calls differ, in name or player, is a SourceDrift error, so a change to
one language that the other lacks cannot go unseen (tests/test_source.py pairs every
call of the port).  The engine's rule sets: the line of the twin (pywar/twin/game.py)
that told the event, found the same way, from the frame that called Game.tell.
"""

import ast
import inspect
import os
import re
import sys
import textwrap
from dataclasses import replace
from functools import lru_cache

from . import twin
from .common.trace import read, spell
from .game import PACKAGE_ROOT, Recorder, TooLong, place_of
from .port.program4 import main as port_main
from .rules import preset

TWIN_FOLDER = os.path.dirname(os.path.abspath(twin.Game.tell.__code__.co_filename))
PY_CALL = re.compile(r"\bobserver\.(\w+)\(([^)]*)\)")
C_CALL = re.compile(r"\bObserver_(\w+)\(([^)]*)\)")
C_PLAYERS = {"PYWAR_PLAYER_A": "A", "PYWAR_PLAYER_B": "B", "-1": "nobody"}
PY_PLAYERS = {"PLAYER_A": "A", "PLAYER_B": "B", "None": "nobody"}


class SourceDrift(ValueError):
    """The Python port and the C port no longer make the same events in the same order."""


def snake(name):
    """A C name's words in snake case: FaceUp -> face_up."""
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


def read_source(relative):
    """The text of a file of the project (a path from the folder that holds pywar)."""
    with open(os.path.join(PACKAGE_ROOT, relative), encoding="utf-8") as file:
        return file.read()


def line_of(relative, number):
    """One line of a file of the project, without its indentation."""
    return read_source(relative).splitlines()[number - 1].strip()


def c_function(text, name):
    """(first, last) line numbers of a C function's definition in a file's text."""
    lines = text.splitlines()
    starts = [number for number, line in enumerate(lines, start=1)
              if re.match(rf"\w[\w\s\*]*\b{name}\(", line) and not line.rstrip().endswith(";")]
    if not starts:
        raise SourceDrift(f"no C function {name} in the file")
    first = starts[0]
    last = next(number for number in range(first, len(lines) + 1) if lines[number - 1] == "}")
    return first, last


def calls(pattern, lines, first, players, name=lambda word: word):
    """The observer calls in some numbered lines: [(line, call, player)]."""
    found = []
    for number, line in enumerate(lines, start=first):
        for match in pattern.finditer(line):
            argument = match[2].split(",")[-1].strip()
            found.append((number, name(match[1]), players.get(argument, "")))
    return found


@lru_cache(maxsize=None)
def pairing(code):
    """The C place of each observer call in a port method (a code object):
    {python line: (C file, C line, C function)}, or SourceDrift."""
    lines, first = inspect.getsourcelines(code)
    doc = ast.get_docstring(ast.parse(textwrap.dedent("".join(lines))).body[0]) or ""
    named = re.search(r"\bC: (\w+)", doc)
    if named is None:
        raise SourceDrift(f"{code.co_qualname} names no C function in its docstring")
    c_name = named[1]
    module = os.path.splitext(os.path.basename(code.co_filename))[0]
    c_file = f"csrc/port/{module}.c"
    c_text = read_source(c_file)
    c_first, c_last = c_function(c_text, c_name)
    c_lines = c_text.splitlines()[c_first - 1:c_last]
    python = calls(PY_CALL, lines, first, PY_PLAYERS)
    c = [call for call in calls(C_CALL, c_lines, c_first, C_PLAYERS, snake)
         if call[1] != "init"]                  # Observer_Init: Python's Observer(...)
    said = [(call, player) for _, call, player in python]
    if said != [(call, player) for _, call, player in c]:
        raise SourceDrift(f"{code.co_qualname} tells the observer {said}, but {c_name} in "
                          f"{c_file} tells it {[(call, player) for _, call, player in c]}")
    return {py_line: (c_file, c_line, c_name)
            for (py_line, _, _), (c_line, _, _) in zip(python, c)}


def c_place(place):
    """The C port's place of a Python port's Place: (file, line, function)."""
    return pairing(place.code)[place.line]


def c_place_or_none(place):
    """c_place, or ('', 0, '') where the C sources are not installed (a wheel has no
    csrc/: its page shows the Python only)."""
    try:
        return c_place(place)
    except OSError:
        return "", 0, ""


# ---- The twin's places

class TwinRecorder(Recorder):
    """A recorder of the twin's trace that keeps, for each line, the twin's frame that
    called Game.tell."""

    def __init__(self, limit):
        """A recorder of at most limit lines, with their places."""
        super().__init__(keep_places=True, limit=limit)

    def append(self, line):
        """Keep a line of the trace and where the twin told it."""
        super().append(line)
        frame = sys._getframe(1)
        while frame is not None and (frame.f_code.co_name == "tell"
                                     or os.path.dirname(frame.f_code.co_filename)
                                     != TWIN_FOLDER):
            frame = frame.f_back
        self.places.append(None if frame is None else place_of(frame))


def replayed(play, recorder, header):
    """Play a game into a recorder: its (events, places), or (None, None) for a game
    longer than the trace (not its game)."""
    try:
        play()
    except TooLong:
        return None, None
    return read([spell(header)] + recorder.lines)[1], recorder.places


def port_places(header, limit):
    """The port's events and places for a trace's header: (events, places)."""
    recorder = Recorder(keep_places=True, limit=limit)
    stack = header.get("stack") or "pile"
    return replayed(lambda: port_main(header["seed"], stack, None, recorder), recorder, header)


def twin_places(header, limit):
    """The twin's events and places for a trace's header: (events, places)."""
    recorder = TwinRecorder(limit)
    game = twin.Game(header["seed"], replace(preset("smu"), **header["rules"]), None, recorder)
    if header.get("deal") is not None:
        game.set_deal(header["deal"])
    return replayed(game.play, recorder, header)


def is_port_game(header):
    """True for a plain smu game: the port can replay it."""
    return header.get("deal") is None and header["rules"] == preset("smu").to_dict()


# ---- The pane

def pane(header, events):
    """What the page's code pane shows, as plain data: the source files, each place once
    ([python file, line, function, C file, line, function]: C empty for the twin), and
    the place of each event (an index); None when the game cannot be replayed here to the
    same events (a trace from elsewhere)."""
    if is_port_game(header):
        events_again, places = port_places(header, len(events) + 1)
        describe = lambda place: [place.file, place.line, place.function,  # noqa: E731
                                  *c_place_or_none(place)]
    else:
        events_again, places = twin_places(header, len(events) + 1)
        describe = lambda place: [place.file, place.line, place.function, "", 0, ""]  # noqa
    if events_again != events or None in places:
        return None
    table, at = [], []
    index = {}
    for place in places:
        key = (place.file, place.line)
        if key not in index:
            index[key] = len(table)
            table.append(describe(place))
        at.append(index[key])
    files = sorted({row[0] for row in table} | {row[3] for row in table if row[3]})
    return {"files": {name: read_source(name) for name in files}, "places": table, "at": at}
