"""pywar simulate and pywar check, on the command line."""

import csv
import hashlib
import json
import os
import sys
from contextlib import contextmanager

import pytest

import pywar
from conftest import needs_c
from pywar import cli, installed
from pywar.installed import install_hint
from pywar.sim import batch

ISSUE_KEYS = {"rules", "games", "seed", "engine", "jobs", "mean_rounds", "ci95_rounds",
              "median_rounds", "p90_rounds", "p99_rounds", "min_rounds", "max_rounds",
              "max_seed", "wins", "outcomes", "mean_wars", "games_per_second", "digest"}


def run(capsys, *argv):
    """main(argv): (status, stdout, stderr)."""
    status = cli.main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_simulate_json_has_the_issue_keys(capsys):
    status, out, err = run(capsys, "simulate", "-n", "200", "--seed", "5", "--json")
    summary = json.loads(out)
    assert status == 0 and set(summary) >= ISSUE_KEYS
    expected = pywar.simulate(200, seed=5).summary()
    assert summary["digest"] == expected["digest"]
    assert summary["mean_rounds"] == expected["mean_rounds"]


def test_simulate_prints_a_readable_table(capsys):
    status, out, _ = run(capsys, "simulate", "-n", "300", "--rules", "iofall")
    assert status == 0
    summary = pywar.simulate(300, "iofall").summary()
    assert f"mean {summary['mean_rounds']:,.1f}" in out
    assert f"longest {summary['max_rounds']:,} (seed {summary['max_seed']})" in out
    assert summary["digest"] in out


def test_simulate_with_dimensions_and_engine(capsys):
    argv = ["simulate", "-n", "50", "--rules", "lehigh", "--face-down", "1", "--json"]
    _, c_out, _ = run(capsys, *argv, "--engine", "auto")
    _, py_out, _ = run(capsys, *argv, "--engine", "python")
    c_summary, py_summary = json.loads(c_out), json.loads(py_out)
    assert c_summary["rules"] == "lehigh,face_down=1"
    assert c_summary["digest"] == py_summary["digest"]
    assert py_summary["engine"] == "python"


def test_csv_has_one_row_per_game(capsys, tmp_path):
    path = tmp_path / "games.csv"
    status, _, _ = run(capsys, "simulate", "-n", "120", "--seed", "40", "--csv", str(path))
    rows = list(csv.DictReader(path.open()))
    simulation = pywar.simulate(120, seed=40)
    assert status == 0 and len(rows) == 120
    assert [int(row["seed"]) for row in rows] == simulation.seeds.tolist()
    assert [int(row["rounds"]) for row in rows] == simulation.rounds.tolist()
    assert [int(row["digest"], 16) for row in rows] == simulation.digest.tolist()
    assert {row["winner"] for row in rows} <= {"A", "B", ""}


