"""The processes a step of .ci/run left behind: named, then ended.

A process is the run's if it carries the run's PYWAR_CI_RUN token in its environment (every
process the tests start, but those whose environment the sandbox clears), or if it runs as
one of the sandbox's users of a run's own (--isolation none: pywar/check/runner/sandbox.py).
Nothing of the run's may outlive the step that started it: a process left spinning takes
the 2 cores from the steps after it.  One still ending when the step does (a browser
closing) is given a few seconds.  Usage: leftovers.py STEP; exit status 1 if it found any.
"""
import os
import signal
import sys
import time

from pywar.check.runner.sandbox import FIRST_UID, LAST_UID, users_of_processes

TOKEN = os.environ.get("PYWAR_CI_RUN", "").encode()
GRACE = 5                           # seconds for a process that is ending to end


def fields(pid):
    """The fields of /proc/PID/stat after the command's name (state, ppid, ...)."""
    with open(f"/proc/{pid}/stat", "rb") as stat:
        return stat.read().rsplit(b")", 1)[1].split()


def ancestors(pid):
    """PID and its ancestors, up to the first process."""
    chain = set()
    while pid > 1:
        chain.add(pid)
        pid = int(fields(pid)[1])
    return chain


def has_the_token(pid):
    """Whether PID's environment carries the run's token."""
    try:
        with open(f"/proc/{pid}/environ", "rb") as environ:
            return bool(TOKEN) and b"PYWAR_CI_RUN=" + TOKEN in environ.read().split(b"\0")
    except OSError:                 # ended meanwhile, or a kernel thread's environ
        return False


def the_runs():
    """The run's processes (a run's user of its own, or the token) but this one and its
    ancestors."""
    mine = ancestors(os.getpid())
    return [pid for pid, uid in users_of_processes().items()
            if pid not in mine and (FIRST_UID <= uid <= LAST_UID or has_the_token(pid))]


def command(pid):
    """PID's command line, readable, cut to 160 characters."""
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as cmdline:
            return cmdline.read().replace(b"\0", b" ").decode(errors="replace")[:160]
    except OSError:
        return "?"


def main(step):
    """Name and end the run's processes that outlived STEP; 1 if there were any."""
    left = the_runs()
    if left:
        time.sleep(GRACE)
        left = [pid for pid in the_runs() if pid in left]
    for pid in left:
        print(f"ci: left behind by {step}: pid {pid}: {command(pid)}", file=sys.stderr)
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
    return 1 if left else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
