"""pywar check: play the same seeds in two implementations and show where they part.

    pywar check -n 2000                                 # c against python, in bulk
    pywar check --engine port-c --against python --seed 1553 -n 50
    pywar check --engine cmd:'./student --seed {seed}' --against port-c -n 100

c against python compares the games' results and digests in bulk (the digest folds
every event), then drills into the first differing seed with traces; --traces compares
every game's trace and transcript instead, as every other pair does.  A Ctrl-C reports
the games compared so far, all of which agreed, and exits 130.  --keep-going plays every
seed whatever happens and tallies them by kind: agree, differ, crashed, timed out, exit
status (and failed: printed no transcript, could not run), with the seeds of each and
the first report of each kind.
"""

import json
import sys

import pywar
from ..check.implementations.agreement import sides
from ..check.implementations.outside import ENGINE_HELP
from ..rules import make_rules
from .common import (InterruptGuard, Progress, add_isolation_option, add_progress_option,
                     add_rule_options, add_seed_range_options, checked_isolation, examples,
                     interrupted_status, rule_dimensions, usage_errors)
from .inputs import seconds_type

EXAMPLES = examples(
    ("pywar check -n 2000", "the C engine and its Python twin, in bulk"),
    ("pywar check --engine port-c --against python --seed 1553 -n 50", "the port and the twin"),
    ("pywar check --engine cmd:'./student --seed {seed}' --against port-c -n 100",
     "a student's program, run once per seed"),
    ("pywar check --engine cmd:'./student --seed {seed}' --against port-c -n 200 --keep-going",
     "every seed played: how many agree, differ, crash, time out"),
    ("pywar check -n 200 --rules lehigh --traces --json",
     "every game's trace compared; the verdict as JSON"),
)

# ---- Setting up

def checked_games(args):
    """The number of games: at most one per 32-bit seed."""
    if args.games > pywar.SEED_LIMIT:
        args.parser.error(f"-n must be an integer from 1 to {pywar.SEED_LIMIT:,} (each "
                          f"32-bit seed once), not {args.games:,}")
    return args.games


def stacks(args):
    """The port stacks of the two sides: --stack for each port engine, --stack-against
    for the other side."""
    ports = pywar.PORT_ENGINES
    if args.stack and args.engine not in ports and args.against not in ports:
        args.parser.error("--stack is for the port engines (port-c, port-python)")
    if args.stack_against and args.against not in ports:
        args.parser.error("--stack-against is for a port engine (port-c, port-python) "
                          "given to --against")
    mine = args.stack if args.engine in ports else None
    theirs = args.stack_against or (args.stack if args.against in ports else None)
    return mine, theirs


def setting_up(args):
    """(rules, the stack of one side, the other's): the rules and both sides checked
    before any game, usage errors otherwise."""
    checked_games(args)
    mine, theirs = stacks(args)
    checked_isolation(args)
    with usage_errors(args.parser):
        rules = make_rules(args.rules, **rule_dimensions(args))
        sides(rules, args.engine, args.against, mine, theirs, args.timeout, args.isolation)
    return rules, mine, theirs


# ---- The command

def run_check(args):
    """Compare two implementations seed by seed: 0 agree, 1 a game differs, 130 a
    Ctrl-C (after reporting the games compared)."""
    rules, mine, theirs = setting_up(args)
    progress = Progress("checking", args.progress)
    with InterruptGuard() as guard:
        try:
            verdict = pywar.compare(args.games, rules, args.seed, args.engine, args.against,
                                    mine, theirs, args.traces, args.timeout, progress,
                                    keep_going=args.keep_going, isolation=args.isolation)
        finally:
            guard.holding = True                # a further Ctrl-C waits for the report
            progress.close()
        if verdict.interrupted:
            print(f"{args.parser.prog}: interrupted", file=sys.stderr)
        text = json.dumps(verdict.to_json()) + "\n" if args.json else verdict.text()
        sys.stdout.write(text)
    status = verdict.status()
    return interrupted_status() if status == 130 else status      # 143 after SIGTERM


def add(subparsers):
    """The check subcommand."""
    parser = subparsers.add_parser(
        "check", help="play the same seeds in two implementations and show where they part",
        description="Play the same seeds in two implementations (c and python by default) "
                    "and compare every game. At the first game that differs, print its "
                    "seed, the first differing event, both sides, and the transcript lines "
                    "around the first differing line as a unified diff. Exit status 1 if a "
                    "game differs, 130 after a Ctrl-C.",
        epilog=EXAMPLES)
    add_seed_range_options(parser, default=1000)
    add_rule_options(parser)
    parser.add_argument("--engine", default="c", metavar="X",
                        help=f"one implementation: {ENGINE_HELP} (default: c)")
    parser.add_argument("--against", default="python", metavar="Y",
                        help="the other, named the same way (default: python)")
    parser.add_argument("--stack", choices=("pile", "adt"),
                        help="the port's stack, for each port engine (default: pile)")
    parser.add_argument("--stack-against", choices=("pile", "adt"),
                        help="the stack of the port engine given to --against")
    parser.add_argument("--traces", action="store_true",
                        help="c against python: compare each game's trace and transcript, "
                             "not only its result and digest (slower)")
    parser.add_argument("--timeout", type=seconds_type, default=10.0, metavar="S",
                        help="seconds an outside implementation may take for a game "
                             "(default: 10)")
    parser.add_argument("--keep-going", action="store_true",
                        help="play every seed, one at a time, and tally those that agree, "
                             "differ, crashed, timed out or exited with a status, with the "
                             "seeds of each and the first of each kind (exit 1 unless all "
                             "agree)")
    parser.add_argument("--json", action="store_true", help="print the verdict as one JSON line")
    add_isolation_option(parser)
    add_progress_option(parser)
    parser.set_defaults(run=run_check, parser=parser)
