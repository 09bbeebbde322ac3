"""pywar exercise: the port as an exercise (pywar.check.exercise: portcheck runs
the port, portjudge judges it).

    pywar exercise new my-port              # a skeleton of pywar/port/, bodies marked TODO
    pywar exercise check my-port            # the first member that departs, in words
    pywar exercise check my-port --stack adt

check exits 0 when the port plays every seed as the reference does, 1 when a member
departs (or is not written yet), 2 for a usage error, 3 for a folder that cannot be
read or written, or a Python the port's run cannot start.
"""

import json
import os
import sys

from ..check.exercise import portcheck, portjudge, skeleton
from .common import add_isolation_option, checked_isolation, examples, seed_type
from .inputs import cannot


def run_new(args):
    """Write the skeleton: the files, one a line, on stdout."""
    try:
        written = skeleton.new(args.folder)
    except skeleton.NotEmpty as error:
        raise cannot("write into", repr(args.folder), str(error)) from None
    except OSError as error:
        raise cannot("write into", repr(args.folder), error) from None
    for path in written:
        print(path)
    print(f"Next: write each body marked TODO, then: pywar exercise check {args.folder}",
          file=sys.stderr)
    return 0


def run_check(args):
    """Check the student's port: the finding on stdout; 0 if it passes, else 1."""
    if not os.path.isfile(os.path.join(args.folder, "__init__.py")):
        args.parser.error(f"{args.folder!r} is not a port to check: make one with "
                          f"pywar exercise new {args.folder}")
    checked_isolation(args)
    seeds = args.seed or portjudge.default_seeds()
    fresh = [] if args.seed else seeds[len(portjudge.SEEDS):]
    findings = portcheck.check(args.folder, args.stack, seeds, args.timeout,
                              isolation=args.isolation, fresh=fresh)
    first = findings[0]
    if args.json:
        print(json.dumps({"folder": args.folder, "stack": args.stack, "seeds": seeds,
                          "fresh": fresh,
                          "passed": first.kind == "passed", "first": vars(first),
                          "findings": [vars(found) for found in findings]}))
    else:
        for line in portjudge.report(findings, fresh):
            print(line)
    if first.kind == "unchecked":                # the machine's fault, not the port's
        return 3
    return 0 if first.kind == "passed" else 1


def positive_seconds(text):
    """A number of seconds above 0."""
    import argparse
    try:
        value = float(text)
    except ValueError:
        value = 0
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be a number of seconds above 0, not {text!r}")
    return value


def add(subparsers):
    """The exercise subcommand: new and check."""
    parser = subparsers.add_parser(
        "exercise", help="write the port yourself: a skeleton, and a check of it",
        description="The port as an exercise: 'new' writes a skeleton of pywar/port/ with "
                    "members' bodies marked TODO; 'check' plays your port against the "
                    "reference and names the first member whose behaviour departs.",
        epilog=examples(("pywar exercise new my-port", "the skeleton, in a new folder"),
                        ("pywar exercise check my-port", "what to fix first"),
                        ("pywar exercise check my-port --stack adt",
                         "Program 6's Pile, the stack ADT")))
    parser.set_defaults(parser=parser, run=lambda args: parser.error(
        "choose new or check, as in: pywar exercise new my-port"))
    actions = parser.add_subparsers(title="actions", metavar="ACTION", dest="action")
    new = actions.add_parser("new", help="write a skeleton of the port into a new folder",
                             description="Write a skeleton of pywar/port/ into DIR (new or "
                                         "empty), its members' bodies marked TODO.",
                             epilog=examples(("pywar exercise new my-port",
                                              "my-port/pile.py, tabletop.py, ... to fill in")))
    new.add_argument("folder", metavar="DIR", help="a new or empty folder")
    new.set_defaults(run=run_new, parser=new)
    check = actions.add_parser(
        "check", help="check a filled-in skeleton against the reference",
        description="Play the port in DIR against the reference's trace and transcript on a "
                    "few seeds, in a sandboxed child process with limits (each seed's game "
                    f"may take {portjudge.GAME_SECONDS:g} s, the whole check --timeout); name "
                    "the first member whose behaviour departs, with the seed, the event and "
                    "what was expected. Exit status: 0 the port passes, 1 a member departs "
                    "or is not written yet, 2 a usage error.",
        epilog=examples(("pywar exercise check my-port",
                         "seeds 17455, 1553 and 12, and two drawn fresh"),
                        ("pywar exercise check my-port --stack adt --seed 7",
                         "Program 6's Pile, on seed 7")))
    check.add_argument("folder", metavar="DIR", help="the folder pywar exercise new made")
    check.add_argument("--stack", choices=("pile", "adt"), default="pile",
                       help="pile (Program 4's array, the default) or adt (Program 6)")
    check.add_argument("--seed", type=seed_type, action="append", metavar="N",
                       help="a seed to play, and no other (again for more; default: "
                            f"{', '.join(map(str, portjudge.SEEDS))}, and {portjudge.FRESH} "
                            "drawn fresh at each check, so that no game recorded serves)")
    check.add_argument("--timeout", type=positive_seconds, default=portcheck.CHECK_SECONDS,
                       metavar="S", help=f"seconds for the whole check (default "
                                         f"{portcheck.CHECK_SECONDS:g}); each seed's game "
                                         f"may take {portjudge.GAME_SECONDS:g} s")
    add_isolation_option(check)
    check.add_argument("--json", action="store_true", help="the findings as one line of JSON")
    check.set_defaults(run=run_check, parser=check)
    return parser
