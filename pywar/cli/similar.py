"""pywar similar: every pair of a class's submissions ranked by how alike they are, by
source (the handout left out) and, where the class was graded, by behaviour
(pywar.check.similar; docs/instructors.md)."""

import os
import sys
import tempfile

from ..check.grading import regrade
from ..check.submission.names import readable, terminal_name
from .common import (Progress, add_isolation_option, add_progress_option, checked_isolation,
                     count_type, examples)
from .grade import check_submission_folders
from .outputs import check_distinct, output_files, refuse_stdout

EXAMPLES = examples(
    ("pywar similar submissions/*/ --starter handout/",
     "every pair of the class, the handout's code left out"),
    ("pywar grade submissions/*/ --json --keep kept > class.json\n"
     "  pywar similar submissions/*/ --starter handout/ --grades class.json --kept kept",
     "and by behaviour: the lines of their own and the mistakes they share"),
    ("pywar similar submissions/*/ --starter handout/ -n 10",
     "the class graded here on 10 seeds, and compared by behaviour too"),
    ("pywar similar submissions/*/ --archive fall2025/ --html similar.html",
     "past terms' too, and a page showing each pair side by side"),
)


def needs_copydetect(parser):
    """A usage error where copydetect, which tokenizes the code, is not installed."""
    try:
        import copydetect  # noqa: F401
    except ImportError:
        from ..installed import install_hint
        parser.error(f"pywar similar compares code with copydetect, not installed: "
                     f"{install_hint('similar')}")


def folder_option(parser, option, folder):
    """A usage error for an option's folder that is not one."""
    if folder is not None and not os.path.isdir(folder):
        parser.error(f"{option} {folder!r} is not a folder: give a folder of "
                     + ("the code handed out" if option == "--starter" else
                        "past submissions, one folder each" if option == "--archive" else
                        "pywar grade --keep's submissions"))


def past_submissions(folder, now=()):
    """The folders of --archive DIR: each a past submission, but one of this term's
    (now), which would be compared with itself."""
    if folder is None:
        return []
    this_term = {os.path.realpath(path) for path in now}
    return sorted(os.path.join(folder, name) for name in os.listdir(folder)
                  if os.path.isdir(os.path.join(folder, name))
                  and not os.path.islink(os.path.join(folder, name))
                  and os.path.realpath(os.path.join(folder, name)) not in this_term)


def checked(args):
    """A usage error before any work: the folders, the outputs, the grade JSON."""
    needs_copydetect(args.parser)
    check_submission_folders(args.parser, args.submissions)
    if len(args.submissions) < 2 and args.archive is None:
        args.parser.error("give two submissions at least, or --archive DIR to compare one "
                          "with past terms'")
    for folder in args.starter:
        folder_option(args.parser, "--starter", folder)
    folder_option(args.parser, "--archive", args.archive)
    folder_option(args.parser, "--kept", args.kept)
    if args.games is not None:
        if args.kept is not None or args.grades is not None:
            args.parser.error("-n grades the class here: give it, or --grades and --kept "
                              "of a grading made before, not both")
        checked_isolation(args)
        from ..check.runner import sandbox
        if sandbox.c_compiler() is None:
            args.parser.error("-n grades the class, and pywar builds its seed clock with a C "
                              "compiler (cc, gcc or clang): none is installed")
    if args.html:
        refuse_stdout("--html", args.html, args.parser)
        page_outside_inputs(args)
    check_distinct(args.parser, [("--html", args.html), ("--grades", args.grades),
                                 ("the report on stdout", "-")])
    args.grades_json = None
    if args.grades is not None:
        try:
            args.grades_json = regrade.load_old(args.grades)
        except regrade.NotAGrade as error:
            args.parser.error(f"--grades {args.grades!r} is not a pywar grade JSON ({error}): "
                              "give a file that pywar grade --json wrote")
        except OSError as error:
            args.parser.error(f"--grades {args.grades!r} cannot be read: "
                              f"{error.strerror or error}")


def page_outside_inputs(args):
    """A usage error for an --html page inside a folder compared or read (it would replace
    a student's file, or join the next comparison)."""
    page = os.path.realpath(args.html)
    folders = [*args.submissions, *args.starter, args.archive, args.kept]
    for folder in filter(None, folders):
        if os.path.commonpath([page, os.path.realpath(folder)]) == os.path.realpath(folder):
            args.parser.error(f"--html {args.html!r} is inside {readable(folder)!r}, a folder "
                              "it compares or reads: give a page outside them")


def name_of(folder):
    """A submission's name: its folder's, as the grade reports it."""
    return readable(os.path.basename(os.path.normpath(folder)))


