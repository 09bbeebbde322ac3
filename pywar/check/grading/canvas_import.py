"""A class's grades as Canvas's gradebook import takes them (`pywar grade --csv FILE`
of a class from Canvas, or `--csv-format canvas`; docs/grading.md, "Canvas"), by the
rules of instructure/canvas-lms lib/gradebook_importer.rb:

- the header `Student, ID, SIS User ID, SIS Login ID, Section` (header? requires Section
  last of the student's columns), then ONE assignment column, named as Canvas
  names the assignment (`Title (id)`, as its export writes it, or the exact title),
  and nothing that Canvas would take as another assignment (every other column is one:
  parse_assignments makes a new assignment of a header it does not know);
- a `Points Possible` row, whose cell sets the assignment's points possible
  (process_pp): the most the score is out of, never a quoted empty cell, which Ruby's
  CSV reads as "" and Canvas would assign;
- a row per student, matched by ID, Canvas's user id (the download's names carry it),
  else by SIS User ID (a Gradescope submitter's sid), SIS Login ID or name; each grade a
  plain number with '.' (decimal_comma_to_period reads it as written).

Cells are quoted only where they must be (an empty one is then Ruby's nil, which Canvas
reads as "no value"); a name is written as text, never a formula (gradebook.text_cell).
"""

import csv
import io

from .gradebook import IDENTITY, name_cell, people, points, scaled

POINTS_POSSIBLE = "Points Possible"
NOT_ASSIGNMENTS = ("Current Score", "Current Points", "Current Grade", "Final Score",
                   "Final Points", "Final Grade", "Override Score", "Override Grade",
                   "Override Status")   # gradebook_importer.rb drops a column that holds one


class NotImportable(Exception):
    """A class whose grades Canvas's import cannot match to its students, in one line."""


def check_assignment(name):
    """The assignment's column name, or ValueError for one Canvas would not read as an
    assignment (empty, a line, or holding a name of a column it drops)."""
    dropped = [word for word in NOT_ASSIGNMENTS if word in name]
    if not name.strip() or "\n" in name or "\r" in name:
        raise ValueError("--assignment must name the assignment as Canvas does, as in "
                         "--assignment 'War (4242)' (its title and id) or its exact title")
    if dropped:
        raise ValueError(f"--assignment {name!r} holds {dropped[0]!r}: Canvas's import "
                         "drops such a column as a total (gradebook_importer.rb)")
    return name


def check_class(submissions):
    """NotImportable for a class with a student Canvas cannot match: an anonymous
    download's (no user id), or a Moodle one's (participant ids are Moodle's)."""
    for sub in submissions:
        lms = sub.lms or {}
        if lms.get("anonymous") and lms.get("lms") == "canvas":
            raise NotImportable("an anonymous Canvas download names no user: Canvas's "
                                "import cannot match its grades (enter them in SpeedGrader)")
        if lms.get("lms") == "moodle":
            raise NotImportable("a Moodle download's ids are Moodle's participant ids: "
                                "Canvas's import cannot match them")


def canvas_csv(submissions, assignment, most=None):
    """The class as Canvas's import CSV: the header, the Points Possible row, then a row
    per student (most: the assignment's points in Canvas, the score scaled to them;
    None: the score and the most it could be, as graded)."""
    check_class(submissions)
    out = io.StringIO()
    writer = csv.writer(out, quoting=csv.QUOTE_MINIMAL, lineterminator="\r\n")
    writer.writerow([*IDENTITY, check_assignment(assignment)])
    possible = most if most is not None else (submissions[0].max_score if submissions else 0)
    writer.writerow([POINTS_POSSIBLE, *[""] * (len(IDENTITY) - 1), points(possible)])
    for sub in submissions:
        grade = scaled(sub, most)
        writer.writerows([name_cell(person["name"]), person["id"], person["sis_user"],
                          name_cell(person["sis_login"]) if person["sis_login"] else "", "",
                          grade] for person in people(sub))
    return out.getvalue()
