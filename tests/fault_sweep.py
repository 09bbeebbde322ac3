"""Run by tests/test_faults.py in a process of its own: every allocation of a game failed
in turn, through the Python API, with pywar._core replaced by a fault-injection build.

    python tests/fault_sweep.py [--plant] CORE.so [CASE ...]

CORE.so is pywar._core built with tests/fault_alloc.c and the allocations wrapped.  For
each case (a game through pywar.play, or a pywar.exact run), it plays once with no
failure, counting the allocations (n), then n more times, failing allocation k = 1..n:
each must raise MemoryError, leave no block allocated, and the same call with no
failure must then give the first result again.  The first result itself is checked
against the Python engines.  One JSON line per case on stdout:
{"case", "allocations", "problems"}; the exit status is 0 when no case has a problem.
--plant puts back pywar._checked's text handling as it was before this sweep found two
bugs in it, for the test that the sweep catches them.
"""

import importlib.util
import io
import json
import sys
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import pywar  # noqa: E402


def load_core(path):
    """Import the fault build as pywar._core, before pywar._checked imports the real one."""
    spec = importlib.util.spec_from_file_location("pywar._core", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    sys.modules["pywar._core"] = module
    return module.lib


def game(seed, engine, stack=None, stream=False):
    """A call that plays one game with its transcript and trace, and what it returns:
    the result, with the streamed texts in place of None when stream is set."""
    def run():
        texts = (io.StringIO(), io.StringIO()) if stream else (True, True)
        result = pywar.play(seed, engine=engine, stack=stack, transcript=texts[0],
                            trace=texts[1])
        if stream:
            return (result.to_json(), texts[0].getvalue(), texts[1].getvalue())
        return (result.to_json(), result.transcript, result.trace)
    return run


def exact_run():
    """A call that counts every deal of a 4x3 deck under smu's pickup: games of over 64
    rounds and hundreds of cycles, so that the histograms and the set of cycles grow."""
    def run():
        result = pywar.exact_counts("smu", deck="4x3", piles="queue", face_down=1,
                             short_war="last-card", jobs=1, symmetry=False)
        return replace(result, seconds=0.0, games_per_second=0.0)
    return run


def python_twin(seed, engine, stack=None):
    """The same game from the pure-Python engine, for the first result to equal."""
    twin = {"c": "python", "port-c": "port-python"}[engine]
    result = pywar.play(seed, engine=twin, stack=stack, transcript=True, trace=True)
    data = result.to_json()
    data["engine"] = engine
    return (data, result.transcript, result.trace.replace(f'"engine":"{twin}"',
                                                          f'"engine":"{engine}"', 1))


CASES = {
    "c-17455": (game(17455, "c"), lambda: python_twin(17455, "c")),
    "c-1553": (game(1553, "c"), lambda: python_twin(1553, "c")),
    "c-1553-streamed": (game(1553, "c", stream=True), lambda: python_twin(1553, "c")),
    "port-c-pile-17455": (game(17455, "port-c", "pile"),
                          lambda: python_twin(17455, "port-c", "pile")),
    "port-c-adt-17455": (game(17455, "port-c", "adt"),
                         lambda: python_twin(17455, "port-c", "adt")),
    "port-c-adt-1553-streamed": (game(1553, "port-c", "adt", stream=True),
                                 lambda: python_twin(1553, "port-c", "adt")),
    "exact-4x3": (exact_run(), None),
}


def sweep(lib, name):
    """Fail each allocation of a case in turn: (allocations, problems)."""
    run, reference = CASES[name]
    problems = []
    lib.pywar_faults_arm(0)
    before = lib.pywar_faults_blocks()
    first = run()
    total = lib.pywar_faults_calls()
    if lib.pywar_faults_blocks() != before:
        problems.append(f"the game without failures left {lib.pywar_faults_blocks() - before} blocks")
    if reference is not None and first != reference():
        problems.append("the game without failures differs from the Python engine's")
    for k in range(1, total + 2):
        lib.pywar_faults_arm(k)
        try:
            outcome = run()
        except MemoryError:
            outcome = MemoryError
        except Exception as error:                     # any other exception is a problem
            outcome = f"{type(error).__name__}: {error}"
        if k <= total and outcome is not MemoryError:
            problems.append(f"allocation {k} failed: {outcome if isinstance(outcome, str) else 'no MemoryError'}")
        if k > total and (outcome is MemoryError or isinstance(outcome, str)
                          or outcome != first):
            problems.append(f"allocation {k} of {total} (none failed): a different result")
        if lib.pywar_faults_blocks() != before:
            problems.append(f"allocation {k} failed: {lib.pywar_faults_blocks() - before} blocks left")
            before = lib.pywar_faults_blocks()
        lib.pywar_faults_arm(0)
        if run() != first:
            problems.append(f"allocation {k} failed: the next game differs")
    return total, problems


def plant_old_take_text():
    """_checked's text handling before the sweep: ffi.string of a NULL buffer raised
    RuntimeError in place of the MemoryError, and the second buffer was not freed."""
    checked = pywar._checked

    def take_text(text, target):
        if text == checked.ffi.NULL:
            return None
        words = (checked.ffi.string(text.data, text.length).decode("ascii")
                 if target is True else None)
        checked.lib.pywar_text_free(text)
        return words

    checked.take_texts = lambda text, target, lines, trace: (take_text(text, target),
                                                             take_text(lines, trace))


def main(argv):
    plant = argv[1:2] == ["--plant"]
    argv = [argv[0], *argv[2:]] if plant else argv
    lib = load_core(argv[1])
    assert pywar._checked.lib is lib, "the fault build was not the core in use"
    if plant:
        plant_old_take_text()
    status = 0
    for name in argv[2:] or CASES:
        total, problems = sweep(lib, name)
        print(json.dumps({"case": name, "allocations": total, "problems": problems[:20]}),
              flush=True)
        status |= bool(problems)
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv))
