"""Simulations and exact counts on a Dask cluster: the same summary, digest, CSV and
counts as the threaded run; a worker killed mid-run loses no chunk and counts none
twice; Ctrl-C cancels the outstanding chunks and keeps the finished prefix; the
command's errors.  One LocalCluster of 2 worker processes serves the module; one test
starts `dask scheduler` and two `dask worker` processes as a user would."""

import hashlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request

import pytest

import pywar
from conftest import ROOT, needs_c
from pywar import cli
from pywar.exact.enumeration import same_counts
from pywar.installed import install_hint

pytestmark = needs_c
distributed = pytest.importorskip("distributed")

READY_SECONDS = 60


@pytest.fixture(scope="module")
def client():
    """A client of a LocalCluster of 2 single-threaded worker processes."""
    import logging
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                       dashboard_address=":0", silence_logs=logging.ERROR)
    with distributed.Client(cluster) as dask_client:
        yield dask_client
    cluster.close()


def comparable(summary):
    """A summary without the fields that say how it ran."""
    return {key: value for key, value in summary.items()
            if key not in ("engine", "jobs", "scheduler", "games_per_second")}


def packed_digest(digests):
    """sha256 of 64-bit digests packed little-endian."""
    return hashlib.sha256(b"".join(int(d).to_bytes(8, "little") for d in digests)).hexdigest()


def test_a_cluster_run_equals_the_threaded_run(client, tmp_path):
    seed = 2 ** 32 - 5000                       # the seeds wrap in the second chunk
    local = pywar.simulate(24_000, "smu", seed=seed, jobs=2, csv=str(tmp_path / "local.csv"))
    remote = pywar.simulate(24_000, "smu", seed=seed, client=client, chunk=3001,
                            csv=str(tmp_path / "remote.csv"))
    assert remote.scheduler == client.scheduler.address and remote.jobs == 2
    assert comparable(remote.summary()) == comparable(local.summary())
    assert remote.digest.tolist() == local.digest.tolist()          # kept games too
    assert (tmp_path / "remote.csv").read_bytes() == (tmp_path / "local.csv").read_bytes()
    streamed = pywar.simulate(24_000, "smu", seed=seed, client=client, keep_games=False)
    assert comparable(streamed.summary()) == comparable(local.summary())


def worker_pids(client):
    """{worker address: process id}."""
    return client.run(os.getpid)


def test_a_worker_killed_mid_run_loses_nothing(client):
    killed = []

    def kill_one(finished, total):
        if not killed and finished >= total // 4:
            address, pid = sorted(worker_pids(client).items())[0]
            os.kill(pid, signal.SIGKILL)
            killed.append((finished, total))

    run = pywar.simulate(40_000, "smu", seed=77, client=client, chunk=2000,
                         keep_games=False, progress=kill_one)
    local = pywar.simulate(40_000, "smu", seed=77, jobs=2, keep_games=False)
    assert killed and killed[0][0] < killed[0][1]               # it died mid-run
    assert run.games == 40_000 and run.complete
    assert comparable(run.summary()) == comparable(local.summary())
    client.wait_for_workers(2, timeout=READY_SECONDS)          # the nanny restarts it


def scheduler_tasks(client):
    """How many tasks the scheduler still holds."""
    return client.run_on_scheduler(lambda dask_scheduler: len(dask_scheduler.tasks))


def test_ctrl_c_cancels_the_chunks_and_keeps_the_prefix(client):
    def interrupt(finished, total):
        if finished >= 6000:
            raise KeyboardInterrupt

    with pytest.raises(pywar.SimulationInterrupted) as caught:
        pywar.simulate(400_000, "smu", seed=5, client=client, chunk=1000,
                       keep_games=False, progress=interrupt)
    partial = caught.value.simulation
    # The progress counts chunks received in any order; the kept prefix stops at the
    # first chunk still running, so it can be shorter, but never empty: the chunks
    # received lie within the window ahead of it.
    assert 0 < partial.games < 400_000 and not partial.complete
    assert partial.games % 1000 == 0
    digests = pywar.simulate(partial.games, "smu", seed=5).digest
    assert partial.combined_digest() == packed_digest(digests)
    deadline = time.monotonic() + READY_SECONDS
    while scheduler_tasks(client) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert scheduler_tasks(client) == 0


