"""Running many games: chunks of seeds across threads (the C core releases the GIL),
progress reports, and interrupts that keep every finished game."""

import os
import threading
import time
from concurrent.futures import ThreadPoolExecutor, wait

import numpy as np

from . import _checked, twin
from .rules import OUTCOMES
from .stats import Simulation

SEED_MODULUS = 2 ** 32
SMALLEST_CHUNK = 256
LARGEST_CHUNK = 8192
TWIN_REPORT_EVERY = 25


class SimulationInterrupted(KeyboardInterrupt):
    """Ctrl-C during simulate(): .simulation holds every game that was finished."""

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
    needed = count * BYTES_PER_GAME * 2          # the arrays, and their finished copy
    if needed > physical * 0.8:
        most = int(physical * 0.8 // (BYTES_PER_GAME * 2))
        raise MemoryError(f"{count:,} games need {needed / 2 ** 30:.1f} GiB for their arrays; "
                          f"this machine has {physical / 2 ** 30:.1f} GiB: run at most "
                          f"{most:,} games at a time")


def finished_part(arrays, seeds, done):
    """The arrays and seeds of the finished games only (done: a boolean per game)."""
    return {name: array[done] for name, array in arrays.items()}, seeds[done]


def run_c(first_seed, rules, jobs, arrays, done, report):
    """Play the games in C, chunk by chunk across jobs threads, into arrays, marking
    each finished game in done.  On Ctrl-C the running chunks stop after the game
    they are playing, no new chunk starts, and the interrupt goes on up."""
    count = len(done)
    size = chunk_size(count, jobs)
    stop = _checked.stop_flag()
    lock = threading.Lock()
    finished = [0]

    def play_chunk(start):
        if stop[0]:
            return
        end = min(start + size, count)
        part = {name: array[start:end] for name, array in arrays.items()}
        played = _checked.play_batch((first_seed + start) % SEED_MODULUS, rules, part, stop)
        done[start:start + played] = True
        with lock:
            finished[0] += played

    with ThreadPoolExecutor(max_workers=jobs) as pool:
        futures = [pool.submit(play_chunk, start) for start in range(0, count, size)]
        try:
            pending = set(futures)
            while pending:
                finished_now, pending = wait(pending, timeout=0.1)
                for future in finished_now:
                    future.result()
                report(finished[0])
        except BaseException:
            stop[0] = 1
            for future in futures:
                future.cancel()
            wait(futures)
            raise


def run_twin(seeds, rules, arrays, done, report):
    """Play the games in the Python twin, one by one, into arrays, marking done."""
    for i, seed in enumerate(seeds.tolist()):
        counts, _, _ = twin.play(seed, rules)
        store_counts(arrays, i, counts)
        done[i] = True
        if i % TWIN_REPORT_EVERY == 0:
            report(i + 1)
    report(len(seeds))


def store_counts(arrays, i, counts):
    """Put one twin game's counts into entry i of the arrays, as the C core would."""
    for name in ("rounds", "battles", "ties", "wars", "longest_tie_streak", "stranded",
                 "digest", "lead_changes", "biggest_pot", "comeback", "deepest_war", "refills"):
        arrays[name][i] = getattr(counts, name)
    arrays["winner"][i] = -1 if counts.winner is None else counts.winner
    arrays["outcome"][i] = OUTCOMES.index(counts.outcome)
    arrays["cycle_start"][i] = -1 if counts.cycle_start is None else counts.cycle_start
    arrays["cycle_period"][i] = -1 if counts.cycle_period is None else counts.cycle_period


def run(first_seed, count, rules, engine, jobs, report=None):
    """Play count games from first_seed and return their Simulation; on Ctrl-C raise
    SimulationInterrupted holding the finished games."""
    report = report or (lambda finished: None)
    check_memory(count)
    seeds = seeds_of(first_seed, count)
    arrays = empty_arrays(count)
    done = np.zeros(count, dtype=bool)
    start = time.perf_counter()

    def simulation():
        finished_arrays, finished_seeds = finished_part(arrays, seeds, done)
        return Simulation(rules=rules.name, engine=engine, jobs=jobs, first_seed=first_seed,
                          requested=count, seconds=time.perf_counter() - start,
                          seeds=finished_seeds, arrays=finished_arrays)

    try:
        if engine == "c":
            run_c(first_seed, rules, jobs, arrays, done, report)
        else:
            run_twin(seeds, rules, arrays, done, report)
    except KeyboardInterrupt:
        raise SimulationInterrupted(simulation()) from None
    return simulation()
