"""A file of a submission, or one a run wrote, opened for reading: a regular file alone,
no link followed, no FIFO waited on."""

import contextlib
import os
import stat


@contextlib.contextmanager
def regular_file(path):
    """The regular file at path opened for reading in bytes, or an OSError saying why not
    (a link is not followed, a FIFO or a device is not opened: 'not a regular file')."""
    fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    with os.fdopen(fd, "rb") as file:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(f"{path}: not a regular file")
        yield file
