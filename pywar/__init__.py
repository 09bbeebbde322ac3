"""pywar: the card game War as a teaching reference and a simulation engine.

    >>> import pywar
    >>> game = pywar.play(17455)
    >>> game.winner, game.rounds
    ('B', 29)

Two engines play every game: the C core (csrc/, through cffi) and its pure-Python
twin (pywar.twin).  They take the same steps and give the same results.  The port
(csrc/port/, pywar.port) plays the smu rules as the SMU reference program is written,
member for member: engine="port-c" or "port-python".

NumPy and the compiled core are imported only when a simulation or a C engine needs
them, so that the port runs on the standard library alone.
"""

import os
import warnings
from contextlib import contextmanager
from dataclasses import asdict, dataclass, replace
from importlib import import_module

from . import twin
from .rules import PRESETS, Rules, RulesError, Setting, check_deal, make_rules, preset

__all__ = ["CoreMissing", "ENGINES", "ExactResult", "Game", "GameResult", "PRESETS", "Rules", "Simulation",
           "SimulationInterrupted", "check_seed", "default_engine", "engines", "exact",
           "make_rules", "play", "preset", "resolve_engine", "simulate", "usable_cores"]

ENGINES = ("auto", "c", "python", "port-c", "port-python")
PORT_ENGINES = ("port-c", "port-python")
LAZY = {"Simulation": ("stats", "Simulation"), "Game": ("game", "Game"),
        "exact": ("exhaustive", "exact"), "ExactResult": ("exhaustive", "ExactResult"),
        "SimulationInterrupted": ("batch", "SimulationInterrupted"),
        "_checked": ("_checked", None), "batch": ("batch", None), "stats": ("stats", None)}
SEED_LIMIT = 2 ** 32
PLAYER_NAMES = tuple("ABCDEFGH")


def __getattr__(name):
    """The names that need NumPy or the compiled core, imported on first use (PEP 562)."""
    if name not in LAZY:
        raise AttributeError(f"module 'pywar' has no attribute {name!r}")
    module_name, attribute = LAZY[name]
    module = import_module(f".{module_name}", __name__)
    return module if attribute is None else getattr(module, attribute)


def checked():
    """pywar._checked, the layer over the compiled core, imported when first needed."""
    return import_module("._checked", __name__)


@dataclass(frozen=True)
class GameResult:
    """How one game went: the same fields from either engine."""
    rules: str
    seed: int
    engine: str
    winner: object           # "A", "B" or None
    outcome: str             # "win", "both-lose", "cycle" or "capped"
    rounds: int
    battles: int             # face-up comparisons
    ties: int
    wars: int
    longest_tie_streak: int
    stranded: int            # cards left in the pot at the end
    piles: dict              # {"A": {"to_play": n, "played": n}, "B": {...}, ...}
    digest: int              # 64-bit digest of the game's events
    cycle_start: object = None
    cycle_period: object = None
    lead_changes: int = 0    # times the player holding the most cards changed
    biggest_pot: int = 0     # the most cards won in one round
    comeback: int = 0        # the largest deficit the winner came back from
    deepest_war: int = 0     # the most wars in one round
    refills: int = 0         # times a 'played' pile became 'to play'
    war_depths: dict = None  # {wars in a round: rounds with that many}
    transcript: object = None
    trace: object = None

    def to_json(self):
        """The result as a JSON-ready dict (the digest as 16 hex digits, no transcript
        and no trace)."""
        data = asdict(self)
        data.pop("transcript")
        data.pop("trace")
        data["digest"] = f"{self.digest:016x}"
        data["war_depths"] = {str(depth): rounds for depth, rounds in sorted(self.war_depths.items())}
        return data


