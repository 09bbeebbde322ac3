"""pywar help [COMMAND]: pywar's help, or one command's (what `pywar COMMAND --help`
prints), on stdout.

    pywar help               # the commands, examples and exit statuses
    pywar help simulate      # simulate's options and examples
"""

import argparse

from .common import examples


def subcommands(parser):
    """{name: parser} of a parser's subcommands, in the order of the help."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def run_help(args):
    """Print the help asked for: 0."""
    from . import build_parser
    parser = build_parser()
    chosen = parser if args.topic is None else subcommands(parser)[args.topic]
    chosen.print_help()
    return 0


def add(subparsers):
    """The help subcommand (added last: it offers every command before it)."""
    parser = subparsers.add_parser(
        "help", help="show pywar's help, or a command's",
        description="Show pywar's help, or, with a command, what 'pywar COMMAND --help' "
                    "shows: its options and examples.",
        epilog=examples(("pywar help", "the commands, examples and exit statuses"),
                        ("pywar help simulate", "simulate's options and examples")))
    parser.add_argument("topic", metavar="COMMAND", nargs="?",
                        choices=list(subparsers.choices),       # this one too
                        help="one of %(choices)s")
    parser.set_defaults(run=run_help, parser=parser)
