"""A class's grades as a gradebook's CSV (`pywar grade --csv FILE`): a header row and a
row per student, that Canvas's gradebook import and Moodle's "Import grades: CSV file"
both read (docs/grading.md, section 4).

Columns: Canvas's identifying columns (Student, ID, SIS User ID, SIS Login ID, Section;
the folder's name as Student and as SIS Login ID, the others empty), then each item's
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


def row(submission, weights):
    """A submission's row: its name, each item's points, its score and the most."""
    name = text_cell(terminal_name(readable(submission.name)))
    marks = ["" if item in submission.left_out else
             points(weights[item] if submission.items[item]["ok"] else 0)
             for item in NAMES]
    return [name, "", "", name, "", *marks, points(submission.score),
            points(submission.max_score)]


def gradebook_csv(submissions, weights):
    """The class as CSV text: the header, then a row per submission, in order."""
    out = io.StringIO()
    writer = csv.writer(out, quoting=csv.QUOTE_ALL, lineterminator="\r\n")
    writer.writerow(HEADER)
    writer.writerows(row(sub, weights) for sub in submissions)
    return out.getvalue()
