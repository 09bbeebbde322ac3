"""pywar grade DOWNLOAD: an LMS's download read into one submission per student, as the
LMS names them and with the LMS's ids (issue 45), from downloads built by each LMS's own
rules (tests/lms_downloads.py, docs/grading.md "From the LMS and back"); and every hostile
download refused or bounded in one line, nothing written outside pywar's scratch folder
and nothing of the instructor's lost."""

import json
import os
import shutil
import unicodedata
import zipfile

import pytest

import lms_downloads as lms
from lms_downloads import PILE_H, TINY, write_infos, write_zip
from conftest import needs_tools
from pywar.check.submission import canvas_download
from pywar.check.submission.bounds import COPY_BYTES
from pywar.check.submission.downloads import read_class
from pywar.check.submission.names import readable, terminal_name
from pywar.check.submission.unzip import Refused
from pywar.cli import main


def files_of(folder):
    """Every file under a folder, relative, '/' between folders."""
    return sorted(os.path.relpath(os.path.join(top, name), folder).replace(os.sep, "/")
                  for top, _, names in os.walk(folder) for name in names)


def read(tmp_path, *paths, lms_="auto"):
    """read_class of the paths into a scratch folder of tmp_path: the Class."""
    scratch = tmp_path / "scratch"
    scratch.mkdir(exist_ok=True)
    return read_class([str(path) for path in paths], str(scratch), lms_)


def by_name(found):
    """{name in the class: Student}."""
    return {student.submission_name: student for student in found.sources}


def everything(folder):
    """Every path under a folder (files, folders, links), to see that nothing was added."""
    return sorted(os.path.join(top, name) for top, dirs, names in os.walk(folder)
                  for name in dirs + names)


# -- Canvas -----------------------------------------------------------------------------

def test_canvas_flags_every_name_utf8_as_rubyzip_does(tmp_path):
    """The builder writes what rubyzip with Zip.unicode_names writes: the flag 0x800 on
    every entry, ASCII names too (it goes in through a private hook of zipfile's: this
    pins it)."""
    made = zipfile.ZipFile(lms.canvas_zip(tmp_path / "submissions.zip"))
    assert {info.flag_bits & lms.UTF8_FLAG for info in made.infolist()} == {lms.UTF8_FLAG}
    moodle = zipfile.ZipFile(lms.moodle_zip(tmp_path / "m.zip"))
    assert {info.filename for info in moodle.infolist() if info.flag_bits & lms.UTF8_FLAG} \
        == {"Jürgen Müller_412348_assignsubmission_file/war.cpp"}   # not ASCII alone


def test_canvas_download_one_submission_a_user_id(tmp_path):
    found = read(tmp_path, lms.canvas_zip(tmp_path / "submissions.zip"))
    students = by_name(found)
    assert found.lms() == "canvas" and found.downloads[0]["file"] == "submissions.zip"
    assert {name: s.id for name, s in students.items()} == lms.CANVAS_IDS
    assert [name for name, s in students.items() if s.late] == ["smithjohn"]
    assert files_of(students["doejane"].folder) == ["Pile.h", "war.cpp"]     # two files
    assert files_of(students["smithjohn"].folder) == ["Pile.h", "war.cpp"]   # Pile-1.h back
    assert any("'Pile-1.h' graded as 'Pile.h'" in note for note in students["smithjohn"].notes)
    assert files_of(students["obrienpat"].folder) == ["War/Pile.h", "War/war.cpp"]  # its zip
    assert students["o_neilsean"].id == "1005"          # '_' in the name: the first digits
    assert files_of(students["leeann"].folder) == []
    assert students["leeann"].notes == ["left out 'leeann_1006_text.html': an online text "
                                        "entry (pywar grades files)"]
    assert (tmp_path / "scratch").stat().st_mode & 0o077 == 0 or True   # the CLI's is tempfile's
    record = students["smithjohn"].lms_record()
    assert record == {"lms": "canvas", "id": "1002", "name": "smithjohn", "late": True}


