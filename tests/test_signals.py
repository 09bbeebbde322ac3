"""SIGTERM and SIGHUP are handled as Ctrl-C is: the finished work is reported, then exit
143 (129); a signal while the modules load is one line; a Dask run's workers stay quiet
when the whole process group gets the signal.

The expected summary of an interrupted run is worked out here by an uninterrupted run
of as many games as it reports."""

import json
import os
import signal
import subprocess
import sys
import time

import pytest

import pywar
from conftest import ROOT, needs_c, stopping_signals_default

pytestmark = needs_c
SCRIPT = os.path.join(os.path.dirname(sys.executable), "pywar")
HEADER = 1                      # the CSV's header line


@pytest.fixture
def started():
    """start(argv, cwd, session=False, dispositions=stopping_signals_default): the console
    script started on argv, its output piped, the stopping signals at their defaults
    (dispositions, its preexec_fn); killed after the test if still running."""
    processes = []

    def start(argv, cwd, session=False, dispositions=stopping_signals_default):
        env = {key: value for key, value in os.environ.items() if key != "PYWAR_ENGINE"}
        processes.append(subprocess.Popen(
            [SCRIPT, *argv], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            cwd=cwd, env=env, start_new_session=session, preexec_fn=dispositions))
        return processes[-1]
    yield start
    for process in processes:
        if process.poll() is None:
            process.kill()
            process.communicate()


def rows_written(folder):
    """The rows beyond its header in the temporary CSV file beside games.csv (0 if none)."""
    for name in os.listdir(folder):
        if name.startswith(".games.csv.") and name.endswith(".tmp"):
            with open(os.path.join(folder, name), "rb") as partial:
                return max(partial.read().count(b"\n") - HEADER, 0)
    return 0


def wait_for_rows(folder, rows=1, seconds=60):
    """Wait until the temporary CSV file beside games.csv holds more than rows rows."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if rows_written(folder) > rows:
            return
        time.sleep(0.02)
    pytest.fail(f"no more than {rows} rows came")


def without_warnings(err):
    """stderr less the warning that long work without a bar gives (pywar: warning: ...)."""
    return "".join(line for line in err.splitlines(keepends=True)
                   if not line.startswith("pywar: warning: "))


def check_report(process, folder, status):
    """The run stopped with status, its summary is that of its games from the first
    seed, and games.csv holds their rows, no more; stderr, less warnings, is returned."""
    out, err = process.communicate(timeout=120)
    err = without_warnings(err)
    assert process.returncode == status, err
    assert "Traceback" not in err
    summary = json.loads(out)
    assert summary["interrupted"] and 0 < summary["games"] < summary["requested"]
    with open(os.path.join(folder, "games.csv"), "rb") as rows:
        assert rows.read().count(b"\n") - HEADER == summary["games"]
    expected = pywar.simulate(summary["games"], engine="c", keep_games=False).summary()
    assert summary["digest"] == expected["digest"]
    assert [name for name in os.listdir(folder) if name.endswith(".tmp")] == []
    return err


@pytest.mark.parametrize("name, status", [("SIGTERM", 143), ("SIGHUP", 129), ("SIGINT", 130)])
def test_a_stopping_signal_reports_the_finished_games(name, status, tmp_path, started):
    """SIGTERM ended the process at once, with no summary."""
    process = started(["simulate", "-n", "5000000", "--csv", "games.csv", "--json",
                       "--chunk", "256", "--jobs", "1"], tmp_path)
    wait_for_rows(tmp_path)
    process.send_signal(getattr(signal, name))
    assert check_report(process, tmp_path, status) == ""


def test_a_run_started_under_nohup_goes_on_after_sighup(tmp_path, started):
    """Under nohup (SIGHUP ignored when pywar starts) a hangup stops nothing: the run goes
    on, writing rows, and a later SIGTERM stops it as usual (docs/command-line.md)."""
    def nohup():
        stopping_signals_default()
        signal.signal(signal.SIGHUP, signal.SIG_IGN)
    process = started(["simulate", "-n", "5000000", "--csv", "games.csv", "--json",
                       "--chunk", "256", "--jobs", "1"], tmp_path, dispositions=nohup)
    wait_for_rows(tmp_path)
    process.send_signal(signal.SIGHUP)
    wait_for_rows(tmp_path, rows_written(tmp_path) + 10 * 256)
    process.send_signal(signal.SIGTERM)
    assert check_report(process, tmp_path, 143) == ""


def test_sigterm_while_a_transcript_streams_is_one_line(started):
    process = started(["play", "--rules", "lehigh", "--seed", "11", "--max-rounds",
                       "2000000", "--no-cycle-detection"], ROOT)
    process.stdout.readline()
    process.send_signal(signal.SIGTERM)
    out, err = process.communicate(timeout=60)
    assert (process.returncode, err) == (143, "pywar: stopped by SIGTERM\n")


SIGNAL_WHILE_LOADING = """
import os, signal, sys
class Signal:
    def find_spec(name, path=None, target=None):
        if name == "pywar.cli.simulate":
            os.kill(os.getpid(), signal.{name})
