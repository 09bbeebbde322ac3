"""Step through one game, event by event: pywar.Game.

    >>> import pywar
    >>> game = pywar.Game(17455)                 # smu: the port, in Python
    >>> game.step().kind, game.step().kind
    ('deal', 'round')
    >>> print(game.battle()[-1].narration, end="")
    Player A plays three of spades
    Player B plays four of hearts
    Player B wins the 'currently in play' pile.
    <BLANKLINE>
    >>> steps = game.run()
    >>> game.over, game.result.winner, game.result.rounds
    (True, 'B', 29)

How it works: a Game plays the whole game once, when it is made, with the Python
implementation (the port's program4.main, or the twin's Game), and keeps what that run
writes: the trace's lines (docs/trace.md), and for the port, where in its source each
event was made (the observer's hook, pywar.common.observer).  Stepping then reads only
the trace: pywar.common.table_state.TableState moves the cards event by event, and the narrator
(narrate_steps) gives each event the transcript's lines that belong to it.  So stepping
to the end gives exactly the transcript and the result that pywar.play gives.

Going back: back() and goto(n) replay the events from the start up to the one wanted
(the cards only, with no engine: 100,000 to 700,000 events a second here, so a
game of 10,000 events goes back in a tenth of a second at most).

Memory: every event is kept, as its trace line and as a dict, about 1.5 KB an event in
all (with the narration and, for the port, the place).  A smu game of 1,000 rounds has
about 6,000 events: 9 MB.  A game of more than MAX_EVENTS events (a million, about
1.5 GB) is refused with a StepError before it is played for its events (they are
counted in C first: pywar.one_game.more_events_than): play it with pywar.play.
"""

import inspect
import os
import sys
from dataclasses import dataclass, field

from .. import twin
from ..common.fields import PLAYER_NAMES, StreamText, check_seed
from ..common.table_state import TableState
from ..common.trace import read
from ..engine_choice import check_port
from ..one_game import game_result, more_events_than, trace_header
from ..port.program4 import main as port_main
from ..rules import check_deal, make_rules, parse_deck
from ..twin.narrator import narrate_steps

ENGINES = ("port-python", "python")
MAX_EVENTS = 1_000_000
PORT_FOLDER = os.path.dirname(os.path.abspath(port_main.__code__.co_filename))
PACKAGE_ROOT = os.path.dirname(os.path.dirname(PORT_FOLDER))
SUIT_LETTERS = "HDSC"
FACES = {8: "10", 9: "J", 10: "Q", 11: "K", 12: "A"}


class StepError(RuntimeError):
    """A step that cannot be taken: past the end, before the start, too long a game."""


# ---- Where the port made an event

@dataclass(frozen=True)
class Place:
    """A line of the port's source: the file (from the folder that holds pywar), the line,
    and the method running there."""
    file: str
    line: int
    function: str
    code: object = field(repr=False, compare=False, default=None)

    def __str__(self):
        """As pywar/port/tabletop.py:76 in TableTop.do_battle."""
        return f"{self.file}:{self.line} in {self.function}"

    def source(self):
        """The method's source: (its first line number, its lines)."""
        lines, first = inspect.getsourcelines(self.code)
        return first, lines


def place_of(frame):
    """The Place where a frame is now."""
    code = frame.f_code
    function = getattr(code, "co_qualname", None)             # Python 3.11 on
    if function is None:
        owner = frame.f_locals.get("self")
        function = code.co_name if owner is None else f"{type(owner).__name__}.{code.co_name}"
    return Place(file=os.path.relpath(code.co_filename, PACKAGE_ROOT), line=frame.f_lineno,
                 function=function, code=code)


class TooLong(Exception):
    """Raised inside the recorded game when it passes the recorder's limit."""


