"""pywar grade's command line at its edges: what a signal makes of its exit status, and
the limits, commands, weights and folder names a hostile or careless instructor gives
it, each refused in one line before any work or shown safely (issue 31)."""

import json
import os
import resource
import shutil
import signal
import subprocess
import sys
import time

import pytest

import pywar.check.grading.grade as grading
from conftest import CLASS, needs_tools
from pywar.check.grading.grade import Submission
from pywar.check.referee.rubric import NAMES as ITEMS
from pywar.cli import main

pytestmark = needs_tools("cc", "g++")


def run(capsys, *argv):
    """main(argv): (exit status, stdout, stderr)."""
    status = main([str(arg) for arg in argv])
    out, err = capsys.readouterr()
    return status, out, err


def folders(tmp_path, *names):
    """Empty submission folders in tmp_path: their paths."""
    made = []
    for name in names:
        (tmp_path / name).mkdir()
        made.append(tmp_path / name)
    return made


@pytest.fixture
def no_work(monkeypatch):
    """Grading that must not start: a test that reaches it fails."""
    def grade(*args, **kwargs):
        raise AssertionError("the grading began")
    monkeypatch.setattr("pywar.cli.grade.grade", grade)


@pytest.mark.parametrize("signum, status", [(signal.SIGTERM, 143), (signal.SIGHUP, 129)])
def test_sigterm_and_sighup_report_the_graded_and_exit_128_plus_the_signal(
        tmp_path, capsys, monkeypatch, signum, status, stopping_signals_handled):
    """The contract's 143 and 129 (the command said 130 for both), after the submissions
    graded before the signal are reported, and the signal named."""
    calls = []

    def grade_one(source, settings, clock, ran, referee=None):
        calls.append(source)
        if len(calls) == 2:
            os.kill(os.getpid(), signum)            # the handler runs in the main thread
            deadline = time.monotonic() + 60        # in flight until the stop reaches it,
            while time.monotonic() < deadline:      # as a real run's next ran() is: no race
                ran()                               # with a slow main thread (CI had one)
                time.sleep(0.01)
        items = {item: {"ok": True, "failed": 0, "of": 1, "example": None} for item in ITEMS}
        return Submission(os.path.basename(source), items, 12.0, 12.0)
    monkeypatch.setattr(grading, "grade_one", grade_one)
    found, out, err = run(capsys, "grade", *folders(tmp_path, "ann", "ben", "cat"), "--json",
                          "--no-memory")
    name = signal.Signals(signum).name
    assert (found, err) == (status, f"pywar grade: stopped by {name}: 1 of 3 submissions "
                                    "graded\n")
    assert [sub["name"] for sub in json.loads(out)["submissions"]] == ["ann"]


def graded_or_stopped(signum=None):
    """A grade_one that grades each submission at once, every item ok; or, given a signal,
    sends it at the first and stays in flight until the stop reaches it: no submission
    graded."""
    def grade_one(source, settings, clock, ran, referee=None):
        if signum is not None:
            os.kill(os.getpid(), signum)
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline:
                ran()
                time.sleep(0.01)
        items = {item: {"ok": True, "failed": 0, "of": 1, "example": None} for item in ITEMS}
        return Submission(os.path.basename(source), items, 12.0, 12.0)
    return grade_one


