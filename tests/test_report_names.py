"""Every report of pywar grade written whatever a class's files and folders are named
(issue 36): a byte that is not UTF-8, a newline, HTML, a right-to-left mark, in a
folder's name or a file's; and two names that look alike told apart."""

import json
import os

import pytest

from conftest import needs_tools
from pywar.check.grading import report
from pywar.check.grading.grade import Submission, not_checked
from pywar.check.referee.rubric import NAMES
from pywar.cli import main

RTL = "\u202e"                                  # RIGHT-TO-LEFT OVERRIDE
HOSTILE_NAMES = [b"st\xffu", f"bob\n<script>alert(1)</script>{RTL}evil".encode().replace(
    b"/", b"\\"), "ann\x1b[31m".encode()]


def write_submission(root, name):
    """A submission folder named name (bytes) whose file x\\xff.cpp includes "WAR.H" where
    the file is war.h (the build fails, naming both): its path, as bytes."""
    folder = os.path.join(bytes(root), name)
    os.mkdir(folder)
    with open(os.path.join(folder, b"x\xff.cpp"), "w") as source:
        source.write('#include "WAR.H"\nint main() { return 0; }\n')
    with open(os.path.join(folder, b"war.h"), "w") as header:
        header.write("\n")
    return folder


def grade(capsys, *argv):
    """main(['grade', ...]) on bytes and str arguments: (exit status, stdout, stderr)."""
    words = [os.fsdecode(arg) if isinstance(arg, bytes) else str(arg) for arg in argv]
    status = main(["grade", *words, "-n", "1", "--no-memory"])
    out, err = capsys.readouterr()
    return status, out, err


def plain(text):
    """Whether a text holds nothing a reader's tools may choke on or be fooled by: no lone
    surrogate (it encodes as UTF-8), no escape, no right-to-left mark."""
    text.encode("utf-8")                        # raises on a lone surrogate
    return "\x1b" not in text and RTL not in text


@needs_tools("cc", "g++")
def test_every_report_is_written_whatever_the_names(tmp_path, capsys):
    """--html died with a UnicodeEncodeError after grading everyone (exit 1, no page,
    nothing on stdout) for one file named x\\xff.cpp."""
    root = tmp_path / "class"
    root.mkdir()
    folders = [write_submission(root, name) for name in HOSTILE_NAMES]
    page = tmp_path / "class.html"
    status, out, err = grade(capsys, *folders, "--html", page)
    assert status == 0, err
    assert plain(out) and "st\\xffu" in out and "x\\xff.cpp" in out
    assert out.splitlines()[len(folders) + 1].startswith("(ok: ")      # a row each
    text = page.read_text(encoding="utf-8")
    assert plain(text) and "<script>" not in text and "st\\xffu" in text
    assert "bob\\n&lt;script&gt;" in text and "\\u202eevil" in text
    status, out, err = grade(capsys, *folders, "--json")
    assert status == 0, err
    names = [sub["name"] for sub in json.loads(out)["submissions"]]
    json.dumps(json.loads(out), ensure_ascii=False).encode("utf-8")   # no lone surrogate
    assert names[0] == "st\\xffu" and names[1].startswith("bob\n<script>")
    for folder in folders:
        results = tmp_path / "results.json"
        status, out, err = grade(capsys, folder, "--gradescope", results)
        assert status == 0, err
        found = json.loads(results.read_text(encoding="utf-8"))
        assert found["output_format"] == found["test_output_format"] == "text"
        assert all(test["output_format"] == "text" for test in found["tests"])
        assert plain(json.dumps(found, ensure_ascii=False))
        assert "x\\xff.cpp" in found["tests"][0]["output"]


def submission(name):
    """A submission that did not build, named name."""
    items = {item: {"ok": False, "failed": 0, "of": 0, "example": not_checked(item)}
             for item in NAMES}
    return Submission(name, items, 0.0, len(NAMES))


def test_names_that_look_alike_are_told_apart():
    """alice and Cyrillic аlice looked the same in every report; a full-width letter
    too.  Now each is shown with its characters outside ASCII escaped, and said to look
    like the other; a name like no other is shown as it is."""
    class_ = [submission(name) for name in ("alice", "\u0430lice", "\uff42ob", "bob", "José")]
    text = report.terminal(class_)
    assert "\\u0430lice: 0 of 12 (its name looks like alice's" in text
    assert "alice: 0 of 12 (its name looks like \\u0430lice's" in text
    assert "\\uff42ob: 0 of 12 (its name looks like bob's" in text
    assert "José: 0 of 12\n" in text
    page = report.html_page(class_)
    assert "\u0430" not in page and "\\u0430lice" in page and "José" in page


@pytest.mark.parametrize("one, other, alike", [
    ("alice", "\u0430lice", True),          # Cyrillic a
    ("bob", "\uff42ob", True),              # full-width b: the same in NFKC
    ("José", "Jose\u0301", True),           # composed and decomposed: the same in NFKC
    ("alice", "alicia", False),
    ("李明", "王芳", False),                  # two names outside ASCII, each its own
    ("ann", "Ann", False),                  # case is seen
])
def test_what_looks_alike(one, other, alike):
    assert report.alike(one, other) is alike
