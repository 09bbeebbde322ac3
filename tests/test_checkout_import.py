"""A Python started in the folder that holds a checkout named pywar: `import pywar` is the
installed pywar, not the checkout read as an empty namespace package (issue 31).  An
editable install puts the checkout's root on the path (pyproject's package-dir), where
Python finds the regular package pywar/ ahead of a namespace portion; setuptools' finder
for a flat layout comes after Python's own and was never asked.  The checkout is linked
into a temporary folder under the name pywar, as `git clone` names it."""

import os
import subprocess
import sys

import pytest

from conftest import ROOT

SHOW = "import pywar; print(pywar.__file__); print(','.join(pywar.engines()))"


@pytest.fixture
def beside(tmp_path):
    """A folder holding the checkout, as pywar/: its path."""
    os.symlink(ROOT, tmp_path / "pywar")
    return tmp_path


def python(folder, *argv):
    """This Python, started in folder: its CompletedProcess."""
    return subprocess.run([sys.executable, *argv], cwd=folder, capture_output=True,
                          text=True, env={**os.environ, "PYTHONPATH": ""})


def installed():
    """Where the pywar these tests run finds its package, started away from the checkout."""
    done = subprocess.run([sys.executable, "-c", "import pywar; print(pywar.__file__)"],
                          cwd="/", capture_output=True, text=True)
    return done.stdout.strip()


def test_python_beside_the_checkout_imports_the_installed_pywar(beside):
    """With an editable install this was the namespace package: "AttributeError: module
    'pywar' has no attribute 'engines'"."""
    done = python(beside, "-c", SHOW)
    assert done.returncode == 0, done.stderr
    where, engines = done.stdout.splitlines()
    assert where == installed() and where.endswith(os.path.join("pywar", "__init__.py"))
    assert "python" in engines.split(",")
    done = python(beside, "-m", "pywar", "play", "--seed", "17455", "--json")
    assert done.returncode == 0 and '"winner": "B"' in done.stdout, done.stderr


def test_inside_the_checkout_the_source_folder_is_pywar():
    """Started in the checkout, pywar/ is the package, as before."""
    done = python(ROOT, "-c", SHOW)
    assert done.returncode == 0 and done.stdout.splitlines()[0] == str(
        ROOT / "pywar" / "__init__.py")
