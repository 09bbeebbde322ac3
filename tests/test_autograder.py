"""pywar autograder OUT.zip [grade's options] (issue 45): Gradescope's autograder zip, by
gradescope/autograder_samples docs/specs.md: setup.sh and run_autograder (executable) at
its root beside pywar's sdist; unpacked into a fake /autograder and run on submissions,
its results.json holds what the spec allows and what a student needs (a failed build's
errors, a crash's own words, the notes), and no test failed with an empty output.  The
slow test builds the real sdist and runs setup.sh's install into a venv of its own."""

import io
import json
import os
import shutil
import stat
import subprocess
import sys
import tarfile
import zipfile

import pytest

from conftest import DATA, ROOT, needs_tools
from pywar import installed
from pywar.check.assignment.file import builtin_text
from pywar.check.referee.rubric import NAMES as ITEMS
from pywar.cli import main

pytestmark = needs_tools("cc", "g++")
VISIBILITY = {"hidden", "after_due_date", "after_published", "visible"}    # specs.md l.90-106
TEST_KEYS = {"score", "max_score", "status", "name", "name_format", "number", "output",
             "output_format", "tags", "visibility", "extra_data"}           # specs.md l.37-73
TOP_KEYS = {"score", "execution_time", "output", "output_format", "test_output_format",
            "test_name_format", "visibility", "stdout_visibility", "extra_data", "tests",
            "leaderboard"}
OPTIONS = ["-n", "1", "--fresh", "0", "--no-memory", "--timeout", "5",
           "--gradescope-visibility", "after_due_date",
           "--gradescope-test-visibility", "builds=visible"]
CRASH = (b'#include <cstdio>\n#include <cstdlib>\n'
         b'int main() { std::fprintf(stderr, "free(): double free detected in tcache 2\\n");'
         b' std::abort(); }\n')
BROKEN = b"int main( {\n"


def fake_sdist(folder, version=None, csrc=True):
    """A tar.gz shaped as pywar's sdist (PKG-INFO, csrc/), for the zip's tests."""
    version = version or installed.version()
    path = folder / f"pywar-{version}.tar.gz"
    with tarfile.open(path, "w:gz") as archive:
        parts = {f"pywar-{version}/PKG-INFO":
                 f"Metadata-Version: 2.4\nName: pywar\nVersion: {version}\n".encode()}
        if csrc:
            parts[f"pywar-{version}/csrc/pywar.c"] = b"/* the core */\n"
        for name, data in parts.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    return path


def run(capsys, *argv):
    status = main([str(arg) for arg in argv])
    out, err = capsys.readouterr()
    return status, out, err


def test_the_zip_holds_setup_run_autograder_and_the_sdist_at_its_root(tmp_path, capsys):
    sdist = fake_sdist(tmp_path)
    status, out, err = run(capsys, "autograder", tmp_path / "ag.zip", "--sdist", sdist, *OPTIONS)
    assert (status, out, err) == (0, "", "")
    archive = zipfile.ZipFile(tmp_path / "ag.zip")
    assert archive.namelist() == ["setup.sh", "run_autograder", sdist.name]
    modes = {info.filename: info.external_attr >> 16 for info in archive.infolist()}
    assert modes["run_autograder"] & stat.S_IXUSR and modes["setup.sh"] & stat.S_IXUSR
    assert archive.read(sdist.name) == sdist.read_bytes()
    setup = archive.read("setup.sh").decode()
    assert f'pip" install "$AUTOGRADER/source/{sdist.name}"' in setup
    assert "python3 -m venv" in setup and "PYWAR_REQUIRE_C=1" in setup
    run_ = archive.read("run_autograder").decode()
    assert run_.rstrip().endswith('--gradescope "$AUTOGRADER/results/results.json" ' +
                                  " ".join(OPTIONS))
    again = tmp_path / "again.zip"
    assert run(capsys, "autograder", again, "--sdist", sdist, *OPTIONS)[0] == 0
    assert again.read_bytes() == (tmp_path / "ag.zip").read_bytes()    # no time in it


@pytest.mark.parametrize("options, said", [
    (["--csv", "x.csv"], "--csv: run_autograder grades /autograder/submission"),
    (["--gradescope=r.json"], "--gradescope: run_autograder grades"),
    (["-n", "0"], "grade's options: argument -n/--games"),
    (["--weights", "speed=2"], "--weights: unknown item 'speed'"),
    (["alice/"], "alice/ is not one"),
    (["--gradescope-test-visibility", "builds=soon"], "choose hidden, after_due_date"),
    (["--run", "./war"], "--run must name {program}"),
])
def test_an_option_grade_would_refuse_is_refused_now_in_one_line(tmp_path, capsys, options,
                                                                 said):
    """Checked by pywar grade's own parser and checks before anything is written; an
    earlier zip stays as it was."""
    out = tmp_path / "ag.zip"
    out.write_bytes(b"the instructor's autograder")
    status, stdout, err = run(capsys, "autograder", out, "--sdist", fake_sdist(tmp_path),
                              *options)
    assert (status, stdout, err.count("\n")) == (2, "", 1) and said in err, err
    assert out.read_bytes() == b"the instructor's autograder"


