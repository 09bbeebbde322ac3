"""A grade's receipt, its regrades, its gradebook export and its notes said once (issue
38): the JSON says what a grade is a function of (pywar's version, the rules, the seeds,
the limits, the weights, the commands, the isolation and each submission's sha256) and
is byte-identical on a rerun; --since says what changed and why it may have; --csv is a
gradebook that Canvas and Moodle import, safe to open in a spreadsheet; Gradescope's
visibility is settable; a note alike on many seeds, and a failed build, are said once."""

import csv
import hashlib
import io
import json
import os
import shutil
import subprocess
import tempfile
import tracemalloc
from dataclasses import replace

import pytest

from conftest import DATA, needs_tools
from pywar.check.grading import grade as grading
from pywar.check.grading import gradescope_results, regrade, report
from pywar.check.grading.gradebook import HEADER, gradebook_csv, text_cell
from pywar.check.grading.grade import ItemMarks, Settings, Submission, not_checked
from pywar.check.grading.receipt import files_sha256, receipt
from pywar.check.referee.rubric import NAMES as ITEMS
from pywar.check.referee.rubric import default_weights
from pywar.cli import main

CLASS = DATA / "class"


def run(capsys, *argv):
    """main(argv): (exit status, stdout, stderr)."""
    status = main([str(arg) for arg in argv])
    out, err = capsys.readouterr()
    return status, out, err


def graded(name, failed=(), left_out=(), sha256=None, weights=None):
    """A Submission as grade_one makes one: every item put to the test on 2 seeds, ok but
    those failed (broken on both), those left out."""
    weights = weights or default_weights()
    items = {item: {"ok": item not in failed, "failed": 2 if item in failed else 0,
                    "of": 2, "example": None} for item in ITEMS}
    for item in left_out:
        items[item] = {"ok": False, "failed": 0, "of": 0, "example": {"said": "left out"}}
    return Submission(name, items, *grading.score_of(items, weights, left_out),
                      left_out=list(left_out), sha256=sha256)


def not_built(name="broken"):
    """A Submission whose build failed: builds broken, every other item not checked."""
    tallies = {item: ItemMarks() for item in ITEMS}
    tallies["builds"].add(True, {"required": "the build command to succeed",
                                 "command": "g++ war.cpp", "said": "exited with status 1",
                                 "error": "war.cpp:1:5: error: expected"})
    items = {item: tally.item(not_checked(item, built=False)) for item, tally in tallies.items()}
    return Submission(name, items, *grading.score_of(items, default_weights()))


# -- the sha256 of a submission's files -------------------------------------------------

def test_the_sha256_is_of_the_files_in_the_order_the_docs_state(tmp_path):
    """Sorted relative paths as bytes, each: path, NUL, length, NUL, content (SHA256_OF,
    docs/grading.md); a link is not followed, a FIFO not waited on, a name that is not
    UTF-8 taken as its bytes."""
    folder = tmp_path / "ann"
    files = [(b"war.cpp", b"int main() {}\n"), (b"src/card.h", b"#pragma once\n"),
             (b"x\xff.txt", b""), (b"Card.h", b"1"), (b"a.cpp", b"22"), (b"src/Z.h", b"3"),
             (b"src/a/b.h", b"4"), (b"main.cpp", b"5"), (b"src.h", b"6")]
    for path, content in files:
        os.makedirs(os.path.dirname(os.path.join(os.fsencode(folder), path)), exist_ok=True)
        with open(os.path.join(os.fsencode(folder), path), "wb") as file:
            file.write(content)
    (folder / "outside").symlink_to(tmp_path)               # never followed
    (folder / "link.cpp").symlink_to(folder / "war.cpp")     # not a regular file
    os.mkfifo(folder / "fifo")                               # never opened
    expected = hashlib.sha256()
    for path, content in sorted(files):
        expected.update(path + b"\0" + str(len(content)).encode() + b"\0" + content)
    assert files_sha256(str(folder)) == expected.hexdigest()


