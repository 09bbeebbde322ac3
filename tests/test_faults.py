"""Every allocation of the C core failed in turn, through the Python API.

pywar._core is built a second time, into a temporary folder, with tests/fault_alloc.c
and -Wl,--wrap=malloc,... so that the core's own allocations (the port's cards, piles
and stacks, the transcript and trace buffers, the exact enumerator's census) can be made
to fail one at a time; the product's build has no such hook and no global state.
tests/fault_sweep.py then plays games with pywar.play (engines c and port-c, both
stacks, transcripts and traces whole and streamed) and pywar.exact, failing allocation
k = 1, 2, ... n in turn: each must raise MemoryError, free every block, and leave the
next game equal to the first, which equals the Python engine's.

The default run sweeps a few cases with an unoptimized build; the slow run (and .ci/run)
sweeps every case, also with the core under AddressSanitizer and UBSan.
"""

import json
import os
import shutil
import subprocess
import sys
import sysconfig

import pytest

import pywar
from conftest import ROOT
from pywar import _build

SWEEP = ROOT / "tests" / "fault_sweep.py"
FAULT_CDEF = ("void pywar_faults_arm(long k);\nlong pywar_faults_calls(void);\n"
              "long pywar_faults_blocks(void);\n")
WRAP = "-Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=free"
QUICK = ["c-17455", "port-c-pile-17455", "port-c-adt-17455", "exact-4x3"]
EVERY = QUICK + ["c-1553", "c-1553-streamed", "port-c-adt-1553-streamed"]
TEXT_START = 4096            # text.c: a buffer's first capacity, doubled as it grows
PIECE = 65536                # PYWAR_TEXT_PIECE: a streamed buffer is handed over at this


def compiler():
    """The C compiler, or a skip (a failure where PYWAR_REQUIRE_C is set, as in CI)."""
    found = shutil.which("cc") or shutil.which("gcc")
    if found is None or not sys.platform.startswith("linux"):
        if os.environ.get("PYWAR_REQUIRE_C"):
            pytest.fail("PYWAR_REQUIRE_C is set but there is no C compiler with GNU ld")
        pytest.skip("needs a C compiler and GNU ld (--wrap) on Linux")
    return found


def libasan():
    """The path of gcc's libasan, for LD_PRELOAD, or None."""
    run = subprocess.run(["gcc", "-print-file-name=libasan.so"], capture_output=True,
                         text=True)
    path = run.stdout.strip()
    return path if run.returncode == 0 and os.path.isabs(path) else None


def build_fault_core(directory, sanitize=False):
    """pywar._core with the allocations wrapped: the path of the module."""
    ffi = _build.builder(sanitize=sanitize, optional=False, extra_cdef=FAULT_CDEF,
                         extra_source=FAULT_CDEF)
    c_file = directory / "pywar._core.c"
    ffi.emit_c_code(str(c_file))
    module = directory / ("_core" + sysconfig.get_config_var("EXT_SUFFIX"))
    flags = ["-O1", "-g", *_build.SANITIZERS] if sanitize else ["-O0", "-g"]
    subprocess.run([compiler(), "-shared", "-fPIC", "-std=c11", "-Wall", "-Wextra", "-Werror",
                    *flags, f"-I{sysconfig.get_paths()['include']}", f"-I{_build.CSRC}",
                    f"-I{_build.CSRC / 'common'}", str(c_file), *_build.sources(absolute=True),
                    str(ROOT / "tests" / "fault_alloc.c"), WRAP, "-o", str(module)],
                   check=True, capture_output=True)
    return module


def sweep(module, cases, env=None, plant=False):
    """Run tests/fault_sweep.py: {case: (allocations, problems)}."""
    run = subprocess.run([sys.executable, str(SWEEP), *(["--plant"] if plant else []),
                          str(module), *cases], capture_output=True, text=True, env=env,
                         cwd=ROOT)
    rows = [json.loads(line) for line in run.stdout.splitlines() if line.startswith("{")]
    assert len(rows) == len(cases), run.stdout + run.stderr[-3000:]
    assert run.returncode == 0 or any(row["problems"] for row in rows), run.stderr[-3000:]
    return {row["case"]: (row["allocations"], row["problems"]) for row in rows}


def reallocations(length, streamed=False):
    """The reallocs that text.c makes for a text of length bytes, appended a line at a
    time: the first capacity, then one per doubling while the text and its NUL do not
    fit; a streamed buffer never holds much more than a piece."""
    if length == 0:
        return 0
    held = min(length, PIECE) if streamed else length
    count, capacity = 1, TEXT_START
    while capacity < held + 1:
        capacity *= 2
        count += 1
    return count


def expected_allocations(case):
    """A game's allocations, from the Python engine's texts and the port's shape: 52
    cards and 4 piles, and with the stack ADT a stack for each pile and for the pot."""
    engine, *rest = case.replace("port-c", "port_c").split("-")
    seed = int(rest[-1] if rest[-1] != "streamed" else rest[-2])
    stack = rest[0] if engine == "port_c" else None
    streamed = case.endswith("streamed")
    game = pywar.play(seed, engine="python" if engine == "c" else "port-python", stack=stack,
                      transcript=True, trace=True)
    events = game.trace.split("\n", 1)[1]       # the C buffer holds the lines, not the header
    count = reallocations(len(game.transcript), streamed) + reallocations(len(events), streamed)
    if engine == "port_c":
        count += 52 + 4 + (5 if stack == "adt" else 0)
    return count


@pytest.fixture(scope="module")
def fault_core(tmp_path_factory):
    return build_fault_core(tmp_path_factory.mktemp("faults"))


def check(results, cases):
    assert {case: results[case][1] for case in cases} == {case: [] for case in cases}
    for case in cases:
        if case.startswith("exact"):
            assert results[case][0] >= 4           # 3 histograms and the set of cycles
        else:
            assert results[case][0] == expected_allocations(case), case


def test_every_allocation_failed_in_turn_is_a_clean_memory_error(fault_core):
    check(sweep(fault_core, QUICK), QUICK)


def test_the_sweep_catches_the_bugs_it_found(fault_core):
    """The sweep with _checked's text handling as it was before the sweep found it out: a
    game whose first text allocation failed raised RuntimeError instead of MemoryError
    (ffi.string of NULL), and left the other buffer unfreed."""
    allocations, problems = sweep(fault_core, ["c-17455"], plant=True)["c-17455"]
    assert "allocation 1 failed: RuntimeError: cannot use string() on <cdata 'char *' NULL>" \
        in problems
    assert any(problem.endswith("1 blocks left") for problem in problems), problems


@pytest.mark.slow
def test_every_case_failed_in_turn(fault_core):
    check(sweep(fault_core, EVERY), EVERY)


@pytest.mark.slow
def test_every_case_failed_in_turn_under_the_sanitizers(tmp_path):
    """The same sweep with the core under ASan and UBSan: a failure path that reads or
    frees a block twice, or too far, stops the process with a report."""
    preload = libasan()
    if preload is None:
        pytest.skip("gcc's libasan is not installed")
    module = build_fault_core(tmp_path, sanitize=True)
    env = {**os.environ, "LD_PRELOAD": preload, "ASAN_OPTIONS": "detect_leaks=0",
           "UBSAN_OPTIONS": "print_stacktrace=1"}
    check(sweep(module, EVERY, env), EVERY)
