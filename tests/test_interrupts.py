"""Ctrl-C at any moment: `pywar simulate` ends promptly (PROMPT_SECONDS), exits 130 and prints the
summary of the games finished from the first seed on, with no gap; a Ctrl-C before the
work, or after it, ends cleanly and loses no finished result.

The expected digest of the first k games is worked out here from a reference run's
per-game digests: sha256 of their little-endian 64-bit values, packed with struct.
"""

import _thread
import csv
import hashlib
import json
import os
import random
import signal
import struct
import subprocess
import sys
import threading
import time
from contextlib import contextmanager

import pytest

import pywar
from conftest import ROOT, needs_c
from pywar import cli

pytestmark = needs_c

SEED = 2 ** 32 - 5_000          # the seeds wrap past 2^32 - 1 early on
GAMES = 2_000_000               # far more than any interrupted run gets through
# How soon after Ctrl-C a run must return.  It stops in well under a second, but a
# loaded 2-core machine has taken 1.5 s; a Ctrl-C that went unheeded would take the
# rest of the run (2,000,000 games: tens of seconds), and a deadlock forever.
PROMPT_SECONDS = 3.0
MOMENTS = 200                   # the plan's length; the default run takes its first 60
LATEST = 0.25                   # the latest moment, in seconds after simulate() is called
REAL_SIMULATE = pywar.simulate
HANG_SECONDS = 10               # a run still going this long after its Ctrl-C has hung


def expected_digest(digests, games):
    """sha256 of the first games' 64-bit digests, packed little-endian."""
    return hashlib.sha256(struct.pack(f"<{games}Q", *digests[:games])).hexdigest()


def reference_digests(games, seed=SEED):
    """The per-game digests of an uninterrupted run of games games from seed."""
    return REAL_SIMULATE(games, seed=seed, engine="c").digest.tolist()


