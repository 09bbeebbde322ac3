"""A grade's receipt: what a grade is a function of, written into the grade's JSON, so
that a grade says what made it and a regrade can say what changed (docs/grading.md,
section 4).

A grade is a pure function of the submission's files, pywar's version, the rules, the
seeds, the limits, the weights, the build and run commands and the isolation: the
receipt names each, and a submission's files are named by their sha256 (files_sha256).
Nothing in it is a time or a path of the machine, so the same inputs give the same
bytes.
"""

import hashlib
import os
import re
import stat
import tempfile
from dataclasses import asdict

from ... import installed
from ...rules import PRESETS
from ..runner import sandbox
from ..submission.bounds import COPY_BYTES, MIB, TooLarge
from ..submission.files import regular_files

RULES = "smu"                       # the rules the referee holds a transcript to
CHUNK = 1 << 16                     # bytes read at once while hashing
SHA256_OF = ("each regular file of the folder, no link followed, by its path relative "
             "to the folder ('/' between folders) sorted as bytes: the path's bytes, a NUL, "
             "its length in bytes in decimal, a NUL, its bytes (a file or folder pywar cannot "
             "read: its path, a NUL, '-', a NUL; an empty folder, which the build's copy "
             "holds: its path ended by '/', a NUL, '/', a NUL)")
EMPTY_FOLDER = b"/"                 # an empty folder's length, which no file's can be


def receipt(settings):
    """The receipt of a grading's settings: a dict, the same for the same settings."""
    isolation = sandbox.resolve(settings.isolation, check=False)
    judged = settings.assignment              # an assignment whose game the referee judges
    return {"pywar": installed.version(),
            "rules": (PRESETS[RULES] if judged is None else judged.rules).to_dict(),
            **({"assignment": {"name": judged.name, "sha256": judged.sha256}}
               if judged is not None else {}),
            "seeds": {"first": settings.seed, "count": settings.games,
                      "fresh": settings.drawn(), "keyed": settings.key is not None},
            "build": settings.build, "run": settings.run,
            "limits": {"run": asdict(settings.limits), "build": asdict(sandbox.BUILD_LIMITS),
                       "referee_time": settings.referee_time,
                       "budget": settings.budget_seconds()},
            "memory": settings.memory, "fix_include_case": settings.fix_include_case,
            "isolation": {"asked": isolation.asked, "used": isolation.mode},
            "weights": dict(settings.weights), "sha256_of": SHA256_OF,
            **({"stdin": settings.stdin} if settings.stdin else {})}   # an assignment's


def temporary_folders():
    """A pattern of the folders pywar makes for a grading (tempfile's, named pywar-KIND-
    and 8 random characters: the submission's work, a run's scratch, the seed clock)."""
    return re.compile(re.escape(tempfile.gettempdir().rstrip("/")) +
                      r"/pywar-([a-z]+)-[A-Za-z0-9_]{8}")


def stable(value, folders=None):
    """A grade's value (a text, or a list or dict of them) with each of pywar's temporary
    folders named by its kind, '{pywar-run}': a run may print its own path, its working
    folder or its environment, and a build's error may name a file by its path, and the
    same inputs must give the same JSON wherever tempfile puts them."""
    folders = folders or temporary_folders()
    if isinstance(value, str):
        return folders.sub(r"{pywar-\1}", value)
    if isinstance(value, dict):
        return {key: stable(item, folders) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(stable(item, folders) for item in value)
    return value


def hash_file(digest, path, relative, counted):
    """Add one file to the digest: its path, a NUL, its length, a NUL, its bytes (or '-'
    where pywar cannot read it); counted[0] holds the bytes hashed so far."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        digest.update(relative + b"\0-\0")
        return
    with os.fdopen(fd, "rb") as file:
        found = os.fstat(fd)
        if not stat.S_ISREG(found.st_mode):     # swapped for a FIFO since it was listed
            digest.update(relative + b"\0-\0")
            return
        counted[0] += found.st_size
        if counted[0] > COPY_BYTES:
            raise TooLarge(f"more than {COPY_BYTES // MIB} MiB")
        digest.update(relative + b"\0" + str(found.st_size).encode() + b"\0")
        left = found.st_size
        while left > 0:                 # the length said: a file that grows is cut to it
            chunk = file.read(min(CHUNK, left))
            if not chunk:
                break
            digest.update(chunk)
            left -= len(chunk)
        digest.update(b"\0" * left)     # one that shrank, padded to it


def files_sha256(folder):
    """The sha256 of a submission's files, in hex (SHA256_OF says how), or None for one
    past the bounds of its copy (more files, bytes or folders deep than a copy takes)."""
    digest, counted = hashlib.sha256(), [0]
    try:
        for relative in regular_files(folder, empty_folders=True):
            if relative.endswith(b"/"):         # an empty folder: the build sees it
                digest.update(relative + b"\0" + EMPTY_FOLDER + b"\0")
                continue
            hash_file(digest, os.path.join(os.fsencode(folder), relative), relative, counted)
    except TooLarge:
        return None
    return digest.hexdigest()
