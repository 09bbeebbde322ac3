"""Gradescope's "Export Submissions" zip (Review Grades), read by its names and its
submission_metadata.yml (docs/grading.md, "Gradescope").  Gradescope's documentation does
not describe the export: its layout is the one instructors' tools read from real exports
(cm090/gradescope-autograder's FileToolCli.java, donnell-f/gradescope-sleuth-2,
hejohns/gradescope-utils, otter-grader's fixture).

`assignment_<id>_export/` (or the folder it unzips to) holds `submission_metadata.yml`
and a folder `submission_<id>/` per submission, the students' last.  The metadata maps
each folder's name to its record, written with Ruby's symbols as keys (`:submitters:`, a
list of `{:name:, :sid:, :email:}`, several for a group; `:created_at:`, a time;
`:score:`; `:history:`).  It says when, not whether late: pywar grade --due says when it
was due.
"""

import datetime
import re

from .students import Student, add_file
from .unzip import Refused

LMS = "gradescope"
RULE = ("[assignment_<id>_export/]submission_metadata.yml and submission_<id>/ folders "
        "(Gradescope's Export Submissions)")
ROOT = r"(?:assignment_[0-9]+_export/)?"
METADATA = "submission_metadata.yml"
FOLDER = re.compile(rf"{ROOT}submission_(?P<id>[0-9]+)/(?P<file>.+)", re.S)
META_PATH = re.compile(rf"{ROOT}{re.escape(METADATA)}")
MISSING = "no submission_metadata.yml, which names each submission's students"
PERSON = ((":name", "name"), (":sid", "sid"), (":email", "email"))


def follows(path):
    """Whether a path of a download follows Gradescope's export's layout."""
    return bool(META_PATH.fullmatch(path) or FOLDER.fullmatch(path))


def metadata(paths, read):
    """The export's metadata as YAML gives it (a dict), or Refused without it or for one
    that is not Gradescope's."""
    found = [path for path in paths if META_PATH.fullmatch(path)]
    if not found:
        raise Refused(f"Gradescope's export by its names (submission_<id>/), but it has "
                      f"{MISSING}")
    import yaml                         # PyYAML: only a Gradescope export is YAML
    try:
        data = yaml.safe_load(read(found[0]))
    except yaml.YAMLError as error:
        raise Refused(f"{METADATA} is not YAML ({' '.join(str(error).split())[:200]})") \
            from None
    if not isinstance(data, dict):
        raise Refused(f"{METADATA} is not a map of submissions (Gradescope's is)")
    return data


def people(record, folder):
    """The submitters of a submission's record: [{name, sid, email}], email left out where
    the export has none; Refused for a record that is not Gradescope's."""
    submitters = record.get(":submitters") if isinstance(record, dict) else None
    if not isinstance(submitters, list) or not all(isinstance(one, dict)
                                                   for one in submitters):
        raise Refused(f"{METADATA}: {folder} has no :submitters: list (Gradescope's has)")
    return [{key: str(one[symbol]) for symbol, key in PERSON if one.get(symbol) is not None}
            for one in submitters]


def students(paths, read):
    """The students of an export's paths: one Student a submission folder, named by its
    submitters (several for a group), its files under their paths in the folder."""
    data = metadata(paths, read)
    found = {}
    for path in sorted(paths):
        match = FOLDER.fullmatch(path)
        if match is None:
            continue
        folder = f"submission_{match['id']}"
        student = found.get(folder)
        if student is None:
            student = found[folder] = new_student(match["id"], folder, data.get(folder))
        add_file(student, path, match["file"].split("/"))
    return list(found.values())


def new_student(id_, folder, record):
    """The Student of a submission folder and its record (None: not in the metadata)."""
    if record is None:
        return Student(LMS, id_, folder, notes=[f"{folder} is not in {METADATA}: its "
                                                 "students are unknown"])
    submitters = people(record, folder)
    names = ", ".join(person.get("name", "") for person in submitters) or folder
    made = record.get(":created_at")
    when = made.isoformat() if isinstance(made, datetime.datetime) else \
        None if made is None else str(made)
    return Student(LMS, id_, names, people=submitters, created_at=when)


def due_type(text):
    """--due: an ISO 8601 date and time, UTC where it names no zone ('2024-05-02T23:59',
    '2024-05-02 23:59:00-05:00')."""
    try:
        due = datetime.datetime.fromisoformat(text.strip().replace("Z", "+00:00"))
    except ValueError:
        raise ValueError(f"--due {text!r} is not an ISO 8601 date and time, as in "
                         "--due 2024-05-02T23:59-05:00") from None
    return due if due.tzinfo else due.replace(tzinfo=datetime.timezone.utc)


def mark_late(students, due):
    """Each Gradescope submission late or not against the due date (a datetime); one
    whose time cannot be read stays unknown, with a note."""
    for student in students:
        if student.lms != LMS or student.created_at is None:
            continue
        try:
            student.late = due_type(student.created_at) > due
            if student.late:
                student.notes.append(f"late: made {student.created_at}, after the due date "
                                     f"{due.isoformat()} (--due)")
        except ValueError:
            student.notes.append(f"its :created_at: {student.created_at!r} is not a time: "
                                 "whether it is late is unknown")
