"""A class graded on a Dask cluster (pywar grade --scheduler; pip install 'pywar[dask]').

Each submission is one task.  Here, it is copied as grading copies it (submission.copying.safe_copy:
its regular files and folders alone, within the copy's bounds, with the notes of what was
left out) and packed; on a worker, the task unpacks it into a folder of its own and grades
it as one process does (grade_one: its build, runs and valgrind each in that worker's
sandbox, --isolation checked there, with the worker's seed clock), so that the JSON is the
one process's.  A submission that cannot be copied is graded here: its build fails before
anything runs.  At most WINDOW_PER_THREAD tasks a worker thread are packed at once; the
Submissions come back in order, and a Ctrl-C cancels the tasks not finished and keeps the
finished prefix (a task a worker has begun runs to its end there, bounded by the budget).
"""

import atexit
import functools
import os
import shutil
import tempfile
import time
import uuid
from dataclasses import replace

from ..runner import sandbox
from ..submission.bounds import TooLarge
from ..submission.copying import safe_copy
from .grade import GradeInterrupted, fault_submission, grade_one, grade_safely
from .receipt import files_sha256, stable

WINDOW_PER_THREAD = 2           # submissions packed and sent ahead, per worker thread
POLL_SECONDS = 0.05             # the main thread polls, so that a Ctrl-C lands at once


def packed(source):
    """(the sha256 of its files, the notes of what the copy left out, its entries) of a
    submission copied as grading copies it: (relative path, None) for a folder,
    (relative path, bytes, executable) for a file, folders before what they hold; None
    where it cannot be hashed or copied."""
    with tempfile.TemporaryDirectory(prefix="pywar-pack-") as folder:
        copy = os.path.join(folder, "copy")
        try:
            digest = files_sha256(source)
            notes = stable(safe_copy(source, copy))
        except (OSError, TooLarge):
            return None
        entries = []
        for top, folders, files in os.walk(copy):
            folders.sort()
            here = os.path.relpath(top, copy)
            entries += [(os.path.normpath(os.path.join(here, name)), None) for name in folders]
            for name in sorted(files):
                with open(os.path.join(top, name), "rb") as file:
                    entries.append((os.path.normpath(os.path.join(here, name)), file.read(),
                                    bool(os.stat(file.fileno()).st_mode & 0o100)))
        return digest, notes, entries


def unpack(folder, entries):
    """Make a packed submission's folders and files under folder (made here)."""
    os.mkdir(folder, 0o755)
    for entry in entries:
        path = os.path.join(folder, entry[0])
        if entry[1] is None:
            os.mkdir(path, 0o755)
            continue
        with open(path, "xb") as file:
            file.write(entry[1])
        os.chmod(path, 0o755 if entry[2] else 0o644)


@functools.cache
def worker_clock():
    """This worker process's seed clock, built at its first task into a folder removed
    at its exit."""
    folder = tempfile.mkdtemp(prefix="pywar-clock-")
    atexit.register(shutil.rmtree, folder, True)
    os.chmod(folder, 0o755)
    return sandbox.seed_clock(folder)


def grade_packed(name, digest, notes, entries, settings):
    """A task: grade a packed submission on this worker, as grade_safely grades its
    folder on one machine (its name, the sha256 and the copy's notes are the folder's
    here): (the Submission, this worker's isolation mode).  Raises SandboxMissing where
    --isolation required cannot be had here."""
    settings = replace(settings, isolation=sandbox.resolve(settings.isolation, here=True))
    mode = settings.isolation.mode
    with tempfile.TemporaryDirectory(prefix="pywar-task-") as folder:
        root = os.path.join(folder, "submission")
        unpack(root, entries)
        try:
            graded = grade_one(root, settings, worker_clock())
        except Exception as error:      # pywar's own fault, as grade_safely reports it
            return fault_submission(name, settings, error, digest), mode
    graded.name, graded.sha256 = name, digest
    graded.notes[:0] = notes            # the copy's notes come first, as in grade_one
    return graded, mode


class ClusterGrade:
    """The tasks of a class on a cluster, sent within a window and taken in order."""

    def __init__(self, client, sources, settings):
        self.client, self.sources, self.settings = client, sources, settings
        self.token = uuid.uuid4().hex
        self.results = [None] * len(sources)
        self.pending = {}               # index -> its future
        self.following = 0              # the next submission to send
        self.modes = set()              # the isolation modes the workers ran in

    def send(self, window):
        """Pack and send submissions until window are pending (one that cannot be
        copied is graded here)."""
        while self.following < len(self.sources) and len(self.pending) < window:
            index, source = self.following, self.sources[self.following]
            self.following += 1
            found = packed(source)
            if found is None:
                self.results[index] = grade_safely(source, self.settings, None)
                continue
            name = os.path.basename(os.path.normpath(source))
            self.pending[index] = self.client.submit(       # keyed here: no key sent
                grade_packed, name, *found, self.settings.keyed_to(found[0]), pure=False,
                key=f"pywar-grade-{self.token}-{index}")

    def take(self):
        """The results of the tasks that have finished (a task's error raised): how many."""
        done = [index for index, future in self.pending.items() if future.done()]
        for index in done:
            self.results[index], mode = self.pending.pop(index).result()
            self.modes.add(mode)
        return len(done)

    def graded(self):
        """The Submissions graded, from the first, up to the first gap."""
        prefix = []
        for result in self.results:
            if result is None:
                break
            prefix.append(result)
        return prefix

    def cancel(self):
        """Cancel the pending tasks."""
        self.client.cancel(list(self.pending.values()))
        self.pending.clear()


def grade_on_cluster(client, sources, settings, progress=None):
    """grade() on a Dask cluster, one task a submission: the Submissions in order;
    progress(runs done, runs in all) as submissions finish.  A Ctrl-C cancels the
    tasks and raises GradeInterrupted with the submissions graded before it; one line on
    stderr where a worker had no bubblewrap (--isolation auto)."""
    from ...sim.cluster import threads_of
    job = ClusterGrade(client, sources, settings)
    window = WINDOW_PER_THREAD * threads_of(client)
    total = len(sources) * settings.games
    try:
        while True:
            job.send(window)
            job.take()
            finished = sum(result is not None for result in job.results)
            if progress:
                progress(finished * settings.games, total)
            if finished == len(sources):
                break
            time.sleep(POLL_SECONDS)
    except KeyboardInterrupt:
        job.cancel()
        raise GradeInterrupted(job.graded()) from None
    except BaseException:
        job.cancel()
        raise
    if sandbox.resolve(settings.isolation, check=False).asked == "auto" and "none" in job.modes:
        sandbox.warn_once(UNISOLATED)
    return job.results


UNISOLATED = ("pywar: warning: bubblewrap (bwrap) does not work on a Dask worker: its "
              f"runs had limits but were not isolated ({sandbox.INSTALL} on every worker; "
              "docs/grading.md)")
