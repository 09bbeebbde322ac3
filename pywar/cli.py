"""The pywar command: play one game, simulate many, check the twins, list the rules.

    pywar play --seed 17455            # the transcript, as SMU's program prints it
    pywar play --seed 17455 --json     # the result as one line of JSON
    pywar simulate -n 1000000          # a million games: a summary of their lengths
    pywar check -n 2000                # the C core and the Python twin agree, seed by seed
    pywar rules                        # the presets and the rule dimensions

Exit status: 0 success, 1 a check failed, 2 a usage error (one line on stderr), 130 after
a Ctrl-C (simulate first prints the summary of the games it finished).
To add a subcommand, give it a function in build_subcommands() that sets
run=...; add_rule_options() and rules_and_engine() are there to share.
"""

import argparse
import json
import os
import signal
import sys
import threading
import time
import warnings
from contextlib import contextmanager
from importlib import metadata

import pywar
from . import batch
from .rules import (DECK_HELP, DIMENSIONS, MAX_FACE_DOWN, MAX_PLAYERS, MAX_ROUNDS_LIMIT, PICKUPS,
                    PILES, PRESET_HELP, PRESETS, REFILLS, SHORT_WARS, SHUFFLES, make_rules)
from .rules import DEAL_HELP, check_deal, parse_deal

PROG = "pywar"
RANGES = {"face_down": (0, MAX_FACE_DOWN), "max_rounds": (1, MAX_ROUNDS_LIMIT),
          "players": (2, MAX_PLAYERS)}
NAMED = {"short_war": SHORT_WARS, "pickup": PICKUPS, "piles": PILES, "shuffle": SHUFFLES,
         "refill": REFILLS}


class UsageError(Exception):
    """A bad command line: main() prints it as one line and returns 2."""


class Parser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are one line, without the usage dump."""

    def error(self, message):
        """Raise a UsageError reading 'prog: error: message'."""
        raise UsageError(f"{self.prog}: error: {' '.join(message.split())}")


def version():
    """The installed version of pywar."""
    try:
        return metadata.version("pywar")
    except metadata.PackageNotFoundError:
        return "unknown"


def integer(text, valid):
    """The text as an int, or an argparse error: 'valid, not text'."""
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{valid}, not {text!r}") from None


def seed_type(text):
    """An argparse type: a seed from 0 to 2^32 - 1, checked by pywar.check_seed."""
    seed = integer(text, f"seed must be an integer from 0 to {pywar.SEED_LIMIT - 1}")
    try:
        return pywar.check_seed(seed)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def whole_number(dimension):
    """An argparse type for a numeric dimension (make_rules checks its range)."""
    low, high = RANGES[dimension]
    return lambda text: integer(text, f"{dimension} must be an integer from {low} to {high:,}")


def option(dimension):
    """The command-line option that sets a dimension."""
    if dimension == "detect_cycles":
        return "--no-cycle-detection"
    return "--" + dimension.replace("_", "-")


def add_rule_options(parser):
    """Add --rules and one option per rule dimension, to set over the preset."""
    parser.add_argument("--rules", default="smu", choices=list(PRESETS), metavar="R",
                        help="the preset to play: %(choices)s (default: %(default)s)")
    group = parser.add_argument_group("rule dimensions, set over the preset")
    for dimension in DIMENSIONS:
        if dimension in RANGES:
            low, high = RANGES[dimension]
            group.add_argument(option(dimension), type=whole_number(dimension), metavar="N",
                               help=f"{dimension}, from {low} to {high:,}")
        elif dimension in NAMED:
            group.add_argument(option(dimension), choices=NAMED[dimension], metavar="X",
                               help=f"{dimension}: %(choices)s")
        elif dimension == "deck":
            group.add_argument(option(dimension), metavar="RxS", help=f"deck: {DECK_HELP}")
    group.add_argument(option("detect_cycles"), dest="detect_cycles", action="store_false",
                       default=None, help="play on through repeated states (to max_rounds)")


def add_engine_option(parser):
    """Add --engine."""
    parser.add_argument("--engine", choices=pywar.ENGINES,
                        help="%(choices)s (default: $PYWAR_ENGINE or auto)")


def rule_dimensions(args):
    """The dimensions given on the command line, as keyword arguments for pywar.play."""
    return {name: getattr(args, name) for name in DIMENSIONS
            if getattr(args, name, None) is not None}


@contextmanager
def usage_errors(parser):
    """Turn the library's TypeError, ValueError, RuntimeError, ImportError (a missing
    extra) or OSError (a file that cannot be written) into a usage error."""
    try:
        yield
    except (TypeError, ValueError, RuntimeError, ImportError, OSError) as error:
        parser.error(str(error))


def rules_and_engine(args):
    """The checked Rules and engine ('c' or 'python') of parsed args; warnings on stderr."""
    with usage_errors(args.parser), warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        rules = make_rules(args.rules, **rule_dimensions(args))
        engine = pywar.resolve_engine(args.engine)
    for warning in caught:
        print(f"{PROG}: warning: {warning.message}", file=sys.stderr)
    return rules, engine


def run_play(args):
    """Play one game and print its transcript, or its result as JSON."""
    rules, engine = rules_and_engine(args)
    with usage_errors(args.parser):
        deal = None if args.deal is None else check_deal(parse_deal(args.deal), rules)
        pywar.check_port(engine, rules, args.stack, deal)
    seed = args.seed
    if seed is None:
        seed = int(time.time()) % 2 ** 32
        print(f"seed: {seed}", file=sys.stderr)
    game = pywar.play(seed, rules=rules, engine=engine, stack=args.stack, deal=deal,
                      transcript=False if args.json else sys.stdout)
    if args.json:
        sys.stdout.write(json.dumps(game.to_json()) + "\n")
    return 0


def rules_data():
    """The presets and the dimensions' valid values, as a JSON-ready dict."""
    values = {name: {"min": low, "max": high} for name, (low, high) in RANGES.items()}
    values.update({name: list(choices) for name, choices in NAMED.items()})
    values["detect_cycles"] = [True, False]
    values["deck"] = DECK_HELP
    return {
        "presets": {name: {"help": PRESET_HELP.get(name, ""), "rules": rules.to_dict()}
                    for name, rules in PRESETS.items()},
        "dimensions": {name: {"option": option(name), "values": values[name]}
                       for name in DIMENSIONS},
    }