def check_seed(seed):
    """The seed as an int from 0 to 2^32 - 1, or a TypeError or ValueError."""
    if isinstance(seed, bool) or not hasattr(seed, "__index__"):
        raise TypeError(f"seed must be an integer from 0 to {SEED_LIMIT - 1}, "
                        f"not {type(seed).__name__}")
    seed = seed.__index__()
    if not 0 <= seed < SEED_LIMIT:
        raise ValueError(f"seed must be from 0 to {SEED_LIMIT - 1} (32 bits), not {seed}")
    return seed


def engines():
    """The engines this installation can play, in the order of ENGINES less 'auto':
    ('c', 'python', 'port-c', 'port-python') when the C core is built, else ('python',
    'port-python').  pywar._checked.missing() says why the core is not there."""
    built = checked().available()
    return tuple(engine for engine in ENGINES[1:] if built or engine in ("python", "port-python"))


class CoreMissing(RulesError, RuntimeError):
    """engine 'c' or 'port-c' asked for where the C core is not built: a RuntimeError
    whose message names the engine to use instead in the caller's words."""


def require_c():
    """True when PYWAR_REQUIRE_C is set (to anything but '' or 0): a missing C core is
    then an error where 'auto' would fall back to Python (CI sets it)."""
    return os.environ.get("PYWAR_REQUIRE_C", "").strip() not in ("", "0")


def default_engine():
    """The engine named by PYWAR_ENGINE, or 'auto'."""
    return os.environ.get("PYWAR_ENGINE", "auto") or "auto"


def resolve_engine(engine=None):
    """'c', 'python', 'port-c' or 'port-python' for an engine name; 'auto' is C when it
    is built."""
    source = "engine" if engine is not None else "PYWAR_ENGINE"
    engine = default_engine() if engine is None else engine
    if not isinstance(engine, str) or engine not in ENGINES:
        raise ValueError(f"unknown {source} {engine!r}: choose one of {', '.join(ENGINES)}")
    if engine in ("c", "port-c") and not checked().available():
        instead = "python" if engine == "c" else "port-python"
        raise CoreMissing("{missing}: reinstall pywar with a C compiler (pip install .), "
                          "or use {instead}", missing=checked().missing(),
                          instead=Setting("engine", instead))
    if engine == "auto":
        if checked().available():
            return "c"
        if require_c():
            raise RuntimeError(f"PYWAR_REQUIRE_C is set and {checked().missing()}: "
                               "reinstall pywar with a C compiler (pip install .)")
        warnings.warn(f"{checked().missing()}; using the Python twin, a few hundred times "
                      "slower (install a C compiler and reinstall pywar for the C engine)",
                      RuntimeWarning, stacklevel=3)
        return "python"
    return engine


def check_port(engine, rules, stack=None, deal=None):
    """The port's stack for a port engine ('pile' unless given), None for the others.
    A one-line ValueError for a stack with the engines c and python, and for rules
    other than plain smu, or a given deal, with a port engine."""
    if engine not in PORT_ENGINES:
        if stack is not None:
            raise RulesError("{stack} is for the port engines (port-c, port-python), not "
                             "{engine} {value!r}", value=engine)
        return None
    if replace(rules, name="smu") != PRESETS["smu"]:
        raise ValueError(f"the port plays only the smu rules, not {rules.name}")
    if deal is not None:
        raise RulesError("the port deals a shuffled deck only: a given deal needs {engine} "
                         "c or python")
    return "pile" if stack is None else stack


