"""pywar completion SHELL: the shell's completion script for pywar, made from the
argument parser itself, so that it knows every command, option and choice: by shtab for
bash and zsh, and here for fish, which shtab does not write (fish_script).

    pywar completion bash > ~/.local/share/bash-completion/completions/pywar
    pywar completion zsh > ~/.zfunc/_pywar        # a folder on zsh's fpath
    pywar completion fish > ~/.config/fish/completions/pywar.fish
"""

import argparse
import sys

from .common import examples
from .help import subcommands

SHELLS = ("bash", "zsh", "fish")
FILE_DESTS = ("csv", "plot", "trace", "html", "file", "a", "b")   # arguments that name files


def file_arguments(parser):
    """Every action, of the parser and its subcommands, that names a file."""
    for action in parser._actions:
        if action.dest in FILE_DESTS:
            yield action
        subparsers = action.choices if isinstance(action.choices, dict) else {}
        for subparser in subparsers.values():
            yield from file_arguments(subparser)


def quoted(text):
    """text in fish's single quotes."""
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"


def described(parser, action):
    """An action's help, its %(...)s filled in, as one short line."""
    words = " ".join(parser._get_formatter()._expand_help(action).split())
    return words if len(words) <= 80 else words[:77].rstrip() + "..."


def fish_completion(parser, action, condition):
    """The fish `complete` line of one option or positional argument, or None."""
    if action.help == argparse.SUPPRESS or isinstance(action, argparse._SubParsersAction):
        return None
    words = ["complete -c pywar", f"-n {quoted(condition)}"]
    for option in action.option_strings:
        words.append(f"-l {option[2:]}" if option.startswith("--") else f"-s {option[1:]}")
    if action.dest in FILE_DESTS:
        words.append("-r -F" if action.option_strings else "-F")
    elif action.choices:
        words.append(("-x " if action.option_strings else "") + "-a "
                     + quoted(" ".join(map(str, action.choices))))
    elif action.option_strings and action.nargs != 0:
        words.append("-x")                      # a value, not a file
    elif not action.option_strings:
        return None                             # a value fish cannot guess
    return " ".join(words + [f"-d {quoted(described(parser, action))}"])


def fish_script(parser):
    """fish's completion script for the parser: its commands, then each command's
    options and arguments, files only where a file is wanted."""
    commands = subcommands(parser)
    summaries = {action.dest: action.help for action in parser._actions
                 if isinstance(action, argparse._SubParsersAction)
                 for action in action._choices_actions}
    lines = ["# fish completion for pywar, made by `pywar completion fish`",
             "complete -c pywar -f"]
    lines += filter(None, (fish_completion(parser, action, "__fish_use_subcommand")
                           for action in parser._actions))
    for name, subparser in commands.items():
        lines.append(f"complete -c pywar -n __fish_use_subcommand -a {name} "
                     f"-d {quoted(summaries[name])}")
        condition = f"__fish_seen_subcommand_from {name}"
        lines += filter(None, (fish_completion(subparser, action, condition)
                               for action in subparser._actions))
    return "\n".join(lines) + "\n"


def run_completion(args):
    """Print the completion script of the whole pywar parser for args.shell."""
    from . import build_parser
    parser = build_parser()
    if args.shell == "fish":
        sys.stdout.write(fish_script(parser))
        return 0
    import shtab
    for action in file_arguments(parser):
        action.complete = shtab.FILE
    sys.stdout.write(shtab.complete(parser, args.shell))
    return 0


def add(subparsers):
    """The completion subcommand."""
    parser = subparsers.add_parser(
        "completion", help="print a shell's completion script for pywar",
        description="Print the completion script of pywar for bash, zsh (made by shtab "
                    "from pywar's own options) or fish (made by pywar from the same): "
                    "install it where the shell looks for one.",
        epilog=examples(
            ("pywar completion bash", "to ~/.local/share/bash-completion/completions/pywar"),
            ("pywar completion zsh", "to a folder on zsh's fpath, as _pywar"),
            ("pywar completion fish", "to ~/.config/fish/completions/pywar.fish")))
    parser.add_argument("shell", choices=SHELLS, help="the shell: %(choices)s")
    parser.set_defaults(run=run_completion, parser=parser)
