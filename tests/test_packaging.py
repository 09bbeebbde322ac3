"""Packaging, for real: installs into fresh virtual environments, and the sdist and the
wheel that `python -m build` makes.  Slow (each builds in an isolated environment, from
PyPI or pip's cache); .ci/run runs them.

- Without a C compiler (CC and LDSHARED set to `false`), `pip install .` succeeds with
  one warning, and pywar plays with its Python engines; with PYWAR_REQUIRE_C=1 the same
  install fails, saying why.
- The sdist carries csrc/, docs/, tests/ and bench/: every file git tracks there, and
  nothing built.  The wheel, built from the sdist, carries the compiled core, which loads.
"""

import os
import shutil
import subprocess
import sys
import tarfile
import zipfile
from importlib import metadata
from pathlib import Path

import pytest

from conftest import ROOT, reference_transcript

pytestmark = pytest.mark.slow
BUILT = ("*.so", "*.o", "*.pyc", "__pycache__", "build", "dist", "*.egg-info", ".venv*",
         ".git", ".pytest_cache", ".hypothesis", ".benchmarks", "bench.json")
SHIPPED = ("csrc/", "docs/", "tests/", "bench/", "pywar/")
WARNING = "WARNING: pywar's C core (pywar._core) could not be built"


def clean_environment(**settings):
    """os.environ without pywar's switches, with settings on top."""
    env = {key: value for key, value in os.environ.items()
           if key not in ("PYWAR_REQUIRE_C", "PYWAR_SANITIZE", "PYWAR_ENGINE", "CC",
                          "LDSHARED", "CFLAGS", "LD_PRELOAD")}
    return {**env, **settings}


def source_copy(directory):
    """The project as a fresh checkout has it, nothing built (a built core left in the
    tree would hide a failed build): the files git tracks, or without git the tree
    less what building and testing leave."""
    copy = directory / "pywar-src"
    if shutil.which("git") is not None and (ROOT / ".git").exists():
        for path in tracked_files():
            (copy / path).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / path, copy / path)
    else:
        shutil.copytree(ROOT, copy, ignore=shutil.ignore_patterns(*BUILT))
    assert not list(copy.rglob("*.so"))
    return copy


def tracked_files():
    """The files git tracks, or a skip when this is not a git checkout."""
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    listed = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True,
                            check=True).stdout.split()
    return {path for path in listed if (ROOT / path).exists()}


def new_venv(directory):
    """A fresh virtual environment: its bin folder."""
    subprocess.run([sys.executable, "-m", "venv", str(directory)], check=True)
    return directory / "bin"


@pytest.fixture(scope="module")
def no_compiler(tmp_path_factory):
    """pip install -v . into a fresh venv with no working C compiler: (bin, run, away)."""
    base = tmp_path_factory.mktemp("nocc")
    source = source_copy(base)
    bin_dir = new_venv(base / "venv")
    env = clean_environment(CC="false", LDSHARED="false")
    run = subprocess.run([str(bin_dir / "pip"), "install", "-v", "."], cwd=source, env=env,
                         capture_output=True, text=True)
    away = base / "away"
    away.mkdir()
    return bin_dir, run, away, source


def test_without_a_compiler_the_install_succeeds_with_one_warning(no_compiler):
    bin_dir, run, away, _ = no_compiler
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    output = run.stdout + run.stderr
    assert output.count(WARNING) == 1, output[-3000:]
    assert "will use its pure-Python engines" in output
    assert "install a C compiler (gcc or clang) and Python's headers, then" in output
    check = subprocess.run([str(bin_dir / "python"), "-c",
                            "import pywar, pywar._checked as c; print(pywar.engines(), "
                            "c.missing(), pywar.__file__)"], cwd=away, capture_output=True,
                           text=True, env=clean_environment())
    assert check.returncode == 0, check.stderr
    engines, _, location = check.stdout.rpartition(" ")
    assert engines == "('python', 'port-python') the C core (pywar._core) is not built"
    assert location.startswith(str(bin_dir.parent))


