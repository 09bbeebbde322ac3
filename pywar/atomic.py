"""Writing an output without destroying what pywar did not make: every output of the
command line and of the API (a CSV, a plot, a trace, a page) is written through here.

- A regular file, or a path with nothing there yet, is written to a temporary file
  beside it (.NAME.XXXXXXXX.tmp), which is renamed onto the path only once it is
  complete (commit).  A failure removes only the temporary file: what was at the path
  before stays as it was.  Through a symlink, the link's target is written so, and the
  link stays a link.
- Anything else (a device such as /dev/null or /dev/full, a FIFO, a terminal) is
  written directly, and never removed.
- A path where stdout or stderr already writes (/dev/stdout, /dev/stderr, or the file
  a shell's redirection opened) is written through that stream's own descriptor, at its
  place: `--csv /dev/stderr 2>>log` adds to log, and neither replaces nor truncates it.
  As with a device, what was written before a failure stays there.
- A regular file that the user may not write (a file of mode 0444 in a folder they may
  write) is refused as the shell's `>` refuses it, with PermissionError, though the
  folder would let a rename replace it.
- A path is a str, bytes or os.PathLike, not empty: a file descriptor (an int, or a
  bool) is not one, and is a TypeError naming the argument.  A path that cannot be
  written is the OSError of opening it, before any work.
- An interrupted run's output is put in place only where it holds at least one finished
  piece of the work (a game, a graded submission): written(..., keep, finished).  An
  output of none leaves the path as it was (docs/command-line.md, the table of outputs).
- A folder of files (pywar grade --keep's DIR/NAME) is replaced the same way: written
  beside (.NAME.part), then put in place whole (replace_folder), no link followed.
"""

import errno
import os
import secrets
import stat
from contextlib import contextmanager, suppress


def check_path(name, path, also="a path"):
    """path as a str or bytes path, or a TypeError naming the argument: 'csv must be a
    path or a binary file, not int (a file descriptor is not a path)'."""
    if isinstance(path, (str, bytes, os.PathLike)):
        if not os.fspath(path):
            raise ValueError(f"{name} must be a path, not an empty one")
        return os.fspath(path)
    descriptor = " (a file descriptor is not a path)" if isinstance(path, int) else ""
    raise TypeError(f"{name} must be {also}, not {type(path).__name__}{descriptor}")


def is_device(path):
    """True when something other than a regular file is at path (following links):
    a device, a FIFO, a socket, a directory."""
    try:
        return not stat.S_ISREG(os.stat(path).st_mode)
    except FileNotFoundError:
        return False


def identity(target):
    """(device, inode) of what a path, or an open file descriptor, writes to; None for
    a path with nothing there or a descriptor that is not open."""
    try:
        found = os.fstat(target) if isinstance(target, int) else os.stat(target)
    except (OSError, TypeError, ValueError):
        return None
    return found.st_dev, found.st_ino


def standard_stream(path):
    """The descriptor, 1 or 2, of stdout or stderr when path is the file it writes to;
    else None."""
    there = identity(path)
    return next((descriptor for descriptor in (1, 2)
                 if there is not None and identity(descriptor) == there), None)


def temporary_beside(target):
    """(path, descriptor) of a new file beside target, made with the permissions a new
    file gets (0666 less the umask), or those of the file already at target."""
    directory, base = os.path.split(target)
    try:
        mode = stat.S_IMODE(os.stat(target).st_mode)
    except FileNotFoundError:
        mode = None
    while True:
        name = os.path.join(directory, f".{base}.{secrets.token_hex(4)}.tmp")
        try:
            descriptor = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
        except FileExistsError:
            continue
        if mode is not None:
            with suppress(OSError):
                os.fchmod(descriptor, mode)
        return name, descriptor


