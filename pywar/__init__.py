"""pywar: the card game War as a teaching reference and a simulation engine.

    >>> import pywar
    >>> game = pywar.play(17455)
    >>> game.winner, game.rounds
    ('B', 29)

Two engines play every game: the C core (csrc/, through cffi) and its pure-Python
twin (pywar.twin).  They take the same steps and give the same results.  The port
(csrc/port/, pywar.port) plays the smu rules as the SMU reference program is written,
member for member: engine="port-c" or "port-python".

Every name is imported when first used: NumPy and the compiled core only when a
simulation or a C engine needs them, so that the port runs on the standard library alone.
"""

from importlib import import_module

# Every public name, and the module (under pywar) that defines it.  Nothing is imported
# before a name is first asked for (PEP 562), so that `import pywar.common.rng` or
# `import pywar.port` runs no grader and no NumPy: python -X importtime -c 'import
# pywar.common.rng' took 0.35 s and loaded 37 of pywar's modules, the grader among them,
# when this file imported them all; it takes 0.008 s and loads 3 (medians of 7 runs).
PUBLIC = {
    "check": ("check", None), "exact": ("exact", None), "twin": ("twin", None),
    "compare": ("check.implementations.agreement", "check"), "exact_counts": ("exact.enumeration", "exact"),
    "_checked": ("_checked", None),
    "PLAYER_NAMES": ("common.fields", "PLAYER_NAMES"), "SEED_LIMIT": ("common.fields", "SEED_LIMIT"),
    "check_seed": ("common.fields", "check_seed"),
    "TraceError": ("common.trace", "TraceError"), "read_trace": ("common.trace", "read"),
    "RngPathError": ("common.rng", "RngPathError"),
    "ENGINES": ("engine_choice", "ENGINES"), "PORT_ENGINES": ("engine_choice", "PORT_ENGINES"),
    "CoreMissing": ("engine_choice", "CoreMissing"), "check_port": ("engine_choice", "check_port"),
    "default_engine": ("engine_choice", "default_engine"), "engines": ("engine_choice", "engines"),
    "resolve_engine": ("engine_choice", "resolve_engine"),
    "usable_cores": ("engine_choice", "usable_cores"),
    "ExactResult": ("exact.enumeration", "ExactResult"),
    "GameResult": ("one_game", "GameResult"), "more_events_than": ("one_game", "more_events_than"),
    "most_events": ("one_game", "most_events"), "play": ("one_game", "play"),
    "PRESETS": ("rules", "PRESETS"), "Rules": ("rules", "Rules"), "RulesError": ("rules", "RulesError"),
    "make_rules": ("rules", "make_rules"), "preset": ("rules", "preset"),
    "simulate": ("sim.run", "simulate"),
    "Simulation": ("sim.simulation", "Simulation"),
    "SimulationInterrupted": ("sim.simulation", "SimulationInterrupted"),
    "Game": ("step.model", "SteppedGame"),
}

__all__ = ["CoreMissing", "ENGINES", "ExactResult", "Game", "GameResult", "PRESETS", "Rules",
           "RngPathError", "Simulation", "SimulationInterrupted", "TraceError", "check",
           "check_seed",
           "compare", "exact_counts",
           "default_engine", "engines", "exact", "PLAYER_NAMES", "SEED_LIMIT",
           "make_rules", "play", "preset", "read_trace", "resolve_engine", "simulate",
           "usable_cores"]


def __getattr__(name):
    """A public name, imported from its module on first use (PEP 562)."""
    if name == "__version__":            # asked of the installation, as --version is
        return import_module(".installed", __name__).version()
    if name not in PUBLIC:
        raise AttributeError(f"module 'pywar' has no attribute {name!r}")
    module_name, attribute = PUBLIC[name]
    module = import_module(f".{module_name}", __name__)
    value = module if attribute is None else getattr(module, attribute)
    globals()[name] = value              # the next use finds it without this call
    return value


def __dir__():
    """The module's names and the public ones not yet imported."""
    return sorted(set(globals()) | set(PUBLIC))
