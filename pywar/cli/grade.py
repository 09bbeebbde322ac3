"""pywar grade: every student program of a class built, run on the same seeds under
limits, refereed rule by rule, and reported (pywar.check; docs/grading.md)."""

import os
import shutil
import sys

from ..check import report, sandbox
from ..check.grade import DEFAULT_BUILD, DEFAULT_RUN, GradeInterrupted, Settings, grade
from ..check.judge import ITEMS
from .common import (Progress, add_isolation_option, add_progress_option, count_type,
                     examples, seed_type)
from .inputs import seconds_type
from .outputs import check_distinct, output_files, refuse_stdout

EXAMPLES = examples(
    ("pywar grade submissions/*/", "every student's folder: the class table"),
    ("pywar grade submissions/*/ -n 100 --jobs 2 --html class.html",
     "100 seeds each, two at a time, and a page of the class"),
    ("pywar grade alice/ --run '{program} --seed {seed}'",
     "a program that takes its seed as an argument"),
    ("pywar grade /autograder/submission --gradescope /autograder/results/results.json "
     "--weights format=0.5,memory=2", "Gradescope's autograder: docs/grading.md"),
)


def weights_type(text):
    """--weights item=W,...: the weights of the items named (the others 1)."""
    weights = dict.fromkeys(ITEMS, 1.0)
    for part in filter(None, text.split(",")):
        name, _, value = part.partition("=")
        if name not in weights:
            raise ValueError(f"--weights: unknown item {name!r}: choose {', '.join(ITEMS)}")
        try:
            weights[name] = float(value)
        except ValueError:
            raise ValueError(f"--weights: {name}={value!r} is not a number") from None
        if weights[name] < 0:
            raise ValueError(f"--weights: {name} must be 0 or more, not {value}")
    return weights


def checked(args):
    """The Settings of a command line, or a usage error found before any work."""
    for folder in args.submissions:
        if not os.path.isdir(folder):
            args.parser.error(f"{folder!r} is not a folder: each SUBMISSION is a folder of "
                              "one student's sources")
    names = [os.path.basename(os.path.normpath(folder)) for folder in args.submissions]
    if len(set(names)) < len(names):
        args.parser.error("two submissions have the same folder name: each is reported by it")
    if args.gradescope and len(args.submissions) != 1:
        args.parser.error("--gradescope writes the results of one submission: give one folder")
    for option, path in (("--html", args.html), ("--gradescope", args.gradescope)):
        if path:
            refuse_stdout(option, path, args.parser)
    check_distinct(args.parser, [("--html", args.html), ("--gradescope", args.gradescope),
                                 ("the report on stdout", "-")])
    try:
        sandbox.choose(args.isolation)
    except sandbox.SandboxMissing as error:
        args.parser.error(str(error))
    if sandbox.c_compiler() is None:
        args.parser.error("no C compiler (cc, gcc or clang): pywar builds its seed clock with "
                          "one")
    if args.memory and shutil.which("valgrind") is None:
        args.parser.error("the memory item needs valgrind (apt-get install valgrind), or give "
                          "--no-memory")
    try:
        weights = weights_type(args.weights or "")
    except ValueError as error:
        args.parser.error(str(error))
    if "{program}" not in args.run_command:
        args.parser.error("--run must name {program}, as in --run '{program} --seed {seed}'")
    limits = sandbox.Limits(wall=args.timeout, cpu=max(1, int(args.timeout + 0.999)),
                            memory=args.memory_limit * sandbox.MIB,
                            output=args.output_limit * sandbox.MIB)
    return Settings(build=args.build, run=args.run_command, games=args.games, seed=args.seed,
                    limits=limits, memory=args.memory, weights=weights,
                    fix_include_case=args.fix_include_case)