@pytest.mark.parametrize("signum, status", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_a_grading_stopped_before_any_is_graded_leaves_every_report_file_as_it_was(
        tmp_path, capsys, monkeypatch, signum, status):
    """A Ctrl-C eight seconds into a grading (none graded yet) replaced a complete
    class.csv and class.html with a header-only CSV and a page of no students (issue 48):
    a report file is replaced only by a report of at least one graded submission; stdout
    reports what was graded, none."""
    names = folders(tmp_path, "ann", "ben", "cat")
    reports = ["--csv", tmp_path / "class.csv", "--html", tmp_path / "class.html"]
    gradescope = ["--gradescope", tmp_path / "results.json"]
    monkeypatch.setattr(grading, "grade_one", graded_or_stopped())
    assert run(capsys, "grade", *names, *reports, "--no-memory")[0] == 0
    assert run(capsys, "grade", names[0], *gradescope, "--no-memory")[0] == 0
    before = {path.name: path.read_bytes() for path in tmp_path.glob("*.*")}
    assert before["class.csv"].count(b"\r\n") == 4 and b"cat" in before["class.html"]
    monkeypatch.setattr(grading, "grade_one", graded_or_stopped(signum))
    found, out, err = run(capsys, "grade", *names, *reports, "--no-memory", "--json")
    assert (found, json.loads(out)["submissions"]) == (status, [])
    assert err.endswith(": 0 of 3 submissions graded\n")
    found, _, _ = run(capsys, "grade", names[0], *gradescope, "--no-memory")
    assert found == status
    assert {path.name: path.read_bytes() for path in tmp_path.glob("*.*")} == before


def kept_files(folder):
    """Every file under folder, hidden ones too, but the names of the grading under way
    in kept/.pywar-keep/: {path relative to it: its bytes}."""
    return {str(path.relative_to(folder)): path.read_bytes()
            for path in sorted(folder.rglob("*"))
            if path.is_file() and path.parent.name != ".pywar-keep"}


def stop_under_way(argv, folder, signum):
    """Run pywar argv in folder, send signum once a run of the grading has been kept in
    a folder being written (none graded yet), and wait: (status, stderr)."""
    process = subprocess.Popen([sys.executable, "-m", "pywar", *argv], cwd=folder,
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 120
        while not list(folder.glob("kept/.*.part/seed-*.txt")):
            assert process.poll() is None and time.monotonic() < deadline, "no run kept"
            time.sleep(0.05)
        process.send_signal(signum)
        return process.wait(timeout=120), process.stderr.read()
    finally:
        process.kill()
        process.wait()
        process.stderr.close()


@pytest.mark.slow
def test_the_issues_grading_stopped_by_ctrl_c_or_sigterm_keeps_what_was_there(tmp_path):
    """The issue's own run (issue 48): three submissions graded with --csv, --html and
    --keep, then the same on 150 seeds stopped by SIGINT, then by SIGTERM, while the
    first runs are kept: exit 130 and 143, and class.csv, class.html and kept/ as the
    complete grading left them; then a grading takes kept/ again and replaces each
    submission's folder."""
    for name in ("alice", "bob", "carol"):
        shutil.copytree(CLASS / "faithful", tmp_path / name)
    argv = ["grade", "alice", "bob", "carol", "--fresh", "0", "--no-memory", "--jobs", "2",
            "--csv", "class.csv", "--html", "class.html", "--keep", "kept"]
    subprocess.run([sys.executable, "-m", "pywar", *argv, "-n", "2"], cwd=tmp_path,
                   check=True, capture_output=True)
    before = kept_files(tmp_path)
    assert before["class.csv"].count(b"\r\n") == 4 and "kept/carol/seed-2.txt" in before
    for signum, status in ((signal.SIGINT, 130), (signal.SIGTERM, 143)):
        found, err = stop_under_way([*argv, "-n", "150"], tmp_path, signum)
        assert (found, err.splitlines()[-1].endswith("0 of 3 submissions graded")) == \
            (status, True), err
        assert kept_files(tmp_path) == before
    subprocess.run([sys.executable, "-m", "pywar", *argv, "-n", "1"], cwd=tmp_path,
                   check=True, capture_output=True)
    assert sorted(os.listdir(tmp_path / "kept" / "carol")) == ["build.txt", "seed-1.txt"]


@pytest.mark.parametrize("option, value, valid", [
    ("--timeout", "1e30", "a number above 0 and at most 86,400 (a day)"),
    ("--timeout", "86401", "a number above 0 and at most 86,400 (a day)"),
    ("--memory-limit", "100000000000000000000", "an integer from 16 to 1,048,576"),
    ("--output-limit", "100000000000000000000", "an integer from 1 to 1,024"),
])
def test_a_limit_too_large_for_a_run_is_one_line_before_any_work(tmp_path, capsys, no_work,
                                                                  option, value, valid):
    """They ended in 'SubprocessError: Exception occurred in preexec_fn', after the build."""
    (ann,) = folders(tmp_path, "ann")
    status, out, err = run(capsys, "grade", ann, "--no-memory", option, value)
    assert (status, out) == (2, "")
    assert err.count("\n") == 1 and err.startswith("pywar grade: error: argument " + option)
    assert valid in err and "Traceback" not in err


def test_the_largest_limits_are_taken(tmp_path, capsys, monkeypatch):
    """The bounds themselves are valid: a day, 1 TiB, 1 GiB."""
    seen = []
    monkeypatch.setattr("pywar.cli.grade.grade",
                        lambda sources, settings, jobs, progress: seen.append(settings) or [])
    (ann,) = folders(tmp_path, "ann")
    status, _, err = run(capsys, "grade", ann, "--no-memory", "--timeout", "86400",
                         "--memory-limit", "1048576", "--output-limit", "1024")
    if os.geteuid() != 0 and status == 2:
        pytest.skip(f"this shell's hard limits are lower: {err.strip()}")
    assert status == 0
    assert (seen[0].limits.wall, seen[0].limits.cpu, seen[0].limits.memory,
            seen[0].limits.output) == (86400, 86400, 2 ** 40, 2 ** 30)


def test_a_limit_above_the_shells_hard_limit_is_one_line(tmp_path):
    """A user who is not root cannot give a run more CPU time than its own hard limit
    (setrlimit fails in the child): refused naming the most that may be given.  The
    command runs with a hard limit of 50 s of CPU; run by root (who may raise it), it is
    told it is not root."""
    (ann,) = folders(tmp_path, "ann")
    command = ("import os, sys; from pywar.cli import main; "
               "os.geteuid = lambda: 1000 if os.getuid() == 0 else os.getuid(); "
               "sys.exit(main(sys.argv[1:]))")
    done = subprocess.run([sys.executable, "-c", command, "grade", str(ann), "--no-memory",
                           "--timeout", "100"], capture_output=True, text=True,
                          preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_CPU, (50, 50)))
    assert (done.returncode, done.stdout) == (2, ""), done.stderr
    assert done.stderr == ("pywar grade: error: --timeout is above what this shell allows "
                           "a run (ulimit -Ht: 50 s of CPU time): give at most 49\n")


@pytest.mark.parametrize("option, command, words", [
    ("--run", "{program} 'unterminated", "--run \"{program} 'unterminated\": No closing "
                                          "quotation"),
    ("--build", "g++ -o {program} 'war.cpp", "is not a command the shell can read: "
                                             "Unterminated quoted string"),
    ("--build", "g++ -o {program} $(ls *.cpp", "is not a command the shell can read: "
                                                "end of file unexpected"),
])
def test_a_command_with_bad_quoting_is_one_line_before_the_build(tmp_path, capsys, no_work,
                                                                 option, command, words):
    """--run's ended in 'ValueError: No closing quotation' after the build had run."""
    (ann,) = folders(tmp_path, "ann")
    status, out, err = run(capsys, "grade", ann, "--no-memory", option, command)
    assert (status, out) == (2, "")
    assert err.count("\n") == 1 and err.startswith("pywar grade: error: ") and words in err


@pytest.mark.parametrize("weight", ["nan", "inf", "-inf", "NaN", "1e308", "-1"])
def test_a_weight_that_is_not_a_finite_number_of_points_is_refused(tmp_path, capsys, no_work,
                                                                    weight):
    """nan and inf were taken, and wrote NaN and Infinity into --json and results.json,
    which are then not JSON; twelve weights of 1e308 add up to inf."""
    (ann,) = folders(tmp_path, "ann")
    status, out, err = run(capsys, "grade", ann, "--no-memory", "--weights",
                           f"builds={weight}")
    assert (status, out) == (2, "")
    assert err == (f"pywar grade: error: --weights: builds must be a number from 0 to "
                   f"1,000,000, not {weight}\n")


def test_a_folder_named_with_a_newline_and_an_escape_is_shown_escaped(tmp_path, capsys):
    """The terminal table: one row for the submission, no escape sequence reaching the
    terminal, the name spelled as Python spells it; JSON keeps it as it is."""
    name = "ann\n\x1b[31mred"
    (folder,) = folders(tmp_path, name)
    status, out, _ = run(capsys, "grade", folder, "-n", "1", "--no-memory")
    assert status == 0
    assert "\x1b" not in out
    lines = out.splitlines()
    assert lines[1].split()[0] == "ann\\n\\x1b[31mred"         # the row: the name, escaped
    assert lines[2].startswith("(ok: ")                        # then the legend: one row
    assert "ann\\n\\x1b[31mred: 0 of 11" in lines            # memory left out
    status, out, _ = run(capsys, "grade", folder, "-n", "1", "--no-memory", "--json")
    assert json.loads(out)["submissions"][0]["name"] == name



def test_two_folders_of_one_name_are_named(tmp_path, capsys, no_work):
    """It said 'two submissions have the same folder name' and not which (issue 37)."""
    first, second = tmp_path / "a" / "ann", tmp_path / "b" / "ann"
    first.mkdir(parents=True)
    second.mkdir(parents=True)
    folders(tmp_path, "ben")
    found, out, err = run(capsys, "grade", first, tmp_path / "ben", second)
    assert (found, out) == (2, "")
    assert err == (f"pywar grade: error: two submissions have the same folder name, 'ann' "
                   f"({str(first)!r}, {str(second)!r}): each is reported by its name\n")
