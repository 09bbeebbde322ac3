"""py:MODULE:CLASS runs in pywar's runner (issue 34, one runner): the class is untrusted
code, as a cmd: program is.  A spy module sees no caller's environment, runs as a user
of its own and cannot write outside its scratch folder; pywar's process imports nothing
of it; a game that loops is timed out and the next seed is played; a module that cannot
be imported, a class it lacks and a class that raises are one line each; a flood is
cut; pywar's own port agrees with the twin over the batches of seeds one child plays."""

import json
import os
import signal
import subprocess
import sys
import uuid

import pytest

import pywar
from conftest import ROOT, needs_python_runs, needs_pywar_readable
from pywar.check.implementations import outside
from pywar.check.runner import pychild, sandbox
from pywar.cli import main

pytestmark = needs_python_runs        # its children start Python as the runner's user

WELCOME = "Welcome to the Game of War!"
LEFT = f"/tmp/pywar-pyclass-{uuid.uuid4().hex[:12]}"      # a file the spy tries to leave

SPY = f"""\
import json, os
try:                                      # at import: a mark beside the module, if it can
    open(os.path.join(os.path.dirname(os.path.abspath(__file__)), f"imported-{{os.getpid()}}"),
         "w").close()
except OSError:
    pass


def attempt(path):
    try:
        with open(path, "w") as file:
            file.write("left by the spy")
        return "written"
    except OSError as error:
        return error.strerror


class TableTop:
    def __init__(self, seed, text):
        beside = os.path.join(os.path.dirname(os.path.abspath(__file__)), "left-beside")
        seen = {{"uid": os.getuid(), "secret": os.environ.get("SECRET_TOKEN"),
                "environment": sorted(os.environ), "beside": attempt(beside),
                "tmp": attempt("{LEFT}"), "scratch": attempt("in-its-scratch")}}
        text.append("{WELCOME}\\n")
        text.append("SPY " + json.dumps(seen) + "\\n")

    def do_battle(self):
        return True
"""


@pytest.fixture(autouse=True)
def left_removed():
    """The file a spy leaves in /tmp where no bubblewrap gives it a /tmp of its own,
    removed after each test."""
    yield
    if os.path.exists(LEFT):
        os.remove(LEFT)


def run(capsys, *argv):
    """main(argv): (exit status, stdout, stderr)."""
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def seen_by_the_spy(text):
    """What the spy wrote of what it saw, from the lines of a check's report."""
    line = next(line for line in text.splitlines() if "SPY {" in line)
    return json.loads(line[line.index("SPY ") + 4:])


def test_a_spy_sees_no_secret_runs_as_its_own_user_and_writes_nothing_outside(open_path):
    """The issue's done-when: `python -m pywar check --engine py:spy:TableTop --against
    port-python -n 1` from the spy's folder (python -m puts the current folder on
    sys.path, where pywar finds the module), SECRET_TOKEN in the caller's environment."""
    (open_path / "spy.py").write_text(SPY)
    environment = dict(os.environ, SECRET_TOKEN="x")
    done = subprocess.run([sys.executable, "-m", "pywar", "check", "--engine", "py:spy:TableTop",
                           "--against", "port-python", "-n", "1"], cwd=open_path,
                          env=environment, capture_output=True, text=True, timeout=120)
    assert done.returncode == 1, done.stderr                    # it differs, as it should
    assert "Traceback" not in done.stderr
    seen = seen_by_the_spy(done.stdout)
    assert seen["secret"] is None and "SECRET_TOKEN" not in seen["environment"]
    assert set(seen["environment"]) <= {"PATH", "HOME", "LANG", "LC_ALL", "TZ", "PWD"}
    if os.geteuid() == 0:
        assert seen["uid"] != 0
    assert seen["beside"] != "written" and seen["scratch"] == "written"
    assert sorted(path.name for path in open_path.iterdir()) == ["spy.py"]  # no mark, nothing left
    if sandbox.bwrap_works():
        assert not os.path.exists(LEFT)        # its /tmp was its own