def test_plot_writes_a_png(capsys, tmp_path):
    pytest.importorskip("matplotlib")
    path = tmp_path / "lengths.png"
    status, _, _ = run(capsys, "simulate", "-n", "500", "--plot", str(path))
    assert status == 0 and path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_plot_without_matplotlib_is_a_usage_error(capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    status, out, err = run(capsys, "simulate", "-n", "10", "--plot", "x.png")
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and err.endswith(f"plots need matplotlib: {install_hint('plot')}\n")


class FakeDistribution:
    """A distribution whose direct_url.json (PEP 610) holds recorded, or is missing."""

    def __init__(self, recorded):
        self.recorded = recorded

    def read_text(self, name):
        return self.recorded if name == "direct_url.json" else None


@pytest.mark.parametrize("recorded, hint", [
    ('{"dir_info": {"editable": true}, "url": "file:///src/me/pywar"}',
     "pip install -e '/src/me/pywar[plot]'"),
    ('{"dir_info": {}, "url": "file:///src/me/my%20pywar"}', "pip install '/src/me/my pywar[plot]'"),
    ('{"archive_info": {}, "url": "file:///tmp/pywar-0.1.0-cp311-linux_x86_64.whl"}',
     "pip install 'pywar[plot]'"),
    (None, "pip install 'pywar[plot]'"),             # from an index: no direct_url.json
])
def test_the_hint_says_how_pywar_was_installed(monkeypatch, recorded, hint):
    """A checkout (the README's pip install -e '.[test]'), a wheel, an index."""
    monkeypatch.setattr(installed.metadata, "distributions",
                        lambda name: [FakeDistribution(None), FakeDistribution(recorded)])
    assert install_hint("plot") == hint


@pytest.mark.parametrize("argv, words", [
    (["simulate"], "-n/--games"),
    (["simulate", "-n", "0"], "argument -n/--games: must be an integer from 1, not 0"),
    (["simulate", "-n", "x"], "argument -n/--games: must be an integer from 1, not 'x'"),
    (["simulate", "-n", "5", "--jobs", "0"], "argument --jobs: must be an integer from 1, not 0"),
    (["simulate", "-n", "5", "--seed", "-1"], "0 to 4294967295"),
    (["simulate", "-n", "5", "--rules", "go-fish"], "smu"),
    (["simulate", "-n", "5", "--pickup", "up"], "pot-order"),
    (["check", "-n", "0"], "from 1"),
])
def test_bad_input_is_one_line_and_status_2(capsys, argv, words):
    status, out, err = run(capsys, *argv)
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and words in err and "Traceback" not in err


def test_progress_bar_on_stderr(capsys, monkeypatch):
    monkeypatch.setattr(cli.Progress, "DELAY", 0.0)
    status, out, err = run(capsys, "simulate", "-n", "3000", "--progress", "--json")
    assert status == 0 and "100.0%" in err and "simulating [" in err
    json.loads(out)
    status, _, err = run(capsys, "simulate", "-n", "3000", "--no-progress")
    assert status == 0 and err == ""


@contextmanager
def stderr_to(path):
    """File descriptor 2, and sys.stderr on it, sent to a file for a while."""
    saved, stream = os.dup(2), open(path, "w")
    os.dup2(stream.fileno(), 2)
    try:
        with open(2, "w", closefd=False) as stderr:
            real, sys.stderr = sys.stderr, stderr
            try:
                yield
            finally:
                stderr.flush()
                sys.stderr = real
    finally:
        os.dup2(saved, 2)
        os.close(saved)
        stream.close()


def test_no_bar_cuts_into_rows_written_where_stderr_writes(capsys, monkeypatch, tmp_path):
    """--csv /dev/stderr gets the rows and no bar, even with --progress; --csv to
    another file keeps the bar on stderr."""
    monkeypatch.setattr(cli.Progress, "DELAY", 0.0)
    errors = tmp_path / "stderr.txt"
    argv = ["simulate", "-n", "3000", "--progress", "--json", "--csv"]
    with stderr_to(errors):
        status = cli.main(argv + ["/dev/stderr"])
    written = errors.read_text().splitlines()
    assert status == 0 and not any("simulating [" in line for line in written)
    warning = "pywar simulate: warning: no progress bar: --csv writes where stderr does"
    rows = [line for line in written if line != warning]
    assert written.count(warning) == 1 and rows[0].startswith("seed,winner,")
    assert len(rows) == 3001 and all(row.split(",")[0].isdigit() for row in rows[1:])
    with stderr_to(errors):
        status = cli.main(argv + [str(tmp_path / "games.csv")])
    assert status == 0 and "simulating [" in errors.read_text()
    capsys.readouterr()


@needs_c
def test_check_agrees(capsys):
    status, out, _ = run(capsys, "check", "-n", "150", "--rules", "iofall", "--json")
    verdict = json.loads(out)
    assert status == 0 and verdict["agree"] and verdict["differing_fields"] == []


@needs_c
def test_check_fails_when_the_twin_differs(capsys, monkeypatch):
    real = batch.store_counts

    def off_by_one(arrays, i, counts):
        real(arrays, i, counts)
        if i == 7:
            arrays["rounds"][i] += 1

    monkeypatch.setattr(batch, "store_counts", off_by_one)
    status, out, _ = run(capsys, "check", "-n", "20", "--seed", "100")
    assert status == 1 and "rounds" in out and "seed 107" in out


@pytest.mark.parametrize("argv, status, words", [
    (["--csv", "/nonexistent-folder/games.csv"], 3,
     "pywar simulate: error: cannot write --csv '/nonexistent-folder/games.csv': "
     "No such file or directory\n"),
    (["--plot", "/nonexistent-folder/lengths.png"], 3,
     "pywar simulate: error: cannot write --plot '/nonexistent-folder/lengths.png': "
     "No such file or directory\n"),
    (["--plot", "lengths.xyz"], 2, "png"),
    (["--plot", "-"], 2, "pywar simulate: error: --plot writes a file, not stdout: give it a "
                         "file name\n"),
    (["--csv", "-", "--json"], 2, "pywar simulate: error: --json and --csv - both write "
                                  "stdout: give --csv a file\n"),
])
def test_bad_output_files_fail_before_the_work(capsys, monkeypatch, argv, status, words):
    pytest.importorskip("matplotlib")
    monkeypatch.setattr(pywar, "simulate", lambda *args, **kwargs: pytest.fail("played"))
    found, out, err = run(capsys, "simulate", "-n", "10", *argv)
    assert found == status and out == "" and err.count("\n") == 1 and words in err


def test_too_many_games_to_keep_in_memory():
    with pytest.raises(MemoryError, match="GiB.*keep_games=False"):
        pywar.simulate(2 ** 32, keep_games=True)


def test_a_run_refused_for_memory_leaves_its_csv_file_as_it_was(tmp_path):
    """The refusal comes before the CSV file is opened, so an earlier run's rows stay."""
    earlier = tmp_path / "games.csv"
    earlier.write_text("rows of an earlier run\n")
    with pytest.raises(MemoryError):
        pywar.simulate(2 ** 32, keep_games=True, csv=earlier)
    assert earlier.read_text() == "rows of an earlier run\n"


@needs_c
def test_every_32_bit_seed_can_be_run(capsys, monkeypatch):
    """-n 4294967296 is no longer refused: it starts (from near the top of the seeds, so
    that they wrap) in constant memory; a Ctrl-C keeps the games finished so far.  On one
    thread the chunks finish in seed order, so the games finished are all kept (on two,
    a second chunk finishing first made the kept prefix shorter than 20,000 now and
    then)."""
    def stop_soon(self, finished, total):
        if finished > 20_000:
            raise KeyboardInterrupt
    monkeypatch.setattr(cli.Progress, "__call__", stop_soon)
    first = 2 ** 32 - 10_000
    status, out, err = run(capsys, "simulate", "-n", str(2 ** 32), "--seed", str(first),
                           "--rules", "iofall", "--json", "--jobs", "1")
    summary = json.loads(out)
    assert (status, err) == (130, "") and summary["complete"] is False
    assert 20_000 < summary["games"] < 2 ** 32
    played = pywar.simulate(summary["games"], "iofall", seed=first)
    assert played.seeds[-1] == summary["games"] - 10_001           # past 2^32 - 1, from 0
    assert summary["digest"] == hashlib.sha256(played.digest.astype("<u8").tobytes()).hexdigest()


def test_ctrl_c_during_play_is_one_line(capsys, monkeypatch):
    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt
    monkeypatch.setattr(pywar, "play", interrupted)
    status, out, err = run(capsys, "play", "--seed", "1")
    assert status == 130 and err == "pywar: interrupted\n"


@needs_c
def test_ctrl_c_during_check_compares_the_finished_games(capsys, monkeypatch):
    def stop_soon(self, finished, total):
        if finished > 30:
            raise KeyboardInterrupt
    monkeypatch.setattr(cli.Progress, "__call__", stop_soon)
    status, out, _ = run(capsys, "check", "-n", "1000", "--json")
    verdict = json.loads(out)
    assert status == 130 and verdict["interrupted"] and verdict["agree"]
    assert 30 < verdict["games"] < 1000


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_a_csv_that_fills_up_is_an_input_output_error(capsys):
    """/dev/full opens, then every write fails: found during the work, so exit 3."""
    status, out, err = run(capsys, "simulate", "-n", "3000", "--csv", "/dev/full")
    assert status == 3 and out == "" and err.count("\n") == 1
    assert err == "pywar simulate: error: cannot write --csv '/dev/full': No space left on device\n"


JOBS_REFUSED = "error: --jobs 2 needs --engine c: the Python engine plays in one thread\n"
EXACT = ["exact", "--deck", "4x1", "--piles", "queue", "--pickup", "winner-first"]


@pytest.mark.parametrize("argv", [["simulate", "-n", "10"], EXACT])
def test_jobs_with_the_python_engine_is_refused(capsys, monkeypatch, argv):
    monkeypatch.delenv("PYWAR_ENGINE", raising=False)
    status, out, err = run(capsys, *argv, "--jobs", "2", "--engine", "python")
    assert (status, out, err) == (2, "", f"pywar {argv[0]}: {JOBS_REFUSED}")
    monkeypatch.setenv("PYWAR_ENGINE", "python")
    assert run(capsys, *argv, "--jobs", "2") == (2, "", f"pywar {argv[0]}: {JOBS_REFUSED}")
    status, out, err = run(capsys, *argv, "--engine", "python")         # without --jobs
    assert (status, err) == (0, "") and out
    status, out, err = run(capsys, *argv, "--engine", "python", "--jobs", "1")  # its one
    assert (status, err) == (0, "") and out


def bar_redraws(rows, columns):
    """The redraws of simulate's bar at a terminal of rows x columns (a run of some
    seconds: the bar shows after one)."""
    pexpect = pytest.importorskip("pexpect", reason="pexpect is in the test extra")
    child = pexpect.spawn(sys.executable, ["-m", "pywar", "simulate", "-n", "150000",
                                           "--rules", "lehigh", "--json"],
                          dimensions=(rows, columns), timeout=120, encoding="utf-8")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    shown = child.before.split("{")[0]                      # stderr's bar, before the JSON
    return [line for line in shown.replace("\r\n", "\r").split("\r") if line]


@needs_c
def test_the_progress_bar_fits_a_narrow_terminal():
    """At a terminal 72 columns wide every redraw of the bar fits in one line, so that
    the carriage return redraws it in place instead of leaving a trail of lines; it ends
    at 100.0% with the rate and the time left."""
    redraws = bar_redraws(24, 72)
    assert redraws and all(len(line) <= 72 for line in redraws), redraws
    assert redraws[-1].startswith("simulating [") and " 100.0% " in redraws[-1]
    assert redraws[-1].endswith(" games/s, 00:00 left")


@needs_c
def test_a_terminal_that_gives_no_size_gets_a_bar_of_80_columns():
    """A pseudo-terminal of 0 x 0 (`script -qc ... /dev/null` gives one), where tqdm alone
    draws nothing: the bar is drawn 80 columns wide."""
    redraws = bar_redraws(0, 0)
    assert redraws and all(len(line) <= 80 for line in redraws), redraws
    assert redraws[-1].startswith("simulating [") and " 100.0% " in redraws[-1]


def test_without_a_bar_long_work_says_how_long_once(capsys, monkeypatch):
    """From the first report (100 games at 2 s) to 350 at 7 s: 50 a second, so the 99,650
    games left take 1,993 s, 33 minutes."""
    now = [0.0]
    monkeypatch.setattr(cli.Progress, "clock", staticmethod(lambda: now[0]))
    progress = cli.Progress("checking", False)
    for now[0], finished in ((2.0, 100), (6.0, 300), (7.0, 350), (8.0, 400)):
        progress(finished, 100_000)
    progress.close()
    assert capsys.readouterr() == ("", "pywar: warning: checking 100,000 games at 50 a "
                                   "second: 350 done, about 33 minutes left (--progress "
                                   "draws a bar)\n")
    quick = cli.Progress("checking", False)            # 1,000 left at 100 a second: no word
    for now[0], finished in ((14.0, 400), (20.0, 1000)):
        quick(finished, 2_000)
    assert capsys.readouterr() == ("", "")
