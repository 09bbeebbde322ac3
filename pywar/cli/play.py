"""pywar play: one game, its transcript, or its result as JSON."""

import json
import sys
import time

import pywar
from ..step import page
from ..rules import DEAL_HELP, check_deal, parse_deal
from .common import (add_engine_option, add_rule_options, examples, rules_and_engine,
                     seed_type, usage_errors)
from .html import write_page
from .outputs import check_distinct, output_files, refuse_stdout


EXAMPLES = examples(
    ("pywar play --seed 17455", "the transcript, as SMU's program prints it"),
    ("pywar play --seed 17455 --json", "its result as one line of JSON"),
    ("pywar play --rules lehigh --seed 12", "a game that repeats forever: found, and ended"),
    ("pywar play --rules iofall --seed 7 --face-down 1", "a rule set over a preset"),
    ("pywar play --seed 1553 --engine port-python --stack adt", "the port, Program 6's stack"),
    ("pywar play --seed 17455 --trace game.jsonl", "and its trace (docs/trace.md) in a file"),
    ("pywar play --seed 17455 --html game.html", "and a page that shows the game"),
)


def checked(args):
    """(rules, engine, deal, seed) of the command line, or a usage error, before any file
    is opened: among them, a page of a game with more events than a page holds."""
    rules, engine = rules_and_engine(args)
    with usage_errors(args.parser):
        deal = None if args.deal is None else check_deal(parse_deal(args.deal), rules)
        pywar.check_port(engine, rules, args.stack, deal)
    if args.json and args.trace == "-":
        args.parser.error("--json and --trace - both write stdout: give --trace a file")
    refuse_stdout("--html", args.html, args.parser)
    check_distinct(args.parser, [("--html", args.html), ("--trace", args.trace),
                                 ("stdout", None if args.trace == "-" else "-")])
    seed = args.seed
    if seed is None:
        seed = int(time.time()) % pywar.SEED_LIMIT
        print(f"seed: {seed}", file=sys.stderr)
    if args.html and pywar.more_events_than(page.MAX_EVENTS, seed, rules, engine, deal):
        args.parser.error(page_too_long())
    return rules, engine, deal, seed


def page_too_long():
    """The usage error of a page that cannot hold the game."""
    return f"--html: the game has more than {page.MAX_EVENTS:,} events, more than a page holds"


def run_play(args):
    """Play one game and print its transcript, or its result as JSON; --trace and --html
    are opened before the game, and a file that cannot be written is exit 3."""
    rules, engine, deal, seed = checked(args)
    with output_files(("--html", args.html, False, "utf-8"),
                      ("--trace", args.trace, False, "ascii")) as files:
        collector = page.Collector() if args.html else None
        game = pywar.play(seed, rules=rules, engine=engine, stack=args.stack, deal=deal,
                          transcript=False if args.json or args.trace == "-" else sys.stdout,
                          trace=trace_writer(files.get("--trace"), collector))
        if args.json:
            sys.stdout.write(json.dumps(game.to_json()) + "\n")
        if collector is not None:
            if collector.too_long:              # no C core to count first
                args.parser.error(page_too_long())
            write_page(files["--html"], collector)
    return 0


def trace_writer(*writers):
    """Where pywar.play sends the trace: False (nowhere) if no writer is given (None),
    else to each given one: the --trace file and the page's collector."""
    given = [writer for writer in writers if writer is not None]
    return Both(given) if given else False


class Both:
    """A trace writer that writes to several."""

    def __init__(self, writers):
        self.writers = writers

    def write(self, text):
        """Write a piece of the trace to each."""
        for writer in self.writers:
            writer.write(text)


def add(subparsers):
    """The play subcommand."""
    parser = subparsers.add_parser("play", help="play one game and print its transcript",
                                   description="Play one game of War and print its transcript.",
                                   epilog=EXAMPLES)
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
    parser.add_argument("--html", metavar="FILE",
                        help="also write a page that shows the game step by step: one HTML "
                             "file that works offline")
    parser.add_argument("--trace", metavar="FILE",
                        help="write the game's trace (docs/trace.md) to FILE as it goes; with "
                             "- the trace goes to stdout in place of the transcript")
    parser.set_defaults(run=run_play, parser=parser)

