"""Which engines are built: pywar.engines(), `pywar --version`, PYWAR_REQUIRE_C at run
time, and the build's warning and error when the C core cannot be compiled.

The real installs without a compiler are in tests/test_packaging.py (slow); here the
missing core is simulated, as tests/test_api.py does, by setting pywar._checked.lib to
None."""

import importlib.machinery
import importlib.util
import json
import os
import re
import runpy
import shutil
import subprocess
import sys
from importlib import metadata

from pathlib import Path

import pytest

import pywar
from conftest import ROOT, needs_c, reference_transcript
from pywar import _checked
from pywar.cli import main

ALL = ("c", "python", "port-c", "port-python")


@pytest.fixture
def no_core(monkeypatch):
    """pywar as it is when the C core was not built."""
    monkeypatch.setattr(_checked, "lib", None)
    monkeypatch.setattr(_checked, "ffi", None)
    monkeypatch.setattr(_checked, "MISSING", "the C core (pywar._core) is not built")
    monkeypatch.delenv("PYWAR_REQUIRE_C", raising=False)
    return monkeypatch


def run(capsys, *argv):
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


@needs_c
def test_engines_when_the_core_is_built():
    assert pywar.engines() == ALL
    assert _checked.missing() is None


def test_engines_without_the_core(no_core):
    assert pywar.engines() == ("python", "port-python")
    assert _checked.missing() == "the C core (pywar._core) is not built"
    assert "engines" in pywar.__all__


@needs_c
def test_version_names_the_engines(capsys):
    status, out, err = run(capsys, "--version")
    assert (status, err) == (0, "")
    number = metadata.version("pywar")
    note = "; C core built with PYWAR_SANITIZE" if _checked.sanitized() else ""
    assert out == f"pywar {number} (engines: c, python, port-c, port-python{note})\n"


def test_version_without_the_core_says_how_to_get_it(capsys, no_core):
    status, out, err = run(capsys, "--version")
    assert (status, err) == (0, "")
    assert out == (f"pywar {metadata.version('pywar')} (engines: python, port-python; the C "
                   "core (pywar._core) is not built: for c and port-c, install a C compiler "
                   "and reinstall pywar (pip install .))\n")


def test_other_commands_do_not_load_the_core():
    """--version asks which engines are built only when it is given."""
    code = ("import sys, pywar.cli; pywar.cli.main(['rules', '--json']); "
            "assert 'pywar._core' not in sys.modules, 'loaded'")
    run_ = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True)
    assert run_.returncode == 0, run_.stderr


@pytest.mark.parametrize("argv, instead", [
    (["play", "--engine", "c"], "python"), (["simulate", "-n", "2", "--engine", "c"], "python"),
    (["exact", "--deck", "4x1", "--piles", "queue", "--engine", "c"], "python"),
    (["referee", "--engine", "port-c", "--seed", "1"], "port-python")])
def test_without_the_core_the_command_says_which_option_to_use(no_core, capsys, argv, instead):
    """The command line's words (--engine python), not Python's (engine='python')."""
    status, out, err = run(capsys, *argv)
    assert (status, out) == (2, "") and err.count("\n") == 1
    assert err.endswith(f"is not built: install a C compiler and reinstall pywar (pip install .), "
                        f"or use --engine {instead}\n")
    with pytest.raises(RuntimeError, match=f"or use engine='{instead}'$"):
        pywar.play(1, engine=argv[argv.index("--engine") + 1])


def test_require_c_turns_the_fallback_into_an_error(no_core):
    no_core.setenv("PYWAR_REQUIRE_C", "1")
    with pytest.raises(RuntimeError, match="PYWAR_REQUIRE_C is set and the C core "
                                           r"\(pywar._core\) is not built"):
        pywar.play(17455)
    with pytest.raises(RuntimeError, match="PYWAR_REQUIRE_C"):
        pywar.simulate(10, engine="auto")
    game = pywar.play(17455, engine="python", transcript=True)      # asked for: allowed
    assert game.transcript == reference_transcript(17455)


@pytest.mark.parametrize("value, falls_back", [("", True), ("0", True), ("1", False),
                                               ("yes", False)])
def test_require_c_values(no_core, value, falls_back):
    no_core.setenv("PYWAR_REQUIRE_C", value)
    if falls_back:
        with pytest.warns(RuntimeWarning, match="reinstall pywar"):
            assert pywar.play(17455).engine == "python"
    else:
        with pytest.raises(RuntimeError, match="PYWAR_REQUIRE_C"):
            pywar.play(17455)


def test_require_c_on_the_command_line_is_one_line(capsys, no_core):
    no_core.setenv("PYWAR_REQUIRE_C", "1")
    status, out, err = run(capsys, "play", "--seed", "17455")
    assert (status, out) == (2, "")
    assert err == ("pywar play: error: PYWAR_REQUIRE_C is set and the C core (pywar._core) "
                   "is not built: install a C compiler and reinstall pywar (pip install .)\n")
    status, out, err = run(capsys, "play", "--seed", "17455", "--engine", "python", "--json")
    assert status == 0 and json.loads(out)["rounds"] == 29


