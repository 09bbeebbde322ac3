"""A class's grades as a gradebook's CSV (`pywar grade --csv FILE`, the plain form): a
header row and a row per student (docs/grading.md, section 4).  The imports an LMS takes
are canvas_import's and moodle_worksheet's.

Columns: Canvas's identifying columns (Student, ID, SIS User ID, SIS Login ID, Section;
for a folder of the instructor's, its name as Student and as SIS Login ID, the others
empty; for a student of a download, the LMS's name and id: people()), then each item's
points (its weight where it is ok, 0 where not, empty where left out), the score and
the most it could be.  A name is a student's, so it is written as a spreadsheet reads
text, never a formula (OWASP's CSV injection advice): every field quoted, and one
starting with = + - @, a tab, a carriage return or a line feed (or their full-width
forms) given a leading apostrophe.
"""

import csv
import io
import unicodedata

from ..referee.rubric import NAMES
from ..submission.names import readable, terminal_name

IDENTITY = ("Student", "ID", "SIS User ID", "SIS Login ID", "Section")
TOTALS = ("score", "out of")
HEADER = (*IDENTITY, *NAMES, *TOTALS)
FORMULA_STARTS = "=+-@\t\r\n"       # what a spreadsheet may read as a formula's start


def text_cell(text):
    """A text as a cell a spreadsheet reads as text: a leading apostrophe on one that
    starts as a formula would (its first character, in its NFKC form: a full-width
    '＝' is '=')."""
    first = unicodedata.normalize("NFKC", text[:1])[:1]
    return f"'{text}" if first and first in FORMULA_STARTS else text


def points(value):
    """Points in plain decimals, never an exponent: 1000000, 0.5, 0."""
    return f"{value:.6f}".rstrip("0").rstrip(".")


def people(submission):
    """The students a submission is graded for, each {"name", "id", "sis_user",
    "sis_login"} as Canvas's identifying columns take them: a folder's name (as Student
    and SIS Login ID), a download's student by the LMS's name and id (Canvas's user id,
    Moodle's participant id), or each submitter of a Gradescope submission by their name
    and their roster id (sid, as SIS User ID)."""
    lms = submission.lms
    if lms is None:
        return [{"name": submission.name, "id": "", "sis_user": "", "sis_login": submission.name}]
    if lms.get("students"):
        return [{"name": one.get("name", ""), "id": "", "sis_user": one.get("sid", ""),
                 "sis_login": ""} for one in lms["students"]]
    return [{"name": submission.name, "id": lms["id"] or "", "sis_user": "", "sis_login": ""}]


def name_cell(text):
    """A student's name as a cell: readable, printable, never a formula."""
    return text_cell(terminal_name(readable(text)))


def rows(submission, weights):
    """A submission's rows, one a student it is graded for: their name and ids, each
    item's points, its score and the most."""
    marks = ["" if item in submission.left_out else
             points(weights[item] if submission.items[item]["ok"] else 0)
             for item in NAMES]
    return [[name_cell(person["name"]), person["id"], person["sis_user"],
             name_cell(person["sis_login"]) if person["sis_login"] else "", "", *marks,
             points(submission.score), points(submission.max_score)]
            for person in people(submission)]


def scaled(submission, most=None):
    """A submission's score scaled to an LMS's points for the assignment (most; None:
    its own most), in plain decimals to two places."""
    if most is None:
        return points(submission.score)
    if not submission.max_score:
        return points(0)
    return points(round(submission.score / submission.max_score * most, 2))


def gradebook_csv(submissions, weights):
    """The class as CSV text: the header, then a row per student, in order."""
    out = io.StringIO()
    writer = csv.writer(out, quoting=csv.QUOTE_ALL, lineterminator="\r\n")
    writer.writerow(HEADER)
    for sub in submissions:
        writer.writerows(rows(sub, weights))
    return out.getvalue()
