"""What the pywar commands do when they cannot write: stdout on a full disk (/dev/full)
is one line naming stdout and exit 3; a reader that goes away (a broken pipe, as with
`| head`) ends the command quietly with exit 0; every output file is opened before the
first game, and a file that cannot be written is one line naming its option and path,
exit 3.  Real processes, since these are the process's own stdout and exit status."""

import csv
import io
import os
import subprocess
import sys

import pytest

import pywar
from conftest import needs_c
from pywar.cli import main

FULL = "/dev/full"
needs_dev_full = pytest.mark.skipif(not os.path.exists(FULL), reason="needs /dev/full")


@pytest.fixture(autouse=True)
def no_engine_from_env(monkeypatch):
    """Run every test without a PYWAR_ENGINE from outside."""
    monkeypatch.delenv("PYWAR_ENGINE", raising=False)


def pywar_process(argv, stdout, cwd=None):
    """Run `python -m pywar argv` with stdout given: (exit status, stderr as text)."""
    env = {key: value for key, value in os.environ.items() if key != "PYWAR_ENGINE"}
    done = subprocess.run([sys.executable, "-m", "pywar", *argv], stdout=stdout,
                          stderr=subprocess.PIPE, env=env, cwd=cwd, timeout=120)
    return done.returncode, done.stderr.decode()


@pytest.fixture(scope="module")
def traces(tmp_path_factory):
    """Two trace files of different games, for diff and replay."""
    folder = tmp_path_factory.mktemp("traces")
    paths = []
    for seed in (1, 2):
        path = folder / f"seed-{seed}.jsonl"
        path.write_text(pywar.play(seed, trace=True, engine="python").trace)
        paths.append(str(path))
    return paths


EVERY_COMMAND = [
    ["play", "--seed", "1"],
    ["play", "--seed", "1", "--json"],
    ["play", "--seed", "1", "--trace", "-"],
    ["simulate", "-n", "50"],
    ["simulate", "-n", "50", "--json"],
    ["simulate", "-n", "50", "--csv", "-"],
    ["check", "-n", "5", "--json"],
    ["exact", "--deck", "4x1", "--piles", "queue", "--pickup", "winner-first", "--json"],
    ["rules"],
    ["rules", "--json"],
    ["diff", "A", "B", "--json"],
    ["replay", "A"],
    ["referee", "--engine", "port-python", "--seed", "1"],
    ["--help"],
]
IN_PROCESSES = [argv for argv in EVERY_COMMAND if argv[0] in ("play", "rules", "check")
                or "--csv" in argv]


def with_traces(argv, traces):
    """argv with A and B standing for the two trace files."""
    return [{"A": traces[0], "B": traces[1]}.get(word, word) for word in argv]


def prog_of(argv):
    """The prog that names a command in its errors."""
    return "pywar" if argv[0].startswith("-") else f"pywar {argv[0]}"


class FullStream(io.TextIOWrapper):
    """A text stream whose every write, once flushed, fails as /dev/full does."""

    class Raw(io.RawIOBase):
        def writable(self):
            return True

        def write(self, data):
            raise OSError(28, "No space left on device")

    def __init__(self):
        super().__init__(io.BufferedWriter(self.Raw(), 64), encoding="utf-8")


@needs_c
@pytest.mark.parametrize("argv", EVERY_COMMAND, ids=" ".join)
def test_every_command_on_a_full_stdout_is_one_line_and_exit_3(argv, traces, capsys,
                                                                monkeypatch):
    """In this process, with a stdout that fails as /dev/full does."""
    monkeypatch.setattr(sys, "stdout", FullStream())
    status = main(with_traces(argv, traces))
    monkeypatch.undo()
    err = capsys.readouterr().err
    assert (status, err) == (3, f"{prog_of(argv)}: error: cannot write stdout: "
                                "No space left on device\n")


def some_in_processes():
    """EVERY_COMMAND, those not IN_PROCESSES marked slow: one real process each."""
    return [argv if argv in IN_PROCESSES else pytest.param(argv, marks=pytest.mark.slow)
            for argv in EVERY_COMMAND]