def test_without_a_compiler_pywar_plays_with_python(no_compiler):
    bin_dir, run, away, _ = no_compiler
    assert run.returncode == 0
    reference = reference_transcript(17455)
    for extra in ([], ["--engine", "python"], ["--engine", "port-python", "--stack", "adt"]):
        game = subprocess.run([str(bin_dir / "pywar"), "play", "--seed", "17455", *extra],
                              cwd=away, capture_output=True, text=True, env=clean_environment())
        assert game.returncode == 0, game.stderr
        assert game.stdout == reference
        if not extra:                   # auto: the fallback, said in one line
            assert game.stderr == ("pywar: warning: the C core (pywar._core) is not built; "
                                   "using the Python twin, a few hundred times slower "
                                   "(for the C engine: install a C compiler and reinstall "
                                   "pywar (pip install .))\n")
        else:
            assert game.stderr == ""
    version = subprocess.run([str(bin_dir / "pywar"), "--version"], cwd=away,
                             capture_output=True, text=True, env=clean_environment())
    assert version.stdout == (f"pywar {metadata.version('pywar')} (engines: python, "
                              "port-python; the C core "
                              "(pywar._core) is not built: for c and port-c, install a C "
                              "compiler and reinstall pywar (pip install .))\n")


def test_without_a_compiler_require_c_fails_at_run_time(no_compiler):
    bin_dir, run, away, _ = no_compiler
    game = subprocess.run([str(bin_dir / "pywar"), "play", "--seed", "17455"], cwd=away,
                          capture_output=True, text=True,
                          env=clean_environment(PYWAR_REQUIRE_C="1"))
    assert (game.returncode, game.stdout) == (2, "")
    assert game.stderr == ("pywar play: error: PYWAR_REQUIRE_C is set and the C core "
                           "(pywar._core) is not built: install a C compiler and reinstall "
                           "pywar (pip install .)\n")


def test_without_a_compiler_require_c_fails_the_install(no_compiler):
    bin_dir, _, _, source = no_compiler
    env = clean_environment(CC="false", LDSHARED="false", PYWAR_REQUIRE_C="1")
    run = subprocess.run([str(bin_dir / "pip"), "install", "--no-deps", "--force-reinstall",
                          "."], cwd=source, env=env, capture_output=True, text=True)
    assert run.returncode != 0
    output = run.stdout + run.stderr
    assert ("error: pywar's C core (pywar._core) could not be built: the compiler command "
            "'false' failed with exit status 1.  PYWAR_REQUIRE_C is set, so the install "
            "fails") in output, output[-3000:]
    assert WARNING not in output