def test_the_sha256_changes_with_a_byte_a_name_or_a_file_moved(tmp_path):
    """One byte, one name, or a file moved to a folder: another sha256; the same files
    made in another order: the same."""
    def made(name, files):
        folder = tmp_path / name
        for path, content in files:
            (folder / path).parent.mkdir(parents=True, exist_ok=True)
            (folder / path).write_bytes(content)
        return files_sha256(str(folder))
    first = made("a", [("war.cpp", b"1"), ("card.h", b"2")])
    assert made("b", [("card.h", b"2"), ("war.cpp", b"1")]) == first
    assert made("c", [("war.cpp", b"1"), ("card.h", b"3")]) != first
    assert made("d", [("war.cpp", b"1"), ("card.hpp", b"2")]) != first
    assert made("e", [("war.cpp", b"1"), ("src/card.h", b"2")]) != first
    assert made("f", [("war.cpp", b"1card.h\x002\x00"), ]) != first     # no run-together


@needs_tools("g++")
def test_an_empty_folder_that_changes_the_build_changes_the_sha256(tmp_path):
    """Issue 47: two submissions whose only difference is an empty folder had one sha256,
    and scored 11 and 0: '#include "d/../card.h"' compiles only where d is a folder.  The
    empty folder is in the sha256, as its path ended by '/', a NUL, '/', a NUL, in the
    order of the paths sorted as bytes (worked here by hand)."""
    files = {"card.h": b"int rank = 1;\n",
             "war.cpp": b'#include "d/../card.h"\nint main() { return rank - 1; }\n'}
    folders = {}
    for name, empty in (("with", ["d", "e/f"]), ("without", [])):
        folder = folders[name] = tmp_path / name
        for path, content in files.items():
            (folder / path).parent.mkdir(parents=True, exist_ok=True)
            (folder / path).write_bytes(content)
        for path in empty:
            (folder / path).mkdir(parents=True)
    built = {name: subprocess.run(["g++", "-fsyntax-only", "war.cpp"], cwd=folder,
                                  capture_output=True).returncode
             for name, folder in folders.items()}
    assert built == {"with": 0, "without": 1}               # the build sees the folder
    def record(path, content):
        return path + b"\0" + str(len(content)).encode() + b"\0" + content
    without = b"".join(record(path.encode(), content) for path, content in sorted(files.items()))
    assert files_sha256(str(folders["without"])) == hashlib.sha256(without).hexdigest()
    with_ = (record(b"card.h", files["card.h"]) + b"d/\0/\0" + b"e/f/\0/\0" +
             record(b"war.cpp", files["war.cpp"]))
    assert files_sha256(str(folders["with"])) == hashlib.sha256(with_).hexdigest()


# -- the receipt, and a JSON that is the same on a rerun ------------------------------------

def test_the_receipt_names_what_a_grade_is_a_function_of():
    """pywar's version, the rules, the seeds, the limits, the weights, the commands and the
    isolation; the same for the same settings, and no path or time in it."""
    settings = Settings(games=7, seed=11, weights={**default_weights(), "memory": 2.0},
                        memory=False, isolation="none")
    made = receipt(settings)
    assert made == receipt(Settings(games=7, seed=11, memory=False, isolation="none",
                                    weights={**default_weights(), "memory": 2.0}))
    assert made["seeds"] == {"first": 11, "count": 7, "fresh": [], "keyed": False}
    assert receipt(replace(settings, fresh=(12, 99)))["seeds"]["fresh"] == [99]  # 12: fixed
    assert made["weights"]["memory"] == 2.0 and made["memory"] is False
    assert made["isolation"] == {"asked": "none", "used": "none"}
    assert made["rules"]["name"] == "smu"
    assert made["build"] == grading.DEFAULT_BUILD and made["run"] == "{program}"
    assert made["limits"]["run"]["wall"] == 10.0 and made["limits"]["referee_time"] == 10.0
    assert isinstance(made["pywar"], str) and made["pywar"]
    text = json.dumps(made)
    assert tempfile.gettempdir() not in text and os.getcwd() not in text


SCRIPT_BUILD = "cp war.sh {program} && chmod +x {program}"     # no compiler: a quick class
SCRIPTS = {"ann": '#!/bin/sh\necho "Hello"\nexit 1\n',
           "ben": '#!/bin/sh\necho "I am $0 in $(pwd) with $LD_PRELOAD"\nkill -SEGV $$\n'}


