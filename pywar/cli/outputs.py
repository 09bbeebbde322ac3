"""Where the commands write: stdout, and the files of --csv, --plot, --trace and --html.

Every file is opened for writing (not appending) before the first game, so that a path
that cannot be written costs no work.  A file or stdout that cannot be written is one
line naming it, "cannot write --csv 'games.csv': No space left on device" (exit 3).  A
reader of stdout that goes away (`pywar simulate --csv - | head`) ends the command
quietly, with exit 0, as it ends `cat`: that is ReaderGone.  '-' is stdout for --csv
and --trace; --plot and --html write only files.
"""

import os
import sys
from contextlib import contextmanager, suppress

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


def is_stdout(stream):
    """True when an open file is stdout's own (a path such as /dev/stdout)."""
    own = stdout_descriptor()
    try:
        return own is not None and os.path.sameopenfile(stream.fileno(), own)
    except OSError:
        return False


class OutputFile(Guarded):
    """A file that a command writes (--csv, --plot, --trace, --html), opened for writing
    when made, before the first game; '-' is stdout.  A write, flush or close that fails
    raises the one-line InputError naming the option and the path (exit 3), or ReaderGone
    for a broken pipe on stdout."""

    def __init__(self, option, path, binary=False, encoding="utf-8"):
        """Open path for writing: text in encoding, or bytes."""
        self.path = path
        self.name = file_name(option, path, "stdout")
        self.owned = path != "-"            # a file of its own, to close (not stdout)
        self.to_stdout = not self.owned
        with self.failures():
            if not self.owned:
                sys.stdout.flush()
                self.stream = sys.stdout.buffer if binary else sys.stdout
            else:
                self.stream = open(path, "wb") if binary else open(path, "w", encoding=encoding)
                self.to_stdout = is_stdout(self.stream)

    def write(self, data):
        """Write data."""
        with self.failures():
            self.stream.write(data)

    def close(self):
        """Close the file (flush stdout), writing what it still holds; after a failure,
        close it quietly."""
        if self.failed:
            self.discard(remove=False)
            return
        with self.failures():
            if self.owned:
                self.stream.close()
            else:
                self.stream.flush()

    def discard(self, remove=True):
        """Close the file, quietly, and remove it (nothing in it is worth keeping)."""
        if not self.owned:
            return
        with suppress(OSError):
            self.stream.close()
        if remove:
            with suppress(OSError):
                os.remove(self.path)


def refuse_stdout(option, path, parser):
    """A usage error for '-' given to an option that writes only files."""
    if path == "-":
        parser.error(f"{option} writes a file, not stdout: give it a file name")


@contextmanager
def output_files(*wanted):
    """Open each (option, path, binary, encoding) with a path, in order, before the work:
    a dict of option: OutputFile.  If one cannot be opened, those opened before it are
    removed.  On leaving, each is closed (a close that fails raises), or after an
    exception, closed quietly."""
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
            output.discard(remove=False)
        raise
    for output in opened.values():
        output.close()
