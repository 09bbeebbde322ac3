"""What the trace tools (replay, diff, referee) share: reading a file or stdin, and
their one-line errors (exit 2: not the kind of file wanted; exit 3: cannot be read)."""

import sys

NOT_WANTED = 2
UNREADABLE = 3


class InputError(Exception):
    """A file that cannot be read, or is not what the command reads: one line and an
    exit status."""

    def __init__(self, message, status):
        super().__init__(message)
        self.status = status


def read_input(path):
    """The text of a file, or of stdin for '-'; an InputError (exit 3) if it cannot be
    read, or exit 2 if it is not text."""
    try:
        if path == "-":
            data = sys.stdin.buffer.read()
        else:
            with open(path, "rb") as stream:
                data = stream.read()
    except OSError as error:
        raise InputError(f"cannot read {path}: {error.strerror or error}", UNREADABLE) from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise InputError(f"{path} is not a text file (not UTF-8)", NOT_WANTED) from None


def say_error(prog, error):
    """Print an InputError as one line on stderr; its exit status."""
    sys.stdout.flush()
    print(f"{prog}: error: {error}", file=sys.stderr)
    return error.status


def seconds_type(text):
    """An argparse type: a number of seconds above 0."""
    import argparse
    try:
        seconds = float(text)
    except ValueError:
        seconds = -1.0
    if not seconds > 0 or seconds == float("inf"):
        raise argparse.ArgumentTypeError(f"seconds must be a number above 0, not {text!r}")
    return seconds


class TraceFile:
    """pywar play --trace FILE: the open file, whose write errors name --trace."""

    def __init__(self, path):
        """Open the file for writing, before the game; an InputError (exit 3) if it
        cannot be."""
        self.path = path
        try:
            self.stream = open(path, "w", encoding="ascii")
        except OSError as error:
            raise InputError(f"--trace: cannot write {path}: {error.strerror or error}",
                             UNREADABLE) from None

    def write(self, text):
        """Write a piece of the trace; an InputError (exit 3) if it cannot be."""
        try:
            self.stream.write(text)
        except OSError as error:
            raise InputError(f"--trace: cannot write {self.path}: {error.strerror or error}",
                             UNREADABLE) from None

    def close(self):
        """Close the file; an InputError (exit 3) if what was written cannot be."""
        try:
            self.stream.close()
        except OSError as error:
            raise InputError(f"--trace: cannot write {self.path}: {error.strerror or error}",
                             UNREADABLE) from None


def trace_target(path):
    """Where pywar play sends the trace: False (none), sys.stdout for '-', or a
    TraceFile."""
    if path is None:
        return False
    return sys.stdout if path == "-" else TraceFile(path)
