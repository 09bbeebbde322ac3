"""pywar grade at scale (issue 38): --jobs at the usable cores, the referee of several jobs
in processes of its own (Referees) giving the marks of one, and --scheduler, a class
graded on a Dask cluster, each worker sandboxing its runs, giving the JSON of one
process byte for byte."""

import json
import logging
import os
import shutil
import signal
import time

import pytest

import pywar.check.grading.grade as grading
from conftest import CLASS, needs_tools
from pywar.check.grading import cluster
from pywar.check.referee.effort import OutOfTime
from pywar.check.runner import sandbox
from pywar.check.submission.bounds import COPY_DEPTH
from pywar.cli import main

pytestmark = needs_tools("cc", "g++", "valgrind")


def run(capsys, *argv):
    """main(argv): (exit status, stdout, stderr)."""
    status = main([str(arg) for arg in argv])
    out, err = capsys.readouterr()
    return status, out, err


def test_jobs_default_to_the_usable_cores(tmp_path, capsys, monkeypatch):
    """--jobs was 1 by default: one core of two idle while a class was graded."""
    seen = []
    monkeypatch.setattr("pywar.cli.grade.usable_cores", lambda: 3)
    monkeypatch.setattr("pywar.cli.grade.grade",
                        lambda sources, settings, jobs, progress: seen.append(jobs) or [])
    (tmp_path / "ann").mkdir()
    assert run(capsys, "grade", tmp_path / "ann", "--no-memory")[0] == 0
    assert run(capsys, "grade", tmp_path / "ann", "--no-memory", "--jobs", "1")[0] == 0
    assert seen == [3, 1]
    assert "(default: the usable cores)" in " ".join(run(capsys, "grade", "--help")[1].split())


def test_the_referees_processes_referee_as_this_one_does():
    """The referee of several jobs runs in other processes: the same Judgement as here,
    and a transcript past its time raises OutOfTime here, as the referee here does."""
    import pywar
    text = pywar.play(1553, transcript=True).transcript
    referees = grading.Referees(2)
    try:
        assert referees.pool.submit(os.getpid).result() != os.getpid()
        there, fault, _ = referees(text, True, 1553, 10.0)
        assert fault is None
        assert there == grading.referee_for(text, True, 1553, 10.0)[0]
        with pytest.raises(OutOfTime):
            referees(text, True, 1553, 0.0)
    finally:
        referees.close()


def test_a_referee_process_killed_is_replaced_and_the_class_graded_on():
    """One referee's process killed (by the kernel, say) broke the pool, and every later
    submission was 'pywar could not grade' (issue 38's review): the pool is started
    again, and the next transcript is refereed as here."""
    import pywar
    text = pywar.play(1553, transcript=True).transcript
    referees = grading.Referees(1)
    try:
        os.kill(referees.pool.submit(os.getpid).result(), signal.SIGKILL)
        time.sleep(0.2)                                 # the pool sees its process gone
        there, fault, _ = referees(text, True, 1553, 10.0)
        assert fault is None and there == grading.referee_for(text, True, 1553, 10.0)[0]
        assert referees.pool.submit(os.getpid).result() != os.getpid()    # processes again
    finally:
        referees.close()


@pytest.fixture(scope="module")
def address():
    """The address of a LocalCluster of 2 single-threaded workers in this process (tcp,
    as a remote cluster's)."""
    distributed = pytest.importorskip("distributed")
    local = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                     protocol="tcp", dashboard_address=":0",
                                     silence_logs=logging.ERROR)
    yield local.scheduler_address
    local.close()


def a_small_class(folder):
    """Four submissions that take each path of a task: a program with a leak (valgrind on
    the worker), one whose FIFO the copy leaves out (a note of the copy made here), one
    in a folder of its own (built there), and one too deep to copy (graded here)."""
    shutil.copytree(CLASS / "never_deletes", folder / "leaks")
    shutil.copytree(CLASS / "ace_low", folder / "fifo")
    os.mkfifo(folder / "fifo" / "pipe")
    shutil.copytree(CLASS / "faithful", folder / "nested" / "War")
    deep = folder / "deep"
    for _ in range(COPY_DEPTH + 2):
        deep = deep / "d"
    deep.mkdir(parents=True)
    return [folder / name for name in ("leaks", "fifo", "nested", "deep")]


@pytest.mark.parametrize("names, options", [
    (("fifo", "deep"), ("-n", "1", "--fresh", "0", "--no-memory")),
    pytest.param(("leaks", "fifo", "nested", "deep"), ("-n", "1", "--fresh-seeds", "77"),
                 marks=pytest.mark.slow),
], ids=["two-on-one-seed", "four-with-valgrind"])
def test_a_class_on_a_cluster_is_the_json_of_one_process(address, tmp_path, capsys, names,
                                                          options):
    submissions = [path for path in a_small_class(tmp_path) if path.name in names]
    status, here, _ = run(capsys, "grade", *submissions, *options, "--json", "--jobs", "1")
    assert status == 0
    status, there, err = run(capsys, "grade", *submissions, *options, "--json",
                             "--scheduler", address)
    assert status == 0 and f"Dask scheduler {address}" in err
    assert there == here
    graded = {sub["name"]: sub for sub in json.loads(there)["submissions"]}
    assert graded["fifo"]["notes"][0].startswith("left out ") and \
        not graded["deep"]["items"]["builds"]["ok"]
    if "leaks" in graded:
        assert not graded["leaks"]["items"]["memory"]["ok"]
        assert graded["nested"]["items"]["runs"]["ok"]


@pytest.mark.parametrize("option", [["--jobs", "2"], ["--keep", "kept"]])
def test_the_scheduler_leaves_jobs_and_keep_out(capsys, tmp_path, option):
    """--jobs sets this machine's threads, and --keep writes on this machine."""
    (tmp_path / "ann").mkdir()
    status, out, err = run(capsys, "grade", tmp_path / "ann", "--scheduler", "local:1",
                           *option)
    assert (status, out) == (2, "") and err.count("\n") == 1 and option[0] in err


def test_a_worker_that_cannot_isolate_refuses_required(monkeypatch, tmp_path):
    """--isolation required is checked on the worker too, before anything runs there."""
    monkeypatch.setattr(sandbox, "bwrap_works", lambda: False)
    digest, notes, entries = cluster.packed(CLASS / "faithful")
    settings = grading.Settings(games=1, memory=False, isolation="required")
    with pytest.raises(sandbox.SandboxMissing):
        cluster.grade_packed("faithful", digest, notes, entries, settings)
