"""The processes a step of .ci/run left behind: named, then ended.

A process is the run's if it carries the run's PYWAR_CI_RUN token in its environment (every
process the tests start, but those whose environment the sandbox clears), or if it started
after the run and runs as a user other than root (the runs of a user of their own, under
--isolation none).  Nothing of the run's may outlive the step that started it: a process
left spinning takes the 2 cores from the steps after it.  Usage: leftovers.py STEP;
exit status 1 if it found any.
"""
import os
import signal
import sys

TOKEN = os.environ.get("PYWAR_CI_RUN", "").encode()


def fields(pid):
    """The fields of /proc/PID/stat after the command's name (state, ppid, ...)."""
    with open(f"/proc/{pid}/stat", "rb") as stat:
        return stat.read().rsplit(b")", 1)[1].split()


def started(pid):
    """When PID started, in clock ticks since boot."""
    return int(fields(pid)[19])


def ancestors(pid):
    """PID and its ancestors, up to the first process."""
    chain = set()
    while pid > 1:
        chain.add(pid)
        pid = int(fields(pid)[1])
    return chain


def is_the_runs(pid, run_started):
    """Whether PID belongs to the run (its token, or a user of its own since it began)."""
    try:
        with open(f"/proc/{pid}/environ", "rb") as environ:
            if TOKEN and b"PYWAR_CI_RUN=" + TOKEN in environ.read().split(b"\0"):
                return True
        return started(pid) >= run_started and os.stat(f"/proc/{pid}").st_uid != 0
    except OSError:                 # ended meanwhile, or a kernel thread's environ
        return False


def command(pid):
    """PID's command line, readable, cut to 160 characters."""
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as cmdline:
            return cmdline.read().replace(b"\0", b" ").decode(errors="replace")[:160]
    except OSError:
        return "?"


def main(step):
    """Name and end the run's processes that outlived STEP; 1 if there were any."""
    mine = ancestors(os.getpid())
    run_started = started(os.getppid())
    left = [pid for pid in map(int, filter(str.isdigit, os.listdir("/proc")))
            if pid not in mine and is_the_runs(pid, run_started)]
    for pid in left:
        print(f"ci: left behind by {step}: pid {pid}: {command(pid)}", file=sys.stderr)
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
    return 1 if left else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