@pytest.mark.parametrize("make, said", [
    (lambda folder: fake_sdist(folder, "0.0.1"), "is not an sdist of pywar"),
    (lambda folder: fake_sdist(folder, csrc=False), "holds no csrc/"),
    (lambda folder: folder / "missing.tar.gz", "is not an sdist of pywar"),
])
def test_an_sdist_that_is_not_this_pywar_s_is_refused(tmp_path, capsys, make, said):
    out = tmp_path / "ag.zip"
    out.write_bytes(b"kept")
    status, stdout, err = run(capsys, "autograder", out, "--sdist", make(tmp_path), "-n", "2")
    assert (status, err.count("\n")) == (2, 1) and said in err and out.read_bytes() == b"kept"


def fake_autograder(tmp_path, zip_path, pywar):
    """Gradescope's layout (specs.md l.20-33): the zip unpacked in source/, run_autograder
    copied beside it, the venv setup.sh makes standing as pywar (a script running it)."""
    root = tmp_path / "autograder"
    (root / "source").mkdir(parents=True)
    zipfile.ZipFile(zip_path).extractall(root / "source")
    shutil.copy(root / "source" / "run_autograder", root / "run_autograder")
    os.chmod(root / "run_autograder", 0o755)    # extractall keeps no mode; Gradescope runs it
    venv = root / "pywar-venv" / "bin"
    venv.mkdir(parents=True)
    (venv / "pywar").write_text(f'#!/bin/sh\nexec {pywar} "$@"\n')
    os.chmod(venv / "pywar", 0o755)
    return root


def run_submission(root, files):
    """A submission in /autograder/submission, run_autograder run: results.json."""
    submission = root / "submission"
    shutil.rmtree(submission, ignore_errors=True)
    submission.mkdir()
    for name, data in files.items():
        (submission / name).parent.mkdir(parents=True, exist_ok=True)
        (submission / name).write_bytes(data)
    shutil.rmtree(root / "results", ignore_errors=True)
    ran = subprocess.run([str(root / "run_autograder")], cwd=root, capture_output=True,
                         text=True, env={**os.environ, "AUTOGRADER": str(root)})
    assert ran.returncode == 0, ran.stderr
    results = json.loads((root / "results" / "results.json").read_text())
    valid(results)
    return results, ran.stdout


def valid(results):
    """results.json by specs.md: its keys, visibilities, a numeric execution_time, and
    no test failed with an empty output."""
    assert set(results) <= TOP_KEYS
    assert isinstance(results["execution_time"], (int, float))
    assert results.get("visibility", "visible") in VISIBILITY
    for test in results["tests"]:
        assert set(test) <= TEST_KEYS
        assert test.get("visibility", "visible") in VISIBILITY
        assert test["status"] in ("passed", "failed")
        assert test["status"] == "passed" or test["output"].strip()


def test_run_autograder_grades_a_submission_in_a_fake_autograder(tmp_path, capsys):
    """A crash's own words in runs' output, a failed build's errors in builds', the notes
    in the output, builds visible at once and the rest after the due date."""
    zip_path = tmp_path / "ag.zip"
    assert run(capsys, "autograder", zip_path, "--sdist", fake_sdist(tmp_path), *OPTIONS)[0] == 0
    root = fake_autograder(tmp_path, zip_path, f"{sys.executable} -m pywar")
    results, stdout = run_submission(root, {"War/war.cpp": CRASH})
    assert results["visibility"] == "after_due_date"
    tests = {test["name"]: test for test in results["tests"]}
    assert [test["name"] for test in results["tests"]] == [i for i in ITEMS if i != "memory"]
    assert tests["builds"]["visibility"] == "visible"
    assert all("visibility" not in test for name, test in tests.items() if name != "builds")
    assert tests["runs"]["status"] == "failed"
    assert "SIGABRT" in tests["runs"]["output"]
    assert "on stderr: 'free(): double free detected in tcache 2'" in tests["runs"]["output"]
    assert tests["runs"]["output"].count("double free detected") == 1      # said once
    assert "note: its sources are in the folder War/ alone: built there" in results["output"]
    assert results["extra_data"]["seeds"] == [1] and len(results["extra_data"]["sha256"]) == 64
    assert "submission" in stdout and "score" in stdout          # the table: the instructor's
    results, _ = run_submission(root, {"war.cpp": BROKEN})
    builds = results["tests"][0]
    assert builds["status"] == "failed" and "the compiler's errors:\n" in builds["output"]
    assert "error:" in builds["output"].split("the compiler's errors:\n")[1]
    assert all(test["output"] == "not checked: it did not build"
               for test in results["tests"][1:])


