"""Shared test helpers: where the reference data lies, which engines exist, and C programs
built once per session."""

import contextlib
import os
import shutil
import signal
import subprocess
import tempfile
from pathlib import Path

import pytest

from pywar import _build, _checked
from pywar.rules import PRESETS

DATA = Path(__file__).resolve().parent / "data"
ROOT = Path(__file__).resolve().parent.parent
FIELDS_HEADER = _build.write_header()    # csrc/fields.h, which the tests' C programs include

# The presets of a game of War, which take the war's dimensions (face_down, pickup, ...):
# a one-card game refuses them (docs/rules.md 7.10).
WAR_PRESETS = [name for name, rules in PRESETS.items() if rules.game == "war"]

needs_c = pytest.mark.skipif(not _checked.available(), reason="the C core is not built")


def reference_transcript(seed):
    """The SMU reference program's transcript of a seed, as captured."""
    return (DATA / f"seed-{seed}.txt").read_text()


def reference_digests():
    """(seed, sha256, rounds) rows of digests-0-100.tsv."""
    lines = (DATA / "digests-0-100.tsv").read_text().splitlines()[1:]
    rows = [line.split("\t") for line in lines]
    return [(int(seed), sha, int(rounds)) for seed, sha, rounds in rows]


def needs_tools(*tools):
    """A skip for a test module when a program it runs is missing (a failure where
    PYWAR_REQUIRE_GRADE is set, as in CI)."""
    import os
    import shutil
    missing = [tool for tool in tools if shutil.which(tool) is None]
    if missing and os.environ.get("PYWAR_REQUIRE_GRADE"):
        pytest.fail(f"{', '.join(missing)} missing (apt-get install g++ valgrind)", pytrace=False)
    return pytest.mark.skipif(bool(missing), reason=f"{', '.join(missing)} missing")


@pytest.fixture(autouse=True)
def ctrl_c_raises():
    """Ctrl-C (a SIGINT, or _thread.interrupt_main) raises KeyboardInterrupt in every test,
    as at a terminal, even where pytest was started with SIGINT ignored: a background job
    of a shell without job control (`.ci/run &`) inherits it so, and Python then leaves it
    ignored, which made the tests of Ctrl-C pass no interrupt at all."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)


STOPPING = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


def stopping_signals_default():
    """Ctrl-C, SIGTERM and SIGHUP at their defaults, as in a program started from a
    terminal: the preexec_fn of a child that a test stops with one.  A test run started
    under nohup inherits SIGHUP ignored (and in the background of a shell without job
    control, Ctrl-C), and a child keeps an ignored signal across exec, so that pywar,
    which leaves an ignored signal ignored (docs/command-line.md), never saw it."""
    for number in STOPPING:
        signal.signal(number, signal.SIG_DFL)


@pytest.fixture
def stopping_signals_handled():
    """SIGTERM and SIGHUP at their defaults in this process for one test (Ctrl-C raises,
    ctrl_c_raises), so that pywar's main() run here handles them: under nohup a test run
    inherits SIGHUP ignored."""
    previous = {number: signal.signal(number, signal.SIG_DFL)
                for number in (signal.SIGTERM, signal.SIGHUP)}
    yield
    for number, handler in previous.items():
        signal.signal(number, handler)


@pytest.fixture(scope="session", autouse=True)
def config_home(tmp_path_factory):
    """XDG_CONFIG_HOME in a folder of the session's own (each pytest-xdist worker's is its
    own session), for the tests and the commands they start: pywar grade's grading key is
    made there, never in the real home's ~/.config."""
    folder = tmp_path_factory.mktemp("config")
    before = os.environ.get("XDG_CONFIG_HOME")
    os.environ["XDG_CONFIG_HOME"] = str(folder)
    yield folder
    if before is None:
        del os.environ["XDG_CONFIG_HOME"]
    else:
        os.environ["XDG_CONFIG_HOME"] = before


