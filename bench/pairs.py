"""Time two builds of a plain-C program in turn, as the figures beside the engine's
code were measured: A B A B ..., each pinned to one core, each run's own clock (the
`seconds` it prints, which leaves out the process's start), and the median of the pairs'
ratios B / A, with their range and the load average before and after.  With
--cpu-time, each run's CPU time instead (user and system, the kernel's accounting of the
finished process): on a shared machine it leaves out the time other jobs held the core.

    python bench/pairs.py [--pairs 21] [--cpu 1] [--cpu-time] BEFORE AFTER -- ARGUMENTS...

BEFORE and AFTER are two builds of bench/driver.c (or of one bench/tight_*.c loop),
e.g. `cc -std=c11 -O2 -Icsrc -Icsrc/common bench/driver.c $(find csrc -name '*.c')`
at two commits; ARGUMENTS are the program's (for the driver: games, first seed, rules).
A ratio under 1 means AFTER takes less time.  Results to stdout as JSON.
"""

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
from statistics import median


def children_cpu():
    """The CPU seconds (user and system) of this process's finished children."""
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def own_seconds(command, cpu_time=False):
    """Run a program that prints 'seconds S' among its words; S, or with cpu_time the
    CPU seconds the run took."""
    before = children_cpu()
    words = subprocess.run(command, capture_output=True, text=True, check=True).stdout.split()
    return children_cpu() - before if cpu_time else float(words[words.index("seconds") + 1])


def pinned(program, arguments, cpu):
    """The command that runs program on one core (taskset, where it exists)."""
    command = [program, *arguments]
    return ["taskset", "-c", str(cpu), *command] if shutil.which("taskset") else command


def pairs(before, after, arguments, count, cpu, cpu_time=False):
    """count ratios after / before, each from one run of both in turn (and one warm-up)."""
    ratios = []
    for index in range(count + 1):
        first = own_seconds(pinned(before, arguments, cpu), cpu_time)
        second = own_seconds(pinned(after, arguments, cpu), cpu_time)
        if index > 0:
            ratios.append(second / first)
    return ratios


def main(argv=None):
    """Parse the command line, time the pairs, print the JSON."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=21, help="pairs timed (default 21)")
    parser.add_argument("--cpu", type=int, default=1, help="the core to pin to (default 1)")
    parser.add_argument("--cpu-time", action="store_true",
                        help="time each run by its CPU time, not the clock it prints")
    parser.add_argument("before")
    parser.add_argument("after")
    parser.add_argument("arguments", nargs=argparse.REMAINDER)
    args = parser.parse_args(argv)
    arguments = args.arguments[1:] if args.arguments[:1] == ["--"] else args.arguments
    load_before = os.getloadavg()[0]
    ratios = pairs(args.before, args.after, arguments, args.pairs, args.cpu, args.cpu_time)
    print(json.dumps({"pairs": len(ratios), "median": round(median(ratios), 4),
                      "least": round(min(ratios), 4), "most": round(max(ratios), 4),
                      "load_average": [round(load_before, 2), round(os.getloadavg()[0], 2)]}))


if __name__ == "__main__":
    sys.exit(main())
