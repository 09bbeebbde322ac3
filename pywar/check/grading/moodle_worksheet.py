"""A class's grades as Moodle's assignment takes them: its offline grading worksheet
(`pywar grade --csv FILE` of a class from Moodle; docs/grading.md, "Moodle"), by the
rules of moodle/moodle mod/assign/feedback/offline/importgradeslib.php and
lib/csvlib.class.php:

- the header must hold `Identifier`, `Grade` and `Last modified (grade)`, exactly, in
  the language of the Moodle that imports it (English here), and a feedback plugin's
  column by its name (`Feedback comments`), never first: its index 0 is not read;
- every row has the header's number of fields, or the whole file is refused;
- `Identifier` is `Participant <id>`, the id the download's folders carry; a row of an
  id not in the assignment is skipped (silently: every id here is the download's);
- `Grade` a plain number, no larger than the assignment's maximum grade ("Out of range"
  rows are skipped): the score scaled to it;
- `Last modified (grade)` a date strtotime reads (ISO 8601), the time written: an older
  one makes every student who has a grade record in Moodle stale, skipped unless the
  instructor ticks "Allow updating records that have been modified more recently";
- the feedback is HTML (the comments plugin stores it as FORMAT_HTML): escaped, its
  lines joined by <br>, and no '\\' (fgetcsv's escape, which would swallow the end of
  its field and the rest of the row): '&#92;'.

Given the worksheet the instructor downloaded (`--worksheet FILE`), its header, rows
and language are kept, and Grade, Feedback comments and Last modified (grade) filled in
for each student graded; its Status says who was late, and its Maximum Grade is the
points the scores are scaled to.  Written UTF-8 with a byte-order mark and LF, as
Moodle writes it (OpenSpout).
"""

import csv
import datetime
import html
import io
import re

from .gradebook import scaled, text_cell
from .report import findings, not_graded
from ..submission.names import readable, terminal_name

IDENTIFIER, FULL_NAME, GRADE, MAXIMUM = ("Identifier", "Full name", "Grade", "Maximum Grade")
MAXIMUMS = (MAXIMUM, "Maximum grade")              # Moodle 4.4's, and its 2013 spelling
MODIFIED, FEEDBACK, STATUS = ("Last modified (grade)", "Feedback comments", "Status")
REQUIRED = (IDENTIFIER, GRADE, MODIFIED)           # importgradeslib.php's init()
HEADER = (IDENTIFIER, FULL_NAME, GRADE, MAXIMUM, MODIFIED, FEEDBACK)
PARTICIPANT = "Participant "                       # get_string('hiddenuser'), with its space
BOM = "\ufeff"
FEEDBACK_ITEM = 200                                # characters of an item's example, at most
LATE = re.compile(r"\blate\b")                     # submittedlateshort: '{$a} late'


class NotAWorksheet(Exception):
    """A --worksheet that is not Moodle's grading worksheet, in one line."""


def feedback(submission):
    """What a student lost, item by item, in one short text of HTML: the score, each item
    broken and its first example (shortened), then the items not checked, in one line."""
    lines = [f"pywar grade: {submission.score:g} of {submission.max_score:g}"]
    why = not_graded(submission)
    unchecked = []
    for name, count, text, _, _ in findings(submission):
        if not submission.items[name]["failed"]:
            unchecked.append(name)
            continue
        text = terminal_name(readable(text))
        text = text if len(text) <= FEEDBACK_ITEM else text[:FEEDBACK_ITEM - 3] + "..."
        lines.append(f"{name}{f' ({count})' if count else ''}: {text}")
    if why:
        lines.append(f"not graded: {why}")
    if unchecked:
        lines.append(f"not checked, no points: {', '.join(unchecked)}")
    return "<br>".join(html.escape(line, quote=False) for line in lines)


def now():
    """The time the worksheet is written, as strtotime reads it (ISO 8601, UTC)."""
    return datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")


def participant(identifier):
    """The id of an Identifier cell ('Participant 412345'), or None."""
    if not identifier.startswith(PARTICIPANT):
        return None
    number = identifier[len(PARTICIPANT):]
    return number if number.isascii() and number.isdigit() else None