def graded_twice(capsys, monkeypatch, folders, *options):
    """The JSON of folders graded twice, each time with pywar's temporary folders in
    another folder (one that a run's user of its own may enter, as /tmp)."""
    outputs = []
    for _ in range(2):
        scratch = tempfile.mkdtemp(prefix="pywar-test-tmp-")
        os.chmod(scratch, 0o755)
        monkeypatch.setattr(tempfile, "tempdir", scratch)
        try:
            status, out, _ = run(capsys, "grade", *folders, "--json", "--jobs", "1",
                                 *options)     # no referee processes: multiprocessing keeps
                                               # its temporary folder in the first scratch
        finally:
            monkeypatch.undo()
            shutil.rmtree(scratch)
        assert status == 0
        assert scratch not in out
        outputs.append(out)
    return outputs


def test_the_json_of_a_class_is_byte_identical_on_a_rerun(tmp_path, capsys, monkeypatch):
    """Two programs (shell scripts, built by a copy: no compiler, a quick class) graded
    twice, with pywar's temporary folders elsewhere: the same bytes, a receipt in them,
    each submission's sha256 that of its files, and no temporary path, though one
    program prints its own path, its working folder and its LD_PRELOAD."""
    folders = []
    for name, script in SCRIPTS.items():
        (tmp_path / name).mkdir()
        (tmp_path / name / "war.sh").write_text(script)
        folders.append(tmp_path / name)
    first, second = graded_twice(capsys, monkeypatch, folders, "-n", "2", "--no-memory",
                                 "--build", SCRIPT_BUILD, "--fresh-seeds", "31415926")
    assert first == second
    found = json.loads(first)
    assert found["receipt"]["seeds"] == {"first": 1, "count": 2, "fresh": [31415926],
                                         "keyed": True}
    assert found["receipt"]["build"] == SCRIPT_BUILD
    assert [sub["sha256"] for sub in found["submissions"]] == [
        files_sha256(str(folder)) for folder in folders]
    said = found["submissions"][1]["items"]["runs"]["example"]["last_lines"]
    assert said == ["I am {pywar-grade}/bin/pywar-program in {pywar-run} with "
                    "{pywar-clock}/seedclock.so"]


@pytest.mark.slow
@needs_tools("g++", "valgrind")
def test_the_json_of_a_class_of_cpp_programs_is_byte_identical_on_a_rerun(
        tmp_path, capsys, monkeypatch):
    """The same with g++ and valgrind: a game played, refereed and memchecked."""
    folders = []
    for name, program in (("ann", "faithful"), ("ben", "tie_crash")):
        shutil.copytree(CLASS / program, tmp_path / name)
        folders.append(tmp_path / name)
    first, second = graded_twice(capsys, monkeypatch, folders, "-n", "5", "--fresh-seeds",
                                 "27182818,31415926")
    assert first == second


# -- notes said once ------------------------------------------------------------------------

def test_a_note_alike_on_many_seeds_is_said_once():
    """A program that exits 1 on 40 seeds: one note naming the seeds, with the first
    seed's detail; a detail the same on every seed said as it is."""
    notes = [(seed, "it exited with status 1", f"the game ended in round {100 + seed}")
             for seed in range(1, 41)]
    notes.insert(5, (None, "pywar could not referee seed 7"))
    assert grading.said_once(notes) == [
        "seeds 1 to 40: it exited with status 1; the first, seed 1: the game ended in "
        "round 101", "pywar could not referee seed 7"]
    assert grading.said_once([(3, "it was killed by SIGABRT", "the game never began"),
                              (9, "it was killed by SIGABRT", "the game never began")]) == [
        "seeds 3 and 9: it was killed by SIGABRT; the game never began"]


def test_seeds_are_said_in_runs():
    """Consecutive seeds as 'a to b', the others listed."""
    assert grading.seeds_words([5]) == "seed 5"
    assert grading.seeds_words(list(range(1, 41))) == "seeds 1 to 40"
    assert grading.seeds_words([1, 2, 3, 5, 7, 8, 9]) == "seeds 1 to 3, 5 and 7 to 9"
    assert grading.seeds_words([3, 9, 12]) == "seeds 3, 9 and 12"


def test_a_failed_build_is_said_once_on_the_terminal_the_page_and_gradescope():
    """'not graded: it did not build', once, not eleven 'not checked' lines; the JSON
    keeps each item's example."""
    sub = not_built()
    lines = report.terminal([sub]).splitlines()
    mine = lines[lines.index("broken: 0 of 12"):]
    assert mine[1].startswith("  builds: the build (g++ war.cpp) exited with status 1")
    assert mine[2:] == ["  not graded: it did not build"]
    page = report.html_page([sub])
    assert page.count("not graded: it did not build") == 1 and "not checked:" not in page
    results = json.loads(gradescope_results.results(sub, default_weights()))
    assert results["output"].endswith("; not graded: it did not build")
    assert [test["output"] for test in results["tests"][1:]] == \
        ["not checked: it did not build"] * (len(ITEMS) - 1)     # never empty (issue 45)
    assert sub.items["runs"]["example"]["said"] == "not checked: the program did not build"


