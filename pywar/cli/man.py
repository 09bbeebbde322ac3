"""pywar man: pywar's manual page, in roff, made from the argument parser itself, so
that it says what --help says, every command and option, for the installed version.

    pywar man | man -l -                                    # read it
    pywar man > ~/.local/share/man/man1/pywar.1             # then: man pywar

A small generator of its own rather than argparse-manpage: the page is made at run
time, like the completion scripts, from the parser pywar runs, with no build step and
no dependency.
"""

import argparse
import os
import sys
from importlib import metadata

from .common import PROG, examples
from .help import subcommands

PAGE_COLUMNS = 80                # the width of the synopses, whatever the terminal's
SEE_ALSO = ("The README (the commands, with worked examples), docs/rules.md (every rule "
            "and decision), docs/trace.md (the trace), docs/tutorial.md (for students).")


def roff(text):
    """Text safe in roff: backslashes, hyphens of options, and a leading dot or quote."""
    text = text.replace("\\", "\\e").replace("-", "\\-")
    return "\n".join("\\&" + line if line[:1] in (".", "'") else line
                     for line in text.split("\n"))


def paragraph(text):
    """Running text, one paragraph."""
    return [".PP", roff(" ".join(text.split()))]


def verbatim(text):
    """Lines as they are (usage, examples), unfilled."""
    return [".PP", ".nf", roff(text.strip("\n")), ".fi"]


def options(parser):
    """Each argument and option of a parser, as a tagged paragraph: its invocation as
    --help shows it, then its help."""
    formatter = parser._get_formatter()
    lines = []
    for action in parser._actions:
        if action.help == argparse.SUPPRESS or isinstance(action, argparse._SubParsersAction):
            continue
        invocation = formatter._format_action_invocation(action)
        lines += [".TP", f".B {roff(invocation)}",
                  roff(" ".join(formatter._expand_help(action).split()))]
    return lines


def synopsis(parser):
    """A command's usage without its 'usage: ', the wrapped lines moved left to match."""
    prefix = "usage: "
    lines = parser.format_usage().removeprefix(prefix).splitlines()
    return "\n".join(lines[:1] + [line.removeprefix(" " * len(prefix)) for line in lines[1:]])


def command_section(name, parser):
    """A command's part of the page: its usage, description, options and examples."""
    lines = [f".SS {roff(name)}"] + verbatim(synopsis(parser))
    lines += paragraph(parser.description or "") + options(parser)
    return lines + (verbatim(parser.epilog) if parser.epilog else [])


def page(parser):
    """The manual page of the pywar parser, in roff (man(7) macros)."""
    examples_part, exit_status = parser.epilog.split("exit status:\n")
    commands = subcommands(parser)
    lines = [f'.TH {PROG.upper()} 1 "" "{PROG} {roff(metadata.version(PROG))}" "User Commands"',
             ".nh", ".ad l",                  # no hyphens in options, a ragged right edge
             ".SH NAME", f"{PROG} \\- the card game War, as a teaching reference and a "
             "simulation engine",
             ".SH SYNOPSIS", f".B {PROG}", ".I COMMAND", "[\\fIoptions\\fR]",
             ".SH DESCRIPTION"] + paragraph(parser.description)
    lines += [".SH COMMANDS"]
    for name, subparser in commands.items():
        lines += command_section(name, subparser)
    lines += [".SH EXAMPLES"] + verbatim(examples_part.replace("examples:\n", ""))
    lines += [".SH \"EXIT STATUS\""] + verbatim(exit_status)
    lines += [".SH \"SEE ALSO\""] + paragraph(SEE_ALSO)
    return "\n".join(lines) + "\n"


def run_man(args):
    """Print the manual page, the same at any terminal's width: 0."""
    saved = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = str(PAGE_COLUMNS)        # argparse wraps the synopses to it
    try:
        text = page(args.whole)          # the whole pywar parser (cli.build_parser)
    finally:
        if saved is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = saved
    sys.stdout.write(text)
    return 0


def add(subparsers):
    """The man subcommand."""
    parser = subparsers.add_parser(
        "man", help="print pywar's manual page (roff)",
        description="Print pywar's manual page, made from its own options: every command "
                    "and option, as --help gives them.",
        epilog=examples(("pywar man | man -l -", "read it"),
                        ("pywar man > ~/.local/share/man/man1/pywar.1", "then: man pywar")))
    parser.set_defaults(run=run_man, parser=parser)
