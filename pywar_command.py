"""The pywar command's first step (the console script calls main here): it handles a
Ctrl-C, SIGTERM or SIGHUP that lands while pywar's modules are imported, as one line
and the exit status 128 + the signal (130 for Ctrl-C), and running out of memory there
as one line and exit 3; then it runs pywar.cli.main.

It sits outside the package because importing anything in pywar takes time, and a
signal then must not print a traceback.  Dask's worker processes (simulate --scheduler
local) import the command's script again: there it sets Ctrl-C and SIGHUP to be ignored,
so that a signal to the whole process group is the command's alone to report.
"""

import signal
import sys

STOPPING = ("SIGINT", "SIGTERM", "SIGHUP")
received = []


def stop(signum, frame):
    """A stopping signal while the modules load: recorded, and raised as Ctrl-C is."""
    received.append(signum)
    raise KeyboardInterrupt


def in_a_worker_process():
    """True in a process that multiprocessing started (Dask's workers), which imports
    the command's script again while it prepares, having taken the name its parent gave
    it (the process's parent is known only later)."""
    started = sys.modules.get("multiprocessing")
    return started is not None and started.current_process().name != "MainProcess"


def quiet_worker():
    """In a worker process, ignore Ctrl-C and SIGHUP: the command stops its workers."""
    for name in ("SIGINT", "SIGHUP"):
        signal.signal(getattr(signal, name), signal.SIG_IGN)


def main():
    """Import pywar.cli with the stopping signals handled, then run the command."""
    try:
        for name in STOPPING:
            number = getattr(signal, name)
            if signal.getsignal(number) not in (signal.SIG_IGN, None):
                signal.signal(number, stop)
        from pywar.cli import main as run
        return run()
    except KeyboardInterrupt:
        number = received[0] if received else signal.SIGINT
        sys.stderr.write("pywar: interrupted\n" if number == signal.SIGINT else
                         f"pywar: stopped by {signal.Signals(number).name}\n")
        return 128 + number
    except MemoryError:
        sys.stderr.write(f"{command()}: error: out of memory\n")
        return 3


def command():
    """How the command names itself: 'pywar', or with its subcommand, 'pywar simulate'."""
    words = sys.argv[1:2]
    return "pywar" + (f" {words[0]}" if words and words[0].isalpha() else "")


if in_a_worker_process():
    quiet_worker()

if __name__ == "__main__":
    sys.exit(main())
