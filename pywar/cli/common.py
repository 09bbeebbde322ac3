"""What the pywar subcommands share: one-line usage errors, the rule options, seeds,
engines, a progress bar on stderr, and the handling of Ctrl-C."""

import argparse
import difflib
import signal
import textwrap
import os
import sys
import threading
import time
import warnings
from contextlib import contextmanager

import pywar
from .. import installed
from ..stopping import STOPPING
from ..rules import (DECK_HELP, DIMENSIONS, GAMES, MAX_FACE_DOWN, MAX_PLAYERS, MAX_ROUNDS_LIMIT,
                     PICKUPS, PILES, PRESETS, REFILLS, SHORT_WARS, SHUFFLES, RulesError,
                     make_rules)

PROG = "pywar"
RANGES = {"face_down": (0, MAX_FACE_DOWN), "max_rounds": (1, MAX_ROUNDS_LIMIT),
          "players": (2, MAX_PLAYERS)}
NAMED = {"short_war": SHORT_WARS, "pickup": PICKUPS, "piles": PILES, "shuffle": SHUFFLES,
         "refill": REFILLS, "game": GAMES}
DIMENSION_HELP = {           # what each dimension is, in a few words (docs/rules.md section 6)
    "face_down": "cards each player puts face down in a war",
    "short_war": "what a player with too few cards for a war does",
    "pickup": "the order in which a won pot joins the winner's cards",
    "piles": "each player's cards",
    "shuffle": "the shuffle, at the deal and wherever cards are shuffled",
    "max_rounds": "a game that reaches this many rounds ends as capped",
    "deck": DECK_HELP,
    "players": "players at the table",
    "refill": "how 'played' becomes 'to play' in a two-pile game",
    "game": "the game",
}
VALUE_HELP = {               # what each value of a named dimension means
    "short_war": {"lose": "it loses", "last-card": "all but its last card down, that one up",
                  "all-but-one": "as last-card, and with no card it takes its last one back",
                  "iofall": "iofall/War's rule"},
    "pickup": {"smu": "the pot reversed, the last card down first",
               "pot-order": "as it was put down", "random": "shuffled",
               "winner-first": "the winner's cards, then the others'",
               "loser-first": "the others' cards, then the winner's",
               "seat-interleaved": "one card of each seat in turn",
               "seat-block": "seat by seat from A",
               "natural": "the pot reversed, each battle's cards highest first: "
                          "Delahaye and Mathieu's 'naturelle'",
               "sorted": "the pot by rank, highest first: Delahaye and Mathieu's "
                         "'optimisee'"},
    "piles": {"to-play+played": "a pile to play and a pile of winnings, which refills it",
              "queue": "one queue, winnings at the bottom"},
    "shuffle": {"smu": "104 swaps of two random positions",
                "swap-each": "each position swapped with a random one",
                "fisher-yates": "Fisher-Yates"},
    "refill": {"shuffle": "shuffled", "keep": "as it lies"},
    "game": {"war": "War, with wars and won cards",
             "one-card": "single battles, no war, no cards won back; the most won wins"},
}
RULES_GROUP = ("Each option sets one dimension over the preset: 'pywar rules' lists them and "
               "each preset's settings, and docs/rules.md (section 6) defines every value.")


class UsageError(Exception):
    """A bad command line: main() prints it as one line and returns 2."""


class Formatter(argparse.RawDescriptionHelpFormatter):
    """Help that wraps a paragraph (never at a hyphen: values such as pot-order stay
    whole), and keeps a text of several lines (the epilogs: examples, exit status) as
    written."""

    def _fill_text(self, text, width, indent):
        if "\n" in text:
            return super()._fill_text(text, width, indent)
        return "\n".join(indent + line for line in self._split_lines(text, width - len(indent)))

    def _split_lines(self, text, width):
        return textwrap.wrap(" ".join(text.split()), width, break_on_hyphens=False)