def test_a_halt_keeps_the_cancelled_chunks_out_of_the_schedulers_log(client):
    """The LocalCluster's scheduler runs in this process, and logged "Couldn't gather
    keys" for a chunk cancelled by a Ctrl-C as its result came in: a line of its own
    after pywar's report.  After a halt that one message about pywar's chunks is
    dropped, and the scheduler's other errors are not."""
    import logging

    def interrupt(finished, total):
        if finished >= 2000:
            raise KeyboardInterrupt

    with pytest.raises(pywar.SimulationInterrupted):
        pywar.simulate(100_000, "smu", seed=5, client=client, chunk=1000,
                       keep_games=False, progress=interrupt)
    seen = []
    handler = logging.Handler(logging.ERROR)
    handler.emit = seen.append
    log = logging.getLogger("distributed.scheduler")
    log.addHandler(handler)
    try:
        log.error("Couldn't gather keys: %s", {"pywar-chunk-0123abcd-7": "forgotten"})
        log.error("Couldn't gather keys: %s", {"someone-elses-task": "forgotten"})
        log.error("another error about pywar-chunk-0123abcd-7")
    finally:
        log.removeHandler(handler)
    assert [record.getMessage() for record in seen] == [
        "Couldn't gather keys: {'someone-elses-task': 'forgotten'}",
        "another error about pywar-chunk-0123abcd-7"]


def test_exact_on_the_cluster_equals_the_threads(client):
    rules = {"deck": "7x1", "piles": "queue", "pickup": "loser-first"}
    remote = pywar.exact_counts(client=client, **rules)
    local = pywar.exact_counts(jobs=2, **rules)
    assert same_counts(remote, local) and remote.jobs == 2
    assert remote.cycles == 3363                # Okwor's count for 7 cards, loser-first


def run_cli(capsys, *argv):
    """main(argv): (status, stdout, stderr)."""
    status = cli.main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_the_commands_take_a_scheduler_address(client, capsys):
    address = client.scheduler.address
    status, out, err = run_cli(capsys, "simulate", "-n", "5000", "--rules", "iofall",
                               "--scheduler", address, "--chunk", "700")
    assert status == 0 and f"pywar: Dask scheduler {address}, " in err
    assert f"2 Dask worker thread(s) at {address}" in out
    assert pywar.simulate(5000, "iofall").combined_digest() in out
    rules = ["--deck", "6x1", "--piles", "queue", "--pickup", "winner-first", "--json"]
    status, out, _ = run_cli(capsys, "exact", *rules, "--scheduler", address)
    _, threaded, _ = run_cli(capsys, "exact", *rules, "--jobs", "2")
    cluster_counts, thread_counts = json.loads(out), json.loads(threaded)
    for how in ("jobs", "seconds", "games_per_second"):
        cluster_counts.pop(how), thread_counts.pop(how)
    assert status == 0 and cluster_counts == thread_counts


