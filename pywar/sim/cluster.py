"""Simulations and exact counts on a Dask cluster (pip install 'pywar[dask]').

A simulation's chunks become Dask tasks: each plays its games in C on a worker and
returns only the chunk's Accumulator (pywar/sim/accumulator.py), plus its CSV rows or its
arrays when they are wanted.  One collector thread submits the chunks, no more than a
window ahead of the folded prefix, and folds the results in seed order as they come, so
the summary and the digest are those of the threaded run; the main thread only sleeps
and polls, as in pywar/sim/batch.py.  A worker that dies loses no chunk (the scheduler runs
its tasks again) and counts none twice (a chunk is folded once, by its first game).
Ctrl-C cancels the outstanding chunks and keeps the finished prefix.  A local cluster's
workers start quietly (quiet_start), so that a signal to the process group is this
process's alone to tell.

The exact enumeration's parts (pywar/exact/enumeration.py) run the same way: each task plays
one part and returns its Census, and censuses merge exactly in any order.
"""

import logging
import os
import signal
import sys
import threading
import time
import uuid
from contextlib import contextmanager
from urllib.parse import urlsplit

from . import batch
from ..installed import install_hint
from ..stopping import STOPPING

LOCAL = "local"
LOOPBACK = "127.0.0.1"       # where a local cluster listens
NO_HTTP_ROUTES = {"distributed.scheduler.http.routes": [],      # a local cluster's HTTP
                  "distributed.worker.http.routes": []}         # servers serve nothing
PROTOCOLS = ("tcp", "tls", "ws", "wss", "ucx")    # the comms Dask connects a client by
CONNECT_SECONDS = 10         # to reach a scheduler, and for it to have a worker
SMALLEST_CHUNK = 16_384       # a task costs about 6 ms to schedule: 2% of 0.3 s
LARGEST_CHUNK = 262_144      # about 7 s of smu or 2 s of iofall on one core
CHUNKS_PER_THREAD = 4        # for smaller runs: chunks enough to share out and report
WINDOW_PER_THREAD = 3        # chunks submitted past the folded prefix, per worker thread
POLL_SECONDS = 0.01
SCHEDULER_LOG = "distributed.scheduler"   # the logger of a scheduler in this process


class CancelledChunks(logging.Filter):
    """Drops the error a scheduler in this process logs for pywar's chunks cancelled
    while their results were on their way ("Couldn't gather keys: {'pywar-chunk-...':
    'forgotten'}"): that is a halt (ClusterJob.halt), which pywar reports itself."""

    def filter(self, record):
        """False for that one message about pywar's chunks, True for every other."""
        text = record.getMessage()
        return not (text.startswith("Couldn't gather keys") and "pywar-chunk-" in text)


CANCELLED_CHUNKS = CancelledChunks()
CLIENT_LOG = "tornado.application"      # where the client's event loop logs a callback's error


class ClosedGathers(logging.Filter):
    """Drops the traceback the client's loop logs for a result it was still fetching when
    the cluster closed after a halt ("Exception in callback ... _discard_future_result",
    CommClosedError: Dask's client tracks each future's result, 2026.8): the halt's own,
    which pywar reports itself.  It printed 60 lines after a Ctrl-C, 2 runs in 6
    (tests/test_signals.py, a signal to the process group of a Dask run)."""

    def filter(self, record):
        """False for a closed connection's error in that callback, True for every other."""
        error = record.exc_info[1] if record.exc_info else None
        return not (type(error).__name__ == "CommClosedError" and
                    "_discard_future_result" in record.getMessage())


CLOSED_GATHERS = ClosedGathers()


def require_distributed():
    """Import distributed, or raise an ImportError saying how to install it."""
    try:
        import distributed
    except ImportError:
        raise ImportError("--scheduler needs Dask's distributed: "
                          f"{install_hint('dask')}") from None
    return distributed