@pytest.fixture(autouse=True)
def python_handles_sigint():
    """Ctrl-C raises KeyboardInterrupt here, even in a test run started with SIGINT
    ignored (in the background), where Python leaves it ignored."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)


@pytest.fixture
def stray_interrupts(python_handles_sigint):
    """Record, rather than raise, a Ctrl-C that comes after the command has returned."""
    seen = []
    previous = signal.signal(signal.SIGINT, lambda signum, frame: seen.append(signum))
    yield seen
    signal.signal(signal.SIGINT, previous)


class Hung(Exception):
    """A run that did not return: the main thread is stuck."""


def raise_hung(signum, frame):
    """The SIGALRM handler: break the stuck main thread out with a Hung error."""
    raise Hung(f"pywar simulate did not return within {HANG_SECONDS} s")


@contextmanager
def alarm(seconds):
    """Raise Hung in the main thread if the body takes more than seconds."""
    previous = signal.signal(signal.SIGALRM, raise_hung)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def signalling(started):
    """pywar.simulate, but first telling started that it was called."""
    def simulate(*args, **kwargs):
        started.set()
        return REAL_SIMULATE(*args, **kwargs)
    return simulate


def interrupt_later(started, delays, sent):
    """Once started is set: for each delay, sleep it, then Ctrl-C the main thread."""
    started.wait()
    for delay in delays:
        time.sleep(delay)
        sent.append(time.monotonic())
        _thread.interrupt_main()


def interrupted_main(monkeypatch, capsys, argv, delays):
    """main(argv), with Ctrl-Cs after delays from the call to simulate():
    (status, stdout, stderr, seconds from the first Ctrl-C to the return)."""
    started, sent = threading.Event(), []
    monkeypatch.setattr(pywar, "simulate", signalling(started))
    timer = threading.Thread(target=interrupt_later, args=(started, delays, sent), daemon=True)
    try:
        with alarm(HANG_SECONDS):
            timer.start()
            status = cli.main(argv)
            returned = time.monotonic()
    finally:
        started.set()
        timer.join()
    out, err = capsys.readouterr()
    return status, out, err, returned - sent[0]


def moments(count, rng):
    """Ctrl-C delays: at once, at random, and now and then a second one soon after."""
    plans = []
    for i in range(count):
        first = 0.0 if i % 10 == 0 else rng.uniform(0, LATEST)
        plans.append([first, rng.uniform(0, 0.03)] if i % 4 == 1 else [first])
    return plans


@pytest.mark.parametrize("part", [range(60), pytest.param(range(60, MOMENTS),
                                                           marks=pytest.mark.slow)],
                         ids=["first-60", "other-140"])
def test_ctrl_c_at_random_moments(monkeypatch, capsys, stray_interrupts, part):
    """200 moments of one plan: the default run takes the first 60, in which every
    combination of the plan's cycles comes round (a Ctrl-C at once on every 10th, a
    second Ctrl-C on every 4th, 1, 2 and 3 jobs in turn: 60 is their least common
    multiple); the slow run takes the other 140."""
    rng = random.Random(7)
    runs = []
    plans = moments(MOMENTS, rng)
    for i in part:
        delays = plans[i]
        argv = ["simulate", "-n", str(GAMES), "--seed", str(SEED), "--json",
                "--jobs", str(1 + i % 3)]
        runs.append(interrupted_main(monkeypatch, capsys, argv, delays))
    reference = reference_digests(max(json.loads(out)["games"] for _, out, _, _ in runs))
    for status, out, err, latency in runs:
        summary = json.loads(out)
        assert status == 130 and "Traceback" not in err, err
        assert latency < PROMPT_SECONDS
        assert summary["seed"] == SEED and 0 <= summary["games"] < GAMES
        assert summary["complete"] is False
        assert summary["digest"] == expected_digest(reference, summary["games"])
    assert any(json.loads(out)["games"] > 1000 for _, out, _, _ in runs)


def test_ctrl_c_in_the_twin_keeps_a_prefix(monkeypatch, capsys, stray_interrupts):
    rng = random.Random(8)
    runs = [interrupted_main(monkeypatch, capsys,
                             ["simulate", "-n", "5000", "--seed", str(SEED), "--json",
                              "--engine", "python"], [rng.uniform(0, 0.3)])
            for _ in range(10)]
    reference = reference_digests(5000)
    for status, out, err, latency in runs:
        summary = json.loads(out)
        assert status == 130 and latency < PROMPT_SECONDS and summary["engine"] == "python"
        assert summary["digest"] == expected_digest(reference, summary["games"])


def wrap(monkeypatch, owner, name, before=None, after=None):
    """Replace owner.name with a function that calls before(), the real one, after()."""
    real = getattr(owner, name)

    def wrapped(*args, **kwargs):
        if before:
            before(*args, **kwargs)
        result = real(*args, **kwargs)
        if after:
            after()
        return result
    monkeypatch.setattr(owner, name, wrapped)


def ctrl_c(*args, **kwargs):
    """Ctrl-C the main thread, as a real SIGINT does."""
    _thread.interrupt_main()


def test_ctrl_c_before_the_work_is_one_line(monkeypatch, capsys):
    wrap(monkeypatch, cli.simulate, "check_outputs", before=ctrl_c)
    status = cli.main(["simulate", "-n", "3000", "--json"])
    out, err = capsys.readouterr()
    assert (status, out, err) == (130, "", "pywar: interrupted\n")


def test_ctrl_c_as_simulate_starts_prints_no_games(monkeypatch, capsys):
    wrap(monkeypatch, pywar, "simulate", before=ctrl_c)
    status = cli.main(["simulate", "-n", "3000", "--seed", "9", "--json"])
    out, err = capsys.readouterr()
    summary = json.loads(out)
    assert status == 130 and err == ""
    assert (summary["games"], summary["seed"], summary["complete"]) == (0, 9, False)
    assert summary["digest"] == hashlib.sha256(b"").hexdigest()


def test_ctrl_c_as_simulate_starts_prints_a_table(monkeypatch, capsys):
    wrap(monkeypatch, pywar, "simulate", before=ctrl_c)
    status = cli.main(["simulate", "-n", "3000"])
    assert (status, capsys.readouterr()) == (130, ("no games finished\n", ""))


def final_report_ctrl_c(monkeypatch):
    """Ctrl-C in the last progress report, made once every game is finished."""
    real = cli.Progress.__call__

    def report(self, finished, total):
        if finished == total:
            _thread.interrupt_main()
        real(self, finished, total)
    monkeypatch.setattr(cli.Progress, "__call__", report)


@pytest.mark.parametrize("moment", ["final report", "after simulate", "during the output"])
@pytest.mark.parametrize("engine", ["c", "python"])
def test_ctrl_c_after_the_work_loses_nothing(monkeypatch, capsys, moment, engine):
    games = 3000 if engine == "c" else 60
    if moment == "final report":
        final_report_ctrl_c(monkeypatch)
    elif moment == "after simulate":
        wrap(monkeypatch, pywar, "simulate", after=ctrl_c)
    else:
        wrap(monkeypatch, pywar.Simulation, "summary", before=ctrl_c)
    status = cli.main(["simulate", "-n", str(games), "--seed", str(SEED), "--json",
                       "--engine", engine])
    out, err = capsys.readouterr()
    summary = json.loads(out)
    assert status == 130 and err == ""
    assert (summary["games"], summary["complete"]) == (games, True)
    assert summary["digest"] == expected_digest(reference_digests(games), games)


def test_ctrl_c_in_the_last_report_keeps_every_game():
    """The library on its own: an interrupt once every game is finished keeps them all."""
    def report(finished, total):
        if finished == total:
            raise KeyboardInterrupt

    with pytest.raises(pywar.SimulationInterrupted) as caught:
        REAL_SIMULATE(2000, seed=SEED, jobs=2, progress=report)
    partial = caught.value.simulation
    assert partial.games == 2000 and partial.complete
    assert partial.digest.tolist() == reference_digests(2000)


def started_simulating(process):
    """Read the process's stderr until its progress bar shows (after a second's work)."""
    seen = b""
    while b"simulating [" not in seen:
        piece = os.read(process.stderr.fileno(), 4096)
        assert piece, seen
        seen += piece


def sigint_process(argv, rng):
    """Run `python -m pywar argv` and send it SIGINT at a random moment of its work:
    (exit status, stdout, stderr, seconds from the signal to the exit)."""
    def default_sigint():                   # a background shell may have ignored SIGINT
        signal.signal(signal.SIGINT, signal.SIG_DFL)

    process = subprocess.Popen([sys.executable, "-m", "pywar", *argv], cwd=ROOT,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               preexec_fn=default_sigint)
    try:
        started_simulating(process)
        time.sleep(rng.uniform(0, 0.4))
        sent = time.monotonic()
        process.send_signal(signal.SIGINT)
        process.wait(timeout=HANG_SECONDS)
        latency = time.monotonic() - sent
        out, err = process.communicate()
    finally:
        process.kill()
    return process.returncode, out.decode(), err.decode(), latency


def test_sigint_to_real_processes(tmp_path):
    rng = random.Random(9)
    runs = []
    for i in range(5):
        path = tmp_path / f"games-{i}.csv"
        argv = ["simulate", "-n", str(GAMES), "--seed", str(SEED), "--json", "--progress",
                "--jobs", str(1 + i % 2), "--csv", str(path)]
        runs.append((*sigint_process(argv, rng), path))
    reference = reference_digests(max(json.loads(out)["games"] for _, out, _, _, _ in runs))
    for status, out, err, latency, path in runs:
        summary = json.loads(out)
        assert status == 130 and "Traceback" not in err, err
        assert latency < PROMPT_SECONDS
        assert 0 < summary["games"] < GAMES and summary["complete"] is False
        assert summary["digest"] == expected_digest(reference, summary["games"])
        rows = list(csv.DictReader(path.open()))
        seeds = [(SEED + i) % 2 ** 32 for i in range(summary["games"])]
        assert [int(row["seed"]) for row in rows] == seeds
        assert [int(row["digest"], 16) for row in rows] == reference[:summary["games"]]


ENDLESS_PLAY = ["play", "--rules", "lehigh", "--seed", "12", "--no-cycle-detection",
                "--max-rounds", "100000000"]     # a game that repeats for 10^8 rounds


def test_a_stoppable_call_is_waited_for_after_ctrl_c():
    """call_stoppably raises the Ctrl-C only once the call has returned (C writes into
    buffers the caller frees next), however long the call takes to see the stop flag;
    the call's own exception comes back as itself."""
    stop = pywar._checked.stop_flag()
    order = []

    def slow_to_stop():
        while not stop[0]:
            time.sleep(0.01)
        time.sleep(0.3)
        order.append("returned")
        return 0

    threading.Timer(0.2, _thread.interrupt_main).start()
    with pytest.raises(KeyboardInterrupt):
        pywar.stopping.call_stoppably(slow_to_stop, stop)
    order.append("raised")
    assert order == ["returned", "raised"]

    def failing():
        raise ValueError("from the call")

    with pytest.raises(ValueError, match="from the call"):
        pywar.stopping.call_stoppably(failing, pywar._checked.stop_flag())


