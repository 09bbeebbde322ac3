"""pywar grade --keep DIR: each submission's receipts in DIR/NAME/, as graded: each run's
output (its stdout's bytes, seed-N.txt, gzipped past GZIP_PAST as seed-N.txt.gz), the
build's output (build.txt) and valgrind's log (valgrind.txt) (docs/grading.md, section 4).

DIR is pywar's: made by it, an empty folder, or one an earlier grading wrote (MARKER),
never a link; anything else is refused before any work (ready).  Every folder and file
in it is made by pywar, exclusively, with no link followed (O_EXCL, O_NOFOLLOW, each
opened from its folder's descriptor), so no file of DIR is one pywar did not make, and
none is written twice.  A submission's folder is written beside (.NAME.part) and put in
place of an earlier grading's once graded (Kept.commit), so that an interrupted grading
leaves it as it was.  It is named by its name as the reports write it, escaped where it
could leave DIR or hide (submission.names.kept_name): a name is untrusted.
"""

import gzip
import os
import re
import stat
from contextlib import contextmanager, suppress

from ...atomic import FOLDER, remove_folder, replace_folder
from ..submission.bounds import MIB
from ..submission.names import kept_name

GZIP_PAST = MIB                    # a run's output larger than this is kept gzipped
NEW_FILE = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW
PRIVATE = 0o700                     # DIR's folders, and its files (PRIVATE_FILE): the
PRIVATE_FILE = 0o600                # grader's alone: no run's user may read a classmate's
                                    # output (as root, --isolation none)
MARKER = ".pywar-keep"              # in DIR: the folder that marks DIR as pywar's, holding
                                    # an empty file per submission the grading under way
                                    # keeps (one name kept once, case folded or not)
PART, OLD = ".part", ".old"         # .NAME.part: a folder being written; .NAME.old: one
                                    # being replaced (atomic.replace_folder)
KEPT_FILE = re.compile(r"(seed-\d+\.txt(\.gz)?|build\.txt|valgrind\.txt)\Z")
LEFT_OVER = re.compile(r"\..+\.(part|old)\Z")   # of a grading that was killed


class KeepRefused(Exception):
    """A --keep DIR pywar may not write into: one line saying what DIR may be."""


def ready(folder):
    """Make DIR for --keep, or take it where it is an empty folder, or one that an earlier
    grading wrote (stranger), and no link; a KeepRefused saying why not (it holds what
    pywar did not write, it is a link or a file).  Its MARKER is made anew, and what a
    grading that was killed left is removed.  OSError where it cannot be made."""
    may_be = "give a new folder, an empty one, or one that pywar grade --keep wrote"
    try:
        found = os.lstat(folder)
    except FileNotFoundError:
        os.mkdir(folder, PRIVATE)
        found = os.lstat(folder)
    if stat.S_ISLNK(found.st_mode):
        raise KeepRefused(f"--keep {folder!r} is a link: {may_be} (pywar follows no link)")
    if not stat.S_ISDIR(found.st_mode):
        raise KeepRefused(f"--keep {folder!r} is not a folder: {may_be}")
    other = stranger(folder)
    if other is not None:
        raise KeepRefused(f"--keep {folder!r} is not empty, and {other!r} in it is not "
                          f"pywar's: {may_be} (pywar replaces only files of its own)")
    with opened(folder, FOLDER, None) as top:
        for name in os.listdir(top):
            if LEFT_OVER.match(name) or name == MARKER:
                remove_folder(name, top)
        os.mkdir(MARKER, PRIVATE, dir_fd=top)


def stranger(folder):
    """The first name in DIR (or in a folder of it) that pywar grade --keep did not write,
    or None: an empty DIR, or one that holds MARKER, and else only folders of the files
    pywar keeps (KEPT_FILE), none of them a link.  Before MARKER, a DIR was pywar's only
    when new: a DIR of an older pywar's is refused."""
    names = sorted(os.listdir(folder))
    if names and MARKER not in names:
        return names[0]
    for name in names:
        inside = os.path.join(folder, name)
        if not stat.S_ISDIR(os.lstat(inside).st_mode):
            return name
        for file_name in sorted(os.listdir(inside)):
            ours = name == MARKER or KEPT_FILE.match(file_name)
            if not ours or not stat.S_ISREG(os.lstat(os.path.join(inside, file_name)).st_mode):
                return os.path.join(name, file_name)
    return None


@contextmanager
def opened(name, flags, dir_fd):
    """A descriptor of a name in a folder (by its descriptor), closed after."""
    fd = os.open(name, flags, PRIVATE_FILE, dir_fd=dir_fd)
    try:
        yield fd
    finally:
        os.close(fd)


class Kept:
    """One submission's folder of DIR (ready's): its files, each written once into
    .NAME.part, and their paths as the reports name them (DIR as given, joined), once
    put in place (commit).  A name kept already by this grading is a FileExistsError."""

    def __init__(self, folder, name):
        self.folder = folder
        self.name = kept_name(name)
        self.path = os.path.join(folder, self.name)
        self.part = f".{self.name}{PART}"
        self.writing = os.path.join(folder, self.part)  # where the files go until commit
        self.files = {}                 # what a file holds ("build", a seed) -> its path
        self.trouble = None             # why a file could not be kept, the first time
        with opened(folder, FOLDER, None) as top:
            with opened(MARKER, FOLDER, top) as marker, opened(self.name, NEW_FILE, marker):
                pass                    # this grading keeps this name (once)
            remove_folder(self.part, top)
            os.mkdir(self.part, PRIVATE, dir_fd=top)

    def commit(self):
        """Put the folder in place of an earlier grading's, its files complete; where it
        cannot be, no file is named, and note() says why."""
        try:
            with opened(self.folder, FOLDER, None) as top:
                replace_folder(self.part, self.name, top)
        except OSError as error:
            self.trouble = self.trouble or f"its folder: {error.strerror or error}"
            self.files.clear()
            self.discard()

    def discard(self):
        """Remove the folder being written (a grading interrupted): DIR/NAME as it was."""
        with suppress(OSError), opened(self.folder, FOLDER, None) as top:
            remove_folder(self.part, top)

    def write(self, key, file_name, data):
        """Write a new file of bytes in the folder; its path, or None (trouble says why)."""
        try:
            with opened(self.writing, FOLDER, None) as here, \
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


@contextmanager
def discarded_if_stopped(kept):
    """A submission's grading, during which an exception (a Ctrl-C) discards its Kept
    (None: no --keep), so that its folder of an earlier grading stays as it was."""
    try:
        yield
    except BaseException:
        if kept is not None:
            kept.discard()
        raise
