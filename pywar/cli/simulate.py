"""pywar simulate: many games, their summary, CSV, plot; Ctrl-C keeps what finished."""

import json
import sys

import pywar
from .common import (InterruptGuard, Progress, add_engine_option, add_progress_option,
                     add_rule_options, add_seed_range_options, count_type, rules_and_engine,
                     table, usage_errors)


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
    from .. import batch
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
        from ..plot import check_plot_path
        check_plot_path(plot_path)



def add(subparsers):
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