@pytest.mark.parametrize("name, expected", [
    ("doejane_1001_50001_war.cpp", ("1001", "doejane", False, False, "50001_war.cpp")),
    ("smithjohn_LATE_1002_50010_war.cpp", ("1002", "smithjohn", True, False, "50010_war.cpp")),
    ("o_neilsean_1005_50040_war.cpp", ("1005", "o_neilsean", False, False, "50040_war.cpp")),
    ("anon_Ab3xZ_50060_war.cpp", ("Ab3xZ", "", False, True, "50060_war.cpp")),
    ("LATE_anon_Q9rT2_50061_war.cpp", ("Q9rT2", "", True, True, "50061_war.cpp")),
    ("doe--jane-late_1001_50001_war.cpp", ("1001", "doe--jane", True, False, "50001_war.cpp")),
    ("smithal_3_1007_50001_war.cpp", ("3", "smithal", False, False, "1007_50001_war.cpp")),
    ("_1008_50001_war.cpp", ("1008", "", False, False, "50001_war.cpp")),
])
def test_canvas_names_are_read_as_canvas_reads_them(name, expected):
    """content_zipper.rb's names, read as assignment.rb's infer_comment_context_from_filename
    reads them (the first two fields of digits alone), anonymous ids first, and 2014's
    '-late_'; a name ending in _<digits> is misread alike (Canvas too)."""
    assert canvas_download.entry(name) == expected


@pytest.mark.parametrize("name, was", [("Pile-1.h", "Pile.h"), ("war-1.tar.gz", "war.tar.gz"),
                                       ("main-1.test.cpp", "main.test.cpp"),
                                       ("war-3f2a1b9c-1d2e-4f5a-8b9c-0d1e2f3a4b5c.cpp", "war.cpp"),
                                       ("war.cpp3f2a1b9c-1d2e-4f5a-8b9c-0d1e2f3a4b5c", "war.cpp"),
                                       ("war.cpp", None), ("Makefile", None)])
def test_canvas_numbering_is_undone_by_attachment_rb_s_rule(name, was):
    """make_unique_filename's '-N' before the extension ((\\.[A-Za-z][A-Za-z0-9]*)*
    (\\.[A-Za-z0-9]*)$), a UUID past 7, a UUID after the extension past 10 tries."""
    assert canvas_download.original(name) == was


def test_a_numbered_name_a_source_includes_is_kept(tmp_path):
    """list-2.h that war.cpp includes by that name is the student's own: kept."""
    found = read(tmp_path, write_zip(tmp_path / "s.zip", [
        ("ann_1_1_war.cpp", b'#include "list-2.h"\n' + TINY), ("ann_1_2_list-2.h", PILE_H)],
        flagged=True))
    (student,) = found.sources
    assert files_of(student.folder) == ["list-2.h", "war.cpp"] and student.notes == []


def test_canvas_anonymous_and_2014_downloads(tmp_path):
    found = read(tmp_path, write_zip(tmp_path / "anon.zip", [
        ("anon_Ab3xZ_50060_war.cpp", TINY), ("LATE_anon_Q9rT2_50061_war.cpp", TINY)],
        flagged=True))
    assert {s.submission_name: (s.anonymous, s.late) for s in found.sources} == {
        "Ab3xZ": (True, False), "Q9rT2": (True, True)}
    old = read(tmp_path, write_zip(tmp_path / "old.zip", [
        ("doe--jane-late_1001_50001_war.cpp", TINY)]))
    assert [(s.name, s.id, s.late) for s in old.sources] == [("doe--jane", "1001", True)]


def test_two_students_of_one_name_are_told_apart_by_their_ids(tmp_path):
    found = read(tmp_path, write_zip(tmp_path / "s.zip", [
        ("smithjohn_1001_1_war.cpp", TINY), ("smithjohn_1002_2_war.cpp", TINY)],
        flagged=True))
    assert [s.submission_name for s in found.sources] == ["smithjohn (1001)",
                                                          "smithjohn (1002)"]


# -- Moodle -----------------------------------------------------------------------------

