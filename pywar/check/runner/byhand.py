"""A run of pywar grade's repeated by hand, outside the sandbox: the seed clock built
once into a cache of the user's (its name carries a hash of its source, so a new pywar
builds its own), and the environment a run gets, the seed clock's two included
(`pywar clock`; docs/grading.md, section 4)."""

import hashlib
import os
import shutil
import stat
import tempfile
from importlib import resources

from . import sandbox

HASHED = 12                             # hex digits of the source's sha256 in the name


def cache_folder():
    """The folder of pywar's cache: $XDG_CACHE_HOME/pywar, or ~/.cache/pywar."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"),
                                                            ".cache")
    return os.path.join(base, "pywar")


def clock_name():
    """The seed clock's file name, with a hash of its source: seedclock-1a2b3c4d5e6f.so."""
    source = resources.files("pywar.check.runner").joinpath(sandbox.SEED_CLOCK)
    digest = hashlib.sha256(source.read_bytes()).hexdigest()[:HASHED]
    return f"seedclock-{digest}.so"


def built_clock(folder=None):
    """The seed clock's path in folder (default: cache_folder()), built there once: a
    regular file of that name is taken as built (no link followed), else it is built
    beside and renamed into place.  OSError where it cannot be."""
    folder = folder or cache_folder()
    os.makedirs(folder, 0o755, exist_ok=True)
    library = os.path.join(os.path.abspath(folder), clock_name())
    try:
        if stat.S_ISREG(os.lstat(library).st_mode):
            return library
    except FileNotFoundError:
        pass
    scratch = tempfile.mkdtemp(prefix=".pywar-clock-", dir=folder)
    try:
        os.replace(sandbox.seed_clock(scratch), library)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return library


def run_environment(library, seed):
    """The environment of a run of seed, as sandbox.run gives it (but HOME, a run's own
    scratch folder): {name: value}."""
    env = sandbox.scrubbed_environment("", sandbox.seeded(library, seed))
    env.pop("HOME")
    return env