@pytest.mark.skipif(os.geteuid() != 0, reason="as root only: a user of its own per run")
def test_without_bubblewrap_a_spy_runs_as_its_own_user(monkeypatch, capsys, open_path):
    """--isolation none: the limits and a user of its own, no bubblewrap."""
    python = pychild.python_for_runs("none")
    if not pychild.others_may_run(python):
        pytest.skip(f"{python} may not be run by another user (issue 37)")
    monkeypatch.setattr(sandbox, "bwrap_works", lambda: False)     # auto: limits alone
    monkeypatch.setenv("SECRET_TOKEN", "x")
    (open_path / "spy.py").write_text(SPY)         # readable by the run's user, not writable
    monkeypatch.syspath_prepend(str(open_path))
    status, out, _ = run(capsys, "check", "--engine", "py:spy:TableTop", "--against",
                         "port-python", "-n", "1")
    assert status == 1
    seen = seen_by_the_spy(out)
    assert seen["uid"] != 0 and seen["secret"] is None
    assert seen["beside"] != "written" and os.listdir(open_path) == ["spy.py"]


def test_pywar_s_process_imports_nothing_of_the_module(open_path, monkeypatch):
    """A package whose import leaves a mark: pywar.compare plays it and finds its class
    (py:PACKAGE.MODULE:CLASS: finding the package imports none of it), and neither the
    package nor its module is in pywar's sys.modules after, nor any mark beside it."""
    package = open_path / "spypack"
    package.mkdir()
    (package / "__init__.py").write_text(SPY.split("\n\n\ndef attempt")[0] + "\n")
    (package / "table.py").write_text(SPY)
    monkeypatch.syspath_prepend(str(open_path))
    found = pywar.compare(2, engine="py:spypack.table:TableTop", against="port-python",
                          keep_going=True)
    assert found.tally["differ"] == [0, 1]
    assert not [name for name in sys.modules if name.startswith("spypack")]
    assert sorted(path.name for path in package.iterdir()) == ["__init__.py", "table.py"]


TABLES = """\
from pywar.common.rng import Rng       # what a port imports from pywar: the child's copy


class Table:
    def __init__(self, seed, text):
        self.seed, self.text, self.rng = seed, text, Rng(seed)
        text.append("Welcome to the Game of War!\\n")

    def do_battle(self):
        return True


class Loops(Table):
    def do_battle(self):
        while self.seed % 2 == 0:
            pass
        return True


class Swallows(Table):
    def do_battle(self):
        while self.seed % 2 == 0:
            try:
                while True:
                    pass
            except BaseException:
                pass
        return True


class Exits(Table):
    def do_battle(self):
        if self.seed == 2:
            import os
            os._exit(3)
        return True


class Raises(Table):
    def do_battle(self):
        if self.seed == 1:
            raise ValueError("first\\nsecond")
        return True


class ToText(Table):
    def do_battle(self):
        for _ in range(1024):                  # 1 GiB
            self.text.append("x" * 2 ** 20)
        return True


class ToStdout(Table):
    def do_battle(self):
        for _ in range(1024):
            print("x" * 2 ** 20)
        return True
"""


@pytest.fixture
def tables(open_path, monkeypatch):
    """A module of classes that misbehave, tables.py, on pywar's sys.path."""
    (open_path / "tables.py").write_text(TABLES)
    monkeypatch.syspath_prepend(str(open_path))


def children(monkeypatch):
    """The children that PythonClass.run starts from now on: a list of (seeds, Outcome)."""
    started = []
    real = outside.PythonClass.run

    def counted(self, seeds):
        outcome, records = real(self, seeds)
        started.append((list(seeds), outcome))
        return outcome, records

    monkeypatch.setattr(outside.PythonClass, "run", counted)
    return started