@needs_c
@needs_dev_full
@pytest.mark.parametrize("argv", some_in_processes(), ids=" ".join)
def test_stdout_on_a_full_disk_is_one_line_and_exit_3(argv, traces):
    with open(FULL, "wb") as full:
        status, err = pywar_process(with_traces(argv, traces), stdout=full)
    assert (status, err) == (3, f"{prog_of(argv)}: error: cannot write stdout: "
                                "No space left on device\n")


@needs_c
@pytest.mark.parametrize("argv", some_in_processes(), ids=" ".join)
def test_a_reader_that_went_away_ends_the_command_quietly(argv, traces):
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        status, err = pywar_process(with_traces(argv, traces), stdout=write_end)
    finally:
        os.close(write_end)
    assert (status, err) == (0, "")


@needs_c
@pytest.mark.parametrize("target", ["-"])
def test_csv_to_stdout_read_by_head(target):
    """`pywar simulate -n 100000 --csv - | head -2`: the rows are more than a pipe holds,
    so the command is writing when head goes; it stops quietly, exit 0."""
    env = {key: value for key, value in os.environ.items() if key != "PYWAR_ENGINE"}
    process = subprocess.Popen([sys.executable, "-m", "pywar", "simulate", "-n", "100000",
                                "--csv", target], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, env=env)
    lines = [process.stdout.readline() for _ in range(2)]
    process.stdout.close()
    err = process.stderr.read().decode()
    status = process.wait(timeout=120)
    assert lines[0].startswith(b"seed,winner,outcome,rounds,") and lines[1].startswith(b"0,A,")
    assert (status, err) == (0, "")


def test_csv_dash_is_stdout_and_the_summary_goes_to_stderr(capsys):
    status = main(["simulate", "-n", "20", "--seed", "7", "--csv", "-"])
    out, err = capsys.readouterr()
    rows = list(csv.DictReader(io.StringIO(out)))
    assert status == 0 and len(rows) == 20
    assert [int(row["seed"]) for row in rows] == list(range(7, 27))
    assert [int(row["digest"], 16) for row in rows] == \
        [pywar.play(seed).digest for seed in range(7, 27)]
    assert err.startswith("  games       20 of smu (seeds 7 to 26)")


@needs_dev_full
def test_a_csv_on_a_full_disk_names_the_option_and_path(capsys):
    status = main(["simulate", "-n", "10", "--csv", FULL])
    out, err = capsys.readouterr()
    assert (status, out) == (3, "")
    assert err == "pywar simulate: error: cannot write --csv '/dev/full': No space left on device\n"


def test_a_plot_that_cannot_be_opened_stops_before_the_first_game(capsys):
    """The plot's file is opened before the games, not after: no summary is printed."""
    pytest.importorskip("matplotlib")
    status = main(["simulate", "-n", "10", "--plot", "/proc/x.png"])
    out, err = capsys.readouterr()
    assert (status, out) == (3, "")
    assert err == ("pywar simulate: error: cannot write --plot '/proc/x.png': "
                   "No such file or directory\n")


def test_an_output_file_is_written_afresh_not_appended(capsys, tmp_path):
    path = tmp_path / "games.csv"
    path.write_text("an old line\n")
    assert main(["simulate", "-n", "3", "--csv", str(path)]) == 0
    assert path.read_text().startswith("seed,winner,")
    assert len(path.read_text().splitlines()) == 4


def test_a_second_file_that_cannot_be_opened_leaves_no_first(capsys, tmp_path, monkeypatch):
    monkeypatch.setattr(pywar, "play", lambda *args, **kwargs: pytest.fail("played"))
    page = tmp_path / "game.html"
    trace = tmp_path / "no-folder" / "game.jsonl"
    status = main(["play", "--seed", "1", "--html", str(page), "--trace", str(trace)])
    out, err = capsys.readouterr()
    assert (status, out) == (3, "")
    assert err == f"pywar play: error: cannot write --trace {str(trace)!r}: No such file or " \
                  "directory\n"
    assert not page.exists()


def test_html_to_stdout_is_refused(capsys):
    status = main(["play", "--seed", "1", "--html", "-"])
    out, err = capsys.readouterr()
    assert (status, out) == (2, "")
    assert err == "pywar play: error: --html writes a file, not stdout: give it a file name\n"