def table(rows):
    """Rows of cells as left-aligned columns, each line indented by two spaces."""
    widths = [max(len(str(row[i])) for row in rows) for i in range(len(rows[0]))]
    return "".join("  " + "  ".join(f"{cell!s:{width}}" for cell, width in zip(row, widths))
                   .rstrip() + "\n" for row in rows)


def describe(values):
    """A dimension's valid values as text."""
    if isinstance(values, dict):
        return f"{values['min']} to {values['max']:,}"
    return ", ".join(str(value) for value in values)


def run_rules(args):
    """Print the presets and the dimensions, as tables or as JSON."""
    data = rules_data()
    if args.json:
        sys.stdout.write(json.dumps(data, indent=2) + "\n")
        return 0
    presets = data["presets"]
    settings = [key for key in PRESETS["smu"].to_dict() if key != "name"]
    about = [(name, preset["help"]) for name, preset in presets.items()]
    grid = [["setting", *presets]] + [[key, *(preset["rules"][key] for preset in presets.values())]
                                      for key in settings]
    dims = [("dimension", "option", "values")] + [
        (name, dim["option"], describe(dim["values"])) for name, dim in data["dimensions"].items()]
    sys.stdout.write(f"Presets (--rules R):\n{table(about)}\nTheir settings:\n{table(grid)}\n"
                     f"Dimensions, set over a preset:\n{table(dims)}")
    return 0


def count_type(name, low):
    """An argparse type for a whole number of at least low."""
    def parse(text):
        value = integer(text, f"{name} must be an integer from {low}")
        if value < low:
            raise argparse.ArgumentTypeError(f"{name} must be an integer from {low}, not {value}")
        return value
    return parse


def add_progress_option(parser):
    """Add --progress / --no-progress (default: a bar when stderr is a terminal)."""
    parser.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                        help="show a progress bar on stderr (default: when it is a terminal)")