class Parser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are one line, without the usage dump, that takes
    long options only in full (no abbreviations), and keeps its epilog's lines."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("allow_abbrev", False)
        kwargs.setdefault("formatter_class", Formatter)
        super().__init__(*args, **kwargs)

    def _check_value(self, action, value):
        """argparse's check of a choice, with the nearest choice named ('did you mean
        simulate?'), as Python 3.14's suggest_on_error does."""
        if action.choices is not None and isinstance(value, str) and value not in action.choices:
            choices = [str(choice) for choice in action.choices]
            near = difflib.get_close_matches(value, choices, n=1)
            if near:
                raise argparse.ArgumentError(action, f"invalid choice: {value!r}: did you mean "
                                                     f"{near[0]!r}? (choose from "
                                                     f"{', '.join(choices)})")
        super()._check_value(action, value)

    def error(self, message):
        """Raise a UsageError reading 'prog: error: message'."""
        raise UsageError(f"{self.prog}: error: {' '.join(message.split())}")


def version():
    """The installed version of pywar and the engines built, as --version prints them:
    '0.1.0 (engines: c, python, port-c, port-python)'."""
    number = installed.version()
    notes = [f"engines: {', '.join(pywar.engines())}"]
    core = pywar._checked                  # the facade's, loaded now: --version asks
    if not core.available():
        notes.append(f"{core.missing()}: for c and port-c, {core.remedy()}")
    elif core.sanitized():
        notes.append("C core built with PYWAR_SANITIZE")
    return f"{number} ({'; '.join(notes)})"


class Version(argparse.Action):
    """--version: print 'pywar' and version(), then exit (the same after any subcommand).
    Unlike argparse's own, it asks which engines are built only when given, so that other
    commands load no C core."""

    def __init__(self, option_strings, dest=argparse.SUPPRESS, default=argparse.SUPPRESS,
                 help="show the version and the engines built, and exit"):
        super().__init__(option_strings, dest=dest, default=default, nargs=0, help=help)

    def __call__(self, parser, namespace, values, option_string=None):
        print(f"{PROG} {version()}")
        parser.exit()


def integer(text, valid):
    """The text, ASCII digits only (no sign, space, underscore or other script's digit),
    as an int, or an argparse error: 'valid, not text'."""
    if not (text.isascii() and text.isdigit()):
        raise argparse.ArgumentTypeError(f"{valid}, not {text!r}")
    return int(text)


def seed_type(text):
    """An argparse type: a seed from 0 to 2^32 - 1, checked by pywar.check_seed."""
    seed = integer(text, f"seed must be an integer from 0 to {pywar.SEED_LIMIT - 1}")
    try:
        return pywar.check_seed(seed)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def whole_number(dimension):
    """An argparse type for a numeric dimension, in its range; argparse's message names
    the option."""
    low, high = RANGES[dimension]
    return count_type(low, high)


def option(dimension):
    """The command-line option that sets a dimension."""
    if dimension == "detect_cycles":
        return "--no-cycle-detection"
    return "--" + dimension.replace("_", "-")


def values_help(dimension):
    """The values of a named dimension, each with its meaning: 'lose (it loses), ...'."""
    return ", ".join(f"{value} ({meaning})" for value, meaning in VALUE_HELP[dimension].items())


def add_rule_options(parser):
    """Add --rules and one option per rule dimension, to set over the preset, each with
    what its values mean."""
    parser.add_argument("--rules", default="smu", choices=list(PRESETS), metavar="R",
                        help="the preset to play: %(choices)s (default: %(default)s; "
                             "'pywar rules' shows their settings)")
    group = parser.add_argument_group("rule dimensions, set over the preset", RULES_GROUP)
    for dimension in DIMENSIONS:
        about = DIMENSION_HELP.get(dimension)
        if dimension in RANGES:
            low, high = RANGES[dimension]
            group.add_argument(option(dimension), type=whole_number(dimension), metavar="N",
                               help=f"{about}: {low} to {high:,}")
        elif dimension in NAMED:
            group.add_argument(option(dimension), choices=NAMED[dimension], metavar="X",
                               help=f"{about}: {values_help(dimension)}")
        elif dimension == "deck":
            group.add_argument(option(dimension), metavar="RxS", help=about)
    group.add_argument(option("detect_cycles"), dest="detect_cycles", action="store_false",
                       default=None, help="play on through repeated states, to --max-rounds "
                                          "(only where a game can repeat)")


