"""From the LMS and back (issue 45): a class of each LMS's download, graded in one command,
imports back by that LMS's own rules, every row matched.  The imports are read by the
LMSs' importers, ported in tests/lms_importers.py from their sources; the downloads are
built by each LMS's rules (tests/lms_downloads.py)."""

import csv
import io
import json
import os
import subprocess
import sys

import pytest

import lms_downloads as lms
from conftest import needs_tools
from lms_importers import ImportFailed, canvas_import, moodle_import
from pywar.check.grading import canvas_import as canvas_writer
from pywar.check.grading import moodle_worksheet
from pywar.check.grading.gradebook import HEADER
from pywar.check.grading.grade import Submission
from pywar.check.referee.rubric import NAMES as ITEMS
from pywar.cli import main

GRADING = ["-n", "1", "--seed", "1", "--fresh", "0", "--no-memory", "--jobs", "2",
           "--timeout", "5"]
WAR = {4242: "War"}                             # the course's assignments: id -> title
MOST = len(ITEMS) - 1                           # the score's most, without memory


def run(capsys, *argv):
    """main(argv): (exit status, stdout, stderr)."""
    status = main([str(arg) for arg in argv])
    out, err = capsys.readouterr()
    return status, out, err


COMPILERS = needs_tools("cc", "g++")


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    """The three downloads, each graded in one command (pywar grade DOWNLOAD --csv ...) into
    its LMS's import and JSON:
    {lms: (the import's text, the JSON, the folder)}."""
    folder = tmp_path_factory.mktemp("lms")
    made = {}
    commands = {
        "canvas": (lms.canvas_zip(folder / "submissions.zip"),
                   ["--assignment", "War (4242)"]),
        "moodle": (lms.moodle_zip(folder / "COURSE-War-77.zip"),
                   ["--worksheet", lms.moodle_worksheet(folder / "worksheet.csv")]),
        "gradescope": (lms.gradescope_zip(folder / "assignment_4242_export.zip"),
                       ["--due", lms.GRADESCOPE_DUE, "--csv-format", "canvas",
                        "--assignment", "War (4242)"]),
    }
    for name, (download, options) in commands.items():
        out = folder / f"{name}.csv"
        ran = subprocess.run([sys.executable, "-m", "pywar", "grade", str(download), *GRADING,
                              "--csv", str(out), "--json", *map(str, options)],
                             capture_output=True, text=True, cwd=folder)
        assert ran.returncode == 0, ran.stderr
        made[name] = (out.read_text(encoding="utf-8"), json.loads(ran.stdout), folder)
    return made


def canvas_students(ids, sis=False):
    """Canvas's course roster for the importer: a user a download's id."""
    return [{"id": int(number), "sis_user": number if sis else None, "name": name,
             "sortable_name": name} for name, number in ids.items()]


@COMPILERS
def test_a_class_from_canvas_imports_into_canvas_every_row_by_its_user_id(graded):
    text, found, _ = graded["canvas"]
    imported = canvas_import(text, WAR, canvas_students(lms.CANVAS_IDS))
    assert imported["assignments"] == {"War (4242)": 4242}        # one column, no new one
    assert imported["points_possible"] == {4242: str(MOST)}       # a number, never ""
    rows = imported["rows"]
    assert sorted(row["student"] for row in rows) == sorted(map(int, lms.CANVAS_IDS.values()))
    assert {row["by"] for row in rows} == {"ID"}
    scores = {sub["lms"]["id"]: sub["score"] for sub in found["submissions"]}
    for row in rows:
        assert float(row["grades"][4242]) == scores[str(row["student"])]
    by_name = {sub["name"]: sub for sub in found["submissions"]}
    for name in ("doejane", "smithjohn", "obrienpat"):            # two files, late, a zip
        assert by_name[name]["score"] == MOST, by_name[name]["notes"]
    assert by_name["smithjohn"]["lms"] == {"lms": "canvas", "id": "1002", "name": "smithjohn",
                                           "late": True}
    assert found["receipt"]["downloads"][0]["lms"] == "canvas"