@pytest.fixture(scope="session", autouse=True)
def isolation_warning_said():
    """The warning of a machine without bubblewrap said once, at the session's start, as
    pywar says it once a process: each test's stderr then holds its own command's words
    alone, whichever test a worker runs first (tests/test_sandbox.py tests the warning)."""
    from pywar.check.runner import sandbox
    said = sandbox.warning("auto")
    if said:
        sandbox.warn_once(said)


@contextlib.contextmanager
def open_folder():
    """A folder of the test's own that every user may read, not write, removed after: for
    the files a run is handed (a cmd: program, a py: module).  pytest's tmp_path lies in
    a folder of mode 0700 that a run's user of its own (as root, without bubblewrap) may
    not enter, as a student's files under /root would."""
    folder = tempfile.mkdtemp(prefix="pywar-test-")
    os.chmod(folder, 0o755)
    try:
        yield Path(folder)
    finally:
        shutil.rmtree(folder)


@pytest.fixture
def open_path():
    """open_folder() for one test."""
    with open_folder() as folder:
        yield folder


@pytest.fixture(scope="session")
def c_program(tmp_path_factory):
    """build(sources, flags): `cc flags sources -o program`, run once per session for each
    distinct command, so that tests building the same program (bench/driver.c with the
    whole core at -O2 takes about 8 s) share one binary."""
    built = {}

    def build(sources, flags):
        key = (tuple(str(source) for source in sources), tuple(flags))
        if key not in built:
            binary = tmp_path_factory.mktemp("c-program") / Path(key[0][0]).stem
            subprocess.run(["cc", *key[1], *key[0], "-o", str(binary)], check=True)
            built[key] = binary
        return built[key]
    return build


# How the tests build C at -O2: warnings are errors, with the core's include paths.
C_FLAGS = ["-std=c11", "-O2", "-Wall", "-Wextra", "-Werror", f"-I{ROOT / 'csrc'}",
           f"-I{ROOT / 'csrc' / 'common'}"]


def bench_driver(c_program, extra=()):
    """bench/driver.c with the whole core (csrc/), at C_FLAGS and extra, once per session."""
    core = sorted(str(path) for path in (ROOT / "csrc").rglob("*.c"))
    return c_program([ROOT / "bench" / "driver.c", *core], [*C_FLAGS, *extra])


def runner_may_run_python():
    """Whether a child of pywar's runner can start the Python the runs use: under
    bubblewrap, or not as root, yes; as root without it, only a Python that other users
    may run (pywar takes a system one where this Python is under /root, mode 0700: issue
    37)."""
    from pywar.check.runner import pychild, sandbox
    return sandbox.bwrap_works() or os.geteuid() != 0 or pychild.others_may_run(
        pychild.python_for_runs())


def runner_may_read_pywar():
    """Whether a child of pywar's runner may import pywar's own package where it lies (a
    py:pywar.port... class): under bubblewrap, or not as root, yes; as root without it,
    only where every user may enter and list it (not a checkout under /root)."""
    from pywar.check.runner import pychild, sandbox
    folder = pychild.PYWAR_FOLDER
    return sandbox.bwrap_works() or os.geteuid() != 0 or (
        pychild.others_may_run(folder) and bool(os.stat(folder).st_mode & 0o004))


def needs_bwrap():
    """A skip for a test of the runner under bubblewrap where it does not work here (a
    failure where PYWAR_REQUIRE_BWRAP is set, as in CI: .ci/run's tests of the sandbox
    must not pass by skipping)."""
    from pywar.check.runner import sandbox
    works = sandbox.bwrap_works()
    if not works and os.environ.get("PYWAR_REQUIRE_BWRAP"):
        pytest.fail("PYWAR_REQUIRE_BWRAP is set but bubblewrap does not work here "
                    "(apt-get install bubblewrap)", pytrace=False)
    return pytest.mark.skipif(not works, reason="bubblewrap does not work here")


NO_PYTHON_RUNS = ("the runner's user of its own may run no Python here without "
                  "bubblewrap (apt-get install bubblewrap, or python3; issue 37)")