@pytest.mark.parametrize("name", ["Loops", "Swallows"])
def test_a_game_that_loops_is_timed_out_and_the_next_seed_is_played(tables, monkeypatch,
                                                                     capsys, name):
    """A do_battle that never returns on even seeds: those seeds are timed out, the odd
    ones are played (and differ).  One that swallows its TimeUp (an 'except
    BaseException' in its loop) is killed by SIGALRM a GRACE later, before its child's
    whole time (the runner's wall clock) is up."""
    started = children(monkeypatch)
    status, out, _ = run(capsys, "check", "--engine", f"py:tables:{name}", "--against",
                         "port-python", "-n", "4", "--keep-going", "--timeout", "0.3",
                         "--json")
    assert status == 1
    found = json.loads(out)
    assert found["tally"]["timed out"] == [0, 2] and found["tally"]["differ"] == [1, 3]
    assert found["firsts"]["timed out"]["report"].startswith(
        f"py:tables:{name} did not finish seed 0 within 0.3 s (--timeout)")
    assert not any(outcome.timed_out for _, outcome in started)
    killed = [seeds[0] for seeds, outcome in started if outcome.status == -signal.SIGALRM]
    assert killed == ([] if name == "Loops" else [0, 1, 3])      # children of [0], [1, 2], [3..10]


def test_a_game_a_child_stops_in_is_charged_by_a_child_it_is_the_first_of(tables,
                                                                          monkeypatch, capsys):
    """The class ends its process in seed 2's game, its child's second: a new child plays
    seed 2 first, and that one is charged (an earlier game's output, in another case,
    may have spent the child's limit)."""
    started = children(monkeypatch)
    status, out, _ = run(capsys, "check", "--engine", "py:tables:Exits", "--against",
                         "port-python", "-n", "4", "--keep-going", "--json")
    found = json.loads(out)
    assert found["tally"]["exit status"] == [2] and found["tally"]["differ"] == [0, 1, 3]
    assert found["firsts"]["exit status"]["report"].startswith(
        "py:tables:Exits exited with status 3 on seed 2")
    assert [seeds for seeds, _ in started[-3:]] == [[1, 2], [2, 3, 4, 5], list(range(3, 11))]


@pytest.mark.parametrize("module, engine, words", [
    (None, "py:no_such_module:Game", "py: cannot import no_such_module: No module named "
                                     "'no_such_module'"),
    (None, "py:no_such_module.inside:Game", "py: cannot import no_such_module.inside: No "
                                            "module named 'no_such_module'"),
    pytest.param(None, "py:pywar.port:Nothing", "py: module pywar.port has no class Nothing",
                 marks=needs_pywar_readable),
    pytest.param(None, "py:pywar.port.nothing:TableTop", "py: cannot import "
                 "pywar.port.nothing: No module named 'pywar.port.nothing'",
                 marks=needs_pywar_readable),
    (None, "py:os..path:X", "py: cannot import os..path: not a module's name"),
    ("raise RuntimeError('not today')\n", "py:bad:X", "py: cannot import bad: not today"),
    ("def broken(:\n", "py:bad:X", "py: cannot import bad: "),
    ("while True:\n    pass\n", "py:bad:X", "py: cannot import bad: it did not finish "
                                              "within 0.3 s (--timeout)"),
    ("import os\nos._exit(4)\n", "py:bad:X", "py: cannot import bad: it exited with status 4"),
])
def test_a_module_that_cannot_be_loaded_is_one_line_before_any_game(open_path, monkeypatch,
                                                                     capsys, module, engine,
                                                                     words):
    if module is not None:
        (open_path / "bad.py").write_text(module)
        monkeypatch.syspath_prepend(str(open_path))
    monkeypatch.setattr(pywar, "play", lambda *args, **kwargs: pytest.fail("played"))
    status, out, err = run(capsys, "check", "--engine", engine, "--timeout", "0.3")
    assert (status, out) == (2, "") and err.count("\n") == 1 and words in err, err
    assert "Traceback" not in err


