"""A child of the runner that runs a student's Python (pywar exercise check's port, a
py:MODULE:CLASS of pywar check and pywar referee): started by sandbox.run as

    python -I -S -B -c BOOT LIB ARGS...

under the base interpreter (not a venv's; as root without bubblewrap, where the run's user
of its own may not run that one, as one under /root, a system Python 3.10+ that every
user may run: python_for_runs), isolated from the environment and the user's
site (-I), with no site-packages (-S), writing no .pyc (-B).  BOOT puts LIB first on
sys.path and calls a main of pywar's; LIB is a folder of copies of the few modules of
pywar that the child needs (copy_shared), so that the child imports nothing of the
pywar installed and needs no copy of the runner.  The child records what it played as
JSON lines on its stdout (pywar.common.record: record_game), read back by the caller
(record.records_of).
"""

import functools
import os
import subprocess
import sys

from . import sandbox

PYWAR_FOLDER = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OLDEST = (3, 10)                        # pywar's requires-python: the child's modules need it
INSTALL = ("install bubblewrap (apt-get install bubblewrap) or a Python 3.10+ that every "
           "user may run (apt-get install python3)")


def base_python():
    """The Python pywar runs on, the base one (not a venv's), its real path."""
    return os.path.realpath(getattr(sys, "_base_executable", None) or sys.executable)


def python_for_runs(isolation="auto"):
    """The Python interpreter a child runs under: the base one where the run's user may
    run it (in bubblewrap, which shows it; not as root, as pywar's own user; or one every
    user may run), else a system Python 3.10+ that every user may run, else the base one
    (which will not start: not_started says what to install)."""
    base = base_python()
    if sandbox.resolve(isolation, check=False).mode == "bwrap" or not sandbox.as_root() or \
            others_may_run(base):
        return base
    return system_python() or base


def others_may_run(path):
    """Whether a user of its own (the runner's, as root, without bubblewrap) may run a
    program: every folder above it searchable by others, the file runnable by them."""
    return sandbox.open_to_others(os.path.dirname(path)) and \
        bool(os.stat(path).st_mode & 0o001)


@functools.cache
def system_python():
    """The first python3 on a run's PATH (this Python's version first) that every user
    may run and that is 3.10 or newer, its real path; or None (asked once a process)."""
    names = (f"python{sys.version_info[0]}.{sys.version_info[1]}", "python3")
    for folder in sandbox.RUN_PATH.split(":"):
        for name in names:
            path = os.path.realpath(os.path.join(folder, name))
            if os.path.isfile(path) and others_may_run(path) and new_enough(path):
                return path
    return None


def new_enough(python):
    """Whether a Python is OLDEST or newer (asked of it, isolated, as pywar's user)."""
    probe = subprocess.run([python, "-I", "-S", "-c",
                            f"import sys; sys.exit(sys.version_info < {OLDEST!r})"],
                           stdin=subprocess.DEVNULL, capture_output=True)
    return probe.returncode == 0


def boot(module):
    """BOOT: the -c program that runs main(ARGS) of a module of pywar's from LIB."""
    return (f"import sys; sys.path.insert(0, sys.argv.pop(1)); "
            f"from {module} import main; main(sys.argv[1:])")


def copy_shared(lib, parts):
    """The pywar a child runs on, in lib: copies of parts of pywar (a module's file, or a
    folder's .py files, as 'rules.py', 'common', 'check/exercise/portplay.py'), and an
    empty __init__.py in each package above them, pywar's own included.  lib."""
    for part in parts:
        source, target = os.path.join(PYWAR_FOLDER, part), os.path.join(lib, "pywar", part)
        names = sorted(os.listdir(source)) if os.path.isdir(source) else [None]
        for name in names:
            if name is None or name.endswith(".py"):
                from_path = source if name is None else os.path.join(source, name)
                to_path = target if name is None else os.path.join(target, name)
                os.makedirs(os.path.dirname(to_path), 0o755, exist_ok=True)
                with open(from_path, "rb") as file, open(to_path, "xb") as copy:
                    copy.write(file.read())
                os.chmod(to_path, 0o644)
        above = os.path.dirname(os.path.join("pywar", part))
        while above:
            with open(os.path.join(lib, above, "__init__.py"), "a", encoding="utf-8"):
                pass                            # a package's own __init__.py is kept
            above = os.path.dirname(above)
    return lib


def not_started(outcome, python, what):
    """Why a child's Python could not be started (the machine's fault, not the student's),
    in a sentence about what it was to run."""
    said = outcome.failed_to_start or (outcome.stderr.strip().splitlines() or ["?"])[-1]
    return (f"the check could not start Python for {what}: {said} (without bubblewrap, as "
            f"root, {what} runs as a user of its own, who may not run {python}: "
            f"{INSTALL})")