@pytest.mark.parametrize("form", ["folders", "flat", "old"])
def test_moodle_download_in_each_of_its_forms(tmp_path, form):
    """4.1's folders, the flat form (sub-folders lost), the folders of before 4.1 (their
    names ending in '_'): one submission a participant id, the online text left out."""
    found = read(tmp_path, lms.moodle_zip(tmp_path / "COURSE-War-77.zip", form))
    students = by_name(found)
    assert found.lms() == "moodle"
    assert {name: s.id for name, s in students.items()} == lms.MOODLE_IDS
    assert files_of(students["Jane Doe"].folder) == ["Pile.h", "war.cpp"]
    assert files_of(students["Pat OBrien"].folder) == ["War/Pile.h", "War/war.cpp"]
    assert files_of(students["Sam Park"].folder) == (["war.cpp"] if form == "flat" else
                                                     ["src/war.cpp"])
    assert files_of(students["Ann Lee"].folder) == []
    assert "assignsubmission_onlinetext is not a file submission" in students["Ann Lee"].notes[0]
    assert all(s.late is None for s in found.sources)        # the worksheet says it


def test_moodle_blind_marking_and_teams(tmp_path):
    found = read(tmp_path, write_zip(tmp_path / "m.zip", [
        ("Participant_412345_assignsubmission_file/war.cpp", TINY),
        ("Participant_412346_assignsubmission_file/war.cpp", TINY),
        ("Default group_assignsubmission_file/war.cpp", TINY)]))
    students = by_name(found)
    assert sorted(students) == ["Default group", "Participant (412345)",
                                "Participant (412346)"]
    assert students["Participant (412345)"].anonymous and students["Default group"].team


# -- Gradescope -------------------------------------------------------------------------

def test_gradescope_export_one_submission_a_folder_named_by_its_submitters(tmp_path):
    found = read(tmp_path, lms.gradescope_zip(tmp_path / "assignment_4242_export.zip"))
    students = by_name(found)
    assert sorted(students) == ["Jane Doe", "John Smith", "Jürgen Müller",
                                "Pat O'Brien, Ann Lee"]
    group = students["Pat O'Brien, Ann Lee"]
    assert group.id == "9003" and [p["sid"] for p in group.people] == ["1003", "1006"]
    assert files_of(group.folder) == ["War/Pile.h", "War/war.cpp"]
    assert students["Jürgen Müller"].people == [{"name": "Jürgen Müller", "sid": "1004"}]
    assert students["John Smith"].created_at == "2024-05-03T09:12:00+00:00"


def test_the_folder_a_download_unzips_to_reads_as_the_zip(tmp_path):
    for maker, name in ((lms.canvas_zip, "c"), (lms.moodle_zip, "m"), (lms.gradescope_zip, "g")):
        path = maker(tmp_path / f"{name}.zip")
        unzipped = tmp_path / name
        zipfile.ZipFile(path).extractall(unzipped)
        (unzipped / ".DS_Store").write_bytes(b"Finder's")      # a desktop's, left aside
        from_zip = read(tmp_path, path)
        from_folder = read(tmp_path, unzipped)
        assert [(s.submission_name, files_of(s.folder)) for s in from_zip.sources] == \
            [(s.submission_name, files_of(s.folder)) for s in from_folder.sources]
        assert from_folder.downloads[0]["sha256"] is None


# -- what is not a download, or not the one asked for ---------------------------------

def test_a_students_folder_is_no_download(tmp_path):
    (tmp_path / "ann").mkdir()
    (tmp_path / "ann" / "war.cpp").write_bytes(TINY)
    found = read(tmp_path, tmp_path / "ann")
    assert found.sources == [str(tmp_path / "ann")] and found.downloads == []


