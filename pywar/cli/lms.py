"""pywar grade's LMS side: the downloads it reads (Canvas's, Moodle's, Gradescope's, a zip
or the folder it unzips to) and the imports it writes (--csv: Canvas's gradebook import,
Moodle's grading worksheet, or the plain CSV), each checked before any work
(docs/grading.md, "From the LMS and back")."""

import argparse
import sys

from ..check.grading import canvas_import, moodle_worksheet
from ..check.grading.gradebook import gradebook_csv
from ..check.grading.gradescope_results import test_visibility_type
from ..check.submission import gradescope_export
from ..check.submission.bounds import MIB
from ..check.submission.downloads import read_class
from ..check.submission.unzip import Refused
from .inputs import NOT_WANTED, InputError, cannot, positive_type

LMS_CHOICES = ("auto", "canvas", "moodle", "gradescope", "none")
FORMATS = ("plain", "canvas", "moodle")
WORKSHEET_BYTES = 64 * MIB              # a grading worksheet read whole, at most
MOST_POINTS = 1_000_000


def format_of(lms):
    """The --csv format of a class from an LMS (None: folders): its own import."""
    return lms if lms in ("canvas", "moodle") else "plain"


def typed(parser, kind, text):
    """kind(text), a ValueError a usage error in its words."""
    try:
        return kind(text)
    except ValueError as error:
        parser.error(str(error))


points_type = positive_type("--points", MOST_POINTS)    # the assignment's points in the LMS


def argument(kind):
    """An argparse type of kind, its ValueError argparse's error, in its words."""
    def checked(text):
        try:
            return kind(text)
        except ValueError as error:
            raise argparse.ArgumentTypeError(str(error).split(": ", 1)[-1]) from None
    checked.__name__ = kind.__name__
    return checked


def read_sources(args):
    """The class given, read (each download's students written into args.scratch):
    its sources, for grade(); a download refused is one line, exit 2."""
    try:
        found = read_class(args.submissions, args.scratch, args.lms)
    except Refused as error:
        raise InputError(str(error), NOT_WANTED) from None
    except OSError as error:
        raise cannot("read", "the class's downloads into pywar's scratch folder", error) \
            from None
    for warning in found.warnings:
        print(f"{args.parser.prog}: warning: {warning}", file=sys.stderr)
    args.downloads = found.downloads
    args.class_lms = found.lms()
    if args.downloads and args.scheduler is not None:
        args.parser.error("--scheduler grades folders the cluster's workers read; a "
                          "download is read on this machine: unzip it and grade its "
                          "students' folders, or grade without --scheduler")
    return found.sources


def check_options(args, sources):
    """The LMS options checked against the class and --csv, before any work: a usage
    error for one that does not apply, or a class the import asked for cannot match."""
    given = [(option, value) for option, value in (
        ("--assignment", args.assignment), ("--points", args.points),
        ("--worksheet", args.worksheet), ("--csv-format", args.csv_format)) if value is not None]
    if given and args.csv is None:
        args.parser.error(f"{given[0][0]} sets what --csv writes: give --csv FILE too")
    if args.due is not None and args.class_lms != gradescope_export.LMS:
        args.parser.error("--due says when a Gradescope export's submissions were due: "
                          "give a Gradescope export")
    if args.due is not None:
        gradescope_export.mark_late(sources, typed(args.parser, gradescope_export.due_type,
                                                   args.due))
    if args.gradescope_tests and not args.gradescope:
        args.parser.error("--gradescope-test-visibility sets a field of --gradescope's "
                          "results.json: give --gradescope FILE too")
    if args.csv is None:
        return
    args.csv_as = args.csv_format or format_of(args.class_lms)
    check_format(args, sources)


def check_format(args, sources):
    """The options of --csv's format, and the class it can write, checked."""
    wrong = {"canvas": ("--worksheet",), "moodle": ("--assignment",),
             "plain": ("--assignment", "--points", "--worksheet")}[args.csv_as]
    for option in wrong:
        if getattr(args, option[2:]) is not None:
            args.parser.error(f"{option} is not an option of --csv-format {args.csv_as} "
                              f"(the class's --csv is {args.csv_as}'s)")
    if args.csv_as == "canvas":
        if args.assignment is None:
            args.parser.error("Canvas's import needs the assignment's column: give "
                              "--assignment 'War (4242)', the assignment as Canvas names it "
                              "(its title and id, from its address, or its exact title)")
        typed(args.parser, canvas_import.check_assignment, args.assignment)
        if args.class_lms == "moodle" or any(getattr(s, "anonymous", False) and
                                             s.lms == "canvas" for s in sources):
            args.parser.error(f"--csv-format canvas: {canvas_words(args, sources)}")
    if args.csv_as == "moodle":
        check_moodle(args, sources)


def canvas_words(args, sources):
    """Why Canvas's import cannot match a class."""
    if args.class_lms == "moodle":
        return ("a Moodle download's ids are Moodle's participant ids, which Canvas's "
                "import cannot match")
    return ("an anonymous Canvas download names no user (anon_...), so Canvas's import "
            "cannot match its grades: enter them in SpeedGrader, or give --csv-format plain")