@pytest.mark.parametrize("argv, words", [
    (["simulate", "-n", "10", "--scheduler", "local:0"], "local:N"),
    (["simulate", "-n", "10", "--scheduler", "local:x"], "local:N"),
    (["simulate", "-n", "10", "--scheduler", "notanaddress"], "HOST:PORT"),
    (["simulate", "-n", "10", "--scheduler", "tcp://host:notaport"], "HOST:PORT"),
    (["simulate", "-n", "10", "--scheduler", "foo://127.0.0.1:1"], "HOST:PORT"),
    (["simulate", "-n", "10", "--scheduler", "tcp://[::1"], "HOST:PORT"),
    (["simulate", "-n", "10", "--scheduler", "TCP://127.0.0.1:1"], "HOST:PORT"),
    (["simulate", "-n", "10", "--scheduler", "tcp://127.0.0.1:1?x"], "HOST:PORT"),
    (["simulate", "-n", "10", "--scheduler", "tcp://127.0.0.1:1#x"], "HOST:PORT"),
    (["exact", "--deck", "4x1", "--scheduler", "notanaddress"], "HOST:PORT"),
    (["simulate", "-n", "10", "--scheduler", "local", "--jobs", "2"], "--jobs"),
    (["exact", "--deck", "4x1", "--piles", "queue", "--scheduler", "local", "--jobs", "1"],
     "--jobs"),
])
def test_bad_scheduler_options_are_one_line(capsys, argv, words):
    status, out, err = run_cli(capsys, *argv)
    assert status == 2 and out == "" and err.count("\n") == 1 and words in err


@pytest.mark.parametrize("command", [["simulate", "-n", "10"],
                                     ["exact", "--deck", "4x1", "--piles", "queue"]])
def test_without_distributed_the_option_says_how_to_install_it(capsys, monkeypatch, command):
    monkeypatch.setitem(sys.modules, "distributed", None)
    status, out, err = run_cli(capsys, *command, "--scheduler", "local:2")
    assert status == 2 and out == "" and err.count("\n") == 1
    assert err.endswith(f"Dask's distributed: {install_hint('dask')}\n")


def run_as_another_user(address, security):
    """Connect to a scheduler and run a task, as another local user would (here from
    this process, with their credentials): what the task returned, or the error."""
    try:
        with distributed.Client(address, timeout="5s", security=security) as intruder:
            return intruder.submit(os.getuid).result(timeout=10)
    except Exception as error:            # refused, whatever the layer that refuses it
        return type(error).__name__


def test_a_local_cluster_takes_no_connection_without_its_own_credentials():
    """Issue 47: --scheduler local:N's scheduler on 127.0.0.1 had no authentication, and
    user nobody connected and ran code as root on its workers; its dashboard listened on
    0.0.0.0.  A local cluster is TLS with credentials made for it (mutual: a client needs
    a certificate of its own temporary authority) on 127.0.0.1, and serves no dashboard."""
    from distributed.security import Security
    from pywar.sim import cluster
    with cluster.connect("local:1") as client:
        address = client.scheduler.address
        assert address.startswith("tls://127.0.0.1:")
        assert client.submit(os.getuid).result(timeout=30) == os.getuid()   # its own: yes
        assert cluster.dashboard(client) is None
        port = client.scheduler_info()["services"].get("dashboard")
        for route in ("health", "info/main/workers.html", "json/identity.json", "status"):
            with pytest.raises(urllib.error.HTTPError, match="404"):   # no page of Dask's
                urllib.request.urlopen(f"http://127.0.0.1:{port}/{route}", timeout=5)
        for security in (None, Security.temporary()):          # none, or credentials of
            assert not isinstance(run_as_another_user(address, security), int)  # its own
        plain = address.replace("tls://", "tcp://")
        assert not isinstance(run_as_another_user(plain, None), int)


def test_an_unreachable_scheduler_is_an_input_output_error(capsys, monkeypatch):
    from pywar.sim import cluster
    monkeypatch.setattr(cluster, "CONNECT_SECONDS", 1)
    status, out, err = run_cli(capsys, "simulate", "-n", "10", "--scheduler",
                               f"tcp://127.0.0.1:{free_port()}")
    assert status == 3 and out == "" and err.count("\n") == 1


