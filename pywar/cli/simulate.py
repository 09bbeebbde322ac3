"""pywar simulate: many games, their summary, CSV, plot; Ctrl-C keeps what finished.

The games are summed chunk by chunk into exact statistics and not kept, so memory does
not grow with -n; --csv streams one row per game in seed order.  --scheduler plays the
chunks on a Dask cluster."""

import json
import sys
from contextlib import ExitStack, contextmanager

import pywar
from .common import (BULK_ENGINES, InterruptGuard, Progress, add_engine_option, add_jobs_option,
                     add_progress_option, add_rule_options, add_seed_range_options, check_jobs,
                     count_type, examples, interrupted_status, rules_and_engine, table, usage_errors)
from .inputs import cannot, file_name
from .outputs import (check_distinct, keep_finished, output_files, refuse_stdout,
                      shares_stderr)
from ..sim.phrases import notable_phrases, spread_phrases


EXAMPLES = examples(
    ("pywar simulate -n 1000000", "a million games of smu, seeds 0 to 999,999"),
    ("pywar simulate -n 100000 --rules iofall --json", "their summary as one line of JSON"),
    ("pywar simulate -n 5000 --rules lehigh --plot lengths.png", "the lengths, by how games end"),
    ("pywar simulate -n 1000 --csv games.csv", "one row per game in a file"),
    ("pywar simulate -n 1000 --csv -", "the rows on stdout, the summary on stderr"),
    ("pywar simulate -n 100000000 --scheduler local:2", "on 2 Dask worker processes"),
)


def summary_table(summary):
    """A simulation's summary as readable lines."""
    if summary["games"] == 0:
        return "no games finished\n"
    return table(head_rows(summary) + count_rows(summary) + tail_rows(summary))


def head_rows(summary):
    """The rows that say what was played, and the lengths."""
    interval = summary["ci95_rounds"]
    spread = ("95% CI: needs two games" if interval is None
              else f"95% CI {interval[0]:,.1f} to {interval[1]:,.1f}")
    last_seed = (summary["seed"] + summary["games"] - 1) % pywar.SEED_LIMIT
    where = (f"{summary['jobs']} job(s)" if summary.get("scheduler") is None else
             f"{summary['jobs']} Dask worker thread(s) at {summary['scheduler']}")
    return [
        ("games", f"{summary['games']:,} of {summary['rules']} (seeds {summary['seed']:,} to "
                  f"{last_seed:,}), {summary['engine']} engine, {where}"
                  + ("" if summary["complete"] else ", interrupted")),
        ("rounds", f"mean {summary['mean_rounds']:,.1f} ({spread}), "
                   f"median {summary['median_rounds']:,.1f}, p90 {summary['p90_rounds']:,}, "
                   f"p99 {summary['p99_rounds']:,}"),
        ("", f"shortest {summary['min_rounds']:,} (seed {summary['min_seed']}), "
             f"longest {summary['max_rounds']:,} (seed {summary['max_seed']})"),
    ]


def count_rows(summary):
    """The rows of winners, outcomes and the counts per game."""
    shares = summary["win_shares"]
    depths = summary["war_depths"]
    return [
        ("winners", ", ".join(f"{name} {share:.2%}" for name, share in shares.items())),
        ("outcomes", ", ".join(f"{name} {count:,}" for name, count in summary["outcomes"].items())),
        ("per game", f"ties {summary['mean_ties']:.2f}, wars {summary['mean_wars']:.2f}, "
                     f"battles {summary['mean_battles']:.1f}, stranded cards "
                     f"{summary['mean_stranded']:.3f} ({summary['games_with_stranded']:,} games)"),
        *paired_rows("swings", spread_phrases(summary)),
        ("war depths", ", ".join(f"{depth}: {rounds:,}" for depth, rounds in depths.items())
         + " (rounds with so many wars)" if depths else "no wars"),
    ]


def paired_rows(label, parts):
    """Parts two to a row, the first row labelled."""
    pairs = [", ".join(parts[i:i + 2]) for i in range(0, len(parts), 2)]
    return [(label if i == 0 else "", pair) for i, pair in enumerate(pairs)]


def tail_rows(summary):
    """The notable games, the speed and the digest."""
    speed = summary["games_per_second"]
    return [
        *paired_rows("notable", notable_phrases(summary)),
        ("speed", "-" if speed is None else f"{speed:,.0f} games/s"),
        ("digest", summary["digest"]),
    ]


def run_simulate(args):
    """Simulate games and print their summary; Ctrl-C prints what was finished (130).
    The --csv and --plot files are opened before the first game; a file that cannot be
    written, or a scheduler that cannot be reached, is an input/output error (3)."""
    rules, engine = rules_and_engine(args)
    check_jobs(args, engine)
    with usage_errors(args.parser):
        check_outputs(args)
        check_scheduler(args)
    with ExitStack() as resources:
        files = resources.enter_context(output_files(("--csv", args.csv, True, None),
                                                     ("--plot", args.plot, True, None)))
        client = resources.enter_context(cluster_client(args))
        return simulate_and_report(args, rules, engine, client, files)


def simulate_and_report(args, rules, engine, client, files):
    """Play, then print the summary and draw the plot: the exit status."""
    with InterruptGuard() as guard:
        simulation = simulated(args, rules, engine, guard, client, files.get("--csv"))
        guard.holding = True                    # a Ctrl-C now waits for the output
        keep_finished(files, simulation.games)  # no game finished: each file as it was
        if "--csv" in files:
            files["--csv"].close()              # its last rows written before the summary
        write_results(args, simulation, files.get("--plot"))
    return interrupted_status() if guard.seen else 0


