"""pywar exact: play every deal of a small deck (docs/rules.md section 14).

    pywar exact --deck 11x1 --piles queue --pickup winner-first      # A400411's a(11)
    pywar exact --deck 4x3 --piles queue --pickup loser-first --json

The rules must draw nothing after the deal: --piles queue and a --pickup other than
random (the default smu preset has two piles, so --piles queue is always needed).
"""

import json
import sys

import argparse

from ..exact.enumeration import exact
from . import common as cli
from .simulate import add_scheduler_option, check_scheduler, cluster_client


EXAMPLES = cli.examples(
    ("pywar exact --deck 5x1 --piles queue --pickup winner-first", "120 deals, 30 endless"),
    ("pywar exact --deck 11x1 --piles queue --pickup winner-first --jobs 2", "A400411's a(11)"),
    ("pywar exact --rules lehigh --deck 4x2 --json", "2 suits, so ties and wars; as JSON"),
)


def deal_text(deal):
    """A deal as pywar play --deal takes it: A's ids/B's ids, top first."""
    return "/".join(",".join(str(card) for card in hand) for hand in deal)


def spread(histogram):
    """A histogram as 'value: count' pairs."""
    return ", ".join(f"{value}: {count:,}" for value, count in histogram.items()) or "-"


def counts_table(result):
    """An ExactResult as readable lines."""
    total = result.orderings
    longest, most = result.longest, result.most_battles
    plural = "s" if result.weight != 1 else ""
    twins = ("a cycle and its player-swapped twin counted once" if result.twins_merged
             else "each counted once: these rules treat the seats differently")
    rows = [
        ("deck", f"{result.deck}: {total:,} orderings, {result.rank_sequences:,} rank "
                 f"sequences ({result.weight:,} ordering{plural} each)"),
        ("rules", result.rules),
        ("end", f"{result.ended:,} deals: A wins {result.a_wins:,}, B wins "
                f"{result.b_wins:,}, both lose {result.both_lose:,}"),
        ("endless", f"{result.cycles:,} deals, into {result.distinct_cycles:,} distinct "
                    f"cycles ({twins})"),
        ("cycles", ", ".join(f"{length} rounds: {count:,} deals"
                             for length, count in result.cycle_lengths.items()) or "-"),
    ]
    if longest is not None:
        rows += [
            ("longest", f"{longest['rounds']:,} rounds ({longest['battles']:,} battles), "
                        f"deal {deal_text(longest['deal'])}"),
            ("most", f"{most['battles']:,} battles ({most['rounds']:,} rounds), "
                     f"deal {deal_text(most['deal'])}"),
            ("mean", f"{result.mean_rounds:.4f} rounds ({result.mean_rounds_fraction}), "
                     f"{result.mean_battles:.4f} battles ({result.mean_battles_fraction})"),
            ("rounds", spread(result.rounds)),
            ("battles", spread(result.battles)),
        ]
    rows += [
        ("capped", f"{result.capped:,} deals reached max_rounds"),
        ("work", f"{result.parts:,} part(s), {result.jobs} job(s), {result.engine} engine, "
                 f"symmetry {result.symmetry or 'none'}, {result.seconds:.2f} s, "
                 f"{result.games_per_second:,.0f} games/s"),
    ]
    return cli.table(rows)


def run_exact(args):
    """Play every deal of the deck and print the counts, or JSON; a scheduler that
    cannot be reached is an input/output error (3)."""
    rules, engine = cli.rules_and_engine(args)
    cli.check_jobs(args, engine)
    with cli.usage_errors(args.parser):
        check_scheduler(args)
    with cluster_client(args) as client:
        result = counted(args, rules, engine, client)
    sys.stdout.write(json.dumps(result.to_json()) + "\n" if args.json
                     else counts_table(result))
    return 0


def counted(args, rules, engine, client):
    """The ExactResult, with a progress bar."""
    progress = cli.Progress("exact", args.progress)
    try:
        with cli.usage_errors(args.parser):
            return exact(rules, jobs=args.jobs, engine=engine, symmetry=args.symmetry,
                         progress=progress, client=client)
    finally:
        progress.close()


def add(subparsers):
    """The exact subcommand."""
    parser = subparsers.add_parser(
        "exact", help="play every deal of a small deck: exact counts",
        description="Play every ordering of a small deck (at most 16 cards) and count "
                    "exactly how the games end: wins, endless games and their cycles, "
                    "game lengths. The rules must draw nothing after the deal: "
                    "--piles queue and a --pickup other than random.",
        epilog=EXAMPLES)
    cli.add_rule_options(parser)
    cli.add_engine_option(parser, cli.BULK_ENGINES)
    cli.add_jobs_option(parser)
    add_scheduler_option(parser, "play the parts")
    parser.add_argument("--symmetry", action=argparse.BooleanOptionalAction,
                        default=True, help="play one of each player-swapped pair of deals "
                                           "where that is exact (default: on)")
    parser.add_argument("--json", action="store_true", help="print the counts as JSON")
    cli.add_progress_option(parser)
    parser.set_defaults(run=run_exact, parser=parser)
    return parser