class Recorder:
    """Where a recorded game's trace goes: its lines, and (for the port) the places
    that made them, which the observer fills through locate()."""

    def __init__(self, keep_places, limit):
        """A recorder of at most limit lines; keep_places asks the observer for places."""
        self.lines = []
        self.places = [] if keep_places else None
        self.limit = limit

    def append(self, line):
        """Keep one line of the trace, or stop the game past the limit."""
        if len(self.lines) >= self.limit:
            raise TooLong()
        self.lines.append(line)

    def locate(self):
        """The innermost frame of the port's own code: where it made the event now told."""
        frame = sys._getframe(1)
        while frame is not None and os.path.dirname(frame.f_code.co_filename) != PORT_FOLDER:
            frame = frame.f_back
        return None if frame is None else place_of(frame)


# ---- Recording a game

def stepping_engine(engine, rules, deal):
    """The engine to record with: port-python for plain smu, else python; a one-line
    ValueError for the others."""
    if engine is None:
        try:
            check_port("port-python", rules, None, deal)
            return "port-python"
        except ValueError:
            return "python"
    if engine not in ENGINES:
        raise ValueError(f"a Game steps the Python implementations: engine "
                         f"{' or '.join(repr(name) for name in ENGINES)}, not {engine!r}")
    return engine


def record(seed, rules, engine, stack, deal, recorder):
    """Play the game with a Python implementation into the recorder: its Counts."""
    if engine == "port-python":
        return port_main(seed, stack, None, recorder)
    game = twin.Game(seed, rules, None, recorder)
    if deal is not None:
        game.set_deal(deal)
    return game.play()


# ---- What a step gives

@dataclass(frozen=True)
class Step:
    """One event of the game: its index among the trace's events (the deal is 0: event 1
    in what the stepper prints), the event as the trace spells it, the transcript's lines
    for it, and where the port made it."""
    index: int
    event: dict
    narration: str
    place: object = None

    @property
    def kind(self):
        """The event's kind: deal, round, face_up, battle, pickup, refill, ..."""
        return self.event["event"]

    def __repr__(self):
        """As <Step: event 5 (battle), round 1, battle 1>."""
        return (f"<Step: event {self.index + 1} ({self.kind}), round {self.event['round']}, "
                f"battle {self.event['battle']}>")


def card_label(card, deck):
    """A card's short name: rank then suit letter, as QS or 10H (rank numbers 1 to R
    on a deck of R ranks other than 13)."""
    ranks, _ = parse_deck(deck)
    rank, suit = card % ranks, card // ranks
    if ranks == 13:
        rank_name = FACES.get(rank, str(rank + 2))
    else:
        rank_name = str(rank + 1)
    suit_name = SUIT_LETTERS[suit] if suit < len(SUIT_LETTERS) else f"/{suit + 1}"
    return rank_name + suit_name


class State(dict):
    """The table as plain data (a dict: json.dumps takes it) that prints readably."""

    def __init__(self, data, deck="13x4"):
        """The state's data, and the deck that names its cards."""
        super().__init__(data)
        self.deck = deck

    def labels(self, cards):
        """Cards as short names, space-separated, or a dash for none."""
        return " ".join(card_label(card, self.deck) for card in cards) or "-"

    def __str__(self):
        """The piles top first, the pot top first with who put each card, the counters."""
        counters = self["counters"]
        lines = [f"round {counters['rounds']}, battle {counters['battles']}, "
                 f"after event {self['event']} ({self['kind']})"]
        for name, pile in self["piles"].items():
            out = "  (out)" if name in self["out"] else ""
            lines.append(f"{name} to play ({len(pile['to_play'])}): "
                         f"{self.labels(pile['to_play'])}{out}")
            lines.append(f"{name} played  ({len(pile['played'])}): {self.labels(pile['played'])}")
        pot = " ".join(f"{card_label(entry['card'], self.deck)}({entry['player']})"
                       for entry in self["pot"]) or "-"
        lines.append(f"pot ({len(self['pot'])}): {pot}")
        lines.append("ties {ties}, wars {wars}, refills {refills}".format(**counters))
        if self["outcome"] is not None:
            winner = "nobody" if self["winner"] is None else PLAYER_NAMES[self["winner"]]
            lines.append(f"over: {self['outcome']}, {winner} wins")
        return "\n".join(lines)