def play(seed, rules="smu", engine=None, transcript=False, deal=None, trace=False,
         stack=None, **dimensions):
    """Play one game of War and return its GameResult.

    rules is a preset name or a Rules value; dimensions (face_down=3, ...) are
    set over it.  engine is 'c', 'python', 'auto' (default: $PYWAR_ENGINE or
    'auto'), or the port of the SMU reference, 'port-c' or 'port-python', which plays
    only smu, with stack 'pile' (Program 4, the default) or 'adt' (Program 6).  With
    transcript=True the result carries the game's text; with a text stream
    (sys.stdout, an open file) the text is written to it as the game goes.  trace
    works the same way for the game's trace (docs/trace.md).  deal, if given,
    replaces the shuffled deal: a hand of card ids per player, each hand top first,
    ids being suit * 13 + rank (suits heart, diamond, spade, club).
    """
    seed = check_seed(seed)
    check_text_target("transcript", transcript)
    check_text_target("trace", trace)
    chosen = make_rules(rules, **dimensions)
    engine = resolve_engine(engine)
    stack = check_port(engine, chosen, stack, deal)
    deal = None if deal is None else check_deal(deal, chosen)
    header = trace_header(engine, seed, chosen, deal, stack) if trace is not False else ""
    if trace not in (False, True):
        trace.write(header)
    if engine == "port-c":
        fields, text, lines = checked().port_play(seed, stack, transcript, trace)
    elif engine == "port-python":
        from . import port
        counts, text, lines = port.play(seed, stack, transcript, trace)
        fields = dict(vars(counts))
    elif engine == "c":
        fields, text, lines = checked().play(seed, chosen, transcript, deal, trace)
    else:
        counts, text, lines = twin.play(seed, chosen, transcript, deal, trace)
        fields = dict(vars(counts))           # the checked layer's dict form
    return game_result(fields, chosen.name, seed, engine, transcript=text,
                       trace=None if lines is None else header + lines)


def more_events_than(limit, seed, rules, engine, deal=None):
    """Whether the game would have more than limit events in its trace, known before it
    is played for its trace: counted in C (the engine's game, for c or python, whose
    games are the same), or without the C core, bounded from the rules' round cap
    (most_events); None when neither can tell.  A port engine's game is never too long:
    the port plays plain smu, shuffled, whose games end within a few thousand rounds
    (and its Python game needs nothing beyond the standard library)."""
    if engine in PORT_ENGINES:
        return False
    if checked().available():
        return checked().count_events(seed, rules, deal, limit) > limit
    return False if most_events(rules) <= limit else None


def most_events(rules):
    """An upper bound on a game's events under the rules: at most cards + 2 battles a
    round, each with a face-up card, two face-down events and two refills per player and
    the battle, then refills and the pickups, for each of max_rounds rounds; the deal,
    the run-outs and the end."""
    from .rules import parse_deck
    ranks, suits = parse_deck(rules.deck)
    cards, players = ranks * suits, rules.players
    per_round = 1 + (cards + 2) * (5 * players + 1) + players + 2
    return 1 + rules.max_rounds * per_round + players + 3


def game_result(fields, rules_name, seed, engine, **texts):
    """The GameResult of a game's fields as an engine gives them (a dict: the winner a
    player number or None, the piles as pairs), with its transcript and trace, if any."""
    fields = dict(fields)
    winner = fields.pop("winner")
    piles = fields.pop("piles")
    return GameResult(
        rules=rules_name, seed=seed, engine=engine,
        winner=None if winner is None else PLAYER_NAMES[winner],
        piles={name: {"to_play": pile[0], "played": pile[1]}
               for name, pile in zip(PLAYER_NAMES, piles)},
        **texts, **fields)


def trace_header(engine, seed, rules, deal=None, stack=None):
    """The first line of a game's trace (docs/trace.md)."""
    from .common.trace import header_line
    return header_line(engine, seed, rules.to_dict(), stack=stack, deal=deal)