class Progress:
    """A progress bar on stderr, shown once the work has taken more than a second."""

    DELAY = 1.0
    EVERY = 0.1
    WIDTH = 30

    def __init__(self, label, enabled):
        self.label = label
        self.enabled = sys.stderr.isatty() if enabled is None else enabled
        self.start = time.monotonic()
        self.last = 0.0
        self.shown = False

    def __call__(self, finished, total):
        """Redraw the bar, at most ten times a second."""
        now = time.monotonic()
        elapsed = now - self.start
        if not self.enabled or elapsed < self.DELAY or (now - self.last < self.EVERY
                                                         and finished < total):
            return
        self.last = now
        self.shown = True
        fraction = finished / total
        rate = finished / elapsed
        left = (total - finished) / rate if rate else 0
        bar = "#" * int(self.WIDTH * fraction)
        sys.stderr.write(f"\r{self.label} [{bar:<{self.WIDTH}}] {fraction:6.1%} "
                         f"{finished:,}/{total:,} games, {rate:,.0f}/s, {left:4.0f}s left ")
        sys.stderr.flush()

    def close(self):
        """End the bar's line, if it was drawn."""
        if self.shown:
            sys.stderr.write("\n")
            sys.stderr.flush()


def summary_table(summary):
    """A simulation's summary as readable lines."""
    if summary["games"] == 0:
        return "no games finished\n"
    low, high = summary["ci95_rounds"]
    shares = summary["win_shares"]
    outcomes = summary["outcomes"]
    last_seed = (summary["seed"] + summary["games"] - 1) % pywar.SEED_LIMIT
    speed = summary["games_per_second"]
    rows = [
        ("games", f"{summary['games']:,} of {summary['rules']} (seeds {summary['seed']:,} to "
                  f"{last_seed:,}), {summary['engine']} engine, {summary['jobs']} job(s)"
                  + ("" if summary["complete"] else ", interrupted")),
        ("rounds", f"mean {summary['mean_rounds']:,.1f} (95% CI {low:,.1f} to {high:,.1f}), "
                   f"median {summary['median_rounds']:,.1f}, p90 {summary['p90_rounds']:,}, "
                   f"p99 {summary['p99_rounds']:,}"),
        ("", f"shortest {summary['min_rounds']:,} (seed {summary['min_seed']}), "
             f"longest {summary['max_rounds']:,} (seed {summary['max_seed']})"),
        ("winners", f"A {shares['A']:.2%}, B {shares['B']:.2%}, nobody {shares['nobody']:.2%}"),
        ("outcomes", ", ".join(f"{name} {count:,}" for name, count in outcomes.items())),
        ("per game", f"ties {summary['mean_ties']:.2f}, wars {summary['mean_wars']:.2f}, "
                     f"battles {summary['mean_battles']:.1f}, stranded cards "
                     f"{summary['mean_stranded']:.3f} ({summary['games_with_stranded']:,} games)"),
        ("speed", "-" if speed is None else f"{speed:,.0f} games/s"),
        ("digest", summary["digest"]),
    ]
    return table(rows)


class InterruptGuard:
    """A context in which the first Ctrl-C raises KeyboardInterrupt, unless holding is
    set; after the first, or while holding, a Ctrl-C is only recorded in seen.  Outside
    the main thread, or when SIGINT is not handled by Python, it changes nothing."""

    def __init__(self):
        self.seen = False
        self.holding = False
        self.previous = None

    def __enter__(self):
        if threading.current_thread() is threading.main_thread():
            if callable(signal.getsignal(signal.SIGINT)):
                self.previous = signal.signal(signal.SIGINT, self.handle)
        return self

    def handle(self, signum, frame):
        """The SIGINT handler: raise for the first Ctrl-C, unless holding."""
        first = not (self.seen or self.holding)
        self.seen = True
        if first:
            raise KeyboardInterrupt

    def __exit__(self, *exception):
        if self.previous is not None:
            signal.signal(signal.SIGINT, self.previous)
        return False


def run_simulate(args):
    """Simulate games and print their summary; Ctrl-C prints what was finished (130)."""
    rules, engine = rules_and_engine(args)
    with usage_errors(args.parser):
        check_outputs(args.csv, args.plot)
    with InterruptGuard() as guard:
        simulation = simulated(args, rules, engine, guard)
        guard.holding = True                    # a Ctrl-C now waits for the output
        write_results(args, simulation)
    return 130 if guard.seen else 0