def test_a_core_that_cannot_load_says_why(tmp_path):
    """A pywar._core that is there but cannot be loaded (here: not a shared object)
    leaves pywar working on its Python engines, and says why."""
    package = tmp_path / "pywar"
    shutil.copytree(ROOT / "pywar", package,
                    ignore=shutil.ignore_patterns("*.so", "*.pyd", "__pycache__"))
    (package / f"_core{importlib.machinery.EXTENSION_SUFFIXES[0]}").write_text("not a library")
    code = ("import pywar, pywar._checked as checked; assert pywar.__file__.startswith("
            "sys.argv[1]); print(checked.available(), checked.missing()); "
            "print(pywar.engines(), pywar.play(17455, engine='python').rounds)")
    run_ = subprocess.run([sys.executable, "-c", "import sys; " + code, str(tmp_path)],
                          cwd=tmp_path, capture_output=True, text=True)
    assert run_.returncode == 0, run_.stderr
    lines = run_.stdout.splitlines()
    assert re.fullmatch(r"False the C core \(pywar._core\) cannot be loaded \(.*\)", lines[0])
    assert lines[1] == "('python', 'port-python') 29"


@pytest.mark.parametrize("error, reason", [
    ("Command '['false', '-O2', '-c', 'x.c']' returned non-zero exit status 1.",
     "the compiler command 'false' failed with exit status 1"),
    ("[Errno 2] No such file or directory: '/nowhere/cc'",
     "[Errno 2] No such file or directory: '/nowhere/cc'"),
    ("command 'gcc' failed: No such file or directory",
     "command 'gcc' failed: No such file or directory"),
])
def test_the_build_says_why_in_one_line(error, reason):
    setup = runpy.run_path(str(ROOT / "setup.py"), run_name="pywar_setup")
    assert setup["reason"](RuntimeError(error)) == reason
    warning = setup["WARNING"].format(error=reason)
    assert warning.count("WARNING") == 1 and "pywar" in warning
    assert "pure-Python engines" in warning and "install a C compiler" in warning


def test_a_deal_for_the_port_is_refused_in_the_callers_words(capsys):
    status, out, err = run(capsys, "play", "--engine", "port-python", "--deal", "1/0")
    assert (status, out) == (2, "") and err == (
        "pywar play: error: the port deals a shuffled deck only: a given deal needs "
        "--engine c or python\n")
    with pytest.raises(ValueError, match="a given deal needs engine c or python$"):
        pywar.play(1, engine="port-python", deal=([1], [0]))


def unbuilt_checkout(folder):
    """A checkout of pywar with no core built in it: its folder."""
    checkout = folder / "checkout"
    shutil.copytree(Path(pywar.__file__).parent, checkout / "pywar",
                    ignore=shutil.ignore_patterns("*.so", "__pycache__"))
    (checkout / "csrc").mkdir()
    return checkout


def says_checkout_shadows(checkout, installed, **env):
    """A game played by Python started in the checkout, with PYWAR_REQUIRE_C unset, then
    set (CI sets it: both ways, always), warns, then fails, naming the checkout, the
    installed pywar's folder and what to do."""
    code = "import warnings, pywar; warnings.simplefilter('error'); pywar.play(1)"
    remedy = f"run from another folder than {checkout}, or pip install -e {checkout}"
    for required, ending in (("", f"(for the C engine: {remedy})"), ("1", remedy)):
        found = subprocess.run([sys.executable, "-c", code], cwd=checkout,
                               env={**os.environ, **env, "PYWAR_REQUIRE_C": required},
                               capture_output=True, text=True)
        last = found.stderr.strip().splitlines()[-1]
        assert last.startswith("RuntimeError: PYWAR_REQUIRE_C is set" if required
                               else "RuntimeWarning:")
        assert f"is not built in the checkout {checkout}, which Python imported" in last
        assert re.search(f"instead of the pywar installed in {re.escape(str(installed))}[:;]",
                         last), last
        assert last.endswith(ending)


def test_a_checkout_imported_in_place_of_the_installed_pywar_says_so(tmp_path):
    """From inside a checkout whose core is not built, Python imports the checkout, not
    the installed pywar: the warning said 'install a C compiler and reinstall pywar' of a
    core that is built (issue 37); it names both folders and what to do."""
    checkout = unbuilt_checkout(tmp_path)
    installed = subprocess.run([sys.executable, "-c", "import pywar; print(pywar.__file__)"],
                               cwd=tmp_path, capture_output=True, text=True).stdout
    says_checkout_shadows(checkout, Path(installed).parent.parent)


def test_the_checkouts_egg_info_does_not_hide_a_pywar_installed_by_pip_install_dot(tmp_path):
    """The README's first command, `pip install .` (not editable), leaves pywar.egg-info
    in the checkout; Python started there finds it first, and it hid the installed pywar:
    the warning said 'install a C compiler and reinstall pywar' (issue 48).  Here the
    installation is as pip makes it (a dist-info whose direct_url.json names the
    checkout, not editable), in a folder on PYTHONPATH; tests/test_packaging.py makes it
    for real."""
    checkout = unbuilt_checkout(tmp_path)
    egg_info = checkout / "pywar.egg-info"                   # as setuptools writes it
    egg_info.mkdir()
    (egg_info / "PKG-INFO").write_text("Metadata-Version: 2.1\nName: pywar\nVersion: 0.1.0\n")
    (egg_info / "top_level.txt").write_text("pywar\n")
    site = tmp_path / "site-packages"
    dist_info = site / "pywar-0.1.0.dist-info"
    dist_info.mkdir(parents=True)
    (dist_info / "METADATA").write_text("Metadata-Version: 2.1\nName: pywar\nVersion: 0.1.0\n")
    (dist_info / "RECORD").write_text("pywar/__init__.py,,\n")
    (dist_info / "INSTALLER").write_text("pip\n")
    (dist_info / "direct_url.json").write_text(json.dumps(
        {"url": checkout.as_uri(), "dir_info": {}}))
    shutil.copytree(checkout / "pywar", site / "pywar")
    says_checkout_shadows(checkout, site, PYTHONPATH=str(site))