def run_grade(args):
    """Grade the submissions: 0 once reported (a grade is no difference to exit 1 on);
    130 after a Ctrl-C, once the submissions graded before it are reported."""
    settings = checked(args)
    status = 0
    with output_files(("--html", args.html, False, "utf-8"),
                      ("--gradescope", args.gradescope, False, "utf-8")) as files:
        progress = Progress("grading", args.progress)
        try:
            submissions = grade(args.submissions, settings, args.jobs, progress)
        except GradeInterrupted as stop:
            submissions, status = stop.graded, 130
        finally:
            progress.close()
        if status:
            print(f"{args.parser.prog}: interrupted: {len(submissions)} of "
                  f"{len(args.submissions)} submissions graded", file=sys.stderr)
        if "--gradescope" in files and not submissions:
            files["--gradescope"].discard()
            files.pop("--gradescope")
        if "--html" in files:
            files["--html"].write(report.html_page(submissions))
        if "--gradescope" in files:
            files["--gradescope"].write(report.gradescope(submissions[0], settings.weights))
        sys.stdout.write(report.as_json(submissions) if args.json
                         else report.terminal(submissions))
    return status


def add(subparsers):
    """The grade subcommand."""
    parser = subparsers.add_parser(
        "grade", help="grade a class: every student program, every rule it breaks",
        description="Build each SUBMISSION (a folder of one student's sources) in a scratch "
                    "copy, run it on N seeds with its clock reading the seed (so that an "
                    "unchanged srand(time(NULL)) plays seed by seed), with no stdin, a "
                    "scrubbed environment and limits on time, memory, output and processes, "
                    "referee every run rule by rule, and report the rubric: " +
                    ", ".join(ITEMS) + ". Every build and run is sandboxed by bubblewrap "
                    "where it works (--isolation; docs/grading.md).",
        epilog=EXAMPLES)
    parser.add_argument("submissions", metavar="SUBMISSION", nargs="+",
                        help="a folder of one student's sources")
    parser.add_argument("--build", default=DEFAULT_BUILD, metavar="CMD",
                        help="the shell command that builds {program} in the copy "
                             f"(default: {DEFAULT_BUILD.replace('%', '%%')})")
    parser.add_argument("--run", dest="run_command", default=DEFAULT_RUN, metavar="CMD",
                        help="the command of one run: {program}, and {seed} for a program "
                             "that takes its seed (default: {program})")
    parser.add_argument("-n", "--games", type=count_type(1, 100_000), default=40, metavar="N",
                        help="seeds to run each program on (default: 40)")
    parser.add_argument("--seed", type=seed_type, default=1, metavar="S",
                        help="the first seed (default: 1)")
    parser.add_argument("--jobs", type=count_type(1, 256), default=1, metavar="J",
                        help="submissions graded at once (default: 1)")
    parser.add_argument("--timeout", type=seconds_type, default=10.0, metavar="S",
                        help="seconds a run may take, on the clock and of CPU (default: 10)")
    parser.add_argument("--memory-limit", type=count_type(16), default=512, metavar="MIB",
                        help="address space a run may use, in MiB (default: 512)")
    parser.add_argument("--output-limit", type=count_type(1), default=16, metavar="MIB",
                        help="what a run may print, in MiB (default: 16)")
    parser.add_argument("--fix-include-case", action="store_true",
                        help="build with each #include \"X\" whose file exists only in another "
                             "case (it builds on Windows and macOS, not on Linux) matched to "
                             "it: builds still fails, with that reason, and every other item "
                             "is graded")
    add_isolation_option(parser)
    parser.add_argument("--no-memory", dest="memory", action="store_false",
                        help="skip the memory item (valgrind memcheck on the first seed)")
    parser.add_argument("--weights", metavar="ITEM=W,...",
                        help="points per item (default: 1 each), as format=0.5,memory=2")
    parser.add_argument("--json", action="store_true",
                        help="print the grades as one line of JSON")
    parser.add_argument("--html", metavar="FILE", help="write the class report as a page")
    parser.add_argument("--gradescope", metavar="FILE",
                        help="write Gradescope's results.json (one submission)")
    add_progress_option(parser)
    parser.set_defaults(run=run_grade, parser=parser)
