"""The runner (pywar.check.runner.sandbox) on a machine that lacks a tool: without
util-linux's prlimit a run still has its memory limit, and without bubblewrap every
process of a run's user is killed at its end, one that left the run's group too."""

import os
import shutil
import subprocess
import tempfile
import time

import pytest

from conftest import needs_tools
from pywar.check.runner import pychild, sandbox
from pywar.check.runner.sandbox import MIB, Limits

HOG = r"""
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int main(void) {
    size_t size = (size_t) 384 << 20;                  /* 384 MiB */
    char *block = malloc(size);
    if (block == NULL) { puts("refused"); return 0; }
    memset(block, 1, size);
    printf("got %d\n", block[size - 1]);
    free(block);
    return 0;
}
"""


@pytest.fixture(scope="module")
def hog():
    """A program that asks for 384 MiB and says whether it got them, in a folder any user
    may read."""
    folder = sandbox.Scratch("pywar-test-hog-")
    path = os.path.join(folder.path, "hog")
    source = path + ".c"
    with open(source, "w") as file:
        file.write(HOG)
    subprocess.run(["cc", "-O1", "-o", path, source], check=True, env=sandbox.unloaded())
    with folder:
        yield path


# without prlimit, Python sets the limits as the run's user: as root without bubblewrap,
# a Python that other users may not run (under /root, say) cannot (issue 37)
PYTHON_RUNS = os.geteuid() != 0 or pychild.others_may_run(pychild.python_for_runs())


@needs_tools("cc")
@pytest.mark.parametrize("isolation", [
    pytest.param("none", marks=pytest.mark.skipif(
        not PYTHON_RUNS, reason="the runner's user of its own may not run this Python")),
    pytest.param("auto", marks=pytest.mark.skipif(
        not sandbox.bwrap_works(), reason="bubblewrap does not work here"))])
def test_without_prlimit_the_memory_limit_holds(hog, monkeypatch, isolation):
    """384 MiB asked under a limit of 256 MiB of address space: refused; under 1 GiB,
    given (the program does ask)."""
    real = shutil.which
    monkeypatch.setattr(sandbox.shutil, "which",
                        lambda name: None if name == "prlimit" else real(name))
    small, large = (sandbox.run([hog], Limits(memory=size), isolation=isolation)
                    for size in (256 * MIB, 1024 * MIB))
    assert (small.status, small.stdout) == (0, "refused\n")
    assert (large.status, large.stdout) == (0, "got 1\n")


def alive(pid):
    """Whether a process exists and is not a zombie."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


# a sleeper in a session of its own, its pid said once it is there (the sixth field of
# /proc/PID/stat, the session, is its pid)
LEAVES = ("setsid sleep 60 </dev/null >/dev/null 2>&1 & pid=$!; "
          'until [ "$(cut -d " " -f 6 /proc/$pid/stat)" = "$pid" ]; do sleep 0.01; done; '
          "echo $pid")


@pytest.mark.skipif(os.geteuid() != 0, reason="only root's runs have a user of their own, "
                    "whose processes are killed at the run's end")
def test_without_bubblewrap_a_process_that_left_the_group_is_killed():
    """A run (--isolation none) that starts a sleeper in a session of its own and ends at
    once: the sleeper, out of the run's process group, is killed with the run's user."""
    outcome = sandbox.run(["/bin/sh", "-c", LEAVES], isolation="none")
    pid = int(outcome.stdout)
    deadline = time.monotonic() + 5                      # SIGKILL takes a moment
    while alive(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    left = alive(pid)
    if left:
        os.kill(pid, 9)                                  # leave nothing behind
    assert not left


CACHE = ("echo cached > /dev/shm/{mark}-cache; chmod 644 /dev/shm/{mark}-cache; "
         "mkdir -p /tmp/{mark}-dir/deep; echo x > /tmp/{mark}-dir/deep/f; "
         "chmod -R a+rX /tmp/{mark}-dir; echo y > /var/tmp/{mark}-file; "
         "ln -s {target} /tmp/{mark}-link; echo z > {open_folder}/{mark}-inside")
READ = "cat /dev/shm/{mark}-cache /tmp/{mark}-dir/deep/f /var/tmp/{mark}-file 2>/dev/null"


@pytest.mark.skipif(os.geteuid() != 0, reason="only root's runs have a user of their own, "
                    "whose files pywar can tell from the grader's")
def test_without_bubblewrap_what_a_run_left_where_all_may_write_serves_no_later_run(
        tmp_path):
    """Issue 47: under --isolation none a program cached in /dev/shm by one grading served
    a later one.  What a run's user left at the top of /tmp, /var/tmp and /dev/shm, or in
    a folder there that all may write, is removed at its end (a link, not its target);
    a later run reads none of it, and a file of another user stays."""
    mark = f"pywar-test-left-{os.getpid()}-{time.monotonic_ns()}"
    target = tmp_path / "target"
    target.write_text("the grader's\n")
    open_folder = tempfile.mkdtemp(prefix=f"{mark}-open-", dir="/tmp")  # the grader's,
    os.chmod(open_folder, 0o1777)                                       # open to all
    theirs = f"/dev/shm/{mark}-theirs"
    with open(theirs, "w") as file:
        file.write("another user's\n")
    try:
        left = sandbox.run(["/bin/sh", "-c", CACHE.format(mark=mark, target=target,
                                                          open_folder=open_folder)],
                           isolation="none")
        assert left.status == 0, left.stderr
        later = sandbox.run(["/bin/sh", "-c", READ.format(mark=mark)], isolation="none")
        assert later.stdout == ""
        assert not [name for folder in ("/tmp", "/var/tmp", "/dev/shm", open_folder)
                    for name in os.listdir(folder) if name.startswith(mark) and
                    not name.startswith(f"{mark}-open-") and name != f"{mark}-theirs"]
        assert target.read_text() == "the grader's\n"
        assert open(theirs).read() == "another user's\n"
    finally:
        shutil.rmtree(open_folder, ignore_errors=True)
        os.unlink(theirs)