def examples(*lines):
    """A help epilog of example command lines, each (command, what it does): the title
    'examples:', and each command on a line of its own, what it does under it."""
    return "examples:\n" + "".join(f"  {command}\n      {what}\n" for command, what in lines)


BULK_ENGINES = ("auto", "c", "python")      # the engines that play many games


def add_engine_option(parser, engines=pywar.ENGINES):
    """Add --engine, one of engines."""
    parser.add_argument("--engine", choices=engines,
                        help="%(choices)s (default: $PYWAR_ENGINE or auto)")
    parser.set_defaults(engine_choices=engines)


def rule_dimensions(args):
    """The dimensions given on the command line, as keyword arguments for pywar.play."""
    return {name: getattr(args, name) for name in DIMENSIONS
            if getattr(args, name, None) is not None}


@contextmanager
def usage_errors(parser):
    """Turn the library's TypeError, ValueError, RuntimeError or ImportError (a missing
    extra) into a usage error; a RulesError names the settings by their options
    (--face-down).  (A file that cannot be written is not one: exit 3.)"""
    try:
        yield
    except RulesError as error:
        parser.error(error.named(option))
    except (TypeError, ValueError, RuntimeError, ImportError) as error:
        parser.error(str(error))


def rules_and_engine(args):
    """The checked Rules and engine ('c' or 'python') of parsed args; warnings on stderr."""
    with usage_errors(args.parser), warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        rules = make_rules(args.rules, **rule_dimensions(args))
        check_engine_variable(args)     # before resolving it: its hints name --engine
        engine = pywar.resolve_engine(args.engine)
    for warning in caught:
        print(f"{PROG}: warning: {warning.message}", file=sys.stderr)
    return rules, engine


def check_engine_variable(args):
    """A usage error naming $PYWAR_ENGINE when it, not --engine, names an engine that
    this command does not play."""
    named = pywar.default_engine()
    choices = getattr(args, "engine_choices", pywar.ENGINES)
    if args.engine is None and named not in choices:
        raise ValueError(f"PYWAR_ENGINE={named} is not an engine of this command: "
                         f"choose one of {', '.join(choices)}, or unset it")


def add_jobs_option(parser):
    """Add --jobs: the C engine's threads."""
    parser.add_argument("--jobs", type=count_type(1), metavar="J",
                        help="threads for the C engine (default: the usable cores; the "
                             "Python engine plays in one thread, and refuses more)")


def check_jobs(args, engine):
    """A usage error for --jobs above 1 with the Python engine, which plays in one
    thread."""
    if args.jobs is not None and args.jobs > 1 and engine == "python":
        args.parser.error(f"--jobs {args.jobs} needs --engine c: the Python engine plays "
                          "in one thread")


def table(rows):
    """Rows of cells as left-aligned columns, each line indented by two spaces."""
    widths = [max(len(str(row[i])) for row in rows) for i in range(len(rows[0]))]
    return "".join("  " + "  ".join(f"{cell!s:{width}}" for cell, width in zip(row, widths))
                   .rstrip() + "\n" for row in rows)


def count_type(low, high=None):
    """An argparse type for a whole number from low (to high); argparse's message names
    the option: "argument --jobs: must be an integer from 1, not 0"."""
    valid = f"must be an integer from {low}" + ("" if high is None else f" to {high:,}")

    def parse(text):
        value = integer(text, valid)
        if value < low or (high is not None and value > high):
            raise argparse.ArgumentTypeError(f"{valid}, not {value}")
        return value
    return parse


