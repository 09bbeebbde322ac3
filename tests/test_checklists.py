"""The checklists of docs/development.md name exactly the files that a change of their
kind touches: each is held against the files that name its newest example."""

import re

import pytest

from conftest import ROOT

GUIDE = ROOT / "docs" / "development.md"
SOURCES = ("*.py", "*.c", "*.h")
EXAMPLES = {
    "add a statistic": re.compile(r"\bcomeback\b"),
    "add a rule dimension": re.compile(r"REFILLS\b|PYWAR_REFILL_|rules\.refill\b|rules->refill"),
}


def checklist(title):
    """The files that a checklist's items name, in backticks at the start of an item."""
    text = GUIDE.read_text()
    section = text[text.index(f"### Checklist: {title}"):]
    section = section[:section.find("\n#", 1) if "\n#" in section[1:] else len(section)]
    return set(re.findall(r"^- `([^`]+)`", section, re.M))


def naming(pattern):
    """The source files of pywar/ and csrc/ whose text the pattern finds."""
    files = {path for folder in ("pywar", "csrc") for glob in SOURCES
             for path in (ROOT / folder).rglob(glob)}
    return {str(path.relative_to(ROOT)) for path in files if pattern.search(path.read_text())}


@pytest.mark.parametrize("title", sorted(EXAMPLES))
def test_a_checklist_names_every_file_its_example_touches(title):
    """The files naming the newest example are the checklist's, no more and no fewer."""
    assert naming(EXAMPLES[title]) == checklist(title)


def test_the_command_checklist_holds():
    """Every module of pywar/cli/ with add(subparsers) is a command in COMMANDS, and the
    checklist names the two places a command is written."""
    from pywar import cli
    modules = {path.stem for path in (ROOT / "pywar" / "cli").glob("*.py")
               if "def add(subparsers)" in path.read_text()}
    assert modules == {command.__name__.rpartition(".")[2] for command in cli.COMMANDS}
    assert checklist("add a command") == {"pywar/cli/completion.py", "pywar/cli/__init__.py"}


def test_the_checklist_reader_finds_a_planted_item():
    """The reader can fail: the statistic's checklist holds the table's file."""
    assert "pywar/common/fields.py" in checklist("add a statistic")