def usable_cores():
    """The number of cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:                  # not on Linux
        return os.cpu_count() or 1


def check_count(name, value, low=1, high=None):
    """value as an int from low to high, or a TypeError or ValueError naming them."""
    limit = "" if high is None else f" to {high:,}"
    if isinstance(value, bool) or not hasattr(value, "__index__"):
        raise TypeError(f"{name} must be an integer from {low}{limit}, "
                        f"not {type(value).__name__}")
    value = value.__index__()
    if value < low or (high is not None and value > high):
        raise ValueError(f"{name} must be an integer from {low}{limit}, not {value}")
    return value


def check_callable(name, value):
    """A TypeError naming the argument unless value is None or callable."""
    if value is not None and not callable(value):
        raise TypeError(f"{name} must be a function or None, not {type(value).__name__}")


def check_client(client):
    """A TypeError unless client is None or a distributed.Client (as far as pywar uses
    one: it submits tasks and names its scheduler)."""
    if client is not None and not all(hasattr(client, name) for name in ("submit", "scheduler")):
        raise TypeError(f"client must be a distributed.Client or None, not "
                        f"{type(client).__name__}")


def check_text_target(name, target):
    """A TypeError naming the argument unless target is False, True or a text stream
    (with a write method)."""
    if target is not False and target is not True and not hasattr(target, "write"):
        raise TypeError(f"{name} must be False, True or a text stream (with write), not "
                        f"{type(target).__name__}")
    return target


def simulate(n, rules="smu", seed=0, engine=None, jobs=None, progress=None, keep_games=True,
             csv=None, chunk=None, client=None, **dimensions):
    """Play n games, with seeds seed, seed + 1, ... (mod 2^32), and return a Simulation.

    The C engine plays in bulk, in chunks split across jobs threads (default: the usable
    cores), or across the workers of a Dask cluster given as client (a
    distributed.Client; pip install 'pywar[dask]'); the result does not depend on jobs,
    chunk (games per chunk, default: sized automatically) or the workers.  The Python
    twin computes the same, slowly.  Each chunk is summed into exact statistics as it
    finishes; keep_games=False keeps only those, so memory does not grow with n, and
    keep_games=True (the default) also keeps every game's fields as arrays.  csv, a path
    or a binary file, receives one row per game in seed order as chunks finish.
    progress, if given, is called as progress(finished, n) now and then, and last as
    progress(n, n), once every game is finished.  Ctrl-C raises SimulationInterrupted,
    whose .simulation holds the games finished from the first seed on, with no gap.
    """
    n = check_count("n", n, high=SEED_LIMIT)
    seed = check_seed(seed)
    jobs = usable_cores() if jobs is None else check_count("jobs", jobs, high=1024)
    chunk = None if chunk is None else check_count("chunk", chunk, high=SEED_LIMIT)
    chosen = make_rules(rules, **dimensions)
    engine = resolve_engine(engine)
    if engine in PORT_ENGINES:
        raise ValueError("the port plays one game at a time (pywar.play): "
                         "simulate with engine c or python")
    csv = None if csv is None else check_binary_file("csv", csv)
    check_callable("progress", progress)
    check_client(client)
    report = None if progress is None else (lambda finished: progress(finished, n))
    from . import batch
    if keep_games:
        batch.check_memory(n)       # before the CSV file is opened (and emptied)
    with csv_target(csv) as rows:
        if client is not None:
            from . import cluster
            return cluster.simulate(client, seed, n, chosen, engine, report, keep_games,
                                    rows, chunk)
        return batch.run(seed, n, chosen, engine, jobs if engine == "c" else 1, report,
                         keep_games, rows, chunk)


def check_binary_file(name, target):
    """target if it is a path (as a str) or a binary file, or a TypeError naming the
    argument (a text file, a file descriptor), before any work."""
    from .atomic import check_path
    if not hasattr(target, "write"):
        return check_path(name, target, "a path or a binary file")
    try:
        target.write(b"")
    except TypeError:
        raise TypeError(f"{name} must be a path or a binary file (open(path, 'wb')), not "
                        f"the text file {type(target).__name__}") from None
    return target


@contextmanager
def csv_target(csv):
    """A binary file for CSV rows: None, a file given, or a path written through
    pywar.atomic: put in place when the run ends, or is interrupted (the finished games'
    rows), and left as it was after a failure."""
    if csv is None or hasattr(csv, "write"):
        yield csv
        return
    from .atomic import written
    from .batch import SimulationInterrupted
    with written(csv, keep=SimulationInterrupted) as handle:
        yield handle