def parse_scheduler(text):
    """('local', workers or None) for 'local' or 'local:N', else ('address', text) once
    text reads as a scheduler's address; a ValueError saying what is valid if not."""
    if text != LOCAL and not text.startswith(LOCAL + ":"):
        check_address(text)
        return "address", text
    count = text[len(LOCAL) + 1:]
    if not count:
        return LOCAL, None
    if not count.isdigit() or int(count) < 1:
        raise ValueError(f"--scheduler local:N needs N, the worker processes, a whole "
                         f"number from 1, not {count!r}")
    return LOCAL, int(count)


def check_address(text):
    """Refuse, before any work, what cannot be a scheduler's address: PROTOCOL://HOST:PORT
    or HOST:PORT (Dask's protocols; tcp when none is given)."""
    valid = (f"--scheduler takes local[:WORKERS] or a scheduler's address, "
             f"[PROTOCOL://]HOST:PORT such as tcp://10.0.0.1:8786, not {text!r}")
    given = text if "://" in text else "tcp://" + text
    try:
        parts = urlsplit(given)
        port = parts.port
    except ValueError:
        raise ValueError(valid) from None
    scheme = given.split("://", 1)[0]           # as typed: urlsplit lowercases it
    extra = parts.path or parts.query or parts.fragment or "?" in given or "#" in given
    if scheme not in PROTOCOLS or not parts.hostname or port is None or extra:
        raise ValueError(valid)


@contextmanager
def connect(scheduler):
    """A distributed.Client for a scheduler's address (tcp://host:port, with the security
    of Dask's own configuration: the instructor's, docs/scale.md), or for a LocalCluster
    of worker processes ('local', 'local:N'), closed on leaving."""
    kind, value = parse_scheduler(scheduler)
    distributed = require_distributed()
    cluster = client = None
    try:
        with quiet_start():
            if kind == LOCAL:
                cluster = local_cluster(distributed, value)
                client = distributed.Client(cluster, security=cluster.security)
                client.pywar_dashboard = False          # its HTTP server serves nothing
            else:
                client = distributed.Client(value, timeout=f"{CONNECT_SECONDS}s")
        yield client
    finally:
        if client is not None:
            client.close()
        if cluster is not None:
            cluster.close()


def local_cluster(distributed, workers):
    """A LocalCluster of worker processes on this machine alone, that no other user of it
    may reach: TLS with credentials made for it (Security.temporary: a certificate held
    in this process's memory, handed to the workers it starts), on 127.0.0.1, and no
    dashboard (issue 47: its scheduler took any local user's connection, who ran code
    as root on the workers, and its dashboard listened on every address)."""
    import dask
    from distributed.security import Security
    from ..engine_choice import usable_cores
    with dask.config.set(NO_HTTP_ROUTES):       # the workers' processes take it at start
        return distributed.LocalCluster(
            n_workers=workers or usable_cores(), threads_per_worker=1, processes=True,
            host=LOOPBACK, protocol="tls", security=Security.temporary(),
            dashboard_address=None, silence_logs=logging.ERROR)


@contextmanager
def quiet_start():
    """While Dask starts: a stopping signal (Ctrl-C, SIGTERM, SIGHUP) is held, and
    handled as usual once the start is done; the worker processes started meanwhile get
    /dev/null as their stderr, so that one which a signal to the whole process group
    catches while it starts (before it ignores Ctrl-C: pywar_command) tells nobody."""
    held = []
    previous = {}
    if threading.current_thread() is threading.main_thread():
        for number in STOPPING:
            if callable(signal.getsignal(number)):
                previous[number] = signal.signal(number, lambda signum, frame: held.append(signum))
    sys.stderr.flush()
    saved = os.dup(2)
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, 2)
    os.close(null)
    try:
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)
        for number, handler in previous.items():
            signal.signal(number, handler)
        if held:
            signal.raise_signal(held[0])


def dashboard(client):
    """The Dask dashboard's address, or None when the scheduler serves none."""
    if not getattr(client, "pywar_dashboard", True):    # a local cluster of connect's
        return None
    try:
        return client.dashboard_link
    except (KeyError, AttributeError, TypeError):
        return None


def announce(client, stream=None):
    """Say on stderr (or stream) where the scheduler and its dashboard are."""
    stream = sys.stderr if stream is None else stream
    link = dashboard(client)
    where = f"dashboard at {link}" if link else "no dashboard"
    stream.write(f"pywar: Dask scheduler {client.scheduler.address}, {where}\n")
    stream.flush()