@COMPILERS
def test_a_class_from_moodle_fills_the_worksheet_moodle_gave(graded):
    text, found, folder = graded["moodle"]
    participants = set(lms.MOODLE_IDS.values()) | {"412399"}
    imported = moodle_import(text, participants, 100.0)
    assert imported["feedback_read"]
    rows = {row["id"]: row for row in imported["rows"]}
    assert all(row["matched"] for row in rows.values())
    graded_ids = {sub["lms"]["id"]: sub for sub in found["submissions"]}
    assert set(graded_ids) == set(lms.MOODLE_IDS.values())
    for number, sub in graded_ids.items():
        row = rows[number]
        assert row["numeric"] and row["in_range"] and row["modified"]
        assert row["grade"] == pytest.approx(round(sub["score"] / sub["max_score"] * 100, 2))
        assert row["feedback"].startswith(f"pywar grade: {sub['score']:g} of ")
    assert rows["412345"]["grade"] == 100.0                        # two files
    assert rows["412347"]["grade"] == 100.0                        # a zip in the zip
    assert rows["412399"]["grade"] is None                         # no submission: as it was
    sheet = (folder / "worksheet.csv").read_text(encoding="utf-8-sig")
    assert text.startswith("\ufeff")                              # as Moodle writes it
    assert next(csv.reader(io.StringIO(text[1:]))) == next(csv.reader(io.StringIO(sheet)))
    late = {sub["name"]: sub["lms"]["late"] for sub in found["submissions"]}
    assert late["John Smith"] is True and late["Jane Doe"] is False


@COMPILERS
def test_a_class_from_gradescope_imports_into_canvas_by_each_submitters_sid(graded):
    text, found, _ = graded["gradescope"]
    roster = {"Jane Doe": "1001", "John Smith": "1002", "Pat O'Brien": "1003",
              "Jürgen Müller": "1004", "Ann Lee": "1006"}
    students = [{"id": 90000 + int(sid), "sis_user": sid, "name": name,
                 "sortable_name": name} for name, sid in roster.items()]
    imported = canvas_import(text, WAR, students)
    assert sorted(row["student"] for row in imported["rows"]) == \
        sorted(90000 + int(sid) for sid in roster.values())       # the group: both
    assert {row["by"] for row in imported["rows"]} == {"SIS User ID"}
    late = {sub["name"]: sub["lms"]["late"] for sub in found["submissions"]}
    assert late == {"Jane Doe": False, "John Smith": True, "Jürgen Müller": False,
                    "Pat O'Brien, Ann Lee": False}


# -- the writers, by the importers' rules ----------------------------------------------

def submission(name, score, lms_record=None):
    """A graded Submission: every item ok up to score, out of MOST."""
    items = {item: {"ok": i < score, "failed": 0 if i < score else 1, "of": 1,
                    "example": None if i < score else {"said": "the file ends"}}
             for i, item in enumerate(ITEMS)}
    return Submission(name, items, float(score), float(MOST), left_out=["memory"],
                      lms=lms_record)


def canvas_sub(name, number, score):
    return submission(name, score, {"lms": "canvas", "id": number, "name": name,
                                    "late": False})


def test_the_points_possible_cell_is_a_number_or_nothing_never_a_quoted_empty():
    """A quoted empty cell in the Points Possible row is "" to Ruby, truthy, assigned to
    the assignment's points possible; pywar writes the number."""
    text = canvas_writer.canvas_csv([canvas_sub("ann", "7", 5)], "War (4242)")
    assert text.splitlines()[1] == f"Points Possible,,,,,{MOST}"
    found = canvas_import(text, WAR, [{"id": 7, "name": "ann"}])
    assert found["points_possible"] == {4242: str(MOST)}
    quoted = text.replace(f",{MOST}\r\n", ',""\r\n', 1)           # what QUOTE_ALL would do
    assert canvas_import(quoted, WAR, [{"id": 7}])["points_possible"] == {4242: ""}