def refuse_unwritable(target, path):
    """PermissionError for a file at target that the user may not write, as opening it
    for writing would raise (root may write any); nothing for a path with nothing there."""
    effective = os.access in os.supports_effective_ids
    if os.path.lexists(target) and not os.access(target, os.W_OK, effective_ids=effective):
        raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), os.fspath(path))


class AtomicFile:
    """An output path opened for writing: .stream takes the data, commit() puts it in
    place, discard() leaves the path as it was.  Opening raises the OSError of a path
    that cannot be written."""

    def __init__(self, path, binary=True, encoding="utf-8"):
        """Open path: a temporary file beside a regular one, or the device itself."""
        self.path = path
        self.temporary = None
        mode, options = ("wb", {}) if binary else ("w", {"encoding": encoding})
        stream = standard_stream(path)
        if stream is not None:
            self.stream = os.fdopen(os.dup(stream), mode, **options)
            return
        if is_device(path):
            self.stream = open(path, mode, **options)
            return
        self.target = os.path.realpath(path)
        refuse_unwritable(self.target, path)
        self.temporary, descriptor = temporary_beside(self.target)
        try:
            self.stream = os.fdopen(descriptor, mode, **options)
        except BaseException:
            os.close(descriptor)
            self.remove_temporary()
            raise

    def commit(self):
        """Close the stream and rename the temporary file into place; on a failure,
        remove the temporary file and raise."""
        try:
            self.stream.close()
            if self.temporary is not None:
                os.replace(self.temporary, self.target)
                self.temporary = None
        finally:
            self.remove_temporary()

    def discard(self):
        """Close the stream quietly and remove the temporary file: the path keeps what it
        held (a device is left alone)."""
        with suppress(OSError, ValueError):
            self.stream.close()
        self.remove_temporary()

    def remove_temporary(self):
        """Remove the temporary file, if there is one still."""
        if self.temporary is not None:
            with suppress(OSError):
                os.remove(self.temporary)
            self.temporary = None


@contextmanager
def written(path, binary=True, encoding="utf-8", keep=(), finished=None):
    """A stream to write path through an AtomicFile: committed when the block ends, or
    when it raises one of the exceptions in keep (an interrupted run's finished part)
    unless finished, given, says it holds no finished work (finished(exception) == 0);
    else discarded."""
    output = AtomicFile(path, binary, encoding)
    try:
        yield output.stream
    except keep as stopped:
        if finished is None or finished(stopped):
            output.commit()
        else:
            output.discard()
        raise
    except BaseException:
        output.discard()
        raise
    output.commit()


FOLDER = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW      # a folder, opened for its names


def remove_folder(name, dir_fd):
    """Remove name from the folder open as dir_fd, following no link: a folder of files
    (its files, then itself), or a file or link in its place; nothing there is no error.
    A folder inside it is an OSError (pywar's folders of outputs hold files alone)."""
    try:
        folder = os.open(name, FOLDER, dir_fd=dir_fd)
    except FileNotFoundError:
        return
    except OSError as error:
        if error.errno not in (errno.ELOOP, errno.ENOTDIR):
            raise
        os.unlink(name, dir_fd=dir_fd)              # a link or a file: itself, not its target
        return
    try:
        for entry in os.listdir(folder):
            os.unlink(entry, dir_fd=folder)
    finally:
        os.close(folder)
    os.rmdir(name, dir_fd=dir_fd)


def replace_folder(temporary, name, dir_fd):
    """Put the complete folder temporary in place of name, both in the folder open as
    dir_fd: what was at name is set aside (.NAME.old), the new one renamed in, and the old
    one removed (remove_folder)."""
    aside = f".{name}.old"
    remove_folder(aside, dir_fd)
    try:
        os.rename(name, aside, src_dir_fd=dir_fd, dst_dir_fd=dir_fd)
    except FileNotFoundError:
        aside = None
    os.rename(temporary, name, src_dir_fd=dir_fd, dst_dir_fd=dir_fd)
    if aside is not None:
        remove_folder(aside, dir_fd)
