"""A file of a submission, or one a run wrote, opened for reading: a regular file alone,
no link followed, no FIFO waited on, and (given the submission's owner) none its owner
could not read themselves."""

import contextlib
import errno
import os
import stat

from .ownership import unreadable


@contextlib.contextmanager
def regular_file(path, owner=None):
    """The regular file at path opened for reading in bytes, or an OSError saying why not
    (a link is not followed, a FIFO or a device is not opened: 'not a regular file');
    with owner (a submission's user id), one its owner could not read themselves is
    refused too (ownership.unreadable: a hard link, another user's private file)."""
    fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    with os.fdopen(fd, "rb") as file:
        found = os.fstat(fd)
        if not stat.S_ISREG(found.st_mode):
            raise OSError(f"{path}: not a regular file")
        why = None if owner is None else unreadable(found, owner)
        if why:
            raise OSError(errno.EACCES, why)
        yield file
