"""The pywar command: play one game, simulate many, check the twins, list the rules.

    pywar play --seed 17455            # the transcript, as SMU's program prints it
    pywar play --seed 17455 --json     # the result as one line of JSON
    pywar simulate -n 1000000          # a million games: a summary of their lengths
    pywar check -n 2000                # the C core and the Python twin agree, seed by seed
    pywar rules                        # the presets and the rule dimensions

Exit status (EXIT_STATUS, in the help): 0 success, 1 a difference found, 2 a usage
error (one line on stderr), 3 a file or stream that cannot be read or written (or out of
memory), 130 after a Ctrl-C (simulate first prints the summary of the games it
finished), 143 after SIGTERM and 129 after SIGHUP, handled as Ctrl-C is.  A reader of
stdout that goes away (a broken pipe) ends any command quietly, with 0.
Each subcommand is a module of this package with an add(subparsers) function that
sets run=...; common.py holds what they share.  To add one, write its module and
list it in COMMANDS.
"""

import os
import sys
import time  # noqa: F401  (tests set pywar.cli.time.time)

import numpy  # noqa: F401  (loaded with the command, where pywar_command makes a signal one
#               line: a Ctrl-C or SIGTERM inside NumPy's own import, later, would leave it
#               unloadable, and the report of the work finished needs it)

from . import (assignment, autograder, check, clock, completion, diff, exact, exercise, grade,
               man, page, play, referee, replay, rules, similar, simulate, step)
from . import help as help_command
from .common import *  # noqa: F401,F403  (the shared helpers, for other modules and tests)
from .common import (PROG, Parser, UsageError, Version, examples, interrupted_line,
                     interrupted_status, stopping_signals)
from .. import RngPathError     # PYWAR_RNG_PATH refused (the facade's, as a library's error)
from .inputs import IO_FAILED, InputError, say_error
from .outputs import ReaderGone, Stdout, discard_stdout

COMMANDS = (play, simulate, check, exact, rules, step, replay, diff, referee, grade, autograder,
            assignment, similar, clock, exercise, page, completion, man, help_command)


def build_subcommands(parser):
    """Add every subcommand to the top-level parser."""
    subparsers = parser.add_subparsers(title="commands", metavar="COMMAND", dest="command")
    for command in COMMANDS:
        command.add(subparsers)
    for subparser in subparsers.choices.values():
        subparser.add_argument("--version", action=Version)
    return subparsers


EXIT_STATUS = """exit status:
  0    success
  1    check, replay, diff or referee found a difference (or a fault, or an
       outside implementation failed)
  2    a usage error, found before any work (one line on stderr)
  3    a file or stream that cannot be read or written, a scheduler that
       cannot be reached (one line on stderr naming it), or out of memory
  130  interrupted (Ctrl-C), after reporting only the work finished, from the
       first seed on with no gap; 143 for SIGTERM and 129 for SIGHUP, the same way
"""
EPILOG = examples(
    ("pywar play --seed 17455", "one game, as SMU's program prints it"),
    ("pywar simulate -n 1000000", "a million games: a summary of their lengths"),
    ("pywar check -n 2000", "the C engine and the Python twin agree, seed by seed"),
    ("pywar rules", "the presets and the rule dimensions"),
    ("pywar help simulate", "a command's options and examples (as pywar simulate --help)"),
    ("pywar completion bash", "tab completion for bash (or zsh): docs/command-line.md"),
) + "\n" + EXIT_STATUS


def build_parser():
    """The pywar argument parser."""
    parser = Parser(prog=PROG, description="The card game War: a C core and its Python twin. "
                    "'pywar help COMMAND' (or 'pywar COMMAND --help') shows a command's "
                    "options and examples.",
                    epilog=EPILOG)
    parser.add_argument("--version", action=Version)
    build_subcommands(parser)
    parser.set_defaults(whole=parser)   # for a command about pywar itself (completion)
    return parser


def parsed(parser, argv):
    """The parsed command line, or None when there is nothing to run: --help or
    --version has printed, or, without a command, the help (as --help prints it)."""
    try:
        args, extra = parser.parse_known_args(argv)
    except SystemExit:                  # --help and --version, printed
        return None
    if extra:
        getattr(args, "parser", parser).error(f"unrecognized arguments: {' '.join(extra)}")
    if args.command is None:
        parser.print_help()
        return None
    return args


def run(argv):
    """Parse the command line and run the subcommand: the exit status."""
    parser = build_parser()
    prog = PROG
    try:
        args = parsed(parser, argv)
        prog = PROG if args is None else args.parser.prog
        status = 0 if args is None else args.run(args)
        sys.stdout.flush()              # stdout that cannot be written is the command's error
        return status
    except InputError as error:         # a file or stdout that cannot be written: exit 3
        return say_error(prog, error)
    except UsageError as error:
        print(error, file=sys.stderr)
        return 2
    except RngPathError as error:       # PYWAR_RNG_PATH, read as the first game starts
        print(f"{prog}: error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(interrupted_line(), file=sys.stderr)
        return interrupted_status()
    except MemoryError as error:
        return say_error(prog, InputError(out_of_memory(error), IO_FAILED))


def out_of_memory(error):
    """The words of a MemoryError: 'out of memory', and what Python said, if anything."""
    return "out of memory" + (f": {error}" if str(error) else "")


def missing_stream(name):
    """The one line (exit 3) of a command started with stdout or stdin closed, or None
    when both are there."""
    if getattr(sys, name) is None:
        return f"{PROG}: error: cannot {'write' if name == 'stdout' else 'read'} {name}: " \
               "it is closed"
    return None


def main(argv=None):
    """Run the pywar command; return its exit status.  While it runs, sys.stdout is
    outputs.Stdout, whose failures name stdout, and SIGTERM and SIGHUP are handled as
    Ctrl-C is (exit 143, 129).  A closed stdout is exit 3 before anything is done."""
    if sys.stderr is None:                  # nowhere to say anything: say nothing
        sys.stderr = open(os.devnull, "w")
    if (closed := missing_stream("stdout")) is not None:
        print(closed, file=sys.stderr)
        return IO_FAILED
    real = sys.stdout
    sys.stdout = Stdout(real)
    ran = []
    try:
        with stopping_signals():
            ran.append(run(argv))
        return ran[0]
    except (ReaderGone, BrokenPipeError):   # the reader went away: say nothing more, exit 0
        discard_stdout()
        return 0
    except KeyboardInterrupt:           # a signal as the command starts, or once it is done
        if not ran:
            print(interrupted_line(), file=sys.stderr)
        return interrupted_status()
    finally:
        sys.stdout = real