def test_the_readmes_first_command_then_python_in_the_checkout_names_the_remedy(tmp_path):
    """The README's first command, `pip install .` (not editable, with a compiler), in a
    fresh venv; then Python started in the checkout imports the checkout, whose
    pywar.egg-info (written by that install) hid the installed pywar: the warning said
    'install a C compiler and reinstall pywar' (issue 48).  It names both folders and a
    remedy, which, done, plays in C there with no warning."""
    source = source_copy(tmp_path)
    bin_dir = new_venv(tmp_path / "venv")
    env = clean_environment()
    install = subprocess.run([str(bin_dir / "pip"), "install", "."], cwd=source, env=env,
                             capture_output=True, text=True)
    assert install.returncode == 0, install.stdout[-3000:] + install.stderr[-3000:]
    assert (source / "pywar.egg-info").is_dir()          # what hid the installed pywar
    code = ("import warnings, pywar; warnings.simplefilter('error'); "
            "print(pywar.play(1).engine, pywar.__file__)")
    site = subprocess.run([str(bin_dir / "python"), "-c", "import sysconfig; "
                           "print(sysconfig.get_paths()['purelib'])"], env=env,
                          capture_output=True, text=True).stdout.strip()
    remedy = f"run from another folder than {source}, or pip install -e {source}"
    for required in ("", "1"):                   # CI sets PYWAR_REQUIRE_C: both ways
        said = subprocess.run([str(bin_dir / "python"), "-c", code], cwd=source,
                              env={**env, "PYWAR_REQUIRE_C": required}, capture_output=True,
                              text=True).stderr.strip().splitlines()[-1]
        assert f"not built in the checkout {source}, which Python imported from the " \
            f"current folder instead of the pywar installed in {site}" in said, said
        assert "install a C compiler" not in said and said.endswith(
            f"{remedy})" if not required else remedy)
    away = subprocess.run([str(bin_dir / "python"), "-c", code], cwd=tmp_path, env=env,
                          capture_output=True, text=True)
    assert away.stdout.startswith("c ") and away.stderr == ""     # the install did work
    editable = subprocess.run([str(bin_dir / "pip"), "install", "-e", str(source)],
                              cwd=source, env=env, capture_output=True, text=True)
    assert editable.returncode == 0, editable.stderr[-3000:]
    played = subprocess.run([str(bin_dir / "python"), "-c", code], cwd=source, env=env,
                            capture_output=True, text=True)
    assert (played.stdout, played.stderr) == (f"c {source / 'pywar' / '__init__.py'}\n", "")


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """python -m build: the sdist, then the wheel built from it (dist folder)."""
    dist = tmp_path_factory.mktemp("dist")
    source = source_copy(tmp_path_factory.mktemp("src"))
    run = subprocess.run([sys.executable, "-m", "build", "--outdir", str(dist), str(source)],
                         capture_output=True, text=True, env=clean_environment())
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    return dist


def sdist_files(dist):
    (sdist,) = dist.glob("pywar-*.tar.gz")
    with tarfile.open(sdist) as archive:
        names = [member.name for member in archive.getmembers() if member.isfile()]
    prefix = names[0].split("/")[0] + "/"
    assert all(name.startswith(prefix) for name in names)
    return {name[len(prefix):] for name in names}


def test_the_sdist_carries_the_sources_docs_tests_and_benchmarks(built):
    files = sdist_files(built)
    tracked = tracked_files()
    wanted = {path for path in tracked if path.startswith(SHIPPED)}
    wanted |= {"README.md", "LICENSE", "pyproject.toml", "setup.py", "MANIFEST.in"}
    assert wanted - files == set()
    made = {"PKG-INFO", "setup.cfg"}                 # setuptools writes these two ...
    extra = {path for path in files - tracked - made if not path.startswith("pywar.egg-info/")}
    assert extra == set()                            # ... and nothing built goes in
    assert {"csrc/pywar.h", "csrc/port/stack.c", "docs/rules.md", "tests/data/seed-17455.txt",
            "tests/fault_alloc.c", "bench/driver.c", "LICENSE"} <= files


def test_the_wheel_carries_the_compiled_core(built, tmp_path):
    (wheel,) = built.glob("pywar-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        archive.extractall(tmp_path)
    cores = [name for name in names if name.startswith("pywar/_core.") and name.endswith(".so")]
    assert len(cores) == 1, names
    assert "pywar/_core.c" not in names and not any(name.startswith("csrc/") for name in names)
    assert any(name.endswith(".dist-info/licenses/LICENSE") for name in names)
    assert "pywar/py.typed" in names                            # PEP 561: typed
    assert "-cp3" in wheel.name and "linux" in wheel.name       # a platform wheel
    check = subprocess.run([sys.executable, "-c",
                            "import pywar, pywar._checked as c; "
                            "print(pywar.__file__, pywar.engines(), c.sanitized())"],
                           cwd=tmp_path, capture_output=True, text=True,
                           env=clean_environment(PYTHONPATH=str(tmp_path)))
    assert check.returncode == 0, check.stderr
    location, rest = check.stdout.split(" ", 1)
    assert Path(location).parent == tmp_path / "pywar"
    assert rest == "('c', 'python', 'port-c', 'port-python') False\n"
