"""Borrowed code keeps its notice, and what pywar imports of another package's internals
is pinned to the version it was read from (issue 44): similar/source.py adapts
copydetect 0.5.0's filter_code (MIT) and imports copydetect.utils."""

import re
from importlib import metadata

import pytest

from conftest import ROOT

SOURCE = ROOT / "pywar" / "check" / "similar" / "source.py"


def comment_text(path):
    """The text of a file's comments, joined, each line without its '#'."""
    return "\n".join(re.sub(r"^\s*# ?", "", line) for line in path.read_text().splitlines()
                     if line.lstrip().startswith("#"))


def copydetect_license():
    """copydetect's own LICENSE, as its installed package holds it (None if not installed)."""
    try:
        files = metadata.files("copydetect") or []
    except metadata.PackageNotFoundError:
        return None
    found = [file for file in files if file.name.upper().startswith("LICENSE")]
    return found[0].read_text() if found else None


def words(text):
    """A text's words, however it is wrapped."""
    return " ".join(text.split())


def test_the_adapted_code_keeps_copydetect_s_notice():
    """The copyright line and the permission notice stand beside filter_code, word for
    word as copydetect's LICENSE has them."""
    kept = comment_text(SOURCE)
    assert "Copyright (c) 2020 Bryson Lingenfelter" in kept
    licence = copydetect_license()
    if licence is None:
        pytest.skip("copydetect is not installed: its LICENSE cannot be compared")
    assert words(licence) in words(kept)


def test_the_notice_finder_can_fail(tmp_path):
    planted = tmp_path / "planted.py"
    planted.write_text('"""Copyright (c) 2020 Bryson Lingenfelter"""\n# a comment\n')
    assert "Bryson" not in comment_text(planted) and comment_text(planted) == "a comment"


def test_copydetect_is_pinned_to_the_version_read():
    """pyproject bounds copydetect below 0.6 wherever it names it, and the installed one
    is within (its internals, copydetect.utils, are imported)."""
    text = (ROOT / "pyproject.toml").read_text()
    named = re.findall(r'"copydetect([^"]*)"', text)
    assert named and all(spec == ">=0.5,<0.6" for spec in named), named
    try:
        version = metadata.version("copydetect")
    except metadata.PackageNotFoundError:
        pytest.skip("copydetect is not installed")
    assert version.startswith("0.5."), version
