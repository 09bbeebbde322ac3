"""Running many games: chunks of seeds across threads (the C core releases the GIL),
each chunk summed in bulk into an exact Accumulator and folded into the run's totals in
seed order, progress reports, and interrupts that keep the games finished from the
first seed on.

Only the workers take locks (to take the next chunk, and to fold a finished one).  The
main thread never takes one of theirs: it waits in short joins of a worker thread with
a timeout (which end as soon as the thread does, where a sleep would wait out its
time after the last chunk), polling their progress, so that a Ctrl-C landing anywhere
in it cannot strand a lock that a worker needs.  Memory does not
grow with the number of games unless they are kept (keep_games): a worker does not run
more than a window of chunks ahead of the folded prefix.
"""

import os
import threading
import time
from dataclasses import dataclass

import numpy as np

from .. import _checked, twin
from .accumulator import WAR_DEPTHS, Accumulator, accumulate
from ..common.fields import BATCH_FIELDS, BY_NAME, OUTCOMES, SEED_LIMIT
from .simulation import CSV_HEADER, Simulation, SimulationInterrupted, csv_rows
from ..stopping import through_interrupts

SMALLEST_CHUNK = 256
# A chunk's Python part is its statistics: on 2026-12-02 (Zen 4) a chunk of 25,000 iofall
# games played in 126 ms and its accumulator (3.5 ms), merge (0.4 ms) and arrays (0.4 ms)
# added 3.4%; 5,000 smu games, 107 ms and 0.8% (time.perf_counter around play_chunk's
# parts).  How much a chunk costs in all: python bench/scale.py --rules iofall.
LARGEST_CHUNK = 32768        # about 0.2 s of iofall, 0.9 s of smu, on one core
TWIN_CHUNK = 25              # the twin's games per chunk: a progress report each
WINDOW_PER_JOB = 4           # chunks a worker may run ahead of the folded prefix, per job
POLL_SECONDS = 0.01          # how often the main thread looks at the workers
WAIT = -1                    # Chunks.take: no chunk yet, the run is too far ahead


def empty_arrays(count):
    """One zeroed array per counted field, count entries each."""
    return {name: np.zeros(count, dtype) for name, dtype in BATCH_FIELDS.items()}