@contextmanager
def cluster_client(args):
    """A Dask client for --scheduler (announced on stderr), or None.  A scheduler that
    cannot be reached, then or during the work, is the one-line InputError (exit 3)."""
    if args.scheduler is None:
        yield None
        return
    from ..sim import cluster
    with usage_errors(args.parser):
        cluster.require_distributed()
    try:
        with cluster.connect(args.scheduler) as client:
            cluster.announce(client)
            yield client
    except OSError as error:
        raise cannot("reach", file_name("--scheduler", args.scheduler, None), error) from None


def bar_wanted(args):
    """--progress, unless the CSV rows go where stderr writes: then no bar (with a
    warning, if --progress asked for one)."""
    if not shares_stderr(args.csv):
        return args.progress
    if args.progress:
        print(f"{args.parser.prog}: warning: no progress bar: --csv writes where stderr "
              "does", file=sys.stderr)
    return False


def simulated(args, rules, engine, guard, client, rows):
    """The Simulation: of every game, or after a Ctrl-C, of the games finished from the
    first seed on.  Once all are finished, the guard holds any Ctrl-C back."""
    progress = Progress("simulating", bar_wanted(args))

    def report(finished, total):
        if finished == total:
            guard.holding = True                # every game is finished: keep them
        progress(finished, total)

    try:
        with usage_errors(args.parser):
            return pywar.simulate(args.games, rules, seed=args.seed, engine=engine,
                                  jobs=args.jobs, progress=report, keep_games=False,
                                  csv=rows, chunk=args.chunk, client=client)
    except pywar.SimulationInterrupted as interrupted:
        guard.holding = guard.seen = True
        return interrupted.simulation
    except KeyboardInterrupt:                   # before the first game began
        guard.holding = guard.seen = True
        if rows is not None and not rows.written:
            from ..sim.simulation import CSV_HEADER
            rows.write(CSV_HEADER)              # a CSV of no games: its header (on
                                                # stdout; a file is left as it was)
        return nothing_finished(args, rules, engine, client)
    finally:
        progress.close()


def nothing_finished(args, rules, engine, client):
    """The Simulation of no games, as simulate() would have given it."""
    from ..sim.accumulator import Accumulator
    jobs = 1 if engine == "python" else args.jobs or pywar.usable_cores()
    return pywar.Simulation(rules=rules.name, engine=engine, jobs=jobs, first_seed=args.seed,
                            requested=args.games, seconds=0.0, players=rules.players,
                            totals=Accumulator(seed=args.seed),
                            scheduler=None if client is None else client.scheduler.address)


def write_results(args, simulation, plot):
    """Print the summary (on stderr when the CSV rows take stdout), and draw the plot
    into its OutputFile if asked for (none when no game finished: keep_finished)."""
    summary = simulation.summary()
    text = json.dumps(summary) + "\n" if args.json else summary_table(summary)
    to = sys.stderr if args.csv == "-" else sys.stdout
    to.write(text)
    to.flush()
    if plot is None:
        return
    from ..sim.plot import plot_format
    with plot.failures():
        simulation.plot(plot.stream, format=plot_format(args.plot))


def check_outputs(args):
    """Refuse, before the work, what cannot be written: --plot to stdout or in a format
    that matplotlib does not write (or without matplotlib), and --json with --csv -,
    which would both take stdout."""
    if args.json and args.csv == "-":
        args.parser.error("--json and --csv - both write stdout: give --csv a file")
    refuse_stdout("--plot", args.plot, args.parser)
    check_distinct(args.parser, [("--csv", args.csv), ("--plot", args.plot),
                                 ("the summary on stdout", None if args.csv == "-" else "-")])
    if args.plot:
        from ..sim.plot import plot_format
        plot_format(args.plot)


def check_scheduler(args):
    """--scheduler takes 'local', 'local:N' or an address, and leaves --jobs out."""
    if args.scheduler is None:
        return
    if args.jobs is not None:
        raise ValueError("--jobs sets the threads on this machine: with --scheduler the "
                         "cluster's workers play (local:N starts N of them)")
    from ..sim.cluster import parse_scheduler
    parse_scheduler(args.scheduler)


def add_scheduler_option(parser, what):
    """Add --scheduler: run on a Dask cluster."""
    parser.add_argument("--scheduler", metavar="ADDRESS",
                        help=f"{what} on a Dask cluster: a scheduler's address "
                             "(tcp://HOST:8786), or local[:WORKERS] to start worker "
                             "processes here (needs pywar[dask])")


def add(subparsers):
    """The simulate subcommand."""
    parser = subparsers.add_parser(
        "simulate", help="play many games and summarize them",
        description="Play games with seeds S, S+1, ... and summarize their lengths and "
                    "outcomes in constant memory. Ctrl-C prints the summary of the games "
                    "finished so far.",
        epilog=EXAMPLES)
    add_seed_range_options(parser, required=True)
    add_jobs_option(parser)
    add_scheduler_option(parser, "play the chunks")
    parser.add_argument("--chunk", type=count_type(1), metavar="G",
                        help="games per chunk or task (default: sized automatically; "
                             "the results do not depend on it)")
    add_rule_options(parser)
    add_engine_option(parser, BULK_ENGINES)
    parser.add_argument("--json", action="store_true", help="print the summary as JSON")
    parser.add_argument("--csv", metavar="FILE",
                        help="write one row per game to FILE, in seed order, as they "
                             "finish; with - the rows go to stdout, and the summary to "
                             "stderr")
    parser.add_argument("--plot", metavar="FILE.png",
                        help="draw the histogram of game lengths, by how the games ended, "
                             "and the war depths: two panels in one figure, in the format "
                             "that FILE's ending names (needs pywar[plot])")
    add_progress_option(parser)
    parser.set_defaults(run=run_simulate, parser=parser)