def free_port():
    """A TCP port on 127.0.0.1 that nothing listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def dask_command(*argv):
    """The dask command of this environment, started in a session of its own so that
    it and its children can be killed together."""
    dask = os.path.join(os.path.dirname(sys.executable), "dask")
    return subprocess.Popen([dask, *argv], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True)


def end(process):
    """Kill a process and its session, and reap it."""
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    process.wait(timeout=READY_SECONDS)


def progress_started(process):
    """Read the process's stderr until its progress bar shows: the text read."""
    seen = b""
    while b"simulating [" not in seen:
        piece = os.read(process.stderr.fileno(), 4096)
        assert piece, seen
        seen += piece
    return seen.decode()


def scheduler_address(path, process):
    """The address that a dask scheduler started with --scheduler-file path wrote there,
    once it has (a scheduler that ended first fails the test)."""
    deadline = time.monotonic() + READY_SECONDS
    while time.monotonic() < deadline and process.poll() is None:
        try:
            return json.loads(path.read_text())["address"]
        except (OSError, ValueError, KeyError):
            time.sleep(0.1)
    pytest.fail(f"the dask scheduler wrote no address (status {process.poll()})")


def test_a_real_scheduler_and_workers_on_the_command_line(tmp_path):
    """dask scheduler and two dask workers on 127.0.0.1; pywar simulate --scheduler gives
    the local run's summary, though one worker is killed mid-run.  The scheduler takes a
    port of its own and says it in a file (a port found free and then given it could be
    taken meanwhile, by another run on a busy machine)."""
    found = tmp_path / "scheduler.json"
    started = [dask_command("scheduler", "--host", "127.0.0.1", "--port", "0",
                            "--dashboard-address", "127.0.0.1:0", "--scheduler-file",
                            str(found))]
    try:
        address = scheduler_address(found, started[0])
        started += [dask_command("worker", address, "--nthreads", "1", "--host", "127.0.0.1",
                                 "--dashboard-address", "127.0.0.1:0") for _ in range(2)]
        with distributed.Client(address, timeout=f"{READY_SECONDS}s") as watcher:
            watcher.wait_for_workers(2, timeout=READY_SECONDS)
        argv = ["simulate", "-n", "150000", "--seed", "123", "--json", "--progress",
                "--chunk", "2500"]
        process = subprocess.Popen([sys.executable, "-m", "pywar", *argv, "--scheduler",
                                    address], cwd=ROOT, stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE)
        try:
            seen = progress_started(process)
            end(started[1])                     # a worker and its nanny die
            out, err = process.communicate(timeout=300)
        finally:
            process.kill()
        local = pywar.simulate(150_000, "smu", seed=123, keep_games=False)
    finally:
        for dask_process in started:
            end(dask_process)
    assert process.returncode == 0, err
    assert f"pywar: Dask scheduler {address}, dashboard at http" in seen
    summary = json.loads(out)
    assert summary["scheduler"] == address and summary["games"] == 150_000
    assert comparable(summary) == comparable(json.loads(json.dumps(local.summary())))


def test_a_halt_s_closed_gathers_are_not_logged_and_other_errors_are():
    """The client's loop logs a result it was fetching when a halted cluster closed
    (CommClosedError in _discard_future_result): dropped; any other error: kept."""
    import logging
    pytest.importorskip("distributed")
    from distributed.comm.core import CommClosedError
    from pywar.sim.cluster import CLOSED_GATHERS

    def record(message, error):
        try:
            raise error
        except Exception:
            return logging.LogRecord("tornado.application", logging.ERROR, __file__, 1,
                                     message, (), sys.exc_info())
    callback = "Exception in callback functools.partial(<bound method " \
        "IOLoop._discard_future_result of <AsyncIOMainLoop>>, <Task finished>)"
    assert not CLOSED_GATHERS.filter(record(callback, CommClosedError("Stream is closed")))
    assert CLOSED_GATHERS.filter(record(callback, ValueError("a bug of pywar's")))
    assert CLOSED_GATHERS.filter(record("Exception in callback other", CommClosedError("x")))
