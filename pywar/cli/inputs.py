"""Reading a file or stdin (replay, diff, referee), and the one-line errors of every
command's files: exit 2, not the kind of file wanted; exit 3, a file or stream that
cannot be read or written, said in one shape by cannot()."""

import sys

NOT_WANTED = 2
IO_FAILED = 3
UNREADABLE = IO_FAILED


class InputError(Exception):
    """A file that cannot be read or written, or is not what the command reads: one line
    and an exit status."""

    def __init__(self, message, status):
        super().__init__(message)
        self.status = status


def read_input(path):
    """The text of a file, or of stdin for '-'; an InputError (exit 3) if it cannot be
    read, or exit 2 if it is not text."""
    try:
        if path == "-":
            data = stdin().buffer.read()
        else:
            with open(path, "rb") as stream:
                data = stream.read()
    except OSError as error:
        raise cannot("read", file_name(None, path, "stdin"), error) from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise InputError(f"{path} is not a text file (not UTF-8)", NOT_WANTED) from None


def stdin():
    """sys.stdin, or the InputError (exit 3) of a command started with it closed."""
    if sys.stdin is None:
        raise InputError("cannot read stdin: it is closed", IO_FAILED)
    return sys.stdin


def file_name(option, path, stream):
    """How a message names a file: stream ('stdin', 'stdout') for '-', else the option and
    the path, "--csv 'games.csv'" (the path alone for an argument, not an option)."""
    if path == "-":
        return stream
    return f"{path!r}" if option is None else f"{option} {path!r}"


def cannot(verb, name, error):
    """The InputError (exit 3) of a file or stream that cannot be read or written, in the
    one shape of every command: "cannot write --csv 'games.csv': No space left on
    device".  error is the OSError, or the reason as text."""
    reason = error.strerror or error if isinstance(error, OSError) else error
    return InputError(f"cannot {verb} {name}: {reason}", IO_FAILED)


def say_error(prog, error):
    """Print an InputError as one line on stderr; its exit status."""
    sys.stdout.flush()
    print(f"{prog}: error: {error}", file=sys.stderr)
    return error.status


MAX_SECONDS = 86_400          # a day: the longest --timeout, within what a clock and an
                              # rlimit on CPU time can hold


def positive_type(label, most, most_words=""):
    """An argparse type: a number above 0, at most most, refused in words naming label."""
    def checked(text):
        import argparse
        try:
            value = float(text)
        except ValueError:
            value = -1.0
        if not 0 < value <= most:
            raise argparse.ArgumentTypeError(f"{label} must be a number above 0 and at most "
                                             f"{most:,}{most_words}, not {text!r}")
        return value
    return checked


seconds_type = positive_type("seconds", MAX_SECONDS, " (a day)")
seconds_type.__doc__ = "An argparse type: a number of seconds above 0, at most MAX_SECONDS."