def chunk_size(count, jobs):
    """Games per chunk: enough chunks to share out and to report progress often."""
    return int(min(LARGEST_CHUNK, max(SMALLEST_CHUNK, count // (jobs * 8) or 1)))


def seeds_of(first_seed, count):
    """The seeds first_seed, first_seed + 1, ... modulo 2^32, as uint32 (which wraps)."""
    return np.arange(count, dtype=np.uint32) + np.uint32(first_seed)


BYTES_PER_GAME = sum(np.dtype(dtype).itemsize for dtype in BATCH_FIELDS.values()) + 5


def check_memory(count):
    """Refuse, before allocating, a run whose kept arrays would not fit in memory."""
    try:
        physical = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, ValueError, OSError):
        return
    needed = count * BYTES_PER_GAME * 2          # the arrays, and a finished copy
    if needed > physical * 0.8:
        most = int(physical * 0.8 // (BYTES_PER_GAME * 2))
        raise MemoryError(f"{count:,} games need {needed / 2 ** 30:.1f} GiB for their arrays; "
                          f"this machine has {physical / 2 ** 30:.1f} GiB: keep at most "
                          f"{most:,} games at a time, or keep none (keep_games=False)")


def new_stop_flag():
    """A stop flag: C's, where the core is built, else a list of one int."""
    return _checked.stop_flag() if _checked.available() else [0]


@dataclass
class Played:
    """What one chunk of games gave: its Accumulator, and its CSV rows and arrays when
    they were asked for."""
    totals: Accumulator
    rows: bytes = None
    arrays: dict = None


def store_counts(arrays, i, counts):
    """Put one twin game's counts into entry i of the arrays, as the C core would."""
    for name in BATCH_FIELDS:
        arrays[name][i] = batch_value(BY_NAME[name].kind, getattr(counts, name))


def batch_value(kind, value):
    """A twin's value of a field as its batch array holds it: -1 for no winner and no
    cycle, an outcome's index."""
    if kind == "outcome":
        return OUTCOMES.index(value)
    if kind in ("winner", "cycle") and value is None:
        return -1
    return value


def play_twin(first_seed, rules, arrays, war_depths, stop=None):
    """Play len(arrays['rounds']) games in the Python twin into the arrays and add their
    war depths to war_depths; the number of games played (fewer once stop is set)."""
    halted = None if stop is None else (lambda: bool(stop[0]))
    for i in range(len(arrays["rounds"])):
        if halted is not None and halted():
            return i
        try:
            counts, _, _ = twin.play((first_seed + i) % SEED_LIMIT, rules, stop=halted)
        except KeyboardInterrupt:            # the stop flag, checked between rounds
            return i
        store_counts(arrays, i, counts)
        for depth, rounds in counts.war_depths.items():
            if depth < WAR_DEPTHS:
                war_depths[depth] += rounds
    return len(arrays["rounds"])


def play_chunk(seed, start, count, rules, engine="c", rows=False, arrays=None, stop=None,
               keep=False):
    """Play games start .. start + count - 1 of a run from seed, in bulk, and return
    their Played: the Accumulator, the CSV rows if rows, the arrays if keep.  arrays,
    if given, are where the games go (slices of a kept run); stop ends the chunk early."""
    arrays = empty_arrays(count) if arrays is None else arrays
    war_depths = np.zeros(WAR_DEPTHS, np.int64)
    first = (seed + start) % SEED_LIMIT
    if engine == "c":
        played = _checked.play_batch(first, rules, {**arrays, "war_depths": war_depths}, stop)
    else:
        played = play_twin(first, rules, arrays, war_depths, stop)
    games = {name: array[:played] for name, array in arrays.items()}
    totals = accumulate(games, seed, start, war_depths)
    text = csv_rows(seeds_of(first, played), games) if rows else None
    return Played(totals, text, games if keep else None)


class Folder:
    """Chunk results folded into the run's totals in seed order: a chunk that finishes
    before an earlier one waits for it.  The CSV rows, if wanted, are written as their
    chunk is folded; a chunk already folded is never counted again."""

    def __init__(self, seed, rows=None, kept=None):
        self.totals = Accumulator(seed=seed)
        self.waiting = {}                   # first game's index: Played
        self.rows = rows                    # a binary file for CSV rows, or None
        self.kept = kept                    # the run's arrays to copy games into, or None

    @property
    def games(self):
        """How many games from the first are folded."""
        return self.totals.games

    def add(self, played):
        """Take a chunk's result and fold every chunk that now follows the prefix."""
        if played.totals.start < self.totals.end:
            return                          # counted already
        self.waiting[played.totals.start] = played
        while (following := self.waiting.pop(self.totals.end, None)) is not None:
            self.fold(following)
            if following.totals.games == 0:
                break

    def fold(self, played):
        """Add the chunk that starts where the prefix ends."""
        merged = self.totals.merge(played.totals)
        if self.rows is not None and played.rows:
            self.rows.write(played.rows)
        if self.kept is not None and played.arrays is not None:
            start, end = played.totals.start, played.totals.end
            for name, array in played.arrays.items():
                self.kept[name][start:end] = array
        self.totals = merged


class Chunks:
    """The chunks of a batch, shared by its workers.  A worker takes the next chunk and
    records it under a lock that only workers use; the main thread only reads the
    counts."""

    def __init__(self, count, size, window, folded):
        self.count = count
        self.size = size
        self.total = -(-count // size)
        self.window = window         # chunks a worker may take past the folded prefix
        self.folded = folded         # () -> games folded so far
        self.next = 0
        self.active = 0          # workers between taking a chunk and recording it
        self.finished = 0        # games played so far, for progress reports
        self.error = None
        self.lock = threading.Lock()

    def games_in(self, index):
        """How many games chunk index holds."""
        return min(self.size, self.count - index * self.size)

    def take(self, stop):
        """The next chunk's index, WAIT if it lies too far past the folded prefix, or
        None when none is left or stop is set.  A worker counts itself active before it
        reads stop, so that once the main thread has set stop and then sees no worker
        active, none will start a chunk."""
        with self.lock:
            self.active += 1
            if stop[0] or self.next == self.total:
                self.active -= 1
                return None
            if self.next >= self.folded() // self.size + self.window:
                self.active -= 1
                return WAIT
            self.next += 1
            return self.next - 1

    def record(self, played):
        """A worker is done with its chunk, having played played games."""
        with self.lock:
            self.finished += played
            self.active -= 1


def work(chunks, stop, play):
    """A worker: take chunks and play them until none is left or stop is set."""
    try:
        while (index := chunks.take(stop)) is not None:
            if index == WAIT:
                time.sleep(POLL_SECONDS)
                continue
            played = 0
            try:
                played = play(index)
            finally:
                chunks.record(played)
    except BaseException as error:          # the main thread raises it
        chunks.error = chunks.error or error
        stop[0] = 1


class Batch:
    """Games played chunk by chunk on worker threads of its own: in C on jobs threads,
    or in the Python twin on one."""

    def __init__(self, run, jobs, size):
        self.run_spec = run
        self.folder = run.folder
        self.fold_lock = threading.Lock()        # taken by workers only
        self.chunks = Chunks(run.count, size, WINDOW_PER_JOB * jobs, lambda: self.folder.games)
        self.stop = new_stop_flag()     # C ends a running chunk after its current game
        workers = min(jobs, self.chunks.total)
        self.threads = [threading.Thread(target=work, args=(self.chunks, self.stop, self.play),
                                         name=f"pywar-worker-{i}", daemon=True)
                        for i in range(workers)]

    def play(self, index):
        """Play chunk index and fold it; the number of games played."""
        spec = self.run_spec
        start = index * self.chunks.size
        count = self.chunks.games_in(index)
        arrays = None if spec.kept is None else \
            {name: array[start:start + count] for name, array in spec.kept.items()}
        played = play_chunk(spec.seed, start, count, spec.rules, spec.engine,
                            rows=spec.rows is not None, arrays=arrays, stop=self.stop)
        with self.fold_lock:
            self.folder.add(played)
        return played.totals.games

    def busy(self):
        """True while a worker may still play a game."""
        return self.chunks.active > 0 or any(thread.is_alive() for thread in self.threads)

    def wait(self):
        """Wait POLL_SECONDS, or less if a worker ends first: a join of the first worker
        still running, with a timeout (the thread's own lock, which no worker takes)."""
        running = next((thread for thread in self.threads if thread.is_alive()), None)
        if running is None:
            time.sleep(POLL_SECONDS)        # a worker between its last chunk and its end
        else:
            running.join(POLL_SECONDS)

    def run(self, report):
        """Start the workers and wait for them, reporting progress now and then."""
        for thread in self.threads:
            thread.start()
        while self.busy():
            self.wait()
            report(self.chunks.finished)
        if self.chunks.error is not None:
            raise self.chunks.error
        report(self.folder.games)

    def halt(self):
        """Set the stop flag and wait until no worker plays any more."""
        self.stop[0] = 1
        while self.busy():
            self.wait()


@dataclass
class Run:
    """What a simulation plays and where its results go."""
    seed: int
    count: int
    rules: object
    engine: str
    jobs: int
    folder: Folder
    kept: dict = None            # the arrays of every game, when they are kept
    rows: object = None          # a binary file for CSV rows, or None
    scheduler: object = None
    started: float = 0.0

    def simulation(self):
        """The Simulation of the games folded so far."""
        totals = self.folder.totals
        played = totals.games
        arrays = None if self.kept is None else \
            {name: array[:played] for name, array in self.kept.items()}
        return Simulation(rules=self.rules.name, engine=self.engine, jobs=self.jobs,
                          first_seed=self.seed, requested=self.count,
                          seconds=time.perf_counter() - self.started,
                          seeds=None if self.kept is None else seeds_of(self.seed, played),
                          arrays=arrays, war_depths=totals.war_depths,
                          players=self.rules.players, totals=totals, scheduler=self.scheduler)


def start_run(first_seed, count, rules, engine, jobs, keep_games, rows, scheduler=None):
    """A Run with its folder: the kept arrays allocated (pywar.simulate has checked that
    they fit, before it opened the CSV file), and the CSV header written."""
    kept = None
    if keep_games:
        kept = empty_arrays(count)
    if rows is not None:
        rows.write(CSV_HEADER)
    folder = Folder(first_seed, rows, kept if scheduler is not None else None)
    return Run(first_seed, count, rules, engine, jobs, folder, kept, rows, scheduler,
               time.perf_counter())


def finish(run, job, report):
    """Run the job; on Ctrl-C halt it and raise SimulationInterrupted holding the games
    finished from the first seed on."""
    def interrupted():
        job.halt()
        return SimulationInterrupted(run.simulation())

    try:
        job.run(report)
        return run.simulation()
    except KeyboardInterrupt:
        interruption = through_interrupts(interrupted)
        raise interruption from None
    except BaseException:
        through_interrupts(job.halt)
        raise


def run(first_seed, count, rules, engine, jobs, report=None, keep_games=True, rows=None,
        chunk=None):
    """Play count games from first_seed and return their Simulation.  report(finished),
    if given, is called now and then; report(count) is its last call, made once every
    game is finished.  keep_games keeps every game's arrays; rows, a binary file, gets
    the CSV rows in seed order as chunks finish; chunk sets the games per chunk.  On
    Ctrl-C raise SimulationInterrupted holding the games finished from first_seed on."""
    report = report or (lambda finished: None)
    spec = start_run(first_seed, count, rules, engine, jobs, keep_games, rows)
    size = chunk or (chunk_size(count, jobs) if engine == "c" else TWIN_CHUNK)
    return finish(spec, Batch(spec, jobs if engine == "c" else 1, size), report)