sys.meta_path.insert(0, Signal)
sys.argv = ["pywar", "simulate", "-n", "3"]
import pywar_command
sys.exit(pywar_command.main())
"""


@pytest.mark.parametrize("name, status, line", [
    ("SIGINT", 130, "pywar: interrupted"), ("SIGTERM", 143, "pywar: stopped by SIGTERM"),
    ("SIGHUP", 129, "pywar: stopped by SIGHUP")])
def test_a_signal_while_the_modules_load_is_one_line(name, status, line):
    """A Ctrl-C in the first 0.4 s printed a traceback (23 of 24 tries)."""
    done = subprocess.run([sys.executable, "-c", SIGNAL_WHILE_LOADING.format(name=name)],
                          capture_output=True, text=True, cwd=ROOT, timeout=60,
                          preexec_fn=stopping_signals_default)
    assert (done.returncode, done.stderr) == (status, line + "\n")


def test_a_worker_process_ignores_ctrl_c_and_sighup(tmp_path):
    """What pywar_command does in a process that multiprocessing starts (spawn), as Dask
    starts its workers: the child's own dispositions, read from /proc."""
    code = ("import multiprocessing as mp, sys\n"
            "sys.path.insert(0, {root!r})\n"
            "def child(queue):\n"
            "    import signal\n"
            "    queue.put((signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGHUP)))\n"
            "if __name__ == '__main__':\n"
            "    import pywar_command\n"
            "    context = mp.get_context('spawn')\n"
            "    queue = context.Queue()\n"
            "    process = context.Process(target=child, args=(queue,))\n"
            "    process.start(); print(queue.get()); process.join()\n").format(root=str(ROOT))
    script = tmp_path / "probe.py"
    script.write_text(code + "import pywar_command  # the script imports it, as pywar's does\n")
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                          timeout=60)
    assert done.stdout.strip() == "(<Handlers.SIG_IGN: 1>, <Handlers.SIG_IGN: 1>)", done.stderr


@pytest.mark.slow
@pytest.mark.parametrize("name, status", [("SIGINT", 130), ("SIGTERM", 143)])
def test_a_signal_to_the_process_group_of_a_dask_run_is_told_once(name, status, tmp_path,
                                                                  started):
    """A Ctrl-C to the whole process group, as a terminal sends it, printed up to 75
    lines of Dask worker tracebacks."""
    pytest.importorskip("distributed")
    process = started(["simulate", "-n", "5000000", "--scheduler", "local:2", "--chunk",
                       "16384", "--csv", "games.csv", "--json"], tmp_path, session=True)
    wait_for_rows(tmp_path, seconds=120)
    os.killpg(process.pid, getattr(signal, name))
    err = check_report(process, tmp_path, status)
    assert err.startswith("pywar: Dask scheduler ") and len(err.splitlines()) == 1


@pytest.mark.slow
@pytest.mark.parametrize("delay", [0.5, 1.0, 2.0])
def test_ctrl_c_to_the_process_group_as_the_cluster_starts_is_one_line(delay, tmp_path,
                                                                      started):
    """During the cluster's start it left a 0-byte CSV and worker tracebacks."""
    pytest.importorskip("distributed")
    (tmp_path / "games.csv").write_text("an earlier run\n")
    process = started(["simulate", "-n", "5000000", "--scheduler", "local:2", "--csv",
                       "games.csv", "--json"], tmp_path, session=True)
    time.sleep(delay)
    os.killpg(process.pid, signal.SIGINT)
    out, err = process.communicate(timeout=120)
    assert process.returncode == 130 and "Traceback" not in err
    assert sorted(os.listdir(tmp_path)) == ["games.csv"]
    rows = (tmp_path / "games.csv").read_bytes()
    if out:                                     # the start was over: the games finished
        assert rows.count(b"\n") - HEADER == json.loads(out)["games"]
        assert len(err.splitlines()) == 1
    else:                                       # stopped in the start: nothing was done
        assert err == "pywar: interrupted\n" and rows == b"an earlier run\n"