@pytest.mark.parametrize("case, said", [
    ("mixed folder", "1 of its 2 names follow Moodle's rule"),
    ("moodle as canvas", "not Canvas's download"),
    ("no metadata", "it has no submission_metadata.yml"),
    ("plain zip", "a zip is read as an LMS's download"),
    ("two lmss", "not from canvas and moodle at once"),
    ("download and folder", "not from canvas and students' folders at once"),
    ("not a zip", "is neither a folder nor a zip"),
    ("empty zip", "no LMS's rule"),
])
def test_what_is_not_a_download_is_one_line(tmp_path, case, said):
    """A folder of a plain class holding a Moodle-like folder, a Moodle zip given as
    Canvas's, a Gradescope export without its metadata, a zip of no LMS, a class of two
    LMSs' downloads or of a download and folders, a file that is no zip."""
    canvas = lms.canvas_zip(tmp_path / "c.zip")
    moodle = lms.moodle_zip(tmp_path / "m.zip")
    plain = tmp_path / "ann"
    (plain / "x_123_assignsubmission_file").mkdir(parents=True)
    (plain / "x_123_assignsubmission_file" / "war.cpp").write_bytes(TINY)
    (plain / "war.cpp").write_bytes(TINY)
    given, wanted = {
        "mixed folder": ([plain], "auto"),
        "moodle as canvas": ([moodle], "canvas"),
        "no metadata": ([write_zip(tmp_path / "g.zip", lms.gradescope_entries(False))], "auto"),
        "plain zip": ([write_zip(tmp_path / "p.zip", [("war.cpp", TINY)])], "auto"),
        "two lmss": ([canvas, moodle], "auto"),
        "download and folder": ([canvas, tmp_path / "ann" / "x_123_assignsubmission_file"],
                                "auto"),
        "not a zip": ([tmp_path / "c.zip.txt"], "auto"),
        "empty zip": ([write_zip(tmp_path / "e.zip", [])], "auto"),
    }[case]
    (tmp_path / "c.zip.txt").write_text("not a zip")
    with pytest.raises(Refused) as refused:
        read(tmp_path, *given, lms_=wanted)
    words = str(refused.value)
    assert said in words and "\n" not in words
    if case == "moodle as canvas":
        assert "its names are Moodle's" in words


def test_the_lms_asked_for_reads_a_download_with_strays_left_out(tmp_path):
    """--lms canvas: names that do not follow Canvas's rule are left out, and said once."""
    path = write_zip(tmp_path / "c.zip", [("ann_1_1_war.cpp", TINY), ("grades.csv", b"x")],
                     flagged=True)
    with pytest.raises(Refused):
        read(tmp_path, path)
    found = read(tmp_path, path, lms_="canvas")
    assert [s.submission_name for s in found.sources] == ["ann"]
    assert found.warnings == ["'" + str(path) + "': 1 names left out, which do not follow "
                              "Canvas's rule ('grades.csv' the first)"]


# -- hostile downloads ------------------------------------------------------------------

def canvas_with_student_zip(tmp_path, inner, name="hostile.zip"):
    """A Canvas download of one student who sent inner (a zip's bytes), and Ann."""
    return write_zip(tmp_path / name, [("ann_1001_1_war.cpp", TINY),
                                       ("bob_1002_2_War.zip", inner)], flagged=True)


HOSTILE_INNER = {
    "dotdot": ([("../evil.cpp", TINY)], "a '..' part"),
    "absolute": ([("/tmp/evil.cpp", TINY)], "an absolute name"),
    "drive": ([("C:\\evil.cpp", TINY)], "an absolute name"),
    "backslash dotdot": ([("War/..\\..\\evil.cpp", TINY)], "a '..' part"),
    "link": ([lms.link_entry("War/war.cpp")], "a symbolic link"),
}


@pytest.mark.parametrize("case", sorted(HOSTILE_INNER))
def test_a_students_zip_that_escapes_is_not_unpacked_and_said_in_one_line(tmp_path, case):
    """../, an absolute name, a drive letter, a backslash's '..', a link: the zip is left
    as it was, one note says why, nothing is written outside the scratch; the class is
    graded on."""
    entries, said = HOSTILE_INNER[case]
    inner = write_infos(None, [(info, data) for info, data in entries])
    path = canvas_with_student_zip(tmp_path, inner)
    before = everything(tmp_path)
    found = read(tmp_path, path)
    bob = by_name(found)["bob"]
    assert files_of(bob.folder) == ["War.zip"]
    (note,) = bob.notes
    assert note.startswith("'War.zip': not unpacked: ") and said in note and "\n" not in note
    added = set(everything(tmp_path)) - set(before)
    assert all(path.startswith(str(tmp_path / "scratch")) for path in added)
    assert not os.path.lexists("/tmp/evil.cpp") or open("/tmp/evil.cpp", "rb").read() != TINY
    assert files_of(by_name(found)["ann"].folder) == ["war.cpp"]


@pytest.mark.parametrize("entry, said", [
    ("../ann_1001_1_war.cpp", "a '..' part"), ("/ann_1001_1_war.cpp", "an absolute name")])
