"""pywar completion SHELL: the shell's completion script for pywar, made by shtab from
the argument parser itself, so that it knows every command, option and choice.

    pywar completion bash > ~/.local/share/bash-completion/completions/pywar
    pywar completion zsh > ~/.zfunc/_pywar        # a folder on zsh's fpath
"""

import sys

from .common import examples

SHELLS = ("bash", "zsh")
FILE_DESTS = ("csv", "plot", "trace", "html", "file", "a", "b")   # arguments that name files


def file_arguments(parser):
    """Every action, of the parser and its subcommands, that names a file."""
    for action in parser._actions:
        if action.dest in FILE_DESTS:
            yield action
        subparsers = action.choices if isinstance(action.choices, dict) else {}
        for subparser in subparsers.values():
            yield from file_arguments(subparser)


def run_completion(args):
    """Print the completion script of the whole pywar parser for args.shell."""
    import shtab
    parser = args.whole                 # the whole pywar parser (cli.build_parser)
    for action in file_arguments(parser):
        action.complete = shtab.FILE
    sys.stdout.write(shtab.complete(parser, args.shell))
    return 0


def add(subparsers):
    """The completion subcommand."""
    parser = subparsers.add_parser(
        "completion", help="print a shell's completion script for pywar",
        description="Print the completion script of pywar for bash or zsh (made by shtab "
                    "from pywar's own options): install it where the shell looks for one.",
        epilog=examples(
            ("pywar completion bash", "to ~/.local/share/bash-completion/completions/pywar"),
            ("pywar completion zsh", "to a folder on zsh's fpath, as _pywar")))
    parser.add_argument("shell", choices=SHELLS, help="the shell: %(choices)s")
    parser.set_defaults(run=run_completion, parser=parser)
