"""The wall time of a command and the CPU time of every process it started, orphans
included (docs/performance.md): it runs as a child subreaper (PR_SET_CHILD_SUBREAPER,
Linux), so that a process whose parent is gone is handed to it, reaps them all, and
reads getrusage(RUSAGE_CHILDREN).  A grade's sandboxed runs, valgrind and its referee's
processes (forkserver's) are all counted.  Not a test: run it by hand.

    python bench/cpu_of.py pywar grade SUBMISSION... -n 40 --json
"""

import ctypes
import os
import resource
import subprocess
import sys
import time

PR_SET_CHILD_SUBREAPER = 36


def main():
    """Run the command, its output to /dev/null, and print the figures."""
    if ctypes.CDLL(None).prctl(PR_SET_CHILD_SUBREAPER, 1) != 0:
        sys.exit("cpu_of.py: cannot become a child subreaper (Linux only)")
    load = os.getloadavg()[0]
    start = time.perf_counter()
    status = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL).returncode
    wall = time.perf_counter() - start
    while True:
        try:
            os.waitpid(-1, 0)
        except ChildProcessError:
            break
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    print(f"exit {status}, wall {wall:.1f} s, CPU {used.ru_utime + used.ru_stime:.1f} s "
          f"(user {used.ru_utime:.1f}, system {used.ru_stime:.1f}), load average "
          f"{load:.1f} before, {os.getloadavg()[0]:.1f} after")


if __name__ == "__main__":
    main()
