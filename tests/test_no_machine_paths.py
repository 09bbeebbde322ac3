"""No absolute path of a build machine goes into the tree: a document is cited by its
name, which every reader has."""

import re
import subprocess

import pytest

from conftest import ROOT

MACHINE_PATH = re.compile(r"(?<![\w.~])/(work|home|root|Users|opt)/\w")


def test_no_file_names_a_path_of_this_machine():
    """Every tracked text file is free of /work/..., /home/..., /root/... paths."""
    listed = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True)
    if listed.returncode != 0:
        pytest.skip("needs a git checkout (an sdist or a copy has no list of tracked files)")
    files = listed.stdout.split()
    found = []
    for name in files:
        try:
            text = (ROOT / name).read_text(encoding="utf-8")
        except (UnicodeDecodeError, FileNotFoundError):
            continue
        found += [f"{name}: {match.group(0)}" for match in MACHINE_PATH.finditer(text)]
    assert found == []


def test_the_pattern_finds_a_planted_path():
    """The test above can fail: a planted path is found, a URL's path is not."""
    assert MACHINE_PATH.search("see /" + "work/research/anchors.md")   # split: not a path here
    assert not MACHINE_PATH.search("https://example.org/work/x")