def write(rows):
    """Rows as the worksheet's text: a byte-order mark, ',', quoted where a field needs
    it, LF."""
    out = io.StringIO()
    writer = csv.writer(out, quoting=csv.QUOTE_MINIMAL, lineterminator="\n")
    writer.writerows(rows)
    return BOM + out.getvalue()


def safe(text):
    """A feedback's HTML with no '\\' in it, which fgetcsv would take as an escape (a
    '\\' before the field's closing '"' swallows the rest of the row): '&#92;'."""
    return text.replace("\\", "&#92;")


def name_cell(text):
    """A name as the worksheet's cell (Moodle does not read it): readable, printable,
    never a formula, with no '\\' (fgetcsv's escape) but as '/'."""
    return text_cell(terminal_name(readable(text))).replace("\\", "/")


def fresh_worksheet(submissions, most):
    """The worksheet of a class from Moodle without the downloaded one: HEADER, and a row
    per student graded, its score scaled to most (the assignment's maximum grade)."""
    when = now()
    rows = [list(HEADER)]
    for sub in submissions:
        rows.append([f"{PARTICIPANT}{sub.lms['id']}", name_cell(sub.lms["name"]),
                     scaled(sub, most), scaled_most(most), when, safe(feedback(sub))])
    return write(rows)


def scaled_most(most):
    """The maximum grade as a cell."""
    return f"{most:.2f}"


class Worksheet:
    """Moodle's grading worksheet as the instructor downloaded it: its header, its rows,
    and where its columns are."""

    def __init__(self, text):
        text = text.removeprefix(BOM).replace("\r\n", "\n").replace("\r", "\n").strip()
        try:
            rows = list(csv.reader(io.StringIO(text)))
        except csv.Error as error:
            raise NotAWorksheet(f"not a CSV file ({error})") from None
        if not rows:
            raise NotAWorksheet("it is empty")
        self.header, self.rows = rows[0], rows[1:]
        missing = [name for name in REQUIRED if name not in self.header]
        if missing:
            raise NotAWorksheet(f"its header has no {missing[0]!r} column, which Moodle's "
                                "import requires: download the worksheet with Moodle in "
                                "English (Grading action: Download grading worksheet)")
        uneven = next((i for i, row in enumerate(self.rows) if len(row) != len(self.header)),
                      None)
        if uneven is not None:
            raise NotAWorksheet(f"its row {uneven + 2} has {len(self.rows[uneven])} fields "
                                f"where the header has {len(self.header)}")
        if FEEDBACK not in self.header:
            self.header.append(FEEDBACK)
            for row in self.rows:
                row.append("")
        self.at = {name: self.header.index(name) for name in self.header}
        self.ids = {}
        for row in self.rows:
            number = participant(row[self.at[IDENTIFIER]])
            if number is None:
                raise NotAWorksheet(f"{row[self.at[IDENTIFIER]]!r} is not an Identifier "
                                    "Moodle writes ('Participant 412345')")
            self.ids[number] = row

    def maximum(self):
        """The maximum grade its rows say (None where it has no such column or they
        differ, or it is a scale)."""
        column = next((self.at[name] for name in MAXIMUMS if name in self.at), None)
        if column is None:
            return None
        found = {row[column].strip() for row in self.rows}
        try:
            values = {float(value) for value in found}
        except ValueError:
            return None
        return values.pop() if len(values) == 1 else None

    def late(self, number):
        """Whether its Status says a participant's submission was late (None: no Status)."""
        if STATUS not in self.at or number not in self.ids:
            return None
        return bool(LATE.search(self.ids[number][self.at[STATUS]]))

    def filled(self, submissions, most):
        """Its text with each graded student's Grade (scaled to most), Feedback comments
        and Last modified (grade) filled in, every other row as it was."""
        when = now()
        for sub in submissions:
            row = self.ids[sub.lms["id"]]
            row[self.at[GRADE]] = scaled(sub, most)
            row[self.at[FEEDBACK]] = safe(feedback(sub))
            row[self.at[MODIFIED]] = when
        return write([self.header, *self.rows])
