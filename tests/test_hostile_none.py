"""Without bubblewrap (--isolation none), as root (issue 36): a run is a user of its own,
and no classmate's copy or program of pywar's may be read or run by it.  A program that
plays no game of its own ran a classmate's built program, found in /tmp, and scored
12 of 12; now the classmate's folder is closed to it.  What none cannot close, the
submissions' own folders, open to every user where the instructor left them so, is
said in one line before any work."""

import json
import os
import shutil
import subprocess
import sys
import tempfile

import pytest

from conftest import DATA, needs_tools
from pywar.check.runner import sandbox
from pywar.cli import main

pytestmark = [needs_tools("g++"), pytest.mark.skipif(
    os.geteuid() != 0, reason="without bubblewrap, only root gives each run a user of its own")]

# A program with no game: it runs a classmate's program, waiting while one is being built
# (ENOENT), and gives up at once where its folder may not be entered (EACCES).
THIEF = r"""
#include <glob.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <unistd.h>
#include <sys/stat.h>
int main(int argc, char **argv) {
    char mine[4096];
    realpath(argv[0], mine);
    for (int tries = 0; tries < 500; tries++) {
        glob_t found;
        int seen = 0;
        if (glob("TMPDIR/pywar-grade-*", 0, NULL, &found) == 0) {
            for (size_t i = 0; i < found.gl_pathc; i++) {
                if (strncmp(mine, found.gl_pathv[i], strlen(found.gl_pathv[i])) == 0)
                    continue;
                char program[4096];
                strcpy(program, found.gl_pathv[i]);
                strcat(program, "/bin/pywar-program");
                struct stat st;
                if (stat(program, &st) == 0) {
                    execl(program, program, (char *) 0);
                } else if (errno == EACCES) {
                    seen = 1;
                }
            }
            globfree(&found);
        }
        if (seen)
            return 0;
        usleep(10000);
    }
    return 0;
}
"""
SLOW = "#include <unistd.h>\nstatic int paused = (usleep(300000), 0);\n"   # a window to find it


def write(folder, files):
    """A submission's folder with its files."""
    folder.mkdir()
    for name, text in files.items():
        (folder / name).write_text(text)
    return folder


@pytest.fixture
def own_tmp():
    """A TMPDIR of the test's own, listable by every user as /tmp is: pywar's folders go
    there, and the thief looks there alone (not at another grading of this machine)."""
    folder = tempfile.mkdtemp(prefix="pywar-test-tmp-")
    os.chmod(folder, 0o1777)
    yield folder
    subprocess.run(["rm", "-rf", "--", folder], check=True)


@pytest.mark.slow                           # 8 s: two builds, --jobs 2
def test_a_run_cannot_run_a_classmate_s_program_without_bubblewrap(tmp_path, own_tmp):
    honest = write(tmp_path / "honest", {"war.cpp": (DATA / "class" / "faithful" /
                                                     "war.cpp").read_text(),
                                         "slow.cpp": SLOW})
    thief = write(tmp_path / "thief", {"war.cpp": THIEF.replace("TMPDIR", own_tmp)})
    command = [sys.executable, "-m", "pywar", "grade", str(thief), str(honest), "-n", "3",
               "--fresh", "0", "--jobs", "2", "--no-memory", "--json", "--isolation", "none"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=300,
                          env=os.environ | {"TMPDIR": own_tmp})
    assert done.returncode == 0, done.stderr[-2000:]
    graded = {sub["name"]: sub for sub in json.loads(done.stdout)["submissions"]}
    assert graded["honest"]["score"] == graded["honest"]["max_score"]
    printed = graded["thief"]["items"]["format"]
    assert printed["failed"] == printed["of"] == 3, printed    # no game on any seed
    assert graded["thief"]["items"]["deal"]["ok"] is False


def test_submissions_open_to_other_users_are_said_before_any_work(capsys, monkeypatch):
    """A run without bubblewrap reads what any user may: pywar's own command line names
    the submissions' folders (/proc/PID/cmdline is every user's to read)."""
    monkeypatch.setattr("pywar.cli.grade.grade", lambda *args, **kwargs: [])
    room = tempfile.mkdtemp(prefix="pywar-test-room-")      # in /tmp: open to others
    try:
        os.chmod(room, 0o755)
        folders = [os.path.join(room, name) for name in ("ann", "bob")]
        for folder in folders:
            os.mkdir(folder, 0o755)
        assert sandbox.open_to_others(folders[0])
        assert main(["grade", *folders, "--isolation", "none", "--no-memory"]) == 0
        err = capsys.readouterr().err
        assert "2 submissions' folders are open to other users" in err, err
        assert len(err.splitlines()) == 1
        os.chmod(room, 0o700)                               # closed: nothing to say
        assert not sandbox.open_to_others(folders[0])
        assert main(["grade", *folders, "--isolation", "none", "--no-memory"]) == 0
        assert "open to other users" not in capsys.readouterr().err
    finally:
        shutil.rmtree(room)