def test_points_scale_the_scores_to_the_lms_s_points():
    text = canvas_writer.canvas_csv([canvas_sub("ann", "7", 5)], "War", most=100)
    found = canvas_import(text, WAR, [{"id": 7}])
    assert found["assignments"] == {"War": 4242}                  # the exact title matches
    assert found["points_possible"] == {4242: "100"}
    assert found["rows"][0]["grades"] == {4242: str(round(5 / MOST * 100, 2))}


@pytest.mark.parametrize("name", ["Final Score", "War Current Grade", "", "a\nb"])
def test_an_assignment_canvas_would_drop_is_refused(name):
    with pytest.raises(ValueError):
        canvas_writer.check_assignment(name)


def test_canvas_takes_one_column_the_plain_csv_would_make_fourteen_assignments():
    """Why the plain CSV is not Canvas's import: each item, the score and 'out of' become
    new assignments (parse_assignments)."""
    plain = ",".join(f'"{name}"' for name in HEADER) + "\r\n"
    found = canvas_import(plain + '"ann","7","","ann","",' + ",".join(["1"] * 14) + "\r\n",
                          WAR, [{"id": 7}])
    assert list(found["assignments"].values()) == ["new"] * 14


def test_a_header_without_section_last_fails_canvas_s_import():
    with pytest.raises(ImportFailed, match="Invalid header row"):
        canvas_import("Student,ID,SIS User ID,Section,War\r\n", WAR, [])


def test_the_fresh_worksheet_is_read_by_moodle_s_importer():
    subs = [submission("Jane Doe", 11, {"lms": "moodle", "id": "412345", "name": "Jane Doe",
                                        "late": None}),
            submission('Ann "Q" Lee\\', 2, {"lms": "moodle", "id": "412349",
                                            "name": 'Ann "Q" Lee\\', "late": None})]
    text = moodle_worksheet.fresh_worksheet(subs, 50.0)
    found = moodle_import(text, {"412345", "412349"}, 50.0)
    rows = {row["id"]: row for row in found["rows"]}
    assert found["feedback_read"] and all(row["matched"] for row in rows.values())
    assert rows["412345"]["grade"] == 50.0 and rows["412349"]["grade"] == round(2 / 11 * 50, 2)
    assert all(row["numeric"] and row["in_range"] and row["modified"] for row in rows.values())
    assert "<br>" in rows["412349"]["feedback"] and "\n" not in rows["412349"]["feedback"]
    header = next(csv.reader(io.StringIO(text.lstrip("\ufeff"))))
    assert header.index("Feedback comments") > 0


def test_a_worksheet_field_with_a_backslash_before_a_quote_keeps_its_row():
    """fgetcsv's escape: '\\"' inside a quoted field would swallow the field's end; pywar
    writes none, so every row keeps the header's width."""
    sub = submission('x\\"', 0, {"lms": "moodle", "id": "1", "name": 'x\\"', "late": None})
    text = moodle_worksheet.fresh_worksheet([sub], 10.0)
    assert '\\"' not in text
    assert moodle_import(text, {"1"}, 10.0)["rows"][0]["matched"]


# -- the options, checked before any work ----------------------------------------------

@pytest.fixture
def no_work(monkeypatch):
    monkeypatch.setattr("pywar.cli.grade.grade",
                        lambda *a, **k: pytest.fail("the grading began"))


