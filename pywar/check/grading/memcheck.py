"""valgrind memcheck on one seed: the memory item, judged from valgrind's log."""

import tempfile

from ..referee.mistakes import ROW
from ..runner import sandbox
from .build import run_argv

VALGRIND = ("valgrind", "--leak-check=full", "--trace-children=yes",
            "--errors-for-leak-kinds=definite,indirect,possible",
            "--show-leak-kinds=definite,indirect,possible", "--error-exitcode=99")
VALGRIND_LIMITS = sandbox.PROFILES["memcheck"]
LEAK_MARKS = ("definitely lost", "indirectly lost", "possibly lost")
ERROR_MARKS = ("Invalid read", "Invalid write", "Invalid free", "Mismatched free",
               "uninitialised")
SUMMARY_MARKS = LEAK_MARKS + ERROR_MARKS


def valgrind_reports(log):
    """valgrind's log by process: {pid: (commands started, its ERROR SUMMARY line or
    None)}, in the order the processes first appear."""
    reports = {}
    for line in log.splitlines():
        head, _, said = line.partition("== ")
        if not head.startswith("==") or not head[2:].isdigit():
            continue
        commands, summary = reports.get(head[2:], (0, None))
        if said.startswith("Command:"):
            commands += 1
        elif said.startswith("ERROR SUMMARY:"):
            summary = said.strip()
        reports[head[2:]] = (commands, summary)
    return reports


def memcheck_said(outcome, log):
    """(the mistake's row or None, words) of a memcheck run: what valgrind found, or why
    it checked nothing (a run that ends without the program's summary, or one that
    replaced itself by exec, is "not checked": not ok, and no points)."""
    marks = [line.split("== ", 1)[-1].strip() for line in log.splitlines()
             if any(mark in line for mark in SUMMARY_MARKS)
             and " 0 bytes in 0 blocks" not in line]      # a crash's summary lists zeros
    reports = list(valgrind_reports(log).values())
    if marks or outcome.status == 99:
        leaks = any(mark in said for said in marks for mark in LEAK_MARKS)
        errors = any(mark in said for said in marks for mark in ERROR_MARKS)
        mistake = ROW.memory_error if errors or not leaks else ROW.leak
        return mistake, "; ".join(dict.fromkeys(marks)) or "valgrind found an error"
    if not reports or reports[0][1] is None:
        why = outcome.trouble() or "its log has no summary"
        return ROW.memcheck_unfinished, f"not checked: valgrind ended without its summary ({why})"
    if reports[0][0] > 1:
        return ROW.memcheck_unfinished, ("not checked: the program replaced itself by exec, "
                                         "and valgrind cannot see the leaks of a program "
                                         "that is gone")
    return None, "no report"


def memcheck(settings, program, seed, clock):
    """valgrind memcheck on one seed: (broken, example, checked, the mistake's row or
    None).  valgrind writes its log to a file pywar opened (no name the run could
    replace), read with a size bound."""
    limits = VALGRIND_LIMITS
    with tempfile.TemporaryFile() as log_file:
        argv = [*VALGRIND, f"--log-fd={log_file.fileno()}", *run_argv(settings, program, seed)]
        outcome = sandbox.run(argv, limits, env=sandbox.seeded(clock, seed),
                              isolation=settings.isolation, group=settings.group,
                              pass_fds=(log_file.fileno(),))
        log_file.seek(0)
        log = log_file.read(limits.output).decode("utf-8", "replace")
    mistake, said = memcheck_said(outcome, log)
    checked = mistake is not ROW.memcheck_unfinished
    example = {"seed": seed, "required": "no leak and no invalid read or write under "
               "valgrind memcheck", "said": said}
    return mistake is not None and checked, example, checked, mistake
