"""Where the commands write: stdout, and the files of --csv, --plot, --trace and --html.

Every file is opened for writing before the first game, so that a path that cannot be
written costs no work; a regular file is written beside itself and renamed into place
when complete, and a device is written directly (pywar.atomic), so that a failure or a
Ctrl-C never removes or empties what was at the path.  Two outputs on one file or
stream are refused before the work (check_distinct).  A file or stdout that cannot be written is one
line naming it, "cannot write --csv 'games.csv': No space left on device" (exit 3).  A
reader of stdout that goes away (`pywar simulate --csv - | head`) ends the command
quietly, with exit 0, as it ends `cat`: that is ReaderGone.  '-' is stdout for --csv
and --trace; --plot and --html write only files.

A file is replaced only by an output that holds at least one finished piece of the work
(a game, a graded submission): an interrupted command that finished none leaves every
path as it was (keep_finished), the rule of every command's outputs (docs/command-line.md).
"""

import os
import sys
from contextlib import contextmanager

from .. import atomic
from ..atomic import AtomicFile
from .inputs import cannot, file_name


class ReaderGone(Exception):
    """The reader of stdout went away (a broken pipe): the command stops, quietly."""


def stdout_descriptor():
    """The file descriptor under sys.stdout, or None (a stream without one)."""
    try:
        return sys.stdout.fileno()
    except (AttributeError, OSError, ValueError):
        return None


def discard_stdout():
    """Point stdout's descriptor at /dev/null, so that what its streams still hold is
    thrown away, and the flush at exit cannot fail again."""
    descriptor = stdout_descriptor()
    if descriptor is None:
        return
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, descriptor)
    os.close(null)


def failure(name, error, to_stdout):
    """What to raise for an OSError writing the file named name: ReaderGone for a broken
    pipe on stdout, else the one-line InputError.  A failed stdout is discarded."""
    if to_stdout:
        discard_stdout()
        if isinstance(error, BrokenPipeError):
            return ReaderGone()
    return cannot("write", name, error)


class Guarded:
    """What Stdout and OutputFile share: an OSError of their stream is failure()'s
    exception, and failed says it came."""

    name = "stdout"         # how messages name it
    to_stdout = True        # whether it writes to stdout's descriptor
    failed = False

    @contextmanager
    def failures(self):
        """Turn an OSError of the stream into failure()'s exception."""
        try:
            yield
        except OSError as error:
            self.failed = True
            raise failure(self.name, error, self.to_stdout) from None


class Stdout(Guarded):
    """sys.stdout while a command runs (main() puts it there): a write or flush that
    fails is the one-line InputError naming stdout, or ReaderGone for a broken pipe, and
    after either, stdout takes and drops everything."""

    def __init__(self, stream):
        self.stream = stream

    def write(self, text):
        """Write text, unless stdout has failed."""
        if self.failed:
            return len(text)
        with self.failures():
            return self.stream.write(text)

    def flush(self):
        """Flush, unless stdout has failed."""
        if not self.failed:
            with self.failures():
                self.stream.flush()

    def __getattr__(self, name):
        return getattr(self.stream, name)


class OutputFile(Guarded):
    """A file that a command writes (--csv, --plot, --trace, --html), opened for writing
    when made, before the first game, through pywar.atomic (a regular file is written
    beside itself and renamed into place by close(); a device is written directly); '-'
    is stdout.  A write, flush or close that fails raises the one-line InputError naming
    the option and the path (exit 3), or ReaderGone for a broken pipe on stdout."""

    def __init__(self, option, path, binary=False, encoding="utf-8"):
        """Open path for writing: text in encoding, or bytes."""
        self.path = path
        self.name = file_name(option, path, "stdout")
        self.file = None                    # the AtomicFile; None for stdout
        self.to_stdout = path == "-"
        self.written = 0                    # the bytes or characters written so far
        with self.failures():
            if self.to_stdout:
                sys.stdout.flush()
                self.stream = sys.stdout.buffer if binary else sys.stdout
            else:
                self.file = AtomicFile(path, binary, encoding)
                self.stream = self.file.stream

    def write(self, data):
        """Write data."""
        with self.failures():
            self.stream.write(data)
        self.written += len(data)

    def close(self):
        """Put the file in place (flush stdout), with what it still holds; after a
        failure, discard it."""
        if self.failed:
            self.discard()
            return
        with self.failures():
            if self.file is None:
                self.stream.flush()
            else:
                self.file.commit()

    def discard(self):
        """Leave the path as it was: remove the temporary file (a device, or stdout, is
        left alone)."""
        if self.file is not None:
            self.file.discard()


def identity(path):
    """What writing path writes to: the (device, inode) of what is there, of stdout for
    '-', or for a path with nothing there yet, its name with every link resolved."""
    found = atomic.identity(stdout_descriptor() if path == "-" else path)
    return os.path.realpath(path) if found is None else found


def check_distinct(parser, outputs):
    """A usage error, before any work, for two outputs that are the same file or stream:
    outputs are (name, path), path None for one not asked for, '-' for stdout.  The
    null device takes any number."""
    null = identity(os.devnull)
    seen = {}
    for name, path in outputs:
        if path is None:
            continue
        key = identity(path)
        label = name if path == "-" else f"{name} {path!r}"
        if key == null:
            continue
        if key in seen:
            parser.error(f"{seen[key]} and {label} are the same file: give each its own")
        seen[key] = label


def refuse_stdout(option, path, parser):
    """A usage error for '-' given to an option that writes only files."""
    if path == "-":
        parser.error(f"{option} writes a file, not stdout: give it a file name")


def shares_stderr(path):
    """True when an output path ('-' for stdout) writes where stderr does: /dev/stderr,
    or stdout and stderr on one terminal.  A bar drawn there would cut into the rows."""
    return path is not None and identity(path) == atomic.identity(2)


def keep_finished(files, finished):
    """The rule of every output file: with no piece of the work finished (finished, the
    games or submissions a command reports, is 0), each file of files (output_files')
    is discarded, its path left as it was, and dropped from files, so that nothing is
    written into it.  stdout, or a device, keeps what was written into it."""
    if finished:
        return
    for option in list(files):
        files.pop(option).discard()


@contextmanager
def output_files(*wanted):
    """Open each (option, path, binary, encoding) with a path, in order, before the work:
    a dict of option: OutputFile.  If one cannot be opened, those opened before it are
    discarded.  On leaving, each is put in place (a close that fails raises), or after an
    exception, discarded (one already closed, as simulate closes its CSV, stays)."""
    opened = {}
    try:
        for option, path, binary, encoding in wanted:
            if path is not None:
                opened[option] = OutputFile(option, path, binary, encoding)
    except BaseException:
        for output in opened.values():
            output.discard()
        raise
    try:
        yield opened
    except BaseException:
        for output in opened.values():
            output.discard()
        raise
    for output in opened.values():
        output.close()