# -- Gradescope's visibility ------------------------------------------------------------

def test_gradescope_visibility_and_stdout_visibility_are_set_where_given():
    """Gradescope's fields, as its spec names them; absent by default (its own default)."""
    sub = graded("ann")
    plain = json.loads(gradescope_results.results(sub, default_weights()))
    assert "visibility" not in plain and "stdout_visibility" not in plain
    set_ = json.loads(gradescope_results.results(sub, default_weights(), "after_due_date",
                                                 "visible"))
    assert (set_["visibility"], set_["stdout_visibility"]) == ("after_due_date", "visible")


def test_a_gradescope_visibility_is_refused_in_one_line_before_any_work(
        tmp_path, capsys, monkeypatch):
    """An unknown value, or a visibility without --gradescope: one line, exit 2."""
    monkeypatch.setattr("pywar.cli.grade.grade", lambda *a, **k: pytest.fail("graded"))
    (tmp_path / "ann").mkdir()
    status, out, err = run(capsys, "grade", tmp_path / "ann", "--gradescope",
                           tmp_path / "r.json", "--gradescope-visibility", "later")
    assert (status, out, err.count("\n")) == (2, "", 1)
    assert all(when in err for when in gradescope_results.VISIBILITY)
    status, out, err = run(capsys, "grade", tmp_path / "ann", "--gradescope-stdout-"
                           "visibility", "visible")
    assert (status, out, err.count("\n")) == (2, "", 1) and "--gradescope FILE" in err


# -- the gradebook's CSV --------------------------------------------------------------------

def test_the_gradebook_has_a_row_per_student_with_each_items_points():
    """The header (Canvas's identifying columns, the items, score, out of), then a row per
    student: the weight of each item ok, 0 of each not, empty for one left out."""
    weights = {**default_weights(), "memory": 2.0, "format": 0.5, "runs": 1_000_000}
    subs = [graded("ann", weights=weights),
            graded("ben", failed=("format", "ranks"), left_out=("memory",), weights=weights)]
    text = gradebook_csv(subs, weights)
    assert text.endswith("\r\n") and text.count("\r\n") == 3
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0] == list(HEADER)
    assert rows[0][:5] == ["Student", "ID", "SIS User ID", "SIS Login ID", "Section"]
    assert rows[0][5:] == [*ITEMS, "score", "out of"]
    ann, ben = (dict(zip(rows[0], row)) for row in rows[1:])
    assert (ann["Student"], ann["SIS Login ID"], ann["ID"]) == ("ann", "ann", "")
    assert (ann["memory"], ann["format"], ann["runs"]) == ("2", "0.5", "1000000")
    assert (ben["format"], ben["ranks"], ben["memory"]) == ("0", "0", "")
    assert (ben["score"], ben["out of"]) == ("1000008", "1000009.5")     # memory left out


@pytest.mark.parametrize("name, cell", [
    ("=HYPERLINK(\"http://x\")", "'=HYPERLINK(\"http://x\")"),
    ("+1", "'+1"), ("-alice", "'-alice"), ("@SUM(A1)", "'@SUM(A1)"),
    ("\tx", "'\tx"), ("\rx", "'\rx"), ("\nx", "'\nx"),
    ("\uff1d1+1", "'\uff1d1+1"),           # a full-width '=': NFKC makes it one
    ("ann", "ann"), ("a=b", "a=b"), ("", ""),
])
def test_a_cell_that_a_spreadsheet_would_read_as_a_formula_is_made_text(name, cell):
    """OWASP's CSV injection advice: = + - @, a tab, CR or LF first gets an apostrophe."""
    assert text_cell(name) == cell


def test_a_student_named_as_a_formula_is_written_as_text():
    """Every field quoted; the name in both of its columns made text; a control character
    in a name spelled as the other reports spell it."""
    text = gradebook_csv([graded("=cmd|' /C calc'!A0"), graded("ann\x1b[31m")],
                         default_weights())
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[1][0] == rows[1][3] == "'=cmd|' /C calc'!A0"
    assert rows[2][0] == "ann\\x1b[31m"
    assert all(line.startswith('"') and line.endswith('"')
               for line in text.split("\r\n") if line)


