"""A student of an LMS's download: who the LMS says they are (its id, its name for them,
whether late) and which of the download's files are theirs, each under the name it is
graded by.  Made by the readers of each LMS's layout (canvas_download, moodle_download,
gradescope_export) from the download's names alone; written out by downloads."""

import os
from dataclasses import dataclass, field


@dataclass
class Student:
    """One submission of a download: the LMS's record of it, its files, and, once written
    (downloads), the folder that holds them and its name in the class.  A path-like
    object: pywar grade takes it where it takes a folder."""
    lms: str                            # canvas, moodle or gradescope
    id: str                             # the LMS's id (None: Moodle's "Default group")
    name: str                           # the LMS's name for them
    late: bool = None                   # None where the download does not say
    files: list = field(default_factory=list)   # (path in the download, its parts here)
    notes: list = field(default_factory=list)   # what was left out, renamed, refused
    people: list = field(default_factory=list)  # Gradescope's submitters: name, sid, email
    anonymous: bool = False             # Canvas's anonymous grading, Moodle's blind marking
    team: bool = False                  # Moodle's team submission: a group's id, not a student's
    created_at: str = None              # Gradescope's: when the submission was made
    folder: str = None                  # where its files were written
    submission_name: str = None         # its name in the class (the LMS's, or with its id)

    def __fspath__(self):
        return self.folder

    def key(self):
        """What tells one student of the download from another: the LMS's id."""
        return (self.lms, self.id if self.id is not None else self.name)

    def lms_record(self):
        """The LMS's record of the student, as a grade's JSON carries it."""
        record = {"lms": self.lms, "id": self.id, "name": self.name, "late": self.late}
        if self.anonymous:
            record["anonymous"] = True
        if self.team:
            record["team"] = True
        if self.people:
            record["students"] = [dict(person) for person in self.people]
        if self.created_at is not None:
            record["created_at"] = self.created_at
        return record


def add_file(student, source, parts):
    """Give a student one more file of the download, under parts."""
    student.files.append((source, [part for part in parts if part not in ("", ".")]))


def base_name(path):
    """The last part of a download's path."""
    return os.path.basename(path.rstrip("/"))