@pytest.mark.slow
def test_setup_installs_pywar_from_its_sdist_in_a_venv_and_run_autograder_grades(tmp_path,
                                                                               capsys):
    """The real sdist (python -m build --sdist of this checkout), setup.sh run with apt-get
    and python3 stood in for (the test's Python, no root needed): pywar installed with its C
    core into $AUTOGRADER/pywar-venv, and run_autograder grading with it."""
    zip_path = tmp_path / "ag.zip"
    assert run(capsys, "autograder", zip_path, "-n", "2", "--fresh", "0", "--no-memory")[0] == 0
    root = tmp_path / "autograder"
    (root / "source").mkdir(parents=True)
    zipfile.ZipFile(zip_path).extractall(root / "source")
    shims = tmp_path / "bin"
    shims.mkdir()
    (shims / "apt-get").write_text(f'#!/bin/sh\necho "$@" >> {tmp_path}/apt.log\n')
    base = getattr(sys, "_base_executable", sys.executable)
    (shims / "python3").write_text(f'#!/bin/sh\nexec {base} "$@"\n')
    for shim in ("apt-get", "python3"):
        os.chmod(shims / shim, 0o755)
    env = {**os.environ, "AUTOGRADER": str(root), "PATH": f"{shims}:{os.environ['PATH']}",
           "XDG_CONFIG_HOME": str(tmp_path / "image")}
    env.pop("VIRTUAL_ENV", None)
    setup = subprocess.run(["bash", str(root / "source" / "setup.sh")], cwd=root, env=env,
                           capture_output=True, text=True)
    assert setup.returncode == 0, setup.stderr[-2000:]
    key = tmp_path / "image" / "pywar" / "grading-key"       # made once, into the image
    assert stat.S_IMODE(key.stat().st_mode) == 0o600 and len(key.read_bytes()) == 32
    assert "engines: c, python, port-c, port-python" in setup.stdout
    assert "install -y --no-install-recommends python3 python3-venv python3-dev gcc g++" in \
        (tmp_path / "apt.log").read_text()
    shutil.copy(root / "source" / "run_autograder", root / "run_autograder")
    os.chmod(root / "run_autograder", 0o755)
    results, _ = run_submission(root, {"war.cpp": (ROOT / "tests" / "data" / "class" /
                                                  "faithful" / "war.cpp").read_bytes()})
    assert results["score"] == len(ITEMS) - 1


def test_an_assignment_file_goes_into_the_zip_and_run_autograder_grades_under_it(
        tmp_path, capsys):
    """--assignment-file FILE: the file's text in the zip as assignment.toml, run_autograder
    naming that copy (not the instructor's path), and a submission graded under it on
    Gradescope's layout: CECS 325's reference earns every mark, pickup and refill out."""
    mine = tmp_path / "somewhere" / "cecs325.toml"
    mine.parent.mkdir()
    mine.write_text(builtin_text("cecs325"))
    zip_path = tmp_path / "ag.zip"
    options = ["-n", "2", "--fresh", "0", "--no-memory", "--assignment-file", str(mine)]
                                        # seed 2 has ties, seed 1 none
    assert run(capsys, "autograder", zip_path, "--sdist", fake_sdist(tmp_path), *options) \
        == (0, "", "")
    archive = zipfile.ZipFile(zip_path)
    assert archive.read("assignment.toml").decode() == mine.read_text()
    run_ = archive.read("run_autograder").decode()
    assert '--assignment-file "$AUTOGRADER/source/assignment.toml"' in run_
    assert str(mine) not in run_ and str(tmp_path) not in run_
    root = fake_autograder(tmp_path, zip_path, f"{sys.executable} -m pywar")
    reference = DATA / "cecs325" / "reference"
    results, _ = run_submission(root, {path.name: path.read_bytes()
                                       for path in reference.iterdir()})
    assert [test["name"] for test in results["tests"]] == [
        item for item in ITEMS if item not in ("pickup", "refill", "memory")]
    assert all(test["status"] == "passed" for test in results["tests"]), results["tests"]
