"""The README is a quickstart of at most 300 lines (the founders' promise, issue 44), and
every page of docs/ it links to is there."""

import re

from conftest import ROOT

README = (ROOT / "README.md").read_text()
MOST = 300


def test_the_readme_is_a_quickstart():
    assert README.count("\n") <= MOST


def test_every_page_the_readme_names_is_there():
    named = set(re.findall(r"docs/[\w-]+\.md", README))
    assert "docs/installing.md" in named and "docs/development.md" in named
    assert [page for page in sorted(named) if not (ROOT / page).is_file()] == []


def test_the_link_finder_finds_a_missing_page():
    assert not (ROOT / re.findall(r"docs/[\w-]+\.md", "see docs/nowhere.md")[0]).is_file()
