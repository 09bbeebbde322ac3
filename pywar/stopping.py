"""How a long C call is stopped: Ctrl-C reaches a game that C plays for seconds without
calling back into Python, and a second Ctrl-C does not cut short the clean-up of the
first.  The checked layer (pywar._checked) only makes the calls; this is the policy."""

import signal
import threading

from .rules import can_cycle

STOPPING = tuple(getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP")
                 if hasattr(signal, name))    # the signals that stop a run as Ctrl-C does
LONG_ROUNDS = 1_000_000       # rounds that C plays in a few hundredths of a second


def may_run_long(rules):
    """True for a game that may go on for seconds: one that can repeat itself, with
    cycle detection off and a cap above LONG_ROUNDS.  (Others end at a cycle, at the cap,
    or, shuffled at random, in thousands of rounds at most.)"""
    repeats = can_cycle(rules) and not rules.detect_cycles
    return repeats and rules.max_rounds > LONG_ROUNDS


def through_interrupts(action):
    """action(), started again whenever a further Ctrl-C lands in it, until it returns."""
    while True:
        try:
            return action()
        except KeyboardInterrupt:
            continue


def call_stoppably(call, stop):
    """call() in a thread of its own while this one waits, so that a Ctrl-C can reach a
    game that writes no text (nothing calls back into Python): it sets the stop flag,
    waits until C has returned (C writes into buffers that the caller then frees), and
    is raised again.  The thread's own exception is raised here."""
    done = threading.Event()
    guard = threading.Lock()
    state = {"cancelled": False, "running": False}
    outcome = {}

    def work():
        """Run call() unless the caller has given up first."""
        with guard:
            if state["cancelled"]:
                return done.set()
            state["running"] = True
        try:
            outcome["value"] = call()
        except BaseException as error:
            outcome["error"] = error
        finally:
            done.set()

    def cancel():
        """Stop the game, and say whether it had begun (then it must be waited for)."""
        stop[0] = 1
        with guard:
            state["cancelled"] = True
            return state["running"]

    try:
        threading.Thread(target=work, daemon=True).start()
        while not done.wait(0.05):
            pass
    except KeyboardInterrupt:
        if through_interrupts(cancel):
            through_interrupts(done.wait)
        raise
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]


def runner_for(rules):
    """call_stoppably for a game that may go on for seconds, else None (a plain call)."""
    return call_stoppably if may_run_long(rules) else None
