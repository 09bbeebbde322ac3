"""pywar grade --keep DIR: each submission's receipts in DIR/NAME/, as graded: each run's
output (its stdout's bytes, seed-N.txt, gzipped past GZIP_PAST as seed-N.txt.gz), the
build's output (build.txt) and valgrind's log (valgrind.txt) (docs/grading.md, section 4).

DIR is pywar's: made by it, an empty folder, or one an earlier grading wrote (MARKER),
never a link, and of pywar's own user; anything else is refused before any work
(ready).  It is opened once (KeepDir), and every later open is relative to that
descriptor: a DIR swapped for a link meanwhile (by another user of a shared machine,
issue 47) is never followed.  Every folder and file in it is made by pywar,
exclusively, with no link followed (O_EXCL, O_NOFOLLOW, each opened from its folder's
descriptor), so no file of DIR is one pywar did not make, and none is written twice.  A submission's folder is written beside (.NAME.part) and put in
place of an earlier grading's once graded (Kept.commit), so that an interrupted grading
leaves it as it was.  It is named by its name as the reports write it, escaped where it
could leave DIR or hide (submission.names.kept_name): a name is untrusted.
"""

import errno
import gzip
import os
import re
import stat
import weakref
from contextlib import contextmanager, suppress

from ...atomic import FOLDER, NEW_FILE, remove_folder, replace_folder
from ..submission.bounds import MIB
from ..submission.names import kept_name

GZIP_PAST = MIB                    # a run's output larger than this is kept gzipped
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


class KeepRefused(OSError):
    """A --keep DIR pywar may not write into: one line saying what DIR may be."""


MAY_BE = "give a new folder, an empty one, or one that pywar grade --keep wrote"


class KeepDir:
    """DIR, opened once (no link followed) and worked in through that one descriptor
    alone: every later open is relative to it, so that a DIR swapped for a link after it
    was opened is never followed (issue 47).  Its path is only what the reports name."""

    def __init__(self, path):
        self.path = os.fspath(path)
        try:
            self.fd = os.open(self.path, FOLDER)
        except OSError as error:
            if error.errno not in (errno.ELOOP, errno.ENOTDIR):
                raise
            if os.path.islink(self.path):
                raise KeepRefused(f"--keep {self.path!r} is a link: {MAY_BE} (pywar "
                                  "follows no link)") from None
            raise KeepRefused(f"--keep {self.path!r} is not a folder: {MAY_BE}") from None
        self.closer = weakref.finalize(self, os.close, self.fd)
        owner = os.fstat(self.fd).st_uid
        if owner != os.geteuid():
            self.close()
            raise KeepRefused(f"--keep {self.path!r} belongs to user {owner}, not to pywar's "
                              f"({os.geteuid()}): another user could swap what is in it; "
                              f"{MAY_BE}, of your own")

    def __repr__(self):
        """DIR as the notes name it: its path's repr."""
        return repr(self.path)

    def close(self):
        """Close DIR's descriptor (once)."""
        self.closer()


def ready(folder):
    """Make DIR for --keep, or take it where it is an empty folder, or one that an earlier
    grading wrote (stranger), of pywar's own user and no link: its KeepDir, opened once,
    or a KeepRefused saying why not (it holds what pywar did not write, it is a link or
    a file, or another user's).  Its MARKER is made anew, and what a grading that was
    killed left is removed.  OSError where it cannot be made."""
    with suppress(FileExistsError):
        os.mkdir(folder, PRIVATE)
    top = KeepDir(folder)
    other = stranger(top.fd)
    if other is not None:
        top.close()
        raise KeepRefused(f"--keep {top.path!r} is not empty, and {other!r} in it is not "
                          f"pywar's: {MAY_BE} (pywar replaces only files of its own)")
    for name in os.listdir(top.fd):
        if LEFT_OVER.match(name) or name == MARKER:
            remove_folder(name, top.fd)
    os.mkdir(MARKER, PRIVATE, dir_fd=top.fd)
    return top


def stranger(top):
    """The first name in DIR (open as top) or in a folder of it that pywar grade --keep
    did not write, or None: an empty DIR, or one that holds MARKER, and else only folders
    of the files pywar keeps (KEPT_FILE), none of them a link.  Before MARKER, a DIR was
    pywar's only when new: a DIR of an older pywar's is refused."""
    names = sorted(os.listdir(top))
    if names and MARKER not in names:
        return names[0]
    for name in names:
        if not stat.S_ISDIR(os.stat(name, dir_fd=top, follow_symlinks=False).st_mode):
            return name
        with opened(name, FOLDER, top) as inside:
            for file_name in sorted(os.listdir(inside)):
                ours = name == MARKER or KEPT_FILE.match(file_name)
                found = os.stat(file_name, dir_fd=inside, follow_symlinks=False)
                if not ours or not stat.S_ISREG(found.st_mode):
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
    """One submission's folder of DIR (a KeepDir, ready's; a path is opened as one): its
    files, each written once into .NAME.part, and their paths as the reports name them
    (DIR as given, joined), once put in place (commit).  A name kept already by this
    grading is a FileExistsError."""

    def __init__(self, folder, name):
        self.top = folder if isinstance(folder, KeepDir) else KeepDir(folder)
        self.name = kept_name(name)
        self.path = os.path.join(self.top.path, self.name)
        self.part = f".{self.name}{PART}"       # where the files go until commit
        self.files = {}                 # what a file holds ("build", a seed) -> its path
        self.trouble = None             # why a file could not be kept, the first time
        top = self.top.fd
        with opened(MARKER, FOLDER, top) as marker, opened(self.name, NEW_FILE, marker):
            pass                        # this grading keeps this name (once)
        remove_folder(self.part, top)
        os.mkdir(self.part, PRIVATE, dir_fd=top)

    def commit(self):
        """Put the folder in place of an earlier grading's, its files complete; where it
        cannot be, no file is named, and note() says why."""
        try:
            replace_folder(self.part, self.name, self.top.fd)
        except OSError as error:
            self.trouble = self.trouble or f"its folder: {error.strerror or error}"
            self.files.clear()
            self.discard()

    def discard(self):
        """Remove the folder being written (a grading interrupted): DIR/NAME as it was."""
        with suppress(OSError):
            remove_folder(self.part, self.top.fd)

    def write(self, key, file_name, data):
        """Write a new file of bytes in the folder; its path, or None (trouble says why)."""
        try:
            with opened(self.part, FOLDER, self.top.fd) as here, \
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