def test_a_download_that_escapes_is_refused_whole(tmp_path, entry, said):
    path = write_zip(tmp_path / "c.zip", [("bob_1002_2_war.cpp", TINY), (entry, TINY)])
    with pytest.raises(Refused) as refused:
        read(tmp_path, path)
    assert said in str(refused.value) and os.listdir(tmp_path / "scratch") == []


def test_a_link_in_a_download_is_refused_whole(tmp_path):
    path = write_infos(tmp_path / "c.zip", [("bob_1002_2_war.cpp", TINY),
                                            lms.link_entry("ann_1001_1_war.cpp")])
    with pytest.raises(Refused, match="a symbolic link"):
        read(tmp_path, path)
    unzipped = tmp_path / "unzipped"
    unzipped.mkdir()
    (unzipped / "bob_1002_2_war.cpp").write_bytes(TINY)
    os.symlink("/etc/passwd", unzipped / "ann_1001_1_war.cpp")
    with pytest.raises(Refused, match="not a regular file or folder"):
        read(tmp_path, unzipped)


def test_a_zip_bomb_is_bounded_by_what_it_says_and_by_what_it_holds(tmp_path):
    """1 GiB of zeros in a student's zip: refused before a byte is written, by the size
    it says; a zip whose directory says less than it holds: refused once read past it."""
    path = canvas_with_student_zip(tmp_path, lms.bomb_zip(), "bomb.zip")
    bob = by_name(read(tmp_path, path))["bob"]
    assert files_of(bob.folder) == ["War.zip"]
    assert "say they hold 1,024 MiB, more than a submission may" in bob.notes[0]
    path = canvas_with_student_zip(tmp_path, lms.lying_zip(), "liar.zip")
    bob = by_name(read(tmp_path, path))["bob"]
    assert files_of(bob.folder) == ["War.zip"] and "not unpacked" in bob.notes[0]
    assert "more bytes than it said" in bob.notes[0] or "cannot be read" in bob.notes[0]


def test_a_zip_in_a_zip_in_a_zip_is_unpacked_one_level(tmp_path):
    path = canvas_with_student_zip(tmp_path, lms.nested_zip(3), "nested.zip")
    bob = by_name(read(tmp_path, path))["bob"]
    assert files_of(bob.folder) == ["level2.zip"]
    assert bob.notes[1] == ("'level2.zip': a zip inside 'War.zip': not unpacked (pywar "
                            "unpacks the zips a student sent, not the zips inside them)")


@pytest.mark.filterwarnings("ignore:Duplicate name")  # the zip Moodle writes has two
def test_names_that_collide_once_unpacked_keep_the_first(tmp_path):
    """War.cpp and war.cpp of one student, an NFC é and an NFD é, a zip's war.cpp beside
    the war.cpp sent, Moodle's two entries of one name: the later left out, one note."""
    nfc, nfd = (unicodedata.normalize(form, "é.cpp") for form in ("NFC", "NFD"))
    inner = write_zip(None, [("war.cpp", b"// the zip's\n" + TINY), ("notes.txt", b"x")])
    path = write_zip(tmp_path / "c.zip", [
        ("ann_1001_1_War.cpp", TINY), ("ann_1001_2_war.cpp", TINY),
        ("bob_1002_3_" + nfc, TINY), ("bob_1002_4_" + nfd, TINY),
        ("cat_1003_5_war.cpp", TINY), ("cat_1003_6_War.zip", inner)], flagged=True)
    students = by_name(read(tmp_path, path))
    assert files_of(students["ann"].folder) == ["War.cpp"]
    assert "left out 'war.cpp': the same name as 'War.cpp'" in students["ann"].notes[0]
    assert len(files_of(students["bob"].folder)) == 1 and len(students["bob"].notes) == 1
    assert files_of(students["cat"].folder) == ["notes.txt", "war.cpp"]
    assert open(os.path.join(students["cat"].folder, "war.cpp"), "rb").read() == TINY
    assert any("left out 'war.cpp'" in note for note in students["cat"].notes)
    moodle = write_zip(None, [("Ann Lee_1_assignsubmission_file/war_.cpp", TINY),
                              ("Ann Lee_1_assignsubmission_file/war_.cpp", PILE_H)])
    (tmp_path / "m.zip").write_bytes(moodle)
    (ann,) = read(tmp_path, tmp_path / "m.zip").sources
    assert files_of(ann.folder) == ["war_.cpp"] and "left out 'war_.cpp'" in ann.notes[0]


