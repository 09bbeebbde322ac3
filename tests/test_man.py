"""pywar man: the manual page, made from the parser, is valid roff that says what
--help says: every command, and every option of each command as its --help lists it."""

import re
import shutil
import subprocess

import pytest

from pywar.cli import main

needs_groff = pytest.mark.skipif(shutil.which("groff") is None,
                                 reason="needs groff (Debian: groff-base, with man-db)")
COMMAND_NAMES = ("play", "simulate", "check", "exact", "rules", "step", "replay", "diff",
                 "referee", "completion", "man", "help")


def printed(capsys, *argv):
    """What main(argv) prints on stdout, checked to exit 0 with nothing on stderr."""
    status = main(list(argv))
    out, err = capsys.readouterr()
    assert (status, err) == (0, "")
    return out


def rendered(source):
    """The page as plain text, as groff typesets it, and groff's warnings (all of them)."""
    done = subprocess.run(["groff", "-man", "-Tutf8", "-ww", "-P-cbou", "-rLL=200n"],
                          input=source, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0
    return done.stdout, done.stderr


def help_options(text):
    """The options a --help lists: the first word of each entry of its options block."""
    block = text.split("\noptions:\n", 1)[1]
    return re.findall(r"^  (-{1,2}[\w-]+)", block, re.MULTILINE)


@needs_groff
def test_the_page_is_valid_roff_with_every_command_and_option(capsys):
    text, warnings = rendered(printed(capsys, "man"))
    assert warnings == ""
    assert text.startswith("PYWAR(1)") and "pywar - the card game War" in text
    sections = re.split(r"^   (\w+)$", text.split("\nCOMMANDS\n")[1].split("\nEXAMPLES\n")[0],
                        flags=re.MULTILINE)
    found = dict(zip(sections[1::2], sections[2::2]))
    listed = re.findall(r"^    (\w+)", printed(capsys, "--help").split("\ncommands:\n")[1],
                        re.MULTILINE)
    assert list(found) == listed and set(COMMAND_NAMES) <= set(found)
    for name in found:
        listed = help_options(printed(capsys, name, "--help"))
        assert "--version" in listed
        missing = [option for option in listed
                   if not re.search(rf"^       {re.escape(option)}\b", found[name], re.MULTILINE)]
        assert missing == [], name
    assert "130  interrupted (Ctrl-C)" in text.split("\nEXIT STATUS\n")[1]


def test_roff_escapes_what_roff_would_read_as_its_own():
    from pywar.cli.man import roff
    assert roff(".not a request\n'nor this\n--face-down C:\\path") == \
        "\\&.not a request\n\\&'nor this\n\\-\\-face\\-down C:\\epath"


def test_a_wrapped_synopsis_lines_up_under_its_first_option(capsys):
    """Each command's synopsis, wrapped, continues under the first option after
    'pywar NAME ' (argparse indents for the 'usage: ' the page leaves out)."""
    page = printed(capsys, "man")
    blocks = re.findall(r"^\.SS (\S+)\n\.PP\n\.nf\n(.*?)\n\.fi", page, re.MULTILINE | re.DOTALL)
    assert len(blocks) >= len(COMMAND_NAMES) - 1
    wrapped = 0
    for name, block in blocks:
        first, *rest = block.splitlines()
        column = len(f"pywar {name} ")
        assert first.startswith(f"pywar {name} [")
        for line in rest:
            wrapped += 1
            assert len(line) - len(line.lstrip(" ")) == column, (name, line)
    assert wrapped > 0


def test_the_page_is_the_same_at_any_terminal_width(capsys, monkeypatch):
    """The synopses wrap at the page's own width, not the terminal's (at COLUMNS=30,
    `pywar completion` wrapped to column 0)."""
    monkeypatch.setenv("COLUMNS", "30")
    narrow = printed(capsys, "man")
    monkeypatch.setenv("COLUMNS", "200")
    assert printed(capsys, "man") == narrow
    monkeypatch.delenv("COLUMNS")
    assert printed(capsys, "man") == narrow