def add_progress_option(parser):
    """Add --progress / --no-progress (default: a bar when stderr is a terminal)."""
    parser.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                        help="show a progress bar on stderr (default: when it is a terminal)")


def terminal_columns():
    """The width of the terminal on stderr, 0 when it gives none (or is none)."""
    try:
        return os.get_terminal_size(sys.stderr.fileno()).columns
    except (OSError, ValueError):
        return 0


class Progress:
    """A progress bar on stderr (tqdm's), shown once the work has taken more than a
    second: the share done, the games, their rate and the time left (h:mm:ss), fitted
    to the terminal's width as it changes, so a redraw never wraps onto a new line.
    Without a bar (stderr is not a terminal, or --no-progress), work that will take
    more than LONG seconds says so once, in one line, after WARN_AFTER seconds."""

    DELAY = 1.0
    EVERY = 0.1                     # seconds between redraws, at most
    WARN_AFTER = 5.0                # seconds of work that give a fair rate
    LONG = 300.0                    # seconds left that are worth a warning
    COLUMNS, ROWS = 80, 24          # a terminal that gives no size (tqdm draws nothing)
    FORMAT = ("{desc} [{bar}] {percentage:5.1f}% {n:,}/{total:,} games, {rate_noinv_fmt}, "
              "{remaining} left")
    clock = staticmethod(time.monotonic)

    def __init__(self, label, enabled):
        self.label = label
        self.enabled = sys.stderr.isatty() if enabled is None else enabled
        self.start = self.clock()
        self.bar = None
        self.warned = False
        self.first = None               # (seconds, games) at the first report

    def __call__(self, finished, total):
        """Move the bar to finished of total games (drawn from DELAY seconds on)."""
        elapsed = self.clock() - self.start
        if not self.enabled:
            self.warn_if_long(finished, total, elapsed)
            return
        if self.bar is None and elapsed < self.DELAY:
            return
        if self.bar is None:
            from tqdm import tqdm
            sized = terminal_columns() > 0      # a terminal of no width (some ptys): 80
            self.bar = tqdm(total=total, initial=finished, desc=self.label, unit=" games",
                            unit_scale=True, file=sys.stderr, mininterval=self.EVERY,
                            dynamic_ncols=sized, ncols=None if sized else self.COLUMNS,
                            nrows=None if sized else self.ROWS,
                            bar_format=self.FORMAT, ascii=" #")
        self.bar.total = total
        self.bar.update(finished - self.bar.n)

    def warn_if_long(self, finished, total, elapsed):
        """Say once how long the rest will take, at the rate since the first report, if
        that is more than LONG seconds."""
        if self.first is None:
            self.first = (elapsed, finished)
        seconds, games = elapsed - self.first[0], finished - self.first[1]
        if self.warned or seconds < self.WARN_AFTER or games <= 0:
            return
        rate = games / seconds
        left = (total - finished) / rate
        self.warned = True
        if left > self.LONG:
            print(f"{PROG}: warning: {self.label} {total:,} games at {rate:,.0f} a second: "
                  f"{finished:,} done, about {left / 60:.0f} minutes left (--progress "
                  "draws a bar)", file=sys.stderr, flush=True)

    def close(self):
        """Draw the bar one last time and end its line, if it was drawn."""
        if self.bar is not None:
            self.bar.close()


RECEIVED = []                # the stopping signals a command has received, first first


def interrupted_status():
    """The exit status of a command that a signal stopped: 128 + the first one received,
    130 for Ctrl-C (SIGINT), 143 for SIGTERM, 129 for SIGHUP."""
    return 128 + (RECEIVED[0] if RECEIVED else signal.SIGINT)


