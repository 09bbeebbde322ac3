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

from importlib import import_module

from . import check, exact, twin      # check and exact: packages callable as their functions
from .common.fields import PLAYER_NAMES, SEED_LIMIT, check_seed
from .common.trace import TraceError, read as read_trace
from .engine_choice import (ENGINES, PORT_ENGINES, CoreMissing, check_port, checked,
                            default_engine, engines, resolve_engine, usable_cores)
from .exact import ExactResult
from .one_game import GameResult, more_events_than, most_events, play
from .rules import PRESETS, Rules, RulesError, make_rules, preset
from .sim.run import simulate

__all__ = ["CoreMissing", "ENGINES", "ExactResult", "Game", "GameResult", "PRESETS", "Rules",
           "Simulation", "SimulationInterrupted", "TraceError", "check", "check_seed",
           "default_engine", "engines", "exact", "PLAYER_NAMES", "SEED_LIMIT",
           "make_rules", "play", "preset", "read_trace", "resolve_engine", "simulate",
           "usable_cores"]

LAZY = {"Simulation": ("sim.simulation", "Simulation"), "Game": ("step.model", "Game"),
        "SimulationInterrupted": ("sim.simulation", "SimulationInterrupted"),
        "_checked": ("_checked", None)}


def __getattr__(name):
    """The names that need NumPy or the compiled core, imported on first use (PEP 562)."""
    if name not in LAZY:
        raise AttributeError(f"module 'pywar' has no attribute {name!r}")
    module_name, attribute = LAZY[name]
    module = import_module(f".{module_name}", __name__)
    return module if attribute is None else getattr(module, attribute)