@pytest.mark.parametrize("case, said", [
    ("canvas without assignment", "give --assignment 'War (4242)'"),
    ("moodle without points", "give --points N"),
    ("moodle as canvas", "Moodle's participant ids"),
    ("anonymous canvas", "an anonymous Canvas download names no user"),
    ("due without gradescope", "give a Gradescope export"),
    ("assignment with plain", "--assignment is not an option of --csv-format plain"),
    ("assignment without csv", "--assignment sets what --csv writes"),
    ("worksheet of another assignment", "participant 412350 (Sam Park) of the download is "
                                        "not in --worksheet"),
    ("worksheet in french", "its header has no 'Identifier' column"),
    ("moodle format of canvas", "--csv-format moodle writes Moodle's grading worksheet"),
    ("scheduler", "--scheduler grades folders"),
    ("points zero", "--points must be a number above 0 and at most 1,000,000, not '0'"),
])
def test_an_lms_option_that_cannot_apply_is_one_line_before_any_work(tmp_path, capsys,
                                                                     no_work, case, said):
    canvas = lms.canvas_zip(tmp_path / "c.zip")
    moodle = lms.moodle_zip(tmp_path / "m.zip")
    anonymous = lms.write_zip(tmp_path / "a.zip", [("anon_Ab3xZ_1_war.cpp", lms.TINY)],
                              flagged=True)
    sheet = lms.moodle_worksheet(tmp_path / "w.csv")
    lines = sheet.read_text(encoding="utf-8-sig").splitlines()
    other = tmp_path / "other.csv"
    other.write_text("\n".join(line for line in lines if "412350" not in line))
    french = tmp_path / "fr.csv"
    french.write_text(lines[0].replace("Identifier", "Identifiant") + "\n")
    csv_ = ["--csv", tmp_path / "out.csv"]
    argv = {
        "canvas without assignment": [canvas, *csv_],
        "moodle without points": [moodle, *csv_],
        "moodle as canvas": [moodle, *csv_, "--csv-format", "canvas", "--assignment", "W"],
        "anonymous canvas": [anonymous, *csv_, "--assignment", "W"],
        "due without gradescope": [canvas, "--due", "2024-05-01"],
        "assignment with plain": [canvas, *csv_, "--csv-format", "plain", "--assignment", "W"],
        "assignment without csv": [canvas, "--assignment", "W"],
        "worksheet of another assignment": [moodle, *csv_, "--worksheet", other],
        "worksheet in french": [moodle, *csv_, "--worksheet", french],
        "moodle format of canvas": [canvas, *csv_, "--csv-format", "moodle", "--points", "5"],
        "scheduler": [canvas, "--scheduler", "tcp://127.0.0.1:1"],
        "points zero": [moodle, *csv_, "--points", "0"],
    }[case]
    status, out, err = run(capsys, "grade", *argv, "--no-memory")
    assert (status, out, err.count("\n")) == (2, "", 1), err
    assert said in err
    assert not os.path.exists(tmp_path / "out.csv")


def test_the_plain_csv_of_a_download_carries_the_lms_s_ids(tmp_path, capsys, monkeypatch):
    """--csv-format plain: today's columns, the ID the download's (a Gradescope group a
    row per submitter, each by their sid)."""
    def grade(sources, settings, jobs=1, progress=None):
        from pywar.check.grading.grade import lms_of, name_of
        return [submission(name_of(source), 3, lms_of(source)) for source in sources]
    monkeypatch.setattr("pywar.cli.grade.grade", grade)
    out = tmp_path / "plain.csv"
    status, _, err = run(capsys, "grade", lms.gradescope_zip(tmp_path / "g.zip"), "--csv", out,
                         "--no-memory")
    rows = list(csv.reader(io.StringIO(out.read_text())))
    assert status == 0 and rows[0] == list(HEADER)
    assert [(row[0], row[2]) for row in rows[1:]] == [
        ("Jane Doe", "1001"), ("John Smith", "1002"), ("Jürgen Müller", "1004"),
        ("Pat O'Brien", "1003"), ("Ann Lee", "1006")]
    status, _, err = run(capsys, "grade", lms.canvas_zip(tmp_path / "c.zip"), "--csv", out,
                         "--csv-format", "plain", "--no-memory")
    rows = list(csv.reader(io.StringIO(out.read_text())))
    assert {row[0]: row[1] for row in rows[1:]} == lms.CANVAS_IDS