def test_a_class_that_raises_is_one_line_with_its_seed(tables, capsys):
    status, out, _ = run(capsys, "check", "--engine", "py:tables:Raises", "-n", "3",
                         "--keep-going", "--json")
    found = json.loads(out)
    assert found["tally"]["crashed"] == [1] and found["tally"]["differ"] == [0, 2]
    report = found["firsts"]["crashed"]["report"]
    assert report.startswith("py:tables:Raises raised ValueError on seed 1: first second (")


@needs_pywar_readable
def test_pywar_s_own_port_agrees_with_the_twin_over_batches(capsys):
    """py:pywar.port.tabletop:TableTop, the documented example: pywar's own package is
    shown to its children; 20 seeds are 5 children of 1, 2, 4, 8 and 5 seeds."""
    status, out, _ = run(capsys, "check", "--engine", "py:pywar.port.tabletop:TableTop",
                         "--against", "python", "-n", "20", "--seed", "1553", "--json")
    found = json.loads(out)
    assert (status, found["agree"], found["games"]) == (0, True, 20)
    status, out, _ = run(capsys, "referee", "--engine", "py:pywar.port.tabletop:TableTop",
                         "--seed", "17455")
    assert status == 0 and out.startswith("py:pywar.port.tabletop:TableTop: a legal game")


@pytest.mark.parametrize("name", ["ToText", "ToStdout"])
def test_a_class_that_prints_a_gigabyte_is_cut(tables, monkeypatch, capsys, name):
    """Its game is cut at the output limit (8 MiB here, for speed; 256 MiB as shipped),
    as a cmd: program's is: crashed, and the next seed is played."""
    monkeypatch.setattr(outside, "OUTPUT_LIMIT", 8 * 2 ** 20)
    status, out, _ = run(capsys, "check", "--engine", f"py:tables:{name}", "--against",
                         "port-python", "-n", "2", "--keep-going", "--json")
    found = json.loads(out)
    assert found["tally"]["crashed"] == [0, 1]
    assert found["firsts"]["crashed"]["report"].startswith(
        f"py:tables:{name} printed more than 8 MiB for seed 0")


def test_a_python_the_runs_cannot_start_is_one_line(tmp_path, monkeypatch, capsys):
    """The machine's fault (issue 37: without bubblewrap, as root, a Python under /root):
    exercise check's words."""
    python = tmp_path / "python"
    python.write_text("not a program\n")
    python.chmod(0o644)
    monkeypatch.setattr(outside, "python_for_runs", lambda *_: str(python))
    status, out, err = run(capsys, "check", "--engine", "py:pywar.port.tabletop:TableTop")
    assert (status, out) == (2, "") and err.count("\n") == 1
    assert "the check could not start Python for py:pywar.port.tabletop:TableTop: " in err
    assert f"who may not run {python}: install bubblewrap (apt-get install bubblewrap) " in err


def test_the_child_s_pywar_is_copies_of_the_shared_modules_alone(tmp_path):
    """LIB holds pywar.common, pywar.rules and the child, with an empty __init__.py in each
    package above them: no pywar.port, no runner, no grader."""
    from pywar.check.runner.pychild import copy_shared
    lib = copy_shared(str(tmp_path / "lib"), outside.PY_PARTS)
    found = sorted(str(path.relative_to(lib)) for path in (tmp_path / "lib").rglob("*.py"))
    assert "pywar/check/implementations/pyclass.py" in found
    assert "pywar/common/alarm.py" in found and "pywar/rules.py" in found
    assert [name for name in found if "port" in name or "runner" in name] == []
    assert (tmp_path / "lib" / "pywar" / "__init__.py").read_text() == ""
    assert ROOT.joinpath("pywar", "check", "implementations", "pyclass.py").is_file()
