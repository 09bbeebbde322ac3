"""A time limit on Python code run in this process's main thread: within(seconds, action).
The children of pywar's runner that play a student's Python (pywar.check.exercise.portplay,
pywar.check.implementations.pyclass) stop a game that runs past its time with it; the
runner's own wall clock stops the child as a whole.  Where Python has no interval timer
(Pyodide in a browser, sys.platform "emscripten": the check of pywar page), the code runs
to its end, and the page stops its worker from outside (docs/page.md)."""

import signal
import threading


class TimeUp(BaseException):
    """Python code of a student's that ran past its time (a BaseException, so that the
    code's own 'except Exception' cannot swallow it): the one alarm of pywar."""


def time_up(signum, frame):
    """The SIGALRM handler: stop the code where it is."""
    raise TimeUp


def time_up_then_end(grace):
    """The SIGALRM handler of within(..., grace): stop the code where it is, and leave
    SIGALRM to its default action, the end of the process, grace seconds on."""
    def handler(signum, frame):
        signal.signal(signal.SIGALRM, signal.SIG_DFL)
        signal.setitimer(signal.ITIMER_REAL, grace)
        raise TimeUp
    return handler


def within(seconds, action, grace=None):
    """action(), stopped by TimeUp after seconds (in the main thread, where a signal
    can stop it, and where Python has an interval timer; elsewhere it runs to its end).  grace: code that goes on after its
    TimeUp (an 'except BaseException' in a loop swallows it) ends the whole process,
    killed by SIGALRM, grace seconds later: a signal's default action, which no Python
    code runs in, so no code can swallow it."""
    if threading.current_thread() is not threading.main_thread() or \
            not hasattr(signal, "setitimer"):
        return action()
    previous = signal.signal(signal.SIGALRM, time_up if grace is None else
                             time_up_then_end(grace))
    try:
        signal.setitimer(signal.ITIMER_REAL, seconds)
        try:
            return action()
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
    finally:
        signal.signal(signal.SIGALRM, previous)