def test_csv_is_written_atomically_by_the_command(tmp_path, capsys, monkeypatch):
    """--csv FILE: the class's rows; a grading that fails leaves what was there."""
    (tmp_path / "ann").mkdir()
    (tmp_path / "ann" / "war.sh").write_text(SCRIPTS["ann"])
    book = tmp_path / "book.csv"
    book.write_text("the old gradebook\n")
    monkeypatch.setattr("pywar.cli.grade.grade", lambda *a, **k: 1 / 0)
    with pytest.raises(ZeroDivisionError):
        run(capsys, "grade", tmp_path / "ann", "--no-memory", "--csv", book)
    assert book.read_text() == "the old gradebook\n"
    assert sorted(path.name for path in tmp_path.iterdir()) == ["ann", "book.csv"]
    monkeypatch.undo()
    status, _, _ = run(capsys, "grade", tmp_path / "ann", "-n", "1", "--no-memory",
                       "--build", SCRIPT_BUILD, "--csv", book)
    rows = list(csv.reader(io.StringIO(book.read_text())))
    assert status == 0 and [row[0] for row in rows] == ["Student", "ann"]


# -- regrades -------------------------------------------------------------------------------

def class_of(*subs, weights=None, seeds=40):
    """A grade JSON of subs, as --json writes it."""
    settings = Settings(games=seeds, memory=False, weights=weights or default_weights())
    return report.class_json(list(subs), receipt(settings))


def test_a_regrade_names_the_student_and_item_that_changed_alone():
    """One student's file changed and one item's mark with it: that student and item,
    the score and the sha256; the others one line."""
    old = class_of(graded("ann", sha256="a" * 64), graded("ben", sha256="b" * 64),
                   graded("cat", failed=("runs",), sha256="c" * 64))
    new = class_of(graded("ann", sha256="a" * 64), graded("ben", failed=("ranks",),
                                                          sha256="d" * 64),
                   graded("cat", failed=("runs",), sha256="c" * 64))
    found = regrade.changes(old, new)
    assert found["receipt"] == [] and found["new"] == [] and found["gone"] == []
    assert found["unchanged"] == ["ann", "cat"]
    (ben,) = found["changed"]
    assert (ben["name"], ben["marks"], ben["files"]) == ("ben", {"ranks": ["ok", "2/2"]},
                                                         "changed")
    assert (ben["score"], ben["max_score"]) == ([12, 11], [12, 12])
    lines = regrade.words(found, "old.json").splitlines()
    assert lines[1] == ("since old.json: the same receipt (pywar's version, rules, seeds, "
                        "limits, weights, commands)")
    assert lines[2:] == [
        "  ben: 12 of 12 -> 11 of 12: ranks ok -> 2/2; their files changed "
        "(sha256 bbbbbbbbbbbb -> dddddddddddd)", "  marks unchanged (2): ann, cat"]


def test_a_regrade_says_why_the_receipt_changed_and_who_is_new_or_gone():
    """pywar's weights and seeds changed: said once; a student new, one gone; a mark that
    changed with the same files says the receipt changed."""
    old = class_of(graded("ann", sha256="a" * 64), graded("dan", sha256="e" * 64))
    new = class_of(graded("ann", failed=("ties",), sha256="a" * 64), graded("eve"),
                   weights={**default_weights(), "memory": 2.0}, seeds=20)
    found = regrade.changes(old, new)
    assert found["receipt"] == ["seeds.count: 40 -> 20", "limits.budget: 120.0 -> 60.0",
                                "weights.memory: 1.0 -> 2.0"]      # the budget: 3 s a seed
    assert found["new"] == [{"name": "eve", "score": 12, "max_score": 12}]
    assert found["gone"] == ["dan"]
    text = regrade.words(found, "old.json")
    assert ("since old.json: seeds.count: 40 -> 20; limits.budget: 120.0 -> 60.0; "
            "weights.memory: 1.0 -> 2.0\n") in text
    assert ("  ann: 12 of 12 -> 11 of 12: ties ok -> 2/2; their files are the same "
            f"(sha256 {'a' * 12}), and the receipt changed (above)\n") in text
    assert "  eve: new, not in old.json: 12 of 12\n" in text
    assert "  dan: gone, in old.json and not graded now\n" in text
    assert regrade.changes(old, new, asked=["ann", "eve", "dan"])["gone"] == []