def threads_of(client):
    """The worker threads of the cluster, after waiting for its first worker."""
    client.wait_for_workers(1, timeout=CONNECT_SECONDS)
    return max(1, sum(client.nthreads().values()))


def chunk_size(count, threads):
    """Games per task: large enough that scheduling costs little next to playing, small
    enough to share a run out among the threads."""
    return int(min(LARGEST_CHUNK, max(SMALLEST_CHUNK, count // (threads * CHUNKS_PER_THREAD))))


class ClusterJob:
    """A simulation's chunks played as Dask tasks, folded in seed order by a collector
    thread of its own."""

    def __init__(self, client, spec, size, threads):
        self.client = client
        self.spec = spec
        self.size = size
        self.total = -(-spec.count // size)
        self.window = max(4, WINDOW_PER_THREAD * threads)
        self.token = uuid.uuid4().hex
        self.stop = threading.Event()
        self.finished = 0                 # games in results received, for progress
        self.error = None
        self.thread = threading.Thread(target=self.collect, name="pywar-collector",
                                       daemon=True)

    def submit(self, index):
        """The future of chunk index: batch.play_chunk on a worker."""
        spec = self.spec
        start = index * self.size
        count = min(self.size, spec.count - start)
        return self.client.submit(batch.play_chunk, spec.seed, start, count, spec.rules,
                                  spec.engine, rows=spec.rows is not None,
                                  keep=spec.kept is not None,
                                  key=f"pywar-chunk-{self.token}-{index}", pure=False)

    def collect(self):
        """Submit chunks within the window, and fold their results as they finish,
        until every chunk is folded, stop is set or a chunk fails."""
        from distributed import as_completed
        pending = {}
        results = as_completed(loop=self.client.loop, with_results=True)
        following = 0
        try:
            while not self.stop.is_set():
                following = self.fill(results, pending, following)
                if not pending:
                    break
                if not self.take(results, pending):
                    time.sleep(POLL_SECONDS)
            self.take(results, pending)
        except BaseException as error:     # the main thread raises it
            self.error = error
        finally:
            self.client.cancel(list(pending.values()))

    def fill(self, results, pending, following):
        """Submit the chunks from following on that lie within the window; the next
        chunk to submit."""
        folded = self.spec.folder.games // self.size
        while following < self.total and following < folded + self.window:
            future = self.submit(following)
            pending[future.key] = future
            results.add(future)
            following += 1
        return following

    def take(self, results, pending):
        """Fold the results that have come in; True if there were any."""
        arrived = results.next_batch(block=False)
        for future, result in arrived:
            pending.pop(future.key, None)
            if future.status == "error":
                raise result[1].with_traceback(result[2])
            if future.status == "finished":
                self.spec.folder.add(result)
                self.finished += result.totals.games
        return bool(arrived)

    def run(self, report):
        """Start the collector and wait for it, reporting progress now and then."""
        self.thread.start()
        while self.thread.is_alive():
            time.sleep(POLL_SECONDS)
            report(self.finished)
        if self.error is not None:
            raise self.error
        report(self.spec.folder.games)

    def halt(self):
        """Stop submitting, cancel the outstanding chunks, and wait for the collector
        (a scheduler in this process is told not to log the cancelled chunks)."""
        logging.getLogger(SCHEDULER_LOG).addFilter(CANCELLED_CHUNKS)   # once: a set
        logging.getLogger(CLIENT_LOG).addFilter(CLOSED_GATHERS)
        self.stop.set()
        while self.thread.is_alive():
            time.sleep(POLL_SECONDS)


def simulate(client, seed, count, rules, engine, report=None, keep_games=True, rows=None,
             chunk=None):
    """pywar.simulate on a Dask cluster: the Simulation of count games from seed."""
    threads = threads_of(client)
    size = chunk or chunk_size(count, threads)
    spec = batch.start_run(seed, count, rules, engine, threads, keep_games, rows,
                           scheduler=client.scheduler.address)
    return batch.finish(spec, ClusterJob(client, spec, size, threads),
                        report or (lambda finished: None))
