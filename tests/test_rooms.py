"""The rooms of pywar/check/ stand as docs/development.md draws them: what the
instructor's tools share about a submission is one room (pywar/check/submission/) that
imports no other; similar and the exercise take nothing sideways from grading; and the
page's Python (pywar.zip) holds no process runner."""

import zipfile

from conftest import ROOT
from pywar.browser import folder
from test_layers import edges, modules

CHECK = "pywar.check"
RUNNERS = ("pywar/check/runner/", "pywar/check/exercise/portcheck.py")   # start processes


def reaching(room, others):
    """'module -> module' of each import of a module of pywar.check.ROOM into one of the
    other rooms named."""
    return sorted(f"{name} -> {target}" for name, path in modules().items()
                  if name.startswith(f"{CHECK}.{room}.")
                  for target in edges(name, path)
                  if any(target == f"{CHECK}.{other}" or target.startswith(f"{CHECK}.{other}.")
                         for other in others))


def test_the_submission_room_imports_no_other_room():
    """The room that the runner, grading, similar and the exercise share stands beneath
    them all: it imports none of pywar/check/'s rooms."""
    assert reaching("submission", ("runner", "grading", "similar", "exercise", "referee",
                                   "implementations")) == []


def test_similar_and_the_exercise_take_nothing_sideways_from_grading():
    assert reaching("similar", ("grading", "runner")) == []
    assert reaching("exercise", ("grading",)) == []


def test_the_finder_finds_a_planted_sideways_import():
    """The test above can fail: grading's own imports of the runner are found."""
    assert "pywar.check.grading.build -> pywar.check.runner.sandbox" in \
        reaching("grading", ("runner",))


def zip_names(tmp_path, parts=folder.PARTS):
    """The names in pywar.zip, written with parts."""
    path = tmp_path / "pywar.zip"
    saved = folder.PARTS
    folder.PARTS = parts
    try:
        folder.write_zip(str(path))
    finally:
        folder.PARTS = saved
    return zipfile.ZipFile(path).namelist()


def test_the_browsers_zip_holds_no_process_runner(tmp_path):
    """No runner in the page's Python (where no process can start): neither the sandbox
    nor the child's boot, nor the exercise check's run; the judge is there."""
    names = zip_names(tmp_path)
    assert "pywar/check/exercise/portjudge.py" in names
    assert "pywar/check/exercise/inprocess.py" in names
    assert [name for name in names if name.startswith(RUNNERS)] == []


def test_what_the_zip_holds_imports_no_runner(tmp_path):
    """No module of pywar in the zip imports (at its top or in a function) the runner or
    the exercise check's run: the page's Python needs none (tests/test_browser.py runs
    the zip's pywar on the standard library alone)."""
    names = set(zip_names(tmp_path))
    held = {name.removesuffix(".py").removesuffix("/__init__").replace("/", ".")
            for name in names if name.endswith(".py")}
    runners = tuple(runner.removesuffix(".py").replace("/", ".") for runner in RUNNERS)
    wanting = sorted(f"{name} -> {target}" for name, path in modules().items()
                     if name in held for target in edges(name, path)
                     if target.startswith(runners))
    assert len(held) > 40 and wanting == []


def test_the_zip_test_finds_a_planted_runner(tmp_path):
    """The test above can fail: the runner, put back in the parts, is found."""
    names = zip_names(tmp_path, folder.PARTS + ("check/runner/sandbox.py",))
    assert [name for name in names if name.startswith(RUNNERS)] == \
        ["pywar/check/runner/sandbox.py"]
    assert (ROOT / "pywar/check/runner/sandbox.py").exists()
