"""The grading key that keys valgrind's seed to a submission's files (issue 46): made
once, mode 0600, never replaced, no link followed, and a key that cannot be read or made
is one line and exit 3, before any work.  The tests' XDG_CONFIG_HOME is a folder of the
session's own (conftest's config_home): the real home is never touched."""

import os
import stat

import pytest

from conftest import DATA
from pywar.check.grading import grading_key
from pywar.cli import main

CLASS = DATA / "class"


def test_the_key_is_made_once_0600_and_reused(tmp_path):
    """32 bytes in a file of mode 0600, in a folder of mode 0700; read again, the same
    bytes, the file not replaced (its inode kept)."""
    path = tmp_path / "pywar" / grading_key.FILE_NAME
    key = grading_key.grading_key(str(path))
    found = os.stat(path, follow_symlinks=False)
    assert len(key) == grading_key.KEY_BYTES and path.read_bytes() == key
    assert stat.S_ISREG(found.st_mode) and stat.S_IMODE(found.st_mode) == 0o600
    assert stat.S_IMODE(os.stat(path.parent).st_mode) == 0o700
    assert grading_key.grading_key(str(path)) == key
    assert os.stat(path).st_ino == found.st_ino and os.listdir(path.parent) == [path.name]
    assert grading_key.grading_key(str(tmp_path / "other" / "key")) != key


def test_the_key_s_path_is_the_user_s_config_folder(tmp_path):
    """$XDG_CONFIG_HOME/pywar/grading-key, else (unset, empty or relative, which the XDG
    spec ignores) ~/.config/pywar/grading-key."""
    home = os.path.expanduser("~")
    assert grading_key.key_path({"XDG_CONFIG_HOME": str(tmp_path)}) == \
        str(tmp_path / "pywar" / "grading-key")
    for environ in ({}, {"XDG_CONFIG_HOME": ""}, {"XDG_CONFIG_HOME": "relative"}):
        assert grading_key.key_path(environ) == os.path.join(home, ".config", "pywar",
                                                             "grading-key")
    assert grading_key.key_path() == os.path.join(os.environ["XDG_CONFIG_HOME"], "pywar",
                                                  "grading-key")      # conftest's


@pytest.mark.parametrize("target", ["a key", "nothing"])
def test_a_link_at_the_key_s_path_is_refused_not_followed(tmp_path, target):
    """A symbolic link planted at the key's path, to a key-like file or to nothing: the
    key is refused (the link named), the file it names neither read nor made."""
    path = tmp_path / "pywar" / grading_key.FILE_NAME
    path.parent.mkdir()
    aimed = tmp_path / "planted"
    if target == "a key":
        aimed.write_bytes(b"k" * grading_key.KEY_BYTES)
        aimed.chmod(0o600)
    path.symlink_to(aimed)
    with pytest.raises(grading_key.KeyUnusable, match="symbolic link"):
        grading_key.grading_key(str(path))
    assert aimed.exists() == (target == "a key") and os.path.islink(path)


@pytest.mark.parametrize("made, why", [
    (lambda path: path.mkdir(), "Is a directory"),
    (lambda path: (path.write_bytes(b"short"), path.chmod(0o600)), "5 bytes, not 32"),
    (lambda path: (path.write_bytes(b"k" * 32), path.chmod(0o644)), "others may read it"),
    (lambda path: path.parent.rmdir() or path.parent.write_text("a file"), "Not a directory"),
])
def test_a_key_that_cannot_be_used_is_one_line_and_exit_3_before_any_work(
        tmp_path, capsys, monkeypatch, made, why):
    """pywar grade with a key that is a folder, a file too short, one others may read, or
    a config folder that is a file: one line naming the key, exit 3, nothing graded."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    path = tmp_path / "pywar" / grading_key.FILE_NAME
    path.parent.mkdir()
    made(path)
    status = main(["grade", str(CLASS / "faithful"), "-n", "1", "--json"])
    out, err = capsys.readouterr()
    assert status == 3 and out == "", err
    assert err.count("\n") == 1 and err.startswith(
        f"pywar grade: error: cannot use the grading key {str(path)!r}: ") and why in err, err
