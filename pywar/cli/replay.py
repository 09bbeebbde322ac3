"""pywar replay: a trace checked against its rules, event by event, and its transcript."""

import sys

import pywar

from ..check.implementations.replay import NotATrace, check_trace, narrate_steps
from .common import examples
from .inputs import NOT_WANTED, InputError, read_input, say_error


def verdict(path, result):
    """The line that ends a replay: the first fault, or what the game was."""
    if result.fault is not None:
        return f"{path}: {result.fault}"
    header = result.header
    end = result.events[-1]
    who = "nobody" if end["winner"] is None else "player " + pywar.PLAYER_NAMES[end["winner"]]
    return (f"{path}: all {len(result.events):,} events follow the rules "
            f"({header['rules']['name']}, seed {header['seed']}, engine {header['engine']}): "
            f"{end['outcome']} after {end['round']:,} rounds, {who} the winner")


def run_replay(args):
    """Check a trace; print its transcript (up to the first fault) and the verdict."""
    prog = args.parser.prog
    try:
        text = read_input(args.file)
        try:
            result = check_trace(text)
        except NotATrace as error:
            raise InputError(f"{args.file}: {error}", NOT_WANTED) from None
    except InputError as error:
        return say_error(prog, error)
    if not args.quiet:
        sys.stdout.write("".join(narrate_steps(result.header, result.events)))
        sys.stdout.flush()
    print(f"{prog}: {verdict(args.file, result)}", file=sys.stderr)
    return 0 if result.fault is None else 1


def add(subparsers):
    """The replay subcommand."""
    parser = subparsers.add_parser(
        "replay", help="check a trace against its rules and print its transcript",
        description="Rebuild the game of a trace (docs/trace.md) from the trace alone, "
                    "check every event against the rules its header names, and print the "
                    "transcript on stdout. The verdict goes to stderr. Exit status 1 at the "
                    "first event that breaks a rule, 2 for a file that is not a trace, 3 for "
                    "one that cannot be read.",
        epilog=examples(("pywar replay game.jsonl", "the verdict, and the transcript"),
                        ("pywar replay -q game.jsonl", "the verdict alone")))
    parser.add_argument("file", metavar="FILE", help="the trace, or - for stdin")
    parser.add_argument("-q", "--quiet", action="store_true",
                        help="print only the verdict, not the transcript")
    parser.set_defaults(run=run_replay, parser=parser)