def test_an_old_grade_without_a_receipt_is_read_and_said_so(tmp_path):
    """A grade JSON of a pywar before receipts: read, and what else changed unknown."""
    old = class_of(graded("ann"))
    del old["receipt"]
    path = tmp_path / "old.json"
    path.write_text(json.dumps(old))
    found = regrade.changes(regrade.load_old(path), class_of(graded("ann")))
    assert found["receipt"][0].startswith("OLD.json has no receipt")


def test_what_an_old_grade_says_reaches_the_terminal_escaped():
    """Issue 47: --since printed an old JSON's sha256 as it was, escape sequences and all
    (the 12 characters shown clear a terminal or set its title); an item's name too.  Each
    is spelled as Python spells it, as a submission's name is."""
    sneaky, item = "\x1b[2J\x1b]0;x\x07" + "0" * 52, "\x1b[31mranks"
    old = class_of(graded("ann", sha256=sneaky))
    old["submissions"][0]["items"][item] = {"ok": True, "failed": 0, "of": 2}
    new = class_of(graded("ann", failed=("ties",), sha256="a" * 64))
    text = regrade.words(regrade.changes(old, new), "old.json")
    assert "\x1b" not in text and "\x07" not in text
    assert ("  ann: 12 of 12 -> 11 of 12: ties ok -> 2/2, \\x1b[31mranks ok -> none; their "
            "files changed (sha256 \\x1b[2J\\x1b]0;x\\x0700 -> aaaaaaaaaaaa)\n") in text


def test_a_200_mib_old_grade_is_refused_by_its_size_before_a_byte_is_read(
        tmp_path, capsys, monkeypatch):
    """Issue 47: a 200 MiB --since file took 6 GB of memory before any work (read whole,
    then parsed).  It is refused by its size, reading next to nothing (traced here), exit
    2 in one line; a grade of 16 MiB, the bound, is read."""
    monkeypatch.setattr("pywar.cli.grade.grade", lambda *a, **k: pytest.fail("graded"))
    big = tmp_path / "old.json"
    with open(big, "wb") as file:                   # sparse: no disk, 200 MiB by its size
        file.write(b'{"submissions": [')
        file.truncate(200 * 2 ** 20)
    tracemalloc.start()
    try:
        with pytest.raises(regrade.NotAGrade, match="^larger than 16 MiB$"):
            regrade.load_old(big)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 2 ** 20
    (tmp_path / "ann").mkdir()
    status, out, err = run(capsys, "grade", tmp_path / "ann", "--since", big)
    assert (status, out, err.count("\n")) == (2, "", 1) and "(larger than 16 MiB)" in err
    at_bound = tmp_path / "bound.json"
    at_bound.write_bytes(b'{"submissions": []}'.ljust(16 * 2 ** 20))
    assert regrade.load_old(at_bound) == {"submissions": []}
    with open(at_bound, "ab") as file:
        file.write(b" ")
    with pytest.raises(regrade.NotAGrade, match="^larger than 16 MiB$"):
        regrade.load_old(at_bound)


@pytest.mark.parametrize("text, why", [
    ("", "not JSON"),
    ("[1, 2]", 'no "submissions" list'),
    ('{"submissions": {}}', 'no "submissions" list'),
    ('{"submissions": [{"score": 1}]}', 'submission 1: no "name"'),
    ('{"submissions": [{"name": "a", "score": 1, "max_score": 2, "items": {"runs": 1}}]}',
     "submission 1: its item 'runs' is not"),
    ('{"submissions": [{"name": "a", "score": "1", "max_score": 2, "items": {}}]}',
     'no "score" and "max_score"'),
    ('{"receipt": [], "submissions": []}', 'its "receipt" is not an object'),
    ('{"submissions": [{"name": "a", "score": 1, "max_score": 2, "items": {"runs": '
     '{"ok": true, "failed": 0, "of": 1}}, "sha256": "\\u001b[2J\\u001b]0;owned\\u0007"}]}',
     'submission 1: its "sha256" is not 64 hex digits'),
])
def test_an_old_file_that_is_not_a_grade_is_refused_in_one_line_before_any_work(
        tmp_path, capsys, monkeypatch, text, why):
    """--since: exit 2, one line naming what is wrong and what is valid, nothing graded."""
    monkeypatch.setattr("pywar.cli.grade.grade", lambda *a, **k: pytest.fail("graded"))
    (tmp_path / "ann").mkdir()
    (tmp_path / "old.json").write_text(text)
    status, out, err = run(capsys, "grade", tmp_path / "ann", "--since",
                           tmp_path / "old.json")
    assert (status, out, err.count("\n")) == (2, "", 1)
    assert "is not a pywar grade JSON (" in err and why in err
    assert err.endswith("give a file that pywar grade --json wrote\n")