def simulated(args, rules, engine, guard):
    """The Simulation: of every game, or after a Ctrl-C, of the games finished from the
    first seed on.  Once all are finished, the guard holds any Ctrl-C back."""
    progress = Progress("simulating", args.progress)

    def report(finished, total):
        if finished == total:
            guard.holding = True                # every game is finished: keep them
        progress(finished, total)

    try:
        with usage_errors(args.parser):
            return pywar.simulate(args.games, rules, seed=args.seed, engine=engine,
                                  jobs=args.jobs, progress=report)
    except pywar.SimulationInterrupted as interrupted:
        guard.holding = guard.seen = True
        return interrupted.simulation
    except KeyboardInterrupt:                   # before the first game began
        guard.holding = guard.seen = True
        return nothing_finished(args, rules, engine)
    finally:
        progress.close()


def nothing_finished(args, rules, engine):
    """The Simulation of no games, as simulate() would have given it."""
    jobs = 1 if engine == "python" else args.jobs or pywar.usable_cores()
    return pywar.Simulation(rules=rules.name, engine=engine, jobs=jobs, first_seed=args.seed,
                            requested=args.games, seconds=0.0, seeds=batch.seeds_of(args.seed, 0),
                            arrays=batch.empty_arrays(0))


def write_results(args, simulation):
    """Print the summary, and write the CSV and the plot if asked for."""
    summary = simulation.summary()
    sys.stdout.write(json.dumps(summary) + "\n" if args.json else summary_table(summary))
    sys.stdout.flush()
    with usage_errors(args.parser):
        if args.csv:
            simulation.write_csv(args.csv)
        if args.plot and simulation.games:
            simulation.plot(args.plot)


def check_outputs(csv_path, plot_path):
    """Fail before the work, not after it: the CSV file must be writable, and the plot's
    folder must exist and its ending be a format matplotlib writes."""
    if csv_path:
        try:
            with open(csv_path, "a"):
                pass
        except OSError as error:
            raise ValueError(f"--csv: cannot write {csv_path!r}: {error.strerror}") from None
    if plot_path:
        from .plot import check_plot_path
        check_plot_path(plot_path)


def run_check(args):
    """Play the seeds in both engines and compare them: 0 if they agree, else 1."""
    with usage_errors(args.parser):
        rules = make_rules(args.rules, **rule_dimensions(args))
        pywar.resolve_engine("c")
    progress = Progress("checking", args.progress)
    interrupted = False
    try:
        c_run = pywar.simulate(args.games, rules, seed=args.seed, engine="c")
        twin_run = pywar.simulate(args.games, rules, seed=args.seed, engine="python",
                                  progress=progress)
    except pywar.SimulationInterrupted as stop:     # compare the games the twin finished
        twin_run, interrupted = stop.simulation, True
        c_run = pywar.simulate(twin_run.games, rules, seed=args.seed, engine="c") \
            if twin_run.games else twin_run
    finally:
        progress.close()
    differing = [name for name in c_run.arrays
                 if not (c_run.arrays[name] == twin_run.arrays[name]).all()]
    mismatch = None
    if differing:
        index = int(min((c_run.arrays[name] != twin_run.arrays[name]).argmax()
                        for name in differing))
        mismatch = int(c_run.seeds[index])
    verdict = {"rules": rules.name, "games": twin_run.games, "seed": args.seed,
               "interrupted": interrupted,
               "agree": not differing, "differing_fields": differing, "first_seed": mismatch,
               "digest": c_run.combined_digest()}
    if args.json:
        sys.stdout.write(json.dumps(verdict) + "\n")
    elif differing:
        sys.stdout.write(f"The engines differ on {', '.join(differing)}, first at seed "
                         f"{mismatch} ({rules.name} rules).\n")
    else:
        sys.stdout.write(f"The C core and the Python twin agree on all {twin_run.games:,} games "
                         f"of {rules.name} from seed {args.seed} (digest {verdict['digest'][:16]}).\n")
    return 1 if differing else 130 if interrupted else 0


