"""Running many games: chunks of seeds across threads (the C core releases the GIL),
progress reports, and interrupts that keep the games finished from the first seed on.

Only the workers take a lock (to take the next chunk).  The main thread never does:
it waits in short sleeps, polling their progress, so that a Ctrl-C landing anywhere
in it cannot strand a lock that a worker needs.
"""

import os
import threading
import time

import numpy as np

from . import _checked, twin
from .rules import OUTCOMES
from .stats import Simulation

SEED_MODULUS = 2 ** 32
SMALLEST_CHUNK = 256
LARGEST_CHUNK = 8192
TWIN_REPORT_EVERY = 25
POLL_SECONDS = 0.01          # how often the main thread looks at the workers


class SimulationInterrupted(KeyboardInterrupt):
    """Ctrl-C during simulate(): .simulation holds the games finished from the first
    seed on, with no gap (a game after an unfinished one is left out)."""

    def __init__(self, simulation):
        super().__init__("simulation interrupted")
        self.simulation = simulation


def empty_arrays(count):
    """One zeroed array per counted field, count entries each."""
    return {name: np.zeros(count, dtype) for name, dtype in _checked.BATCH_FIELDS.items()}


def chunk_size(count, jobs):
    """Games per chunk: enough chunks to share out and to report progress often."""
    return int(min(LARGEST_CHUNK, max(SMALLEST_CHUNK, count // (jobs * 8) or 1)))


def seeds_of(first_seed, count):
    """The seeds first_seed, first_seed + 1, ... modulo 2^32, as uint32 (which wraps)."""
    return np.arange(count, dtype=np.uint32) + np.uint32(first_seed)


BYTES_PER_GAME = sum(np.dtype(dtype).itemsize for dtype in _checked.BATCH_FIELDS.values()) + 5


def check_memory(count):
    """Refuse, before allocating, a run whose arrays would not fit in memory."""
    try:
        physical = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, ValueError, OSError):
        return
    needed = count * BYTES_PER_GAME * 2          # the arrays, and a finished copy
    if needed > physical * 0.8:
        most = int(physical * 0.8 // (BYTES_PER_GAME * 2))
        raise MemoryError(f"{count:,} games need {needed / 2 ** 30:.1f} GiB for their arrays; "
                          f"this machine has {physical / 2 ** 30:.1f} GiB: run at most "
                          f"{most:,} games at a time")


class Chunks:
    """The chunks of a C batch, shared by its workers.  A worker takes the next chunk
    and records how many of its games it played under a lock that only workers use;
    the main thread only reads the counts."""

    def __init__(self, count, size):
        self.count = count
        self.size = size
        self.played = [None] * -(-count // size)   # per chunk, once a worker is done with it
        self.next = 0
        self.active = 0          # workers between taking a chunk and recording it
        self.finished = 0        # games played so far, for progress reports
        self.error = None
        self.lock = threading.Lock()

    def games_in(self, index):
        """How many games chunk index holds."""
        return min(self.size, self.count - index * self.size)

    def take(self, stop):
        """The next chunk's index, or None when none is left or stop is set.  A worker
        counts itself active before it reads stop, so that once the main thread has set
        stop and then sees no worker active, none will start a chunk."""
        with self.lock:
            self.active += 1
            if stop[0] or self.next == len(self.played):
                self.active -= 1
                return None
            self.next += 1
            return self.next - 1

    def record(self, index, played):
        """A worker is done with chunk index, having played its first played games."""
        with self.lock:
            self.played[index] = played
            self.finished += played
            self.active -= 1

    def prefix(self):
        """How many games from the first are finished, with no unfinished game before."""
        total = 0
        for index, played in enumerate(self.played):
            if played is None:
                break
            total += played
            if played < self.games_in(index):
                break
        return total


def work(chunks, stop, play_chunk):
    """A worker: take chunks and play them until none is left or stop is set."""
    try:
        while (index := chunks.take(stop)) is not None:
            played = 0
            try:
                played = play_chunk(index)
            finally:
                chunks.record(index, played)
    except BaseException as error:          # the main thread raises it
        chunks.error = chunks.error or error
        stop[0] = 1


class CBatch:
    """Games played in C, chunk by chunk, on worker threads of its own."""

    def __init__(self, first_seed, rules, jobs, arrays):
        count = len(arrays["rounds"])
        self.first_seed = first_seed
        self.rules = rules
        self.arrays = arrays
        self.chunks = Chunks(count, chunk_size(count, jobs))
        self.stop = _checked.stop_flag()     # C ends a running chunk after its current game
        workers = min(jobs, len(self.chunks.played))
        self.threads = [threading.Thread(target=work, args=(self.chunks, self.stop, self.play),
                                         name=f"pywar-worker-{i}", daemon=True)
                        for i in range(workers)]

    def play(self, index):
        """Play chunk index into its slice of the arrays; the number of games played."""
        start = index * self.chunks.size
        end = start + self.chunks.games_in(index)
        part = {name: array[start:end] for name, array in self.arrays.items()}
        seed = (self.first_seed + start) % SEED_MODULUS
        return _checked.play_batch(seed, self.rules, part, self.stop)

    def busy(self):
        """True while a worker may still play a game."""
        return self.chunks.active > 0 or any(thread.is_alive() for thread in self.threads)

    def run(self, report):
        """Start the workers and wait for them, reporting progress now and then."""
        for thread in self.threads:
            thread.start()
        while self.busy():
            time.sleep(POLL_SECONDS)
            report(self.chunks.finished)
        if self.chunks.error is not None:
            raise self.chunks.error
        report(self.finished())

    def halt(self):
        """Set the stop flag and wait until no worker plays any more."""
        self.stop[0] = 1
        while self.busy():
            time.sleep(POLL_SECONDS)

    def finished(self):
        """How many games from the first are finished, with no gap."""
        return self.chunks.prefix()


class TwinBatch:
    """Games played in the Python twin, one by one, in this thread."""

    def __init__(self, seeds, rules, arrays):
        self.seeds = seeds
        self.rules = rules
        self.arrays = arrays
        self.done = 0

    def run(self, report):
        """Play every game in seed order, reporting progress now and then."""
        for i, seed in enumerate(self.seeds.tolist()):
            counts, _, _ = twin.play(seed, self.rules)
            store_counts(self.arrays, i, counts)
            self.done = i + 1
            if i % TWIN_REPORT_EVERY == 0:
                report(self.done)
        report(self.done)

    def halt(self):
        """Nothing runs once the interrupt is here."""

    def finished(self):
        """How many games from the first are finished."""
        return self.done


def store_counts(arrays, i, counts):
    """Put one twin game's counts into entry i of the arrays, as the C core would."""
    for name in ("rounds", "battles", "ties", "wars", "longest_tie_streak", "stranded",
                 "digest", "lead_changes", "biggest_pot", "comeback", "deepest_war", "refills"):
        arrays[name][i] = getattr(counts, name)
    arrays["winner"][i] = -1 if counts.winner is None else counts.winner
    arrays["outcome"][i] = OUTCOMES.index(counts.outcome)
    arrays["cycle_start"][i] = -1 if counts.cycle_start is None else counts.cycle_start
    arrays["cycle_period"][i] = -1 if counts.cycle_period is None else counts.cycle_period


def through_interrupts(action):
    """action(), started again whenever a further Ctrl-C lands in it, until it returns."""
    while True:
        try:
            return action()
        except KeyboardInterrupt:
            continue


def run(first_seed, count, rules, engine, jobs, report=None):
    """Play count games from first_seed and return their Simulation.  report(finished),
    if given, is called now and then; report(count) is its last call, made once every
    game is finished.  On Ctrl-C raise SimulationInterrupted holding the games finished
    from first_seed on."""
    report = report or (lambda finished: None)
    check_memory(count)
    started = time.perf_counter()
    seeds = seeds_of(first_seed, count)
    arrays = empty_arrays(count)
    job = CBatch(first_seed, rules, jobs, arrays) if engine == "c" else \
        TwinBatch(seeds, rules, arrays)

    def simulation():
        played = job.finished()
        return Simulation(rules=rules.name, engine=engine, jobs=jobs, first_seed=first_seed,
                          requested=count, seconds=time.perf_counter() - started,
                          seeds=seeds[:played],
                          arrays={name: array[:played] for name, array in arrays.items()})

    def interrupted():
        job.halt()
        return SimulationInterrupted(simulation())

    try:
        job.run(report)
        return simulation()
    except KeyboardInterrupt:
        interruption = through_interrupts(interrupted)
        raise interruption from None
    except BaseException:
        through_interrupts(job.halt)
        raise