def interrupted_words():
    """How a stopped command says what stopped it: 'interrupted' (Ctrl-C), or for
    another signal, 'stopped by SIGTERM'."""
    number = RECEIVED[0] if RECEIVED else signal.SIGINT
    if number == signal.SIGINT:
        return "interrupted"
    return f"stopped by {signal.Signals(number).name}"


def interrupted_line():
    """The one line a stopped command prints: 'pywar: interrupted', or for another
    signal than Ctrl-C, 'pywar: stopped by SIGTERM'."""
    return f"{PROG}: {interrupted_words()}"


def stopping_signal(signum, frame):
    """The handler of Ctrl-C, SIGTERM and SIGHUP while a command runs: recorded, then
    raised as Ctrl-C is, so that every command reports its finished work as for
    Ctrl-C."""
    RECEIVED.append(signum)
    raise KeyboardInterrupt


@contextmanager
def stopping_signals():
    """While a command runs (main()), SIGTERM and SIGHUP are handled as Ctrl-C is (each
    one not ignored); on leaving, the handlers are put back."""
    RECEIVED.clear()
    previous = {}
    if threading.current_thread() is threading.main_thread():
        for number in STOPPING:
            if signal.getsignal(number) not in (signal.SIG_IGN, None):
                previous[number] = signal.signal(number, stopping_signal)
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)


class InterruptGuard:
    """A context in which the first Ctrl-C (or SIGTERM, or SIGHUP, while main() handles
    them) raises KeyboardInterrupt, unless holding is set; after the first, or while
    holding, a signal is only recorded in seen.  Outside the main thread, or for a
    signal not handled by Python, it changes nothing."""

    def __init__(self):
        self.seen = False
        self.holding = False
        self.previous = {}

    def __enter__(self):
        if threading.current_thread() is threading.main_thread():
            for number in STOPPING:
                if callable(signal.getsignal(number)):
                    self.previous[number] = signal.signal(number, self.handle)
        return self

    def handle(self, signum, frame):
        """The signal handler: raise for the first signal, unless holding."""
        first = not (self.seen or self.holding)
        self.seen = True
        RECEIVED.append(signum)
        if first:
            raise KeyboardInterrupt

    def __exit__(self, *exception):
        for number, handler in self.previous.items():
            signal.signal(number, handler)
        return False


def add_seed_range_options(parser, required=False, default=None):
    """Add -n/--games and --seed: the games with seeds S, S+1, ..., S+N-1."""
    parser.add_argument("-n", "--games", type=count_type(1), required=required,
                        default=default, metavar="N",
                        help="how many games to play" + ("" if required else
                                                         f" (default: {default})"))
    parser.add_argument("--seed", type=seed_type, default=0, metavar="S",
                        help="the first seed (default: 0; glibc plays seed 0 as seed 1, so "
                             "start at 1 for N distinct games: docs/rules.md, section 1)")



def add_isolation_option(parser):
    """--isolation: how untrusted programs are run (pywar.check.runner.sandbox), the one
    definition of grade's, exercise check's, check's and referee's."""
    from ..check.runner import sandbox
    parser.add_argument("--isolation", choices=sandbox.MODES, default="auto",
                        help="auto (the default): every untrusted process in a bubblewrap "
                             "sandbox where bwrap works, else with limits alone and one "
                             "warning; required: refuse to run without bubblewrap; none: "
                             "limits alone (docs/grading.md)")


def checked_isolation(args):
    """The isolation asked for, resolved once, where the command starts, and checked before
    any work (a usage error for --isolation required where bubblewrap does not work):
    args.isolation is then the Isolation (what was asked, and the mode runs get here) that
    the command passes down to every run."""
    from ..check.runner import sandbox
    try:
        args.isolation = sandbox.resolve(args.isolation)
    except sandbox.SandboxMissing as error:
        args.parser.error(str(error))
    return args.isolation