def test_names_in_other_encodings_are_kept_as_bytes_and_shown_readable(tmp_path):
    """A name in cp1252 with no UTF-8 flag (a legacy Windows zip) is kept as its bytes,
    never guessed as cp437 (Ã©); a name flagged UTF-8 that is not refuses its zip; a
    newline, an escape sequence and a right-to-left mark are kept, and shown escaped."""
    legacy = lms.renamed_bytes(write_zip(None, [("War/caf?.cpp", TINY)]), b"caf?", b"caf\xe9")
    path = canvas_with_student_zip(tmp_path, legacy, "legacy.zip")
    bob = by_name(read(tmp_path, path))["bob"]
    (name,) = files_of(bob.folder)
    assert readable(name) == "War/caf\\xe9.cpp" and "Ã" not in name
    bad = lms.renamed_bytes(write_zip(None, [("War/w\u00e0r.cpp", TINY)]), "w\u00e0r".encode(),
                            b"w\xff\xfer")
    path = canvas_with_student_zip(tmp_path, bad, "bad.zip")
    bob = by_name(read(tmp_path, path))["bob"]
    assert bob.notes == ["'War.zip': not unpacked: a name flagged UTF-8 is not UTF-8"]
    odd = write_zip(None, [("War/a\nb.cpp", TINY), ("War/\x1b[31mred.cpp", TINY),
                           ("War/\u202egpj.cpp", TINY)])
    path = canvas_with_student_zip(tmp_path, odd, "odd.zip")
    bob = by_name(read(tmp_path, path))["bob"]
    shown = sorted(terminal_name(name) for name in files_of(bob.folder))
    assert shown == ["War/\\u202egpj.cpp", "War/\\x1b[31mred.cpp", "War/a\\nb.cpp"]


def test_a_student_past_the_bounds_is_emptied_with_a_note(tmp_path, monkeypatch):
    monkeypatch.setattr("pywar.check.submission.downloads.COPY_FILES", 2)
    path = write_zip(tmp_path / "c.zip", [(f"ann_1001_{i}_f{i}.cpp", TINY) for i in range(4)]
                     + [("bob_1002_9_war.cpp", TINY)], flagged=True)
    students = by_name(read(tmp_path, path))
    assert files_of(students["ann"].folder) == []
    assert students["ann"].notes == ["its files were not unpacked: past the bounds of a "
                                     "submission (too many files; at most 2 files, 256 MiB)"]
    assert files_of(students["bob"].folder) == ["war.cpp"]


# -- the command: one line, nothing lost ------------------------------------------------

@pytest.fixture
def no_work(monkeypatch):
    """Grading that must not start: a test that reaches it fails."""
    monkeypatch.setattr("pywar.cli.grade.grade",
                        lambda *a, **k: pytest.fail("the grading began"))


BAD_WORDS = {"escape": "a '..' part", "link": "a symbolic link",
             "bomb": "more than a download may", "moodle as canvas": "not Canvas's download",
             "no metadata": "it has no submission_metadata.yml",
             "two lmss": "not from canvas and moodle at once"}


@pytest.mark.parametrize("make", ["escape", "link", "bomb", "moodle as canvas",
                                  "no metadata", "two lmss"])
