"""Which engine plays: the engine names, the ones this installation can play, the choice
that 'auto' and $PYWAR_ENGINE make, the port's stack, and the cores a run may use.

The layer over the compiled core (pywar._checked, which loads the core) is imported
where a C engine is asked about, by a plain `from . import _checked` in the function, so
that the port and the twin run on the standard library alone.
"""

import os
import warnings
from dataclasses import replace

from .rules import PRESETS, RulesError, Setting

ENGINES = ("auto", "c", "python", "port-c", "port-python")
PORT_ENGINES = ("port-c", "port-python")


def engines():
    """The engines this installation can play, in the order of ENGINES less 'auto':
    ('c', 'python', 'port-c', 'port-python') when the C core is built, else ('python',
    'port-python').  pywar._checked.missing() says why the core is not there."""
    from . import _checked
    built = _checked.available()
    return tuple(engine for engine in ENGINES[1:] if built or engine in ("python", "port-python"))


def require_c():
    """True when PYWAR_REQUIRE_C is set (to anything but '' or 0): a missing C core is
    then an error where 'auto' would fall back to Python (CI sets it)."""
    return os.environ.get("PYWAR_REQUIRE_C", "").strip() not in ("", "0")


def default_engine():
    """The engine named by PYWAR_ENGINE, or 'auto'."""
    return os.environ.get("PYWAR_ENGINE", "auto") or "auto"


class CoreMissing(RulesError, RuntimeError):
    """engine 'c' or 'port-c' asked for where the C core is not built: a RuntimeError
    whose message names the engine to use instead in the caller's words."""


def resolve_engine(engine=None):
    """'c', 'python', 'port-c' or 'port-python' for an engine name; 'auto' is C when it
    is built."""
    source = "engine" if engine is not None else "PYWAR_ENGINE"
    engine = default_engine() if engine is None else engine
    if not isinstance(engine, str) or engine not in ENGINES:
        raise ValueError(f"unknown {source} {engine!r}: choose one of {', '.join(ENGINES)}")
    if engine in ("python", "port-python"):
        return engine
    from . import _checked
    if engine in ("c", "port-c") and not _checked.available():
        instead = "python" if engine == "c" else "port-python"
        raise CoreMissing("{missing}: {remedy}, or use {instead}", missing=_checked.missing(),
                          remedy=_checked.remedy(),
                          instead=Setting("engine", instead))
    if engine == "auto":
        if _checked.available():
            return "c"
        if require_c():
            raise RuntimeError(f"PYWAR_REQUIRE_C is set and {_checked.missing()}: "
                               f"{_checked.remedy()}")
        warnings.warn(f"{_checked.missing()}; using the Python twin, a few hundred times "
                      f"slower (for the C engine: {_checked.remedy()})",
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


def usable_cores():
    """The number of cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:                  # not on Linux
        return os.cpu_count() or 1