def compared(args):
    """The Pairs ranked, the Codes by ("now" or "archive", name), and the notes."""
    from ..check.similar import behaviour, pairs, source
    starter = source.starter_hashes(args.starter)
    codes = [source.code_of(name_of(folder), folder, starter) for folder in args.submissions]
    archive = [source.code_of(name_of(folder), folder, starter)
               for folder in past_submissions(args.archive, args.submissions)]
    notes = [f"{code.name}{where}: {note}" for group, where in ((codes, ""),
                                                              (archive, " (archive)"))
             for code in group for note in code.notes]
    traits, unknown = None, {}
    if args.games is not None:
        traits, unknown = graded_here(args, [code.name for code in codes])
    elif args.kept is not None or args.grades_json is not None:
        traits = behaviour.traits_of([code.name for code in codes], args.kept,
                                     args.grades_json)
        unknown = behaviour.unknown([code.name for code in codes], args.grades_json)
    notes += [f"{name}: behaviour not compared, it {why}"
              + (f" (--grades {args.grades})" if why == behaviour.NOT_GRADED else "")
              + ": what it did is unknown" for name, why in unknown.items()]
    found = pairs.ranked(codes, archive, traits, unknown)
    by_key = {("now", code.name): code for code in codes}
    by_key.update({("archive", code.name): code for code in archive})
    return found, by_key, [code.name for code in codes], [code.name for code in archive], notes


def graded_here(args, names):
    """-n N: the class graded here as pywar grade -n N --fresh 0 --no-memory would, its
    runs kept in a scratch folder: each submission's traits by name, and behaviour.unknown's
    {name: why} of those it ran on no seed."""
    from ..check.grading import keep
    from ..check.grading.grade import GradeInterrupted, Settings, grade
    from ..check.grading.report import class_json
    from ..check.similar import behaviour
    from ..engine_choice import usable_cores
    with tempfile.TemporaryDirectory(prefix="pywar-similar-") as scratch:
        kept = os.path.join(scratch, "kept")
        keep.ready(kept)
        settings = Settings(games=args.games, memory=False, keep=kept,
                            isolation=args.isolation)
        progress = Progress("grading", args.progress)
        try:
            graded = grade(args.submissions, settings, usable_cores(), progress)
        except GradeInterrupted:
            raise KeyboardInterrupt from None       # nothing compared yet: nothing to report
        finally:
            progress.close()
        grades = class_json(graded)
        return behaviour.traits_of(names, kept, grades), behaviour.unknown(names, grades)


def run_similar(args):
    """Compare the submissions: 0 once reported (a similarity is no difference to exit 1
    on: a person decides)."""
    checked(args)
    from ..check.similar import report
    sys.stdout.reconfigure(errors="backslashreplace")      # a name a terminal cannot show
    with output_files(("--html", args.html, False, "utf-8")) as files:
        found, codes, names, archive, notes = compared(args)
        if "--html" in files:
            files["--html"].write(report.html_page(found, codes, names, notes, args.top))
        behaviour_from = (None if args.kept is None and args.grades is None and
                          args.games is None else
                          {"kept": args.kept, "grades": args.grades, "games": args.games})
        if args.json:
            sys.stdout.write(report.as_json(found, names, archive, args.starter,
                                            behaviour_from, notes))
        else:
            sys.stdout.write(report.terminal(found, names, args.top))
            for note in notes:
                print(f"{args.parser.prog}: note: {terminal_name(readable(note))}",
                      file=sys.stderr)
    return 0


def add(subparsers):
    """The similar subcommand."""
    parser = subparsers.add_parser(
        "similar", help="compare a class's submissions: the pairs most alike first",
        description="Rank every pair of SUBMISSIONs (folders of one student's sources) by "
                    "how alike they are, from 0 to 1: by their code, tokenized by copydetect "
                    "so that renamed names, removed comments, new layout and reordered "
                    "functions change nothing, the --starter code left out of every match; "
                    "and, given a grading of the class (--grades, --kept), by their "
                    "behaviour: the lines of their own and the mistakes that two share and "
                    "few others do, beyond one rare trait that any two may share by chance "
                    "(a submission the grading lacks is not compared by behaviour). A score "
                    "is evidence for a person, never a verdict (docs/instructors.md).",
        epilog=EXAMPLES)
    parser.add_argument("submissions", metavar="SUBMISSION", nargs="+",
                        help="a folder of one student's sources")
    parser.add_argument("--starter", metavar="DIR", action="append", default=[],
                        help="code handed out (the assignment's Pile, a skeleton), left out "
                             "of every match; may be given again")
    parser.add_argument("--archive", metavar="DIR",
                        help="past terms' submissions, a folder each: each compared with "
                             "this term's, not with each other")
    parser.add_argument("--grades", metavar="FILE",
                        help="pywar grade --json's output for the class: the mistakes "
                             "each program made, seed by seed")
    parser.add_argument("--kept", metavar="DIR",
                        help="pywar grade --keep's DIR for the class: the lines each "
                             "program printed")
    parser.add_argument("-n", "--games", type=count_type(1, 1_000), metavar="N",
                        help="grade the class here on seeds 1 to N (as pywar grade -n N "
                             "--fresh 0 --no-memory, in its sandbox) and compare by behaviour "
                             "too, in place of --grades and --kept")
    add_isolation_option(parser)
    parser.add_argument("--top", type=count_type(1), default=20, metavar="N",
                        help="pairs the table and the page show in full (default: 20); "
                             "--json lists every pair")
    parser.add_argument("--json", action="store_true",
                        help="print every pair and its evidence as one line of JSON")
    parser.add_argument("--html", metavar="FILE",
                        help="write a page: the ranked pairs, the first --top side by side "
                             "with the code they share marked")
    add_progress_option(parser)
    parser.set_defaults(run=run_similar, parser=parser)