def check_moodle(args, sources):
    """A Moodle worksheet's class (Moodle's, every id in the worksheet given) and its
    maximum grade (--points, or the worksheet's)."""
    if args.class_lms != "moodle":
        args.parser.error("--csv-format moodle writes Moodle's grading worksheet, whose "
                          "rows are the participant ids of a Moodle download: give one")
    teams = [s for s in sources if s.id is None]
    if teams:
        args.parser.error(f"{teams[0].name!r} is a team's folder with no id: Moodle's "
                          "worksheet cannot name it (grade a team assignment's worksheet by "
                          "hand)")
    args.sheet = read_worksheet(args) if args.worksheet is not None else None
    if args.sheet is not None:
        missing = [s for s in sources if s.id not in args.sheet.ids]
        if missing:
            args.parser.error(f"participant {missing[0].id} ({missing[0].name}) of the "
                              f"download is not in --worksheet {args.worksheet!r}: give the "
                              "worksheet of this assignment (a team's folder names its "
                              "group's id: grade a team assignment's worksheet by hand)")
        for student in sources:
            late = args.sheet.late(student.id)
            if late is not None:
                student.late = late
                if late:
                    student.notes.append("late, as Moodle's worksheet says")
    args.most = args.points or (args.sheet.maximum() if args.sheet else None)
    if args.most is None:
        args.parser.error("Moodle skips a grade above the assignment's maximum: give "
                          "--points N, its maximum grade (the scores are scaled to it), "
                          "or --worksheet FILE, the grading worksheet Moodle gave, which "
                          "says it")


def read_worksheet(args):
    """The --worksheet, read, or a usage error in one line."""
    try:
        with open(args.worksheet, "rb") as file:
            data = file.read(WORKSHEET_BYTES + 1)
    except OSError as error:
        args.parser.error(f"--worksheet {args.worksheet!r} cannot be read: "
                          f"{error.strerror or error}")
    if len(data) > WORKSHEET_BYTES:
        args.parser.error(f"--worksheet {args.worksheet!r} is larger than "
                          f"{WORKSHEET_BYTES // MIB} MiB: not a grading worksheet")
    try:
        return moodle_worksheet.Worksheet(data.decode("utf-8"))
    except UnicodeDecodeError:
        args.parser.error(f"--worksheet {args.worksheet!r} is not UTF-8: download it again "
                          "as Moodle writes it")
    except moodle_worksheet.NotAWorksheet as error:
        args.parser.error(f"--worksheet {args.worksheet!r} is not Moodle's grading "
                          f"worksheet: {error}")


def gradebook(args, submissions, weights):
    """The text --csv writes: the import of the class's LMS, or of --csv-format's."""
    if args.csv_as == "canvas":
        return canvas_import.canvas_csv(submissions, args.assignment, args.points)
    if args.csv_as == "moodle":
        if args.sheet is not None:
            return args.sheet.filled(submissions, args.most)
        return moodle_worksheet.fresh_worksheet(submissions, args.most)
    return gradebook_csv(submissions, weights)


def receipt_downloads(made, args):
    """The receipt, with the downloads the class was read from (each's LMS, file name
    and sha256), where it was."""
    if args.downloads:
        made["downloads"] = [dict(record) for record in args.downloads]
    return made


def add_options(parser):
    """grade's LMS options."""
    parser.add_argument("--lms", choices=LMS_CHOICES, default="auto",
                        help="which LMS wrote each DOWNLOAD: auto, told by its names "
                             "(default), or canvas, moodle, gradescope (the names that do "
                             "not follow its rule left out, and said), or none (every "
                             "folder is one student's)")
    parser.add_argument("--csv-format", choices=FORMATS, metavar="FORMAT",
                        help="what --csv writes: canvas (Canvas's gradebook import), moodle "
                             "(Moodle's grading worksheet) or plain (a row per student, "
                             "each item's points); default: the import of the LMS the "
                             "class came from, plain for folders and Gradescope")
    parser.add_argument("--assignment", metavar="NAME",
                        help="Canvas's import: the assignment's column, as Canvas names it, "
                             "'War (4242)' (its title and id) or its exact title")
    parser.add_argument("--points", type=points_type, metavar="N",
                        help="the assignment's points in the LMS: Canvas's Points "
                             "Possible, Moodle's maximum grade; the scores are scaled to "
                             "it (default: the weights' sum; Moodle's: the worksheet's)")
    parser.add_argument("--worksheet", metavar="FILE",
                        help="Moodle's grading worksheet of the assignment, as downloaded: "
                             "--csv writes it back with each student's grade and feedback "
                             "(its Status says who was late)")
    parser.add_argument("--due", metavar="DATE",
                        help="a Gradescope export's due date (ISO 8601, UTC unless it says, "
                             "2024-05-02T23:59-05:00): a submission made after it is late")
    parser.add_argument("--gradescope-test-visibility", dest="gradescope_tests",
                        type=argument(test_visibility_type), metavar="ITEM=WHEN,...",
                        help="a test's own visibility in --gradescope's results.json, as "
                             "builds=visible with --gradescope-visibility after_due_date "
                             "(each WHEN one of hidden, after_due_date, after_published, "
                             "visible)")
