"""pywar: the card game War as a teaching reference and a simulation engine.

    >>> import pywar
    >>> game = pywar.play(17455)
    >>> game.winner, game.rounds
    ('B', 29)

Two engines play every game: the C core (csrc/, through cffi) and its pure-Python
twin (pywar.twin).  They take the same steps and give the same results.
"""

import os
import warnings
from dataclasses import asdict, dataclass

from . import _checked, batch, twin
from .batch import SimulationInterrupted
from .rules import PRESETS, Rules, make_rules, preset
from .stats import Simulation
from .twin.tabletop import check_deal

__all__ = ["ENGINES", "GameResult", "PRESETS", "Rules", "Simulation", "SimulationInterrupted",
           "check_seed", "default_engine", "make_rules", "play", "preset", "resolve_engine",
           "simulate", "usable_cores"]

ENGINES = ("auto", "c", "python")
SEED_LIMIT = 2 ** 32
PLAYER_NAMES = ("A", "B")


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
    piles: dict              # {"A": {"to_play": n, "played": n}, "B": {...}}
    digest: int              # 64-bit digest of the game's events
    cycle_start: object = None
    cycle_period: object = None
    transcript: object = None

    def to_json(self):
        """The result as a JSON-ready dict (the digest as 16 hex digits, no transcript)."""
        data = asdict(self)
        data.pop("transcript")
        data["digest"] = f"{self.digest:016x}"
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


def default_engine():
    """The engine named by PYWAR_ENGINE, or 'auto'."""
    return os.environ.get("PYWAR_ENGINE", "auto") or "auto"


def resolve_engine(engine=None):
    """'c' or 'python' for an engine name; 'auto' is C when it is built."""
    source = "engine" if engine is not None else "PYWAR_ENGINE"
    engine = default_engine() if engine is None else engine
    if not isinstance(engine, str) or engine not in ENGINES:
        raise ValueError(f"unknown {source} {engine!r}: choose one of {', '.join(ENGINES)}")
    if engine == "c" and not _checked.available():
        raise RuntimeError("the C core is not built: reinstall pywar with a C compiler "
                           "(pip install .), or use engine='python'")
    if engine == "auto":
        if _checked.available():
            return "c"
        warnings.warn("the C core is not built; using the slower Python twin",
                      RuntimeWarning, stacklevel=3)
        return "python"
    return engine


def play(seed, rules="smu", engine=None, transcript=False, deal=None, **dimensions):
    """Play one game of War and return its GameResult.

    rules is a preset name or a Rules value; dimensions (face_down=3, ...) are
    set over it.  engine is 'c', 'python' or 'auto' (default: $PYWAR_ENGINE or
    'auto').  With transcript=True the result carries the game's text; with a text
    stream (sys.stdout, an open file) the text is written to it as the game goes.  deal,
    if given, replaces the shuffled deal: (A's card ids, B's card ids), each hand
    top first, ids being suit * 13 + rank (suits heart, diamond, spade, club).
    """
    seed = check_seed(seed)
    chosen = make_rules(rules, **dimensions)
    engine = resolve_engine(engine)
    deal = None if deal is None else check_deal(deal)
    if engine == "c":
        fields, text = _checked.play(seed, chosen, transcript, deal)
    else:
        counts, text = twin.play(seed, chosen, transcript, deal)
        fields = dict(vars(counts))           # the checked layer's dict form
    winner = fields.pop("winner")
    piles = fields.pop("piles")
    return GameResult(
        rules=chosen.name, seed=seed, engine=engine,
        winner=None if winner is None else PLAYER_NAMES[winner],
        piles={name: {"to_play": pile[0], "played": pile[1]}
               for name, pile in zip(PLAYER_NAMES, piles)},
        transcript=text, **fields)


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


def simulate(n, rules="smu", seed=0, engine=None, jobs=None, progress=None, **dimensions):
    """Play n games, with seeds seed, seed + 1, ... (mod 2^32), and return a Simulation.

    The C engine plays in bulk, split across jobs threads (default: the usable cores);
    the result does not depend on jobs.  The Python twin computes the same arrays,
    slowly.  progress, if given, is called as progress(finished, n) now and then, and
    last as progress(n, n), once every game is finished.  Ctrl-C raises
    SimulationInterrupted, whose .simulation holds the games finished from the first
    seed on, with no gap.
    """
    n = check_count("n", n, high=SEED_LIMIT)
    seed = check_seed(seed)
    jobs = usable_cores() if jobs is None else check_count("jobs", jobs, high=1024)
    chosen = make_rules(rules, **dimensions)
    engine = resolve_engine(engine)
    report = None if progress is None else (lambda finished: progress(finished, n))
    return batch.run(seed, n, chosen, engine, jobs if engine == "c" else 1, report)
