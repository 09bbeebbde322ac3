"""valgrind memcheck on one seed: the memory item, judged from valgrind's log and from how
its run ended."""

import fcntl
import os
import resource
import signal
import tempfile
from dataclasses import replace

from ..referee.mistakes import ROW
from ..runner import sandbox
from .build import run_argv

VALGRIND = ("valgrind", "--leak-check=full", "--trace-children=yes",
            "--errors-for-leak-kinds=definite,indirect,possible",
            "--show-leak-kinds=definite,indirect,possible", "--error-exitcode=99")
FOUND_ERRORS = 99                       # valgrind's status when it found one (above)
VALGRIND_MEMORY = 2                     # valgrind's run: twice --memory-limit,
VALGRIND_MEMORY_FLOOR = 256 * sandbox.MIB   # and never less (valgrind alone needs 128 MiB)
LEAK_MARKS = ("definitely lost", "indirectly lost", "possibly lost")
ERROR_MARKS = ("Invalid read", "Invalid write", "Invalid free", "Mismatched free",
               "uninitialised")
SUMMARY_MARKS = LEAK_MARKS + ERROR_MARKS
SUMMARY = "ERROR SUMMARY:"


def valgrind_reports(log):
    """valgrind's log by process: {pid: (commands started, its ERROR SUMMARY line or None,
    whether that summary is the last it said)}, in the order the processes first
    appear."""
    reports = {}
    for line in log.splitlines():
        head, _, said = line.partition("== ")
        said = said.strip()
        if not head.startswith("==") or not head[2:].isdigit() or not said:
            continue
        commands, summary, _ = reports.get(head[2:], (0, None, False))
        if said.startswith("Command:"):
            commands += 1
        elif said.startswith(SUMMARY):
            summary = said
        reports[head[2:]] = (commands, summary, said.startswith(SUMMARY))
    return reports


def found(marks):
    """The mistake's row of what valgrind found: an error, else a leak."""
    leaks = any(mark in said for said in marks for mark in LEAK_MARKS)
    errors = any(mark in said for said in marks for mark in ERROR_MARKS)
    return ROW.memory_error if errors or not leaks else ROW.leak


def unchecked(outcome, reports, children=()):
    """Why valgrind's run checked nothing ('' when it did).  Its summary is trusted only
    as the last line valgrind wrote of the program, after its one Command, and not from
    a run killed by SIGKILL or at its time limit: valgrind writes its summary at an exit
    and at any signal it can catch, and a program can write a forged one, then die where
    valgrind cannot write its own."""
    if outcome.timed_out or outcome.failed_to_start or outcome.status == -signal.SIGKILL:
        how = "was killed by SIGKILL" if outcome.status == -signal.SIGKILL else \
            outcome.trouble()
        return (f"the program {how}, and valgrind writes no summary of a program killed "
                "so (one in its log may be the program's own)")
    if not reports or reports[0][1] is None:
        return f"valgrind ended without its summary ({outcome.trouble() or 'no summary'})"
    if reports[0][0] > 1:
        return ("the program replaced itself by exec, and valgrind cannot see the leaks "
                "of a program that is gone")
    if not reports[0][2]:
        return "valgrind's summary is not the last it said of the program"
    for pid, (commands, _, last) in children:
        if not last and commands < 2:       # a child that exec'd was summarised no more
            return (f"a process of the program (pid {pid}) ended without valgrind's summary "
                    "(killed where valgrind could not write it: its leaks were not seen)")
    return ""


VALGRIND_OWN = ("vgpreload_", "vg_replace_")      # frames of valgrind's own allocator


def site(lines, index):
    """The first frame of the program's own code in the stack under lines[index] ('make()
    (war.cpp:3)' with -g, 'make()' without), or '' (valgrind's frames, and the path of a
    program in pywar's scratch, left out)."""
    for line in lines[index + 1:]:
        said = line.split("== ", 1)[-1].strip()
        if not said.startswith(("at 0x", "by 0x")):
            return ""
        frame = said.split(": ", 1)[-1]
        if not any(own in frame for own in VALGRIND_OWN):
            return frame.split(" (in /", 1)[0]
    return ""