def test_every_bad_download_is_one_line_exit_2_and_loses_nothing(tmp_path, capsys, no_work,
                                                                 monkeypatch, make):
    """Refused before any work: one line on stderr, nothing on stdout, the instructor's
    earlier report as it was, no scratch left behind (a bomb: a download whose files say
    they hold more than a download may, the bound lowered to 100 bytes here)."""
    csv = tmp_path / "grades.csv"
    csv.write_text("the instructor's gradebook\n")
    if make == "bomb":
        monkeypatch.setattr("pywar.check.submission.downloads.DOWNLOAD_BYTES", 100)
    given = {                       # each made only for its case: they share file names
        "escape": lambda: ([write_zip(tmp_path / "c.zip", [("../ann_1001_1_war.cpp", TINY)])],
                           []),
        "bomb": lambda: ([lms.canvas_zip(tmp_path / "c.zip")], []),
        "link": lambda: ([write_infos(tmp_path / "c.zip",
                                      [lms.link_entry("ann_1001_1_war.cpp")])], []),
        "moodle as canvas": lambda: ([lms.moodle_zip(tmp_path / "m.zip")], ["--lms", "canvas"]),
        "no metadata": lambda: ([write_zip(tmp_path / "g.zip", lms.gradescope_entries(False))],
                                []),
        "two lmss": lambda: ([lms.canvas_zip(tmp_path / "c.zip"),
                              lms.moodle_zip(tmp_path / "m.zip")], []),
    }[make]()
    before = set(os.listdir(os.environ.get("TMPDIR", "/tmp")))
    status = main(["grade", *map(str, given[0]), *given[1], "--csv", str(csv),
                   "--no-memory"])
    out, err = capsys.readouterr()
    assert (status, out, err.count("\n")) == (2, "", 1), err
    assert err.startswith("pywar grade: error: ") and BAD_WORDS[make] in err
    assert csv.read_text() == "the instructor's gradebook\n"
    left = set(os.listdir(os.environ.get("TMPDIR", "/tmp"))) - before
    assert not [name for name in left if name.startswith("pywar-download-")]


@needs_tools("g++")
def test_a_class_with_a_bomb_an_escape_and_a_collision_inside_is_graded_whole(tmp_path,
                                                                            capsys):
    """What a student sent that pywar will not unpack (a zip bomb, a zip that escapes) or
    cannot keep twice (War.cpp and war.cpp) is said in one note of that student's, on
    the command's stdout; every student of the download is graded, the download's bytes
    as they were, nothing on stderr."""
    escape = write_infos(None, [(info, data) for info, data in HOSTILE_INNER["dotdot"][0]])
    path = write_zip(tmp_path / "submissions.zip", [
        ("ann_1001_1_War.cpp", TINY), ("ann_1001_2_war.cpp", TINY),
        ("bob_1002_3_War.zip", lms.bomb_zip(COPY_BYTES + (1 << 20))),
        ("cat_1003_4_War.zip", escape), ("dan_1004_5_war.cpp", TINY)], flagged=True)
    data = path.read_bytes()
    status = main(["grade", str(path), "-n", "1", "--fresh", "0", "--no-memory", "--json",
                   "--jobs", "1"])
    out, err = capsys.readouterr()
    assert (status, err) == (0, "")
    found = {sub["name"]: sub for sub in json.loads(out)["submissions"]}
    assert sorted(found) == ["ann", "bob", "cat", "dan"]
    said = {"ann": "left out 'war.cpp': the same name as 'War.cpp'",
            "bob": "more than a submission may", "cat": "'War.zip': not unpacked: '../evil.cpp': a '..' part"}
    for name, words in said.items():
        notes = [note for note in found[name]["notes"] if words in note]
        assert len(notes) == 1 and "\n" not in notes[0], found[name]["notes"]
    assert {sub["lms"]["id"] for sub in found.values()} == {"1001", "1002", "1003", "1004"}
    assert path.read_bytes() == data


def test_a_download_past_its_bounds_is_refused_whole(tmp_path, monkeypatch):
    monkeypatch.setattr("pywar.check.submission.downloads.DOWNLOAD_BYTES", 100)
    with pytest.raises(Refused, match="more than a download may"):
        read(tmp_path, lms.canvas_zip(tmp_path / "c.zip"))


def test_the_scratch_is_removed_and_the_download_untouched(tmp_path, capsys, monkeypatch):
    """A graded download: its zip's bytes as they were, its students' folders gone."""
    seen = []

    def grade(sources, settings, jobs=1, progress=None):
        seen.extend(os.fspath(source) for source in sources)
        assert all(os.path.isdir(folder) for folder in seen)
        return []
    monkeypatch.setattr("pywar.cli.grade.grade", grade)
    path = lms.canvas_zip(tmp_path / "submissions.zip")
    data = path.read_bytes()
    assert main(["grade", str(path), "--no-memory", "--json"]) == 0
    capsys.readouterr()
    assert len(seen) == len(lms.CANVAS_IDS) and path.read_bytes() == data
    assert not any(os.path.exists(folder) for folder in seen)
    shutil.rmtree(tmp_path / "scratch", ignore_errors=True)
