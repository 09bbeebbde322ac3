"""A child of the runner that runs a student's Python (pywar exercise check's port, a
py:MODULE:CLASS of pywar check and pywar referee): started by sandbox.run as

    python -I -S -B -c BOOT LIB ARGS...

under the base interpreter (not a venv's), isolated from the environment and the user's
site (-I), with no site-packages (-S), writing no .pyc (-B).  BOOT puts LIB first on
sys.path and calls a main of pywar's; LIB is a folder of copies of the few modules of
pywar that the child needs (copy_shared), so that the child imports nothing of the
pywar installed and needs no copy of the runner.  The child records what it played as
JSON lines on its stdout (pywar.common.tape), read back here by records_of.
"""

import json
import os
import sys

PYWAR_FOLDER = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def python_for_runs():
    """The Python interpreter a child runs under (the base one, not a venv's)."""
    return os.path.realpath(getattr(sys, "_base_executable", None) or sys.executable)


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


def records_of(text):
    """The records a child wrote, up to the first that is not one."""
    records = []
    for line in text.splitlines():
        try:
            record = json.loads(line)
        except ValueError:
            break
        if not isinstance(record, dict):
            break
        records.append(record)
    return records


def not_started(outcome, python, what):
    """Why a child's Python could not be started (the machine's fault, not the student's),
    in a sentence about what it was to run."""
    said = outcome.failed_to_start or (outcome.stderr.strip().splitlines() or ["?"])[-1]
    return (f"the check could not start Python for {what}: {said} (without bubblewrap, as "
            f"root, {what} runs as a user of its own, who must be able to run {python})")