def with_sites(lines):
    """Each line of valgrind's findings, an error with where it happened and a leak with
    where its block was allocated ('... are definitely lost ..., allocated by make()')."""
    found = []
    for index, line in enumerate(lines):
        said = line.split("== ", 1)[-1].strip()
        if not any(mark in line for mark in SUMMARY_MARKS) or " 0 bytes in 0 blocks" in line:
            continue                                # a crash's summary lists zeros
        where = site(lines, index)
        if where:
            said += f", allocated by {where}" if "lost in loss record" in said else f" at {where}"
        found.append(said)
    return found


def memcheck_said(outcome, log):
    """(the mistake's row or None, words) of a memcheck run: what valgrind found, or why
    it checked nothing ("not checked": not ok, and no points)."""
    marks = with_sites(log.splitlines())
    if marks or outcome.status == FOUND_ERRORS:
        return found(marks), "; ".join(dict.fromkeys(marks)) or "valgrind found an error"
    processes = valgrind_reports(log)
    why = unchecked(outcome, list(processes.values()), list(processes.items())[1:])
    if why:
        return ROW.memcheck_unfinished, f"not checked: {why}"
    return None, "no report"


def valgrind_limits(settings):
    """The limits of valgrind's run: the memcheck profile's, with VALGRIND_MEMORY times
    the runs' memory (not above the hard limit of a user who is not root)."""
    memory = max(VALGRIND_MEMORY * settings.limits.memory, VALGRIND_MEMORY_FLOOR)
    hard = resource.getrlimit(resource.RLIMIT_AS)[1]
    if not sandbox.as_root() and hard != resource.RLIM_INFINITY:
        memory = min(memory, hard)
    return replace(sandbox.PROFILES["memcheck"], memory=memory)


def out_of_reach(fd, limits):
    """A copy of fd numbered at or above the run's open-files limit: valgrind keeps its
    log there and refuses the program any system call on such a descriptor (the program
    cannot write(3, ...) a summary of its own; dup() still reaches it: docs/grading.md).
    fd itself where this process may not open so high a number."""
    try:
        return fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, limits.files)
    except OSError:
        return fd


def valgrind_log(settings, program, seed, clock):
    """valgrind's run of a seed: (its Outcome, its log).  valgrind writes its log to a
    file pywar opened (no name the run could replace), on a descriptor out of the
    program's reach, read back with a size bound."""
    limits = valgrind_limits(settings)
    with tempfile.TemporaryFile() as log_file:
        fd = out_of_reach(log_file.fileno(), limits)
        try:
            argv = [*VALGRIND, f"--log-fd={fd}", *run_argv(settings, program, seed)]
            outcome = sandbox.run(argv, limits, env=sandbox.seeded(clock, seed),
                                  isolation=settings.isolation, group=settings.group,
                                  pass_fds=(fd,), stdin=settings.stdin.encode())
        finally:
            if fd != log_file.fileno():
                os.close(fd)
        log_file.seek(0)
        return outcome, log_file.read(limits.output).decode("utf-8", "replace")


def memcheck(settings, program, seed, clock, keep=None):
    """valgrind memcheck on one seed: (broken, example, checked, the mistake's row or
    None); keep(log) is given valgrind's log (--keep)."""
    outcome, log = valgrind_log(settings, program, seed, clock)
    if keep is not None:
        keep(log)
    mistake, said = memcheck_said(outcome, log)
    checked = mistake is not ROW.memcheck_unfinished
    example = {"seed": seed, "required": "no leak and no invalid read or write under "
               "valgrind memcheck", "said": said}
    return mistake is not None and checked, example, checked, mistake