# ---- The game, step by step

def too_long():
    """The StepError of a game of more than MAX_EVENTS events."""
    return StepError(f"the game is longer than {MAX_EVENTS:,} events, too long to step "
                     "through: play it with pywar.play")


class SteppedGame:
    """One game of War, to step through event by event (docs/tutorial.md): pywar.Game.
    Named apart from the twin's Game (pywar.twin.game, C: struct Game), the engine's
    game that this one plays."""

    def __init__(self, seed, rules="smu", engine=None, stack=None, deal=None, **dimensions):
        """Play the game of a seed with a Python implementation, keep its events, and stand
        before the deal.  rules is a preset name or a Rules value, with any dimensions set
        over it; engine is 'port-python' (the port: plain smu only, the default there)
        or 'python' (the engine's twin: every rule set, the default elsewhere); stack is
        the port's 'pile' or 'adt'; deal, a given deal (the engine only)."""
        self.seed = check_seed(seed)
        self.rules = make_rules(rules, **dimensions)
        self.engine = stepping_engine(engine, self.rules, deal)
        self.stack = check_port(self.engine, self.rules, stack, deal)
        self.deal = None if deal is None else check_deal(deal, self.rules)
        if more_events_than(MAX_EVENTS, self.seed, self.rules, self.engine, self.deal):
            raise too_long()
        recorder = Recorder(keep_places=self.engine == "port-python", limit=MAX_EVENTS)
        try:
            counts = record(self.seed, self.rules, self.engine, self.stack, self.deal, recorder)
        except TooLong:
            raise too_long() from None
        header = trace_header(self.engine, self.seed, self.rules, self.deal, self.stack)
        self.lines = [header] + recorder.lines
        self.header, self.events = read(self.lines)
        self.narrations = narrate_steps(self.header, self.events)
        self.places = recorder.places
        self.final = game_result(vars(counts), self.rules.name, self.seed, self.engine)
        self.table = TableState(self.header, self.events)

    def __repr__(self):
        """As <Game of seed 17455, smu, port-python: event 5 of 181, round 1>."""
        return (f"<Game of seed {self.seed}, {self.rules.name}, {self.engine}: event "
                f"{self.position} of {len(self.events)}, round {self.table.counters.rounds}>")

    @property
    def trace(self):
        """The game's whole trace, as pywar.play(..., trace=True) gives it."""
        return "".join(self.lines)

    @property
    def position(self):
        """How many events have been stepped through (0 before the deal)."""
        return self.table.step

    @property
    def over(self):
        """True once the last event (the end) has been stepped through."""
        return self.table.over

    @property
    def result(self):
        """The GameResult, as pywar.play gives it, once the game is over; None before."""
        return self.final if self.over else None

    def step_at(self, index):
        """The Step of the event at an index of the trace."""
        place = None if self.places is None else self.places[index]
        return Step(index, self.events[index], self.narrations[index], place)

    @property
    def last(self):
        """The Step last taken, or None before the deal."""
        return None if self.position == 0 else self.step_at(self.position - 1)

    def step(self):
        """Step through one event: the Step taken."""
        if self.over:
            raise StepError(f"the game is over (after round {self.table.counters.rounds}): "
                            "back() or goto() to look again, or make a new Game")
        index = self.position
        self.table.apply(self.events[index])
        return self.step_at(index)

    def __iter__(self):
        """The steps from here to the end."""
        while not self.over:
            yield self.step()

    def steps_until(self, done):
        """Step at least once, until done(step) or the end: the Steps taken."""
        steps = [self.step()]
        while not (self.over or done(steps[-1])):
            steps.append(self.step())
        return steps

    def battle(self):
        """Step through the next battle: to its comparison of face-up cards."""
        return self.steps_until(lambda step: step.kind == "battle")

    def tie(self):
        """Step to the next tie: a battle that nobody wins."""
        return self.steps_until(lambda step: step.kind == "battle"
                                and step.event["winner"] is None)

    def war(self):
        """Step to the next war's battle: the comparison of the face-up cards played
        after a tie, in the same round."""
        wars = self.table.counters.wars
        return self.steps_until(lambda step: step.kind == "battle"
                                and self.table.counters.wars > wars)

    def until(self, round):
        """Step until round number `round` has begun (its header), or to the end."""
        if isinstance(round, bool) or not isinstance(round, int) or round < 1:
            raise ValueError(f"round must be a whole number from 1, not {round!r}")
        now = self.table.counters.rounds
        if round <= now:
            raise StepError(f"round {round} has begun already (this is round {now}): until "
                            "goes forward; back() or goto() go back")
        return self.steps_until(lambda step: step.kind == "round"
                                and step.event["round"] >= round)

    def round(self):
        """Step to the start of the next round: the rest of this one, and its header."""
        return self.until(round=self.table.counters.rounds + 1)

    def run(self):
        """Step through every event left: the Steps taken."""
        return self.steps_until(lambda step: False)

    def goto(self, position):
        """Stand after `position` events (0: before the deal), replaying the events from
        the start."""
        if isinstance(position, bool) or not isinstance(position, int) \
                or not 0 <= position <= len(self.events):
            raise ValueError(f"position must be a whole number from 0 to {len(self.events)}, "
                             f"not {position!r}")
        self.table = TableState(self.header, self.events)
        self.table.run(until=position)

    def back(self):
        """Go back one step (the events are replayed from the start)."""
        if self.position == 0:
            raise StepError("at the start, before the deal: there is no step to go back to")
        self.goto(self.position - 1)

    def state(self):
        """The table now: each pile top first, the pot top first with who put each card
        down, the players out and the counters (a State: a dict that prints readably)."""
        if self.position == 0:
            raise StepError("no cards are dealt yet: step() deals them")
        data = self.table.state()
        data["kind"] = self.events[self.position - 1]["event"]
        return State(data, self.rules.deck)


