"""The C core on several threads at once, under ThreadSanitizer: tests/threads_driver.c
plays batches on two threads over one set of arrays, stops them with a shared flag, and
shares out the parts of an exact count, as pywar.simulate and pywar.exact do; TSan
reports any data race, and the driver compares the results with one thread's.

Slow (a build with -fsanitize=thread and a run at a tenth of the speed); .ci/run runs it.
By hand:

    cc -std=c11 -g -O1 -fsanitize=thread -Icsrc -Icsrc/common tests/threads_driver.c \\
        $(find csrc -name '*.c') -pthread -o /tmp/pywar-threads
    /tmp/pywar-threads 2000 2 0 0 0 0 0 0 10000000 1 2 13 4 0     # smu's numbers
"""

import os
import shutil
import subprocess

import pytest

from conftest import ROOT
from pywar.rules import PRESETS, c_numbers

pytestmark = pytest.mark.slow
FLAGS = ["-std=c11", "-g", "-O1", "-fsanitize=thread", "-Wall", "-Wextra", "-Werror",
         f"-I{ROOT / 'csrc'}", f"-I{ROOT / 'csrc' / 'common'}"]
TSAN_OPTIONS = "halt_on_error=1 exitcode=66"


def build(directory, *defines):
    """The driver and the whole core under ThreadSanitizer."""
    compiler = shutil.which("gcc") or shutil.which("cc")
    if compiler is None:
        if os.environ.get("PYWAR_REQUIRE_C"):
            pytest.fail("PYWAR_REQUIRE_C is set but there is no C compiler")
        pytest.skip("needs a C compiler")
    binary = directory / "threads_driver"
    sources = sorted(str(path) for path in (ROOT / "csrc").rglob("*.c"))
    try:
        subprocess.run([compiler, *FLAGS, *defines, str(ROOT / "tests" / "threads_driver.c"),
                        *sources, "-pthread", "-o", str(binary)], check=True,
                       capture_output=True, text=True)
    except subprocess.CalledProcessError as error:
        if "tsan" in error.stderr and not os.environ.get("PYWAR_REQUIRE_C"):
            pytest.skip("the compiler has no ThreadSanitizer runtime")
        raise
    return binary


def run(binary, games, threads, preset):
    numbers = [str(number) for number in c_numbers(PRESETS[preset]).values()]
    return subprocess.run([str(binary), str(games), str(threads), *numbers],
                          capture_output=True, text=True, timeout=600,
                          env={**os.environ, "TSAN_OPTIONS": TSAN_OPTIONS})


@pytest.fixture(scope="module")
def driver(tmp_path_factory):
    return build(tmp_path_factory.mktemp("tsan"))


@pytest.mark.parametrize("games, threads, preset", [(2000, 2, "smu"), (3000, 3, "iofall")])
def test_batches_on_threads_are_race_free_and_equal_to_one_thread(driver, games, threads,
                                                                  preset):
    done = run(driver, games, threads, preset)
    assert done.returncode == 0, done.stdout + done.stderr[-4000:]
    assert "ThreadSanitizer" not in done.stderr
    assert done.stdout.splitlines() == [
        f"batch: {games} games on {threads} threads equal one thread's",
        f"stop: {threads} batches stopped by a shared flag, their finished games equal one "
        "thread's (stopped early)",
        f"exact: every deal of 9 cards on {threads} threads: 362880 sequences, 218680 "
        "cycles, equal to one thread's",        # A400411: 218,680 endless deals of 9 cards
    ]


def test_thread_sanitizer_reports_a_planted_race(tmp_path):
    """The same driver, storing the stop flag with a plain write: a data race with the
    core's atomic reads, which TSan must report and fail the run for."""
    source = (ROOT / "tests" / "threads_driver.c").read_text()
    planted = source.replace("__atomic_store_n(&stop, 1, __ATOMIC_RELAXED);", "stop = 1;")
    assert planted != source
    path = tmp_path / "threads_driver.c"
    path.write_text(planted)
    binary = tmp_path / "planted"
    sources = sorted(str(p) for p in (ROOT / "csrc").rglob("*.c"))
    subprocess.run([shutil.which("gcc") or "cc", *FLAGS, str(path), *sources, "-pthread",
                    "-o", str(binary)], check=True)
    done = run(binary, 200, 2, "smu")
    assert done.returncode == 66
    assert "WARNING: ThreadSanitizer: data race" in done.stderr
