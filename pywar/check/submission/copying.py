"""A submission copied for its build or its run: its regular files and folders, no link
followed, without recursion, within its bounds, leaving out what its owner could not read
themselves."""

import os
import shutil
import stat

from .bounds import COPY_BYTES, COPY_DEPTH, COPY_FILES, MIB, TooLarge
from .ownership import unreadable


def copy_entry(entry, target, owner, counted, skipped):
    """Copy one entry of a submission (a regular file or a folder, never followed, that
    its owner could read): the folder to walk next, if it is one."""
    if entry.is_dir(follow_symlinks=False):
        why = unreadable(entry.stat(follow_symlinks=False), owner)
        if why:
            skipped.append(f"left out {entry.path!r}: {why}")
            return None
        os.mkdir(target, 0o755)
        return target
    if not entry.is_file(follow_symlinks=False):
        skipped.append(f"left out {entry.path!r}: not a regular file or folder")
        return None
    fd = os.open(entry.path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    with os.fdopen(fd, "rb") as source:
        found = os.fstat(fd)
        why = "not a regular file" if not stat.S_ISREG(found.st_mode) else \
            unreadable(found, owner)
        if why:
            skipped.append(f"left out {entry.path!r}: {why}")
            return None
        counted[0] += 1
        counted[1] += found.st_size
        if counted[0] > COPY_FILES or counted[1] > COPY_BYTES:
            raise TooLarge(f"more than {COPY_FILES} files or {COPY_BYTES // MIB} MiB")
        with open(target, "xb") as copy:
            shutil.copyfileobj(source, copy)
    os.chmod(target, 0o755 if found.st_mode & 0o100 else 0o644)
    return None


def safe_copy(source, copy):
    """Copy a submission's regular files and folders, following no link, without
    recursion, leaving out what its owner could not read themselves: the notes of what
    was left out (a FIFO, a device, a link, a hard link, another user's private file);
    TooLarge past its bounds."""
    skipped, counted = [], [0, 0]
    owner = os.stat(source).st_uid
    os.mkdir(copy, 0o755)
    pending = [(source, copy, 0)]
    while pending:
        folder, target, depth = pending.pop()
        if depth > COPY_DEPTH:
            raise TooLarge(f"folders more than {COPY_DEPTH} deep")
        with os.scandir(folder) as entries:
            for entry in entries:
                walked = copy_entry(entry, os.path.join(target, entry.name), owner, counted,
                                    skipped)
                if walked is not None:
                    pending.append((entry.path, walked, depth + 1))
    return skipped