@pytest.mark.slow
@needs_tools("g++")
def test_a_regrade_after_one_student_resubmits_names_that_student_and_item_alone(
        tmp_path, capsys):
    """A class of 3 graded, then one student's file changed (ace high to ace low), graded
    again --since: the output names that student and ranks alone (issue 38's 'done
    when')."""
    for name, program in (("ann", "faithful"), ("ben", "faithful"), ("cat", "returns_one")):
        shutil.copytree(CLASS / program, tmp_path / name)
    folders = [tmp_path / name for name in ("ann", "ben", "cat")]
    status, out, _ = run(capsys, "grade", *folders, "-n", "2", "--no-memory", "--json")
    (tmp_path / "old.json").write_text(out)
    fresh = ",".join(map(str, json.loads(out)["receipt"]["seeds"]["fresh"]))
    shutil.copy(CLASS / "ace_low" / "war.cpp", tmp_path / "ben" / "war.cpp")
    status, out, _ = run(capsys, "grade", *folders, "-n", "2", "--no-memory", "--since",
                         tmp_path / "old.json", "--fresh-seeds", fresh)
    since = out[out.index("\nsince "):].splitlines()[1:]
    assert status == 0 and len(since) == 3
    assert since[1].startswith("  ben: 11 of 11 -> 10 of 11: ranks ok -> 4/4; their "
                               "files changed (sha256 ")
    assert since[2] == "  marks unchanged (2): ann, cat"
    assert since[0].endswith("the same receipt (pywar's version, rules, seeds, limits, "
                             "weights, commands)")


def test_a_regrade_names_the_one_student_who_resubmitted(tmp_path, capsys):
    """The command line: a class of 3 (shell scripts, a quick class) graded, one
    student's file changed (exit 0 to exit 1), graded again --since: that student and
    runs alone, the others one line."""
    scripts = {"ann": SCRIPTS["ann"], "ben": "#!/bin/sh\necho Hello\n", "cat": SCRIPTS["ben"]}
    for name, script in scripts.items():
        (tmp_path / name).mkdir()
        (tmp_path / name / "war.sh").write_text(script)
    folders = [tmp_path / name for name in scripts]
    options = ["-n", "2", "--no-memory", "--build", SCRIPT_BUILD, "--fresh", "0"]
    status, out, _ = run(capsys, "grade", *folders, *options, "--json")
    (tmp_path / "old.json").write_text(out)
    (tmp_path / "ben" / "war.sh").write_text(SCRIPTS["ann"])
    status, out, _ = run(capsys, "grade", *folders, *options, "--since",
                         tmp_path / "old.json")
    since = out[out.index("\nsince "):].splitlines()[1:]
    assert status == 0 and len(since) == 3, since
    assert since[1].startswith("  ben: 2 of 11 -> 1 of 11: runs ok -> 2/2; their files "
                               "changed (sha256 ")
    assert since[2] == "  marks unchanged (2): ann, cat"
    status, out, _ = run(capsys, "grade", *folders, *options, "--since",
                         tmp_path / "old.json", "--json")
    found = json.loads(out)["since"]
    assert [change["name"] for change in found["changed"]] == ["ben"]
    assert found["changed"][0]["marks"] == {"runs": ["ok", "2/2"]}


def test_a_regrade_says_how_to_grade_on_the_old_fresh_seeds():
    """Seeds drawn fresh at each grading differ from the old grade's: said, with the
    option that grades on the old ones."""
    old = report.class_json([graded("ann")], receipt(Settings(fresh=(123, 456))))
    new = report.class_json([graded("ann")], receipt(Settings(fresh=(789, 5, 1000))))
    assert regrade.changes(old, new)["receipt"] == [
        "seeds.fresh: [123, 456] -> [789, 1000] (drawn anew at each grading: --fresh-seeds "
        "123,456 grades on the old grade's)"]
