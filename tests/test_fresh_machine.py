"""A fresh machine of the project's kind passes (issue 37): as root, its Python in a folder
closed to other users (pyenv's under /root, mode 0700), no bubblewrap, the checkout closed
too.  There a run's user of its own may not start that Python, nor enter pytest's
temporary folder: the tests of the runner's children pass, or skip saying that they need
bubblewrap.  And pytest's summary lists the failures, not only the skips."""

import os
import shutil
import subprocess
import sys

import pytest

from conftest import NO_PYTHON_RUNS, ROOT
from pywar.check.runner import pychild

RUNNERS_TESTS = ("tests/test_exercise.py", "tests/test_check.py", "tests/test_grade.py",
                 "tests/test_sandbox.py", "tests/test_pyclass.py", "tests/test_referee.py",
                 "tests/test_student.py", "tests/test_hostile.py")
FAILING = "def test_fails():\n    assert 1 == 2\n\n\ndef test_passes():\n    pass\n"


def test_the_summary_lists_a_failure(tmp_path):
    """pyproject's addopts: the short summary names a failed test (a bare -rs named only
    the skipped, and a failure of a long run was 900 lines up)."""
    (tmp_path / "test_one.py").write_text(FAILING)
    done = subprocess.run([sys.executable, "-m", "pytest", "-c", str(ROOT / "pyproject.toml"),
                           "-p", "no:cacheprovider", "-p", "no:xdist", "--rootdir",
                           str(tmp_path), str(tmp_path / "test_one.py")],
                          capture_output=True, text=True, cwd=tmp_path)
    summary = done.stdout.split("short test summary info")[-1]
    assert done.returncode == 1
    assert "FAILED test_one.py::test_fails" in summary, done.stdout


def closed_copy(closed):
    """This checkout's files (tracked, and new ones not ignored) copied into closed/pywar."""
    listed = subprocess.run(["git", "-C", str(ROOT), "ls-files", "-z", "--cached", "--others",
                             "--exclude-standard"], capture_output=True)
    if listed.returncode != 0:
        pytest.skip("not a git checkout: its files cannot be listed")
    copy = closed / "pywar"
    for name in sorted(set(listed.stdout.decode().split("\0")) - {""}):
        source = ROOT / name
        if source.is_file():
            (copy / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, copy / name)
    return copy


def closed_venv(closed):
    """A venv whose base Python lies in closed/bin, a copy of this one (the venv's base
    is the Python the runner's children are given first)."""
    python = closed / "bin" / os.path.basename(pychild.base_python())
    python.parent.mkdir()
    shutil.copy2(pychild.base_python(), python)
    subprocess.run([str(python), "-m", "venv", str(closed / "venv")], check=True)
    return closed / "venv"


def without_bwrap(folder):
    """A folder holding a bwrap that fails, as /tmp/nobwrap's: PATH's first, no sandbox."""
    folder.mkdir()
    (folder / "bwrap").write_text("#!/bin/sh\nexit 1\n")
    (folder / "bwrap").chmod(0o755)
    return folder


@pytest.mark.slow
def test_the_runner_s_tests_pass_on_a_fresh_machine(tmp_path):
    """The README's second command, `pip install -e '.[test]' && pytest -n auto`, in a
    fresh venv of a Python in a folder of mode 0700, on a copy of the checkout there,
    under a PATH whose bwrap fails, on the tests of the runner's children: exit 0, and
    where this machine has a Python every user may run, no test skipped for want of
    one."""
    closed = tmp_path / "closed"
    closed.mkdir(mode=0o700)
    copy, venv = closed_copy(closed), closed_venv(closed)
    subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet", "-e",
                    f"{copy}[test]"], check=True)
    environment = {name: value for name, value in os.environ.items()
                   if name != "PYWAR_REQUIRE_BWRAP" and not name.startswith("PYTEST_")}
    environment["PATH"] = os.pathsep.join(
        [str(without_bwrap(tmp_path / "nobwrap")), str(venv / "bin"), os.environ["PATH"]])
    done = subprocess.run(["pytest", "-n", "auto", "-p", "no:cacheprovider", *RUNNERS_TESTS],
                          cwd=copy, env=environment, capture_output=True, text=True)
    summary = done.stdout[done.stdout.rfind("short test summary info"):]
    assert done.returncode == 0, summary[-6000:]
    assert " passed" in summary.splitlines()[-1], summary[-6000:]
    if pychild.system_python() is not None:
        assert NO_PYTHON_RUNS not in summary, summary
