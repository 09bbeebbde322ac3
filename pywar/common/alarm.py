"""A time limit on Python code run in this process's main thread: within(seconds, action).
The children of pywar's runner that play a student's Python (pywar.check.exercise.portplay,
pywar.check.implementations.pyclass) stop a game that runs past its time with it; the
runner's own wall clock stops the child as a whole."""

import signal
import threading


class TimeUp(BaseException):
    """Python code of a student's that ran past its time (a BaseException, so that the
    code's own 'except Exception' cannot swallow it): the one alarm of pywar."""


def time_up(signum, frame):
    """The SIGALRM handler: stop the code where it is."""
    raise TimeUp


def within(seconds, action):
    """action(), stopped by TimeUp after seconds (in the main thread, where a signal
    can stop it; elsewhere it runs to its end)."""
    if threading.current_thread() is not threading.main_thread():
        return action()
    previous = signal.signal(signal.SIGALRM, time_up)
    try:
        signal.setitimer(signal.ITIMER_REAL, seconds)
        try:
            return action()
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
    finally:
        signal.signal(signal.SIGALRM, previous)
