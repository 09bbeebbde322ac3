"""The instructor's grading key: KEY_BYTES secret bytes, made once in the user's config
folder and never replaced, that key each submission's memory seed to its files
(seeds.keyed_seed; docs/grading.md, section 2, "The seed")."""

import errno
import os
import secrets
import tempfile

from ..submission.regular import regular_file

KEY_BYTES = 32                      # secrets' bytes: HMAC-SHA256's own block of strength
FILE_NAME = "grading-key"           # in $XDG_CONFIG_HOME/pywar/, else ~/.config/pywar/


class KeyUnusable(Exception):
    """A grading key that cannot be read or made: its path, and why in a few words."""

    def __init__(self, path, why):
        super().__init__(f"{path}: {why}")
        self.path, self.why = path, why


def key_path(environ=os.environ):
    """The grading key's path: $XDG_CONFIG_HOME/pywar/grading-key, else (XDG_CONFIG_HOME
    unset, empty or relative, as the XDG spec ignores it) ~/.config/pywar/grading-key."""
    base = environ.get("XDG_CONFIG_HOME", "")
    if not os.path.isabs(base):
        base = os.path.join(os.path.expanduser("~"), ".config")
    return os.path.join(base, "pywar", FILE_NAME)


def grading_key(path=None):
    """The key at path (key_path()'s by default), made there first where there is none;
    KeyUnusable where it cannot be read or made, or is not a key of pywar's."""
    path = path or key_path()
    try:
        return read_key(path)
    except FileNotFoundError:
        pass
    except OSError as error:
        raise KeyUnusable(path, reason(error, path)) from None
    try:
        make_key(path)
        return read_key(path)
    except OSError as error:
        raise KeyUnusable(path, reason(error, path)) from None


def reason(error, path):
    """An OSError of the key's at path in words (a link: refused, not followed)."""
    if error.errno == errno.ELOOP:
        return "it is a symbolic link, which pywar does not follow: remove it"
    return error.strerror or str(error).removeprefix(f"{path}: ")


def read_key(path):
    """The key of the file at path, opened as the submission room opens a file (a regular
    file, no link followed: regular_file): KEY_BYTES bytes that no one else may read
    (KeyUnusable otherwise)."""
    with regular_file(path) as file:
        mode = os.fstat(file.fileno()).st_mode
        if mode & 0o077:
            raise KeyUnusable(path, f"others may read it (mode {mode & 0o777:o}): "
                                    "chmod 600 it")
        key = file.read(KEY_BYTES + 1)
    if len(key) != KEY_BYTES:
        raise KeyUnusable(path, f"not a key of pywar's ({len(key)} bytes, not {KEY_BYTES})")
    return key


def make_key(path):
    """Make the key at path, once: KEY_BYTES from secrets written whole into a file of its
    folder's made with O_CREAT|O_EXCL|O_NOFOLLOW, mode 0600 (tempfile.mkstemp), then linked
    to path, which link(2) neither follows nor replaces (where a grader started beside
    this one made it first, that one stays): no grader reads a key half written."""
    folder = os.path.dirname(path)
    os.makedirs(folder, 0o700, exist_ok=True)
    fd, part = tempfile.mkstemp(prefix=f".{FILE_NAME}-", dir=folder)
    try:
        with os.fdopen(fd, "wb") as file:
            file.write(secrets.token_bytes(KEY_BYTES))
            file.flush()
            os.fsync(file.fileno())
        try:
            os.link(part, path)
        except FileExistsError:
            pass
    finally:
        os.unlink(part)