def a_thread_plays(pid):
    """True once a thread of the process other than its main one has run for 0.1 s of
    CPU (Linux's /proc): the game's thread.  (NumPy's BLAS threads, which can spin as
    NumPy loads, are kept out by OPENBLAS_NUM_THREADS=1.)"""
    for tid in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{tid}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except FileNotFoundError:
            continue
        user_ticks = int(fields[11])             # utime, the 14th field of stat
        if int(tid) != pid and user_ticks >= 0.1 * os.sysconf("SC_CLK_TCK"):
            return True
    return False


def interrupt_the_endless_game(argv, delay):
    """Start pywar with argv, wait until the game is under way (its first output, or,
    for one that prints only at the end, the thread that plays it), Ctrl-C it after
    delay: (status, stderr, seconds from the Ctrl-C to the exit)."""
    one_blas_thread = {**os.environ, "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1"}
    process = subprocess.Popen([sys.executable, "-m", "pywar", *argv], env=one_blas_thread,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if "--json" in argv:
        deadline = time.monotonic() + 30
        while not a_thread_plays(process.pid):
            assert time.monotonic() < deadline and process.poll() is None
            time.sleep(0.01)
    else:
        process.stdout.read(100_000)
    time.sleep(delay)
    sent = time.monotonic()
    process.send_signal(signal.SIGINT)
    reader = threading.Thread(target=process.stdout.read, daemon=True)
    reader.start()                                # drain, so C never blocks on a pipe
    try:
        process.wait(timeout=30)
    finally:
        process.kill()
    return process.returncode, process.stderr.read().decode(), time.monotonic() - sent


@needs_c
def test_ctrl_c_while_c_plays_a_game_that_writes_nothing():
    """With --json, C writes no text, so nothing calls back into Python while the game
    runs: the game is played in a thread of its own, and the Ctrl-C stops it.  (Played
    quietly, the game takes about 2 s here; unstopped, it would exit 0.)"""
    for delay in (0.0, 0.1):
        status, stderr, seconds = interrupt_the_endless_game([*ENDLESS_PLAY, "--json"], delay)
        assert (status, stderr) == (130, "pywar: interrupted\n")
        assert seconds < PROMPT_SECONDS


@needs_c
def test_ctrl_c_while_c_streams_a_transcript():
    """The C engine writes the transcript through a Python callback; a Ctrl-C that lands
    in it (inside the write, or as the callback begins) stops the game: exit 130 at
    once, not 'Exception ignored from cffi callback' and a game that runs on."""
    delays = random.Random(12).sample([i / 100 for i in range(5, 60)], 5)
    for delay in delays:
        status, stderr, seconds = interrupt_the_endless_game(ENDLESS_PLAY, delay)
        assert (status, stderr) == (130, "pywar: interrupted\n")
        assert seconds < PROMPT_SECONDS