needs_python_runs = pytest.mark.skipif(not runner_may_run_python(), reason=NO_PYTHON_RUNS)
needs_pywar_readable = pytest.mark.skipif(
    not runner_may_read_pywar(), reason="the runner's user of its own may not read pywar's "
    "package here without bubblewrap (a folder above it is closed to other users; "
    "apt-get install bubblewrap)")


CLASS = DATA / "class"
CLASS_SEEDS = (1, 5)    # the class is graded on seeds 1 to 5 alone (-n 5 --seed 1 --fresh 0)


@pytest.fixture(scope="session")
def class_grades(tmp_path_factory, request):
    """The whole class of tests/data/class graded once per test run through the command
    line (pywar grade, -n 5 --seed 1 --fresh 0 --jobs 2 --json --html): (the JSON's submissions by
    name, the path of the HTML page).  tests/test_grade.py, tests/test_class_marks.py and
    tests/test_rows.py share it, and so do pytest-xdist's workers: the first to ask grades
    the class under a lock in the run's shared temporary folder, the others read its
    files (pytest-xdist's documented way to run a session fixture once).  --timeout 3:
    loops_forever is killed after 3 s a seed, not 10 (the others finish in well under a
    second, or flood their output first); --budget 60: every seed of it is run (the
    default, 16 s for 5 seeds of 3 s, leaves its fifth unrun: tests/test_referee_time.py
    tests the budget)."""
    import fcntl
    import json
    import os
    import sys
    from pywar.check.referee.rubric import NAMES as ITEMS
    under_xdist = hasattr(request.config, "workerinput")
    shared = (tmp_path_factory.getbasetemp().parent if under_xdist   # the run's, shared
              else tmp_path_factory.mktemp("class"))
    folder = shared / "class-grades"
    with open(shared / "class-grades.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (folder / "grades.json").exists():
            folder.mkdir(exist_ok=True)
            grade_class(folder, os.path.join(os.path.dirname(sys.executable), "pywar"))
    found = json.loads((folder / "grades.json").read_text())
    assert found["items"] == list(ITEMS)
    return {sub["name"]: sub for sub in found["submissions"]}, folder / "class.html"


def grade_class(folder, pywar_command):
    """pywar grade on the class, its JSON written to folder/grades.json (last, so that a
    reader finds it whole) and its page to folder/class.html."""
    page = folder / "class.html"
    programs = sorted(str(path) for path in CLASS.iterdir())
    first, count = CLASS_SEEDS
    command = [pywar_command, "grade", *programs, "-n", str(count), "--seed", str(first),
               "--fresh", "0", "--jobs", "2", "--timeout", "3", "--budget", "60", "--json",
               "--html", str(page)]
    done = subprocess.run(command, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.count("\n") == 1                 # one line
    (folder / "grades.json.part").write_text(done.stdout)
    (folder / "grades.json.part").rename(folder / "grades.json")


# ---- A browser: Debian's Chromium under Selenium (tests/test_page.py, tests/test_similar.py)

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                  "--no-first-run", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync", "--window-size=1400,1000"]


def browser_or_skip(flags=()):
    """A headless Chromium under Selenium, with flags besides CHROMIUM_FLAGS, or a skip
    naming what is missing (a failure where PYWAR_REQUIRE_BROWSER is set, as in CI)."""
    missing = [path for path in (CHROMIUM, CHROMEDRIVER) if not os.path.exists(path)]
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        missing.append("the Python package selenium (pip install -e '.[test]')")
    if missing:
        message = (f"no browser to test the page in: {', '.join(missing)} missing "
                   "(apt-get install chromium chromium-driver)")
        if os.environ.get("PYWAR_REQUIRE_BROWSER"):
            pytest.fail(message)
        pytest.skip(message)
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in [*CHROMIUM_FLAGS, *flags]:
        options.add_argument(flag)
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("SE_OFFLINE", "true")       # Selenium Manager must download nothing
        return webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)


@pytest.fixture(scope="module")
def browser():
    """One headless Chromium for the module's tests."""
    driver = browser_or_skip()
    yield driver
    driver.quit()