MACHINERY = ("pywar.common.*", "pywar.step.*")   # what pdb steps over
PORT_ADDITIONS = {"read_pile", "count_pile", "pile_of"}   # TableTop's, for the observer


def machinery(frame):
    """True for a frame of pywar's machinery, or of code it called: the observer, the
    digest and the trace, and the TableTop methods that only the observer calls."""
    while frame is not None:
        module = frame.f_globals.get("__name__", "")
        if module.startswith("pywar.common.") or (
                module == "pywar.port.tabletop" and frame.f_code.co_name in PORT_ADDITIONS):
            return True
        frame = frame.f_back
    return False


def debugger():
    """A pdb that steps over pywar's machinery (machinery()), none of it the reference's,
    so that s(tep) at an observer call goes on to the reference's next line."""
    import pdb

    class Debugger(pdb.Pdb):
        def stop_here(self, frame):
            return not machinery(frame) and super().stop_here(frame)

    return Debugger(skip=MACHINERY)


def debug(seed, rules, engine, stack, stream):
    """Play a game under pdb, stopped first in the port's TableTop.do_battle (the twin's
    Game.play_round for engine python), the transcript written to stream.  pdb steps
    over pywar's own machinery (the observer, the digest, the trace), so that s(tep)
    goes into the port's or the twin's code only."""
    import pdb
    session = debugger()
    text = StreamText(stream)
    if engine == "port-python":
        stop, function, arguments = "TableTop.do_battle", port_main, (seed, stack, text)
    else:
        game = twin.Game(seed, rules, text)
        stop, function, arguments = "Game.play_round", game.play, ()
    print(f"pywar step --pdb: seed {seed}, engine {engine}; stopping in {stop} "
          "(c continues, n next line, s steps in, p EXPR prints, q quits)", file=sys.stderr)
    session.cmdqueue = [f"tbreak {stop}", "continue"]
    try:
        session.runcall(function, *arguments)
    except pdb.bdb.BdbQuit:
        pass
