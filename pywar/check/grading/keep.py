"""pywar grade --keep DIR: each submission's receipts in DIR/NAME/, as graded: each run's
output (its stdout's bytes, seed-N.txt, gzipped past GZIP_PAST as seed-N.txt.gz), the
build's output (build.txt) and valgrind's log (valgrind.txt) (docs/grading.md, section 4).

DIR is pywar's: made by it, or an empty folder (never a link); anything else is refused
before any work (ready).  Every folder and file in it is made by pywar, exclusively, with
no link followed (O_EXCL, O_NOFOLLOW, each opened from its folder's descriptor), so no
file of DIR is one pywar did not make, and none is written twice.  A submission's folder
is named by its name as the reports write it, escaped where it could leave DIR or hide
(submission.names.kept_name): a name is untrusted.
"""

import gzip
import os
import stat
from contextlib import contextmanager

from ..submission.bounds import MIB
from ..submission.names import kept_name

GZIP_PAST = MIB                    # a run's output larger than this is kept gzipped
FOLDER = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW
NEW_FILE = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW
PRIVATE = 0o700                     # DIR's folders, and its files (PRIVATE_FILE): the
PRIVATE_FILE = 0o600                # grader's alone: no run's user may read a classmate's
                                    # output (as root, --isolation none)


class KeepRefused(Exception):
    """A --keep DIR pywar may not write into: one line saying what DIR may be."""


def ready(folder):
    """Make DIR for --keep, or take it where it is an empty folder that is no link; a
    KeepRefused saying why not (it holds files, it is a link or a file).  OSError where
    it cannot be made."""
    try:
        found = os.lstat(folder)
    except FileNotFoundError:
        os.mkdir(folder, PRIVATE)
        return
    if stat.S_ISLNK(found.st_mode):
        raise KeepRefused(f"--keep {folder!r} is a link: give a new folder, or an empty "
                          "one (pywar follows no link)")
    if not stat.S_ISDIR(found.st_mode):
        raise KeepRefused(f"--keep {folder!r} is not a folder: give a new folder, or an "
                          "empty one")
    if os.listdir(folder):
        raise KeepRefused(f"--keep {folder!r} is not empty: give a new folder, or an empty "
                          "one (pywar writes only files of its own)")


@contextmanager
def opened(name, flags, dir_fd):
    """A descriptor of a name in a folder (by its descriptor), closed after."""
    fd = os.open(name, flags, PRIVATE_FILE, dir_fd=dir_fd)
    try:
        yield fd
    finally:
        os.close(fd)


class Kept:
    """One submission's folder of DIR: its files, each written once, and their paths as
    the reports name them (DIR as given, joined)."""

    def __init__(self, folder, name):
        self.name = kept_name(name)
        self.path = os.path.join(folder, self.name)
        self.files = {}                 # what a file holds ("build", a seed) -> its path
        self.trouble = None             # why a file could not be kept, the first time
        with opened(folder, FOLDER, None) as top:
            os.mkdir(self.name, PRIVATE, dir_fd=top)

    def write(self, key, file_name, data):
        """Write a new file of bytes in the folder; its path, or None (trouble says why)."""
        try:
            with opened(self.path, FOLDER, None) as here, \
                    opened(file_name, NEW_FILE, here) as fd, open(fd, "wb", closefd=False) as out:
                out.write(data)
        except OSError as error:
            self.trouble = self.trouble or f"{file_name}: {error.strerror or error}"
            return None
        self.files[key] = os.path.join(self.path, file_name)
        return self.files[key]

    def run(self, seed, output):
        """A run's stdout as it wrote it: seed-N.txt, or seed-N.txt.gz past GZIP_PAST
        (gzip with no time or name in it, so that the same bytes keep alike)."""
        if len(output) <= GZIP_PAST:
            return self.write(seed, f"seed-{seed}.txt", output)
        return self.write(seed, f"seed-{seed}.txt.gz", gzip.compress(output, mtime=0))

    def build(self, command, outcome, said):
        """The build's output: its command, how it ended, its stderr and its stdout."""
        text = (f"$ {command}\n# status {outcome.status}: {said or 'built'}\n"
                f"# stderr:\n{outcome.stderr}\n# stdout:\n{outcome.stdout}")
        return self.write("build", "build.txt", text.encode("utf-8", "backslashreplace"))

    def valgrind(self, log):
        """valgrind's log of its run (the memory item)."""
        return self.write("memory", "valgrind.txt", log.encode("utf-8", "backslashreplace"))

    def note(self):
        """The note of a file that could not be kept, or None."""
        return f"--keep: could not keep {self.trouble}" if self.trouble else None
