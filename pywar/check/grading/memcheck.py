"""valgrind memcheck on one seed: the memory item, judged from valgrind's log and from how
its run ended."""

import fcntl
import os
import resource
import select
import signal
import threading
import time
from dataclasses import replace

from ..referee.mistakes import ROW
from ..runner import sandbox
from ..submission.bounds import MIB, TooLarge
from ..submission.files import regular_files
from ..submission.names import readable
from ..submission.ownership import owner_of
from ..submission.regular import regular_file
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
LOG_BYTES = sandbox.PROFILES["memcheck"].output     # of valgrind's log, what is read
CHUNK = 1 << 16                         # bytes read from the log's pipe at once
POLL_SECONDS = 0.1                      # the reader's wait for the end of valgrind's run
DRAIN_SECONDS = 5.0                     # past the run's end, for a writer left (a process
                                        # of the run that outlived it, without bwrap)


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


def unchecked(outcome, reports, children=(), full=False):
    """Why valgrind's run checked nothing ('' when it did).  valgrind's verdict is its exit
    status (FOUND_ERRORS under --error-exitcode, else the program's own): a run that did
    not exit (a signal, the time limit) gave none, whatever its log says, since the
    program can write into valgrind's log (a dup() of its descriptor reaches it).  The log
    only explains a verdict: one past its size limit is not whole, and one that shows
    the program replaced by exec, or a process without its summary, saw less than the
    whole program."""
    if outcome.timed_out or outcome.failed_to_start or outcome.status is None or \
            outcome.status < 0:
        return (f"the program {how_it_ended(outcome)}, and valgrind's verdict is its exit "
                "status: a run that did not exit gave none (a summary in its log may be "
                "the program's own)")
    if full:
        return (f"valgrind's log passed its {LOG_BYTES // sandbox.MIB} MiB, so what valgrind "
                "said last of the program is not known")
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


def how_it_ended(outcome):
    """How valgrind's run ended without an exit: 'was killed by SIGTERM', or its trouble
    (a timeout, a start that failed)."""
    if outcome.status is not None and outcome.status < 0 and not outcome.timed_out:
        return f"was killed by {signal.Signals(-outcome.status).name}"
    return outcome.trouble()


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


def memcheck_said(outcome, log, full=False):
    """(the mistake's row or None, words) of a memcheck run: what valgrind found, or why
    it checked nothing ("not checked": not ok, and no points); full: its log passed
    LOG_BYTES.  What the log shows found counts however the run ended (a forged finding
    costs only its writer); ok needs valgrind's own verdict (unchecked)."""
    marks = with_sites(log.splitlines())
    if marks or outcome.status == FOUND_ERRORS:
        return found(marks), "; ".join(dict.fromkeys(marks)) or "valgrind found an error"
    processes = valgrind_reports(log)
    why = unchecked(outcome, list(processes.values()), list(processes.items())[1:], full)
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


class LogReader(threading.Thread):
    """valgrind's log, read from a pipe as valgrind writes it: its first LOG_BYTES, and
    whether it said more (a pipe, not a file: a program that reaches the descriptor by
    dup() may add lines, but neither truncate nor rewrite what valgrind wrote)."""

    def __init__(self, fd):
        super().__init__(daemon=True)
        self.fd, self.data, self.full = fd, bytearray(), False
        self.ends = None                # a deadline once valgrind's run is over

    def run(self):
        """Read until every writer has closed the pipe (or the deadline past the run)."""
        while self.ends is None or time.monotonic() < self.ends:
            ready, _, _ = select.select([self.fd], [], [], POLL_SECONDS)
            if not ready:
                continue
            chunk = os.read(self.fd, CHUNK)
            if not chunk:
                return
            room = LOG_BYTES - len(self.data)
            self.data += chunk[:max(room, 0)]
            self.full = self.full or len(chunk) > room

    def text(self):
        """(the log as text, whether it passed LOG_BYTES) once the run is over."""
        self.ends = time.monotonic() + DRAIN_SECONDS
        self.join()
        return self.data.decode("utf-8", "replace"), self.full


def valgrind_log(settings, program, seed, clock):
    """valgrind's run of a seed: (its Outcome, its log, whether the log passed
    LOG_BYTES).  valgrind writes its log into a pipe that pywar reads (no name the run
    could replace, no file it could truncate), on a descriptor out of the program's
    reach."""
    limits = valgrind_limits(settings)
    reading, writing = os.pipe()
    reader = LogReader(reading)
    reader.start()
    fd = out_of_reach(writing, limits)
    try:
        argv = [*VALGRIND, f"--log-fd={fd}", *run_argv(settings, program, seed)]
        outcome = sandbox.run(argv, limits, env=sandbox.seeded(clock, seed),
                              isolation=settings.isolation, group=settings.group,
                              pass_fds=(fd,), stdin=settings.stdin.encode())
    finally:
        for end in {fd, writing}:
            os.close(end)
        log, full = reader.text()
        os.close(reading)
    return outcome, log, full


def memcheck(settings, program, seed, clock, keep=None):
    """valgrind memcheck on one seed: (broken, example, checked, the mistake's row or
    None); keep(log) is given valgrind's log (--keep)."""
    outcome, log, full = valgrind_log(settings, program, seed, clock)
    if keep is not None:
        keep(log)
    mistake, said = memcheck_said(outcome, log, full)
    checked = mistake is not ROW.memcheck_unfinished
    example = {"seed": seed, "required": "no leak and no invalid read or write under "
               "valgrind memcheck", "said": said}
    return mistake is not None and checked, example, checked, mistake


# What a program may read of its own instrumentation, by the words a source names it with:
# valgrind's own names, the maps of its memory (valgrind's preloaded libraries show there),
# the variable through which valgrind loads them, and valgrind's client request.
INSTRUMENTATION = ("valgrind", "vgpreload", "memcheck", "/proc/self/maps", "/proc/self/",
                   "LD_PRELOAD", "RUNNING_ON_VALGRIND")
SCANNED_BYTES = MIB                     # of each file of a submission, what is scanned


def instrumentation_notes(source):
    """The note of each file of a submission that names what a program may read of its own
    instrumentation (INSTRUMENTATION, case ignored), for the instructor to read: a program
    that behaves only under valgrind passes memory, and no black box can see it.  A scan
    of the files' words: one built at run time, or a file too large to scan, is not seen
    (docs/grading.md)."""
    owner, notes = owner_of(source), []
    try:
        listed = regular_files(source, owner)
    except TooLarge:
        return notes
    for relative in listed:
        named = words_named(os.path.join(os.fsencode(source), relative), owner)
        if named:
            notes.append(f"{readable(os.fsdecode(relative))} names {', '.join(named)}: what "
                         "a program reads of its own instrumentation, and one that behaves "
                         "only under valgrind passes memory (read what it does with them)")
    return notes


def words_named(path, owner):
    """The words of INSTRUMENTATION in a file's first SCANNED_BYTES (none where its owner
    could not read it)."""
    try:
        with regular_file(path, owner) as file:
            data = file.read(SCANNED_BYTES).lower()
    except OSError:
        return []
    named = [word for word in INSTRUMENTATION if word.lower().encode() in data]
    return [word for word in named if not any(word != other and word.lower() in
                                              other.lower() for other in named)]
