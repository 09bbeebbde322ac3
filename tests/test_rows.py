"""The two tables, the rubric's items and the mistakes, held together with what reads
them: docs/grading.md's tables are the rows, every row is named in the docs with its
item, every mistake a transcript shows has a program in the tests' class
(tests/data/class, with its name in the manifest: docs/development.md's checklist, "Add
a student mistake"), the runner's rows come from how a run ends, and no deviation's name
is written as a string outside the table's module."""

import ast
import json
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from conftest import DATA, ROOT, needs_tools
from pywar.check.referee import mistakes, rubric, tables
from pywar.check.referee.mistakes import DEVIATIONS, MISTAKE, MISTAKES, ROW, Policy
from pywar.check.runner import sandbox

GRADING = (ROOT / "docs" / "grading.md").read_text()
MANIFEST = json.loads((DATA / "class-marks.json").read_text())
FROM_A_TRANSCRIPT = ("rules", "layout", "deal", "end", "refill", "class")   # by the referee


def test_the_table_is_sound():
    """Every deviation's effects are Policy fields it changes, every item is the
    rubric's, no name twice."""
    mistakes.check_table()
    assert [m.name for m in DEVIATIONS] == [m.name for m in MISTAKES
                                            if m.found_by == "rules"]


def test_a_misspelt_row_fails_loudly():
    assert ROW.ace_low is MISTAKE["ace_low"]
    with pytest.raises(AttributeError):
        ROW.ace_lwo                                     # noqa: B018


def test_policies_combine_and_conflicts_do_not():
    assert Policy.of([]) == Policy()
    both = Policy.of(["pot_to_play", "war_pot_to_play"])      # the same field, one value
    assert (both.pot_pile, both.war_pot_pile) == ("to play", "to play")
    assert Policy.of(["refill_lazy", "refill_never"]) is None  # refill_time twice
    assert Policy.of(["refill_lazy", "refill_never"], strict=False).refill_time == "when needed"


@pytest.mark.parametrize("name", list(tables.TABLES))
def test_grading_md_s_tables_are_the_rows(name):
    """docs/grading.md holds each table as the rows make it (python -m
    pywar.check.referee.tables docs/grading.md writes them in again)."""
    assert tables.tables_in(GRADING)[name] == tables.TABLES[name]()


def test_a_row_changed_is_a_table_that_differs(monkeypatch):
    """The test above can fail: a row charged to another item makes another table."""
    row = MISTAKE["tie_returned"]
    changed = tuple(replace(m, item="ties") if m is row else m for m in MISTAKES)
    monkeypatch.setattr(tables, "MISTAKES", changed)
    assert tables.tables_in(GRADING)["deviations"] != tables.deviations_table()


@pytest.mark.parametrize("mistake", MISTAKES, ids=lambda m: m.name)
def test_every_row_is_named_in_grading_md_with_its_item(mistake):
    item = "not charged" if mistake.item is None else f"`{mistake.item}`"
    lines = [line for line in GRADING.splitlines() if line.startswith(f"| `{mistake.name}` |")]
    assert len(lines) == 1 and f"| {item} |" in lines[0]


def test_every_item_is_a_row_of_the_rubric_table():
    assert [item.name for item in rubric.ITEMS] == list(rubric.NAMES)
    for item in rubric.ITEMS:
        assert sum(line.startswith(f"| `{item.name}` |") for line in GRADING.splitlines()) == 1


@pytest.mark.parametrize("mistake", [m for m in MISTAKES if m.found_by in FROM_A_TRANSCRIPT],
                         ids=lambda m: m.name)
def test_every_mistake_a_transcript_shows_has_a_program_in_the_class(mistake):
    """The checklist of docs/development.md: a row, a program in tests/data/class, and
    its marks in the manifest naming the row."""
    assert any(mistake.name in entry["mistakes"] for entry in MANIFEST.values()), \
        f"no program of tests/data/class makes {mistake.name}"


def test_every_name_in_the_manifest_is_a_row():
    named = {name for entry in MANIFEST.values() for name in entry["mistakes"]}
    assert named <= set(MISTAKE), named - set(MISTAKE)


def test_the_checklist_is_in_development_md():
    text = (ROOT / "docs" / "development.md").read_text()
    section = text[text.index("### Checklist: add a student mistake"):]
    section = section[:section.index("\n### ", 1)]
    for step in ("pywar/check/referee/mistakes.py", "tests/data/class/NAME/war.cpp",
                 "tests/data/class-marks.json", "python -m pywar.check.referee.tables"):
        assert step in section, step


def string_constants(path):
    """Every string constant of a Python file, with its line."""
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            yield node.lineno, node.value


def test_no_deviation_s_name_is_a_string_outside_the_table():
    """A deviation is asked by its Policy or its row (ROW.name), never by its name in a
    string: a misspelt string fails silently, an attribute loudly."""
    names = {m.name for m in DEVIATIONS}
    found = [f"{path.relative_to(ROOT)}:{line} {value!r}"
             for path in sorted((ROOT / "pywar").rglob("*.py"))
             if path.name != "mistakes.py"
             for line, value in string_constants(path) if value in names]
    assert found == []


def test_the_string_finder_finds_a_planted_name(tmp_path):
    planted = tmp_path / "planted.py"
    planted.write_text('if "ace_low" in rules:\n    pass\n')
    assert (1, "ace_low") in list(string_constants(planted))


def test_every_way_a_run_ends_is_a_row():
    for ending in sandbox.ENDINGS:
        assert MISTAKE[ending].item == "runs" and MISTAKE[ending].found_by == "runner"
    assert {m.name for m in MISTAKES if m.found_by == "runner"} == set(sandbox.ENDINGS)


def test_importing_the_table_loads_no_runner_and_no_simulation():
    """The front door is light: the table of mistakes, the rubric and the referee load
    neither the runner, the grader, the simulations nor the engines' C core."""
    code = ("import sys; import pywar.check.referee.mistakes, pywar.check.referee.rubric, "
            "pywar.check.referee.judge; "
            "print(' '.join(sorted(m for m in sys.modules if m.startswith('pywar'))))")
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            check=True).stdout.split()
    assert not [m for m in loaded if m.startswith(("pywar.check.runner", "pywar.check.grading",
                                                   "pywar.sim", "pywar._core",
                                                   "pywar.check.implementations"))], loaded
    assert "pywar.check.referee.judge" in loaded


LIMITS = {"flood": "flood", "memhog": "out_of_memory", "sleeper": "timeout"}   # (the CPU
                        # limit is the wall clock's under grade: tests/test_sandbox.py has it)


@needs_tools("g++")
def test_the_limits_programs_end_as_their_rows(tmp_path):
    """tests/data/limits' programs, graded on one seed: each run's ending is its row
    (and what they printed the referee's)."""
    folders = []
    for name in LIMITS:
        folder = tmp_path / name
        folder.mkdir()
        (folder / "war.cpp").write_text((DATA / "limits" / f"{name}.cpp").read_text())
        folders.append(str(folder))
    done = subprocess.run([str(Path(sys.executable).parent / "pywar"), "grade", *folders,
                           "-n", "1", "--fresh", "0", "--no-memory", "--timeout", "2",
                           "--memory-limit", "256",
                           "--output-limit", "1", "--jobs", "2", "--json"],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    found = {sub["name"]: {name: runs for name, runs in sub["mistakes"].items()
                           if MISTAKE[name].found_by == "runner"}
             for sub in json.loads(done.stdout)["submissions"]}
    assert found == {name: {row: 1} for name, row in LIMITS.items()}
