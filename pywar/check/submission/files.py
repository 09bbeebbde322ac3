"""The files of a submission: each regular file under its folder, no link followed,
within its bounds, and which of them are sources (pywar grade builds them, pywar similar
compares them)."""

import os

from .bounds import COPY_DEPTH, COPY_FILES, TooLarge

SOURCES = (".c", ".cc", ".cpp", ".cxx", ".h", ".hh", ".hpp", ".hxx")   # C and C++


def regular_files(folder):
    """(relative path as bytes, '/' between folders) of each regular file under folder,
    and of each folder pywar cannot read, no link followed, without recursion; TooLarge
    past the bounds of a copy."""
    found, pending = [], [(os.fsencode(folder), b"", 0)]
    while pending:
        top, relative, depth = pending.pop()
        if depth > COPY_DEPTH:
            raise TooLarge(f"folders more than {COPY_DEPTH} deep")
        try:
            with os.scandir(top) as entries:
                for entry in entries:
                    path = relative + entry.name
                    if entry.is_dir(follow_symlinks=False):
                        pending.append((entry.path, path + b"/", depth + 1))
                    elif entry.is_file(follow_symlinks=False):
                        found.append(path)
        except OSError:                 # a folder pywar cannot read: listed as unreadable
            found.append(relative.rstrip(b"/"))
        if len(found) > COPY_FILES:
            raise TooLarge(f"more than {COPY_FILES:,} files")
    return sorted(found)
