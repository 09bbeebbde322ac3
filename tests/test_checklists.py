"""The checklists of docs/development.md name exactly the files that a change of their
kind touches: each is held against the files that name its newest example, among the
modules of pywar/ and every C file of the tree (csrc/, bench/, tests/, pywar/)."""

import re

import pytest

from conftest import FIELDS_HEADER, ROOT

GUIDE = ROOT / "docs" / "development.md"
SOURCES = ("*.py", "*.c", "*.h")
EXAMPLES = {
    "add a statistic": re.compile(r"\bwar_rounds\b"),
    "add a rule dimension": re.compile(r"REFILLS\b|PYWAR_REFILL_|rules\.refill\b|rules->refill"),
}


def checklist(title):
    """The files that a checklist's items name, in backticks at the start of an item."""
    text = GUIDE.read_text()
    section = text[text.index(f"### Checklist: {title}"):]
    section = section[:section.find("\n#", 1) if "\n#" in section[1:] else len(section)]
    return set(re.findall(r"^- `([^`]+)`", section, re.M))


def sources():
    """The Python and C sources of pywar/, and every C file of the tree but the header
    that the build writes from the table (csrc/fields.h) and those of folders the tree
    does not track (build/, a venv's)."""
    python = set((ROOT / "pywar").rglob("*.py"))
    c_files = {path for glob in ("*.c", "*.h") for path in ROOT.rglob(glob)
               if not any(part.startswith(".") or part in ("build", "venv")
                          for part in path.relative_to(ROOT).parts)}
    return python | c_files - {FIELDS_HEADER}


def naming(pattern, files=None):
    """The files (of sources(), unless given) whose text the pattern finds, relative to
    the tree."""
    files = sources() if files is None else files
    return {str(path.relative_to(ROOT)) for path in files if pattern.search(path.read_text())}


@pytest.mark.parametrize("title", sorted(EXAMPLES))
def test_a_checklist_names_every_file_its_example_touches(title):
    """The files naming the newest example are the checklist's, no more and no fewer."""
    assert naming(EXAMPLES[title]) == checklist(title)


def test_the_command_checklist_holds():
    """Every module of pywar/cli/ with add(subparsers) is a command in COMMANDS, and the
    checklist names the two places a command is written: its own module, NAME.py, and
    the list; the README's section it names is there."""
    from pywar import cli
    modules = {path.stem for path in (ROOT / "pywar" / "cli").glob("*.py")
               if "def add(subparsers)" in path.read_text()}
    assert modules == {command.__name__.rpartition(".")[2] for command in cli.COMMANDS}
    assert checklist("add a command") == {"pywar/cli/NAME.py", "pywar/cli/__init__.py"}
    assert "\n## The command\n" in (ROOT / "README.md").read_text()


def test_the_mistake_checklist_names_the_search_order():
    """Adding a deviation, or one that refines another, names the order the search reads."""
    assert checklist("add a student mistake") >= {"pywar/check/referee/mistakes.py",
                                                 "pywar/check/referee/battle.py",
                                                 "tests/data/class-marks.json"}
    text = GUIDE.read_text()
    section = text[text.index("### Checklist: add a student mistake"):]
    assert "SEARCH_ORDER" in section and "refines=" in section


def test_the_checklist_reader_finds_a_planted_item():
    """The reader can fail: the statistic's checklist holds the table's file."""
    assert "pywar/common/fields.py" in checklist("add a statistic")


def test_the_reader_reads_the_drivers():
    """Every C file of bench/ and tests/ is read: a statistic that a driver listed by
    hand would be found there (the plant: the yardstick's own list of its columns)."""
    read = {str(path.relative_to(ROOT)) for path in sources()}
    assert {"bench/driver.c", "tests/threads_driver.c", "bench/tight_smu.c",
            "csrc/pywar.c", "pywar/check/runner/seedclock.c"} <= read
    assert "csrc/fields.h" not in read
    assert naming(re.compile(r'"biggest_pot"')) >= {"bench/tight_smu.c", "bench/tight_iofall.c"}
