"""Moodle's "Download all submissions" zip, read by its names (docs/grading.md, "Moodle";
moodle/moodle mod/assign/classes/downloader.php, and mod/assign/locallib.php before 4.1).

In folders (the default, "Download submissions in folders"): each student's files under
`<Full Name>_<participant id>_assignsubmission_<plugin>/`, their own sub-folders kept;
before Moodle 4.1 the folder's name ended in '_' too.  Flat: each file
`<Full Name>_<participant id>_assignsubmission_<plugin>_<file name>`, sub-folders lost.
The participant id is the assignment's own id for the student (assign_user_mapping), the
very number of `Participant <id>` in the assignment's grading worksheet, not the user's
id.  The plugin `file` holds the files; any other (`onlinetext`: onlinetext.html) is
left out, with a note.  Underscores in a name are spaces, and clean_filename has removed
& < > " ` | ' : \\ / (Pat O'Brien is Pat OBrien).  Under blind marking the name is
Participant; a team's folder is its group's name and the group's id, or `Default
group` with no id.
"""

import re

from .students import Student, add_file
from .unzip import Refused

LMS = "moodle"
RULE = ("<Full Name>_<participant id>_assignsubmission_<plugin>/ (or its flat form, "
        "..._<file name>; Moodle's mod/assign downloader.php)")
PLUGIN = r"assignsubmission_(?P<type>[a-z][a-z0-9]*)"
STUDENT = r"(?:(?P<name>.*)_(?P<id>[0-9]+)|(?P<group>Default group))"
FOLDER = re.compile(rf"{STUDENT}_{PLUGIN}_?", re.S)
FLAT = re.compile(rf"{STUDENT}_{PLUGIN}_(?P<file>.+)", re.S)
FILES = "file"                                  # the plugin whose files are graded
BLIND = "Participant"                           # the name under blind marking


def entry(path):
    """(the match of the student's part, the file's parts) of a path of the download, or
    None where it does not follow Moodle's rule."""
    top, slash, rest = path.partition("/")
    found = FOLDER.fullmatch(top) if slash else FLAT.fullmatch(path)
    if found is None or (slash and not rest.strip("/")):
        return None
    return found, rest.split("/") if slash else [found["file"]]


def follows(path):
    """Whether a path of a download follows Moodle's rule."""
    return entry(path) is not None


def students(paths, read=None):
    """The students of a download's paths (each following Moodle's rule), by participant
    id: each file of the plugin `file` under its path in the student's folder; any other
    plugin's left out, with a note."""
    found = {}
    for path in sorted(paths):
        match, parts = entry(path)
        key = match["id"] or match["group"]
        name = match["name"] if match["id"] else match["group"]
        student = found.setdefault(key, Student(
            LMS, match["id"], name, anonymous=name == BLIND, team=not match["id"]))
        if student.name != name:
            raise Refused(f"two names for Moodle's participant {key}: {student.name!r} and "
                          f"{name!r} (Moodle writes one): the download was edited")
        if match["type"] != FILES:
            student.notes.append(f"left out {path!r}: assignsubmission_{match['type']} is "
                                 "not a file submission (pywar grades files)")
            continue
        add_file(student, path, parts)
    return list(found.values())
