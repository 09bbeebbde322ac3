"""pywar referee: a transcript in the reference's format refereed line by line."""

import sys

import pywar

from ..check.referee.judge import judge
from ..check.implementations.outside import OutsideError, implementation
from ..check.referee.exact import NotATranscript, referee
from ..check.implementations.replay import narrate_steps, split_lines
from ..rules import PRESETS
from .common import (add_isolation_option, checked_isolation, examples, seed_type,
                     usage_errors)
from .inputs import NOT_WANTED, InputError, read_input, say_error, seconds_type


def transcript_of(args):
    """(name, text): the file's text, or the transcript the engine prints for --seed."""
    if args.engine is None:
        return args.file, read_input(args.file)
    checked_isolation(args)
    with usage_errors(args.parser):
        player = implementation(args.engine, args.stack, args.timeout, args.isolation)
        player.check(PRESETS["smu"])
    side = player.play(args.seed, PRESETS["smu"])
    if side.transcript is not None:
        return player.name, side.transcript
    header, events = pywar.read_trace(split_lines(side.trace))
    return player.name, "".join(narrate_steps(header, events))


def verdict_line(name, verdict, seed):
    """The finding: the first fault, or the legal game."""
    if verdict.fault is not None:
        return f"{name}: {verdict.fault}"
    losers = " and ".join(f"player {'AB'[p]}" for p in verdict.losers)
    also = "" if seed is None else f", the reference's game of seed {seed}"
    return (f"{name}: a legal game of smu{also}: {verdict.rounds:,} rounds, {losers} "
            f"ran out")


def every_rule(name, text, complete=True):
    """--all: every rule the file breaks, each with its first example and how often."""
    judged = judge(text, complete)
    broken = judged.broken()
    head = (f"{len(broken)} rule{'' if len(broken) == 1 else 's'} broken "
            f"({', '.join(broken)})" if broken else "no rule broken, the format included")
    lines = [f"{name}: {head}; {judged.progress()}"]
    for item in broken:
        first, count = judged.findings[item]
        times = "" if count == 1 else f" ({count:,} times)"
        lines.append(f"  {item}{times}: {first.text()}")
    sys.stdout.write("\n".join(lines) + "\n")
    return 1 if broken else 0


def run_referee(args):
    """Referee a transcript: 0 legal, 1 at the first fault."""
    if args.file is None and args.engine is None:
        args.parser.error("give a FILE or --engine (with --seed) to referee")
    if args.file is not None and args.engine is not None:
        args.parser.error("give a FILE or --engine (with --seed), not both")
    if args.engine is not None and args.seed is None:
        args.parser.error("--engine needs --seed: the game of which seed to referee")
    try:
        name, text = transcript_of(args)
        if args.all:
            return every_rule(name, text)
        try:
            verdict = referee(text, args.seed)
        except NotATranscript as error:
            raise InputError(f"{name}: {error}", NOT_WANTED) from None
    except InputError as error:
        return say_error(args.parser.prog, error)
    except OutsideError as error:
        sys.stdout.write(f"{error}\n")
        if args.all and error.printed:
            every_rule("what it printed", error.printed, error.kind == "exit status")
        return 1
    sys.stdout.write(verdict_line(name, verdict, args.seed) + "\n")
    return 0 if verdict.fault is None else 1


def add(subparsers):
    """The referee subcommand."""
    parser = subparsers.add_parser(
        "referee", help="referee a transcript in the SMU reference's format",
        description="Read a transcript as the SMU reference prints it (a student's "
                    "program's, say) and report the first line that breaks a rule. With "
                    "--seed, also check that it is the reference's game of that seed. Exit "
                    "status 0 a legal game, 1 at the first fault, 2 a file that is not such "
                    "a transcript, 3 one that cannot be read.",
        epilog=examples(("pywar referee student.txt", "a legal game?"),
                        ("pywar referee student.txt --seed 17455", "the reference's seed 17455?"),
                        ("pywar referee student.txt --all", "every rule it breaks"),
                        ("pywar referee --engine port-c --seed 17455", "what port-c prints")))
    parser.add_argument("file", metavar="FILE", nargs="?",
                        help="the transcript, or - for stdin")
    parser.add_argument("--seed", type=seed_type, metavar="N",
                        help="check that the file is the reference's game of seed N")
    parser.add_argument("--engine", metavar="E",
                        help="referee the transcript this implementation prints for --seed "
                             "instead of a file: a pywar engine, cmd:'PROGRAM {seed}' or "
                             "py:MODULE:CLASS")
    parser.add_argument("--all", action="store_true",
                        help="go on after a fault: every rule broken, each with its first "
                             "example and how often, reading the lines by their meaning "
                             "(docs/grading.md), as pywar grade does")
    parser.add_argument("--stack", choices=("pile", "adt"), help="the port's stack")
    parser.add_argument("--timeout", type=seconds_type, default=10.0, metavar="S",
                        help="seconds an outside program may take (default: 10)")
    add_isolation_option(parser)
    parser.set_defaults(run=run_referee, parser=parser)