def add_play(subparsers):
    """The play subcommand."""
    parser = subparsers.add_parser("play", help="play one game and print its transcript",
                                   description="Play one game of War and print its transcript.")
    parser.add_argument("--seed", type=seed_type, metavar="N",
                        help="0 to 2^32 - 1 (default: from the clock, printed on stderr)")
    add_rule_options(parser)
    add_engine_option(parser)
    parser.add_argument("--stack", choices=("pile", "adt"),
                        help="the port's stack (port engines only): pile (Program 4, the "
                             "default) or adt (Program 6)")
    parser.add_argument("--deal", metavar="A/B",
                        help=f"play this deal, not a shuffled one: {DEAL_HELP}")
    parser.add_argument("--json", action="store_true", help="print the result as JSON instead")
    parser.set_defaults(run=run_play, parser=parser)


def add_rules(subparsers):
    """The rules subcommand."""
    parser = subparsers.add_parser("rules", help="list the presets and the rule dimensions",
                                   description="List the presets and the rule dimensions.")
    parser.add_argument("--json", action="store_true", help="print them as JSON")
    parser.set_defaults(run=run_rules, parser=parser)


def add_seed_range_options(parser, required=False, default=None):
    """Add -n/--games and --seed: the games with seeds S, S+1, ..., S+N-1."""
    parser.add_argument("-n", "--games", type=count_type("games", 1), required=required,
                        default=default, metavar="N",
                        help="how many games to play" + ("" if required else
                                                         f" (default: {default})"))
    parser.add_argument("--seed", type=seed_type, default=0, metavar="S",
                        help="the first seed (default: 0)")


def add_simulate(subparsers):
    """The simulate subcommand."""
    parser = subparsers.add_parser(
        "simulate", help="play many games and summarize them",
        description="Play games with seeds S, S+1, ... and summarize their lengths and "
                    "outcomes. Ctrl-C prints the summary of the games finished so far.")
    add_seed_range_options(parser, required=True)
    parser.add_argument("--jobs", type=count_type("jobs", 1), metavar="J",
                        help="threads for the C engine (default: the usable cores)")
    add_rule_options(parser)
    add_engine_option(parser)
    parser.add_argument("--json", action="store_true", help="print the summary as JSON")
    parser.add_argument("--csv", metavar="FILE", help="write one row per game to FILE")
    parser.add_argument("--plot", metavar="FILE.png",
                        help="draw the histogram of game lengths (needs pywar[plot])")
    add_progress_option(parser)
    parser.set_defaults(run=run_simulate, parser=parser)


def add_check(subparsers):
    """The check subcommand."""
    parser = subparsers.add_parser(
        "check", help="show that the C core and the Python twin agree",
        description="Play the same seeds in both engines and compare every game's "
                    "result and digest. Exit status 1 if any game differs.")
    add_seed_range_options(parser, default=1000)
    add_rule_options(parser)
    parser.add_argument("--json", action="store_true", help="print the verdict as JSON")
    add_progress_option(parser)
    parser.set_defaults(run=run_check, parser=parser)


def build_subcommands(parser):
    """Add every subcommand to the top-level parser."""
    subparsers = parser.add_subparsers(title="commands", metavar="COMMAND", dest="command",
                                       required=True)
    add_play(subparsers)
    add_simulate(subparsers)
    add_check(subparsers)
    add_rules(subparsers)
    from .cli_exact import add_exact
    add_exact(subparsers)
    return subparsers


def build_parser():
    """The pywar argument parser."""
    parser = Parser(prog=PROG, description="The card game War: a C core and its Python twin.")
    parser.add_argument("--version", action="version", version=f"%(prog)s {version()}")
    build_subcommands(parser)
    return parser


def run(argv):
    """Parse the command line and run the subcommand: the exit status."""
    try:
        args, extra = build_parser().parse_known_args(argv)
        if extra:
            args.parser.error(f"unrecognized arguments: {' '.join(extra)}")
        return args.run(args)
    except SystemExit as done:          # --help and --version
        return done.code or 0
    except UsageError as error:
        print(error, file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted", file=sys.stderr)
        return 130
    except MemoryError as error:
        print(f"{PROG}: error: {error or 'out of memory'}", file=sys.stderr)
        return 2


def main(argv=None):
    """Run the pywar command; return its exit status."""
    try:
        status = run(argv)
        sys.stdout.flush()
    except BrokenPipeError:             # the reader went away: say nothing more
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    except KeyboardInterrupt:           # a Ctrl-C after the command had done its work
        return 130
    return status
