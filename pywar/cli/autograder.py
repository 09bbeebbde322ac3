"""pywar autograder OUT.zip [grade's options]: Gradescope's autograder zip, whose
run_autograder runs pywar grade with those options on each submission (docs/grading.md,
section 5).  The options are checked here, by pywar grade's own parser, before any work."""

import argparse
import io

from ..check.grading.autograder import (NoSdist, autograder_zip, built_sdist, checked_sdist,
                                        sdist_folder)
from ..check.grading.grade import DEFAULT_BUILD, DEFAULT_RUN, Settings
from . import grade
from .common import PROG, Parser, UsageError, examples
from .assignment import assignment_of
from .grade import check_quoting, weights_type
from .inputs import NOT_WANTED, InputError
from .outputs import output_files, refuse_stdout

EXAMPLES = examples(
    ("pywar autograder war-autograder.zip -n 40 --weights runs=2,memory=2",
     "the zip to upload on Gradescope's Configure Autograder page"),
    ("pywar autograder war.zip --gradescope-visibility after_due_date "
     "--gradescope-test-visibility builds=visible",
     "students see whether it builds at once, the rest after the due date"),
    ("pywar autograder war.zip --sdist dist/pywar-0.1.0.tar.gz -n 20",
     "with an sdist built beforehand (python -m build --sdist)"),
)
SUBMISSION = "/autograder/submission"

RESULTS = "/autograder/results/results.json"
WRITTEN_HERE = ("--gradescope", "--csv", "--html", "--keep", "--json", "--since",
                "--scheduler", "--jobs", "--progress", "--no-progress", "--lms",
                "--csv-format", "--assignment", "--points", "--worksheet", "--due")


def sdist_option(words):
    """(the --sdist given after OUT.zip, or None; the other words)."""
    found, rest, words = None, [], list(words)
    while words:
        word = words.pop(0)
        if word == "--sdist" and words:
            found = words.pop(0)
        elif word.startswith("--sdist="):
            found = word.split("=", 1)[1]
        else:
            rest.append(word)
    return found, rest


def checked_options(args, options):
    """(grade's options, checked as pywar grade checks them (its parser, the weights, the
    commands' quoting), or a usage error naming the option; the options that
    run_autograder sets itself, or that write elsewhere than Gradescope, refused; the
    options as grade's parser read them)."""
    for word in options:
        option = word.split("=", 1)[0]
        if option in WRITTEN_HERE:
            args.parser.error(f"{option}: run_autograder grades {SUBMISSION} into "
                              f"{RESULTS} itself; give grade's options of how to grade "
                              "(-n, --seed, --weights, --timeout, --gradescope-visibility, "
                              "...)")
    try:
        grading, extra = grade_parser().parse_known_args(
            [SUBMISSION, *options, "--gradescope", RESULTS])
    except UsageError as error:
        args.parser.error(f"grade's options: {str(error).split(': error: ', 1)[-1]}")
    except SystemExit:                  # grade's --help, printed
        raise InputError("grade's --help printed: give grade's options to check", NOT_WANTED)
    if extra or len(grading.submissions) != 1:
        args.parser.error(f"grade's options: {' '.join(extra or grading.submissions[1:])} "
                          f"is not one: run_autograder grades {SUBMISSION} alone")
    try:
        weights_type(grading.weights or "")
    except ValueError as error:
        args.parser.error(str(error))
    run = grading.run_command or DEFAULT_RUN        # None where not given (an assignment
    build = grading.build or DEFAULT_BUILD          # file's may give them: grade's)
    if "{program}" not in run:
        args.parser.error("--run must name {program}, as in --run '{program} --seed {seed}'")
    check_quoting(args.parser, Settings(build=build, run=run))
    return options, grading


def packed_assignment(args, options, grading):
    """(grade's options but --assignment-file, the file's text) where the options give
    one (checked as pywar grade checks it), else (the options, None): the file goes into
    the zip, and run_autograder names its copy (the instructor's path means nothing on
    Gradescope's machine).  grading: the options as grade's parser read them."""
    if grading.assignment_file is None:
        return options, None
    text, _ = assignment_of(args.parser, grading.assignment_file)
    packed, words = [], list(options)
    while words:
        word = words.pop(0)
        if word == "--assignment-file" and words:
            words.pop(0)
        elif not word.startswith("--assignment-file="):
            packed.append(word)
    return packed, text


def grade_parser():
    """pywar grade's own parser, as the command line makes it."""
    commands = Parser(prog=PROG).add_subparsers()
    grade.add(commands)
    return commands.choices["grade"]


def run_autograder(args):
    """Write the autograder zip: 0; a usage error (exit 2) for an option of grade's that
    is not, or an sdist that is not this pywar's; exit 3 for OUT.zip not written."""
    given, options = sdist_option(args.grade_options)
    sdist = args.sdist or given
    refuse_stdout("OUT.zip", args.out, args.parser)
    options, assignment = packed_assignment(args, *checked_options(args, options))
    with output_files(("OUT.zip", args.out, True, None)) as files, sdist_folder() as folder:
        try:
            sdist = checked_sdist(sdist) if sdist is not None else built_sdist(folder)
        except NoSdist as error:
            raise InputError(str(error), NOT_WANTED) from None
        made = io.BytesIO()
        autograder_zip(made, sdist, options,
                       assignment)
        files["OUT.zip"].write(made.getvalue())
    return 0


def add(subparsers):
    """The autograder subcommand."""
    parser = subparsers.add_parser(
        "autograder", help="Gradescope's autograder zip: pywar grade on each submission",
        description="Write OUT.zip, Gradescope's autograder: setup.sh (installs pywar from "
                    "its sdist, in the zip, with its C core, into a venv of its own on "
                    "Gradescope's Ubuntu image), run_autograder (runs pywar grade "
                    f"{SUBMISSION} with the options given, into {RESULTS}) and the sdist, "
                    "built from this pywar's checkout (python -m build --sdist) unless "
                    "--sdist gives it. The options after OUT.zip are pywar grade's, checked "
                    "now.",
        epilog=EXAMPLES)
    parser.add_argument("--sdist", metavar="FILE",
                        help="pywar's sdist to put in the zip (default: built from this "
                             "pywar's checkout)")
    parser.add_argument("out", metavar="OUT.zip", help="the zip to write")
    parser.add_argument("grade_options", nargs=argparse.REMAINDER, metavar="OPTION",
                        help="pywar grade's options for each submission (-n, --seed, "
                             "--weights, --gradescope-visibility, ...)")
    parser.set_defaults(run=run_autograder, parser=parser)
