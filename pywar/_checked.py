"""A thin checked layer over the compiled core (pywar._core): Python values in,
Python values out, and every C return code turned into an exception.

The raw layer is pywar._core.lib; the friendly layer is pywar (the facade).
"""

import threading

from . import rules as rules_module

try:
    from ._core import ffi, lib
    MISSING = None
except ImportError as error:               # not built, or built but not loadable here
    ffi = lib = None
    if isinstance(error, ModuleNotFoundError) and error.name == f"{__package__}._core":
        MISSING = "the C core (pywar._core) is not built"
    else:
        MISSING = f"the C core (pywar._core) cannot be loaded ({error})"

ERRORS = {-1: (MemoryError, "the C core ran out of memory"),
          -2: (ValueError, "the C core refused the rules or the deal"),
          -3: (KeyboardInterrupt, "the game was stopped")}

BATCH_FIELDS = {                           # PywarBatch field: NumPy dtype
    "rounds": "int32", "battles": "int32", "ties": "int32", "wars": "int32",
    "longest_tie_streak": "int32", "stranded": "int32", "winner": "int8",
    "outcome": "int8", "cycle_start": "int32", "cycle_period": "int32",
    "digest": "uint64", "lead_changes": "int32", "biggest_pot": "int32", "comeback": "int32",
    "deepest_war": "int32", "refills": "int32",
}


def available():
    """True when the C core is built and importable."""
    return lib is not None


def missing():
    """Why the C core cannot be used, in a few words, or None when it can."""
    if available():
        return None
    return MISSING or "the C core (pywar._core) is not built"


def sanitized():
    """True when the core was built with PYWAR_SANITIZE=1 (ASan and UBSan)."""
    return lib is not None and getattr(lib, "PYWAR_SANITIZED", 0) == 1


def check_status(status, refused=None):
    """Raise the exception that a C return code stands for; refused, if given, says
    what PYWAR_EINVAL means for this call."""
    if status != lib.PYWAR_OK:
        error, message = ERRORS.get(status, (RuntimeError, f"C core error {status}"))
        raise error(refused if refused and status == lib.PYWAR_EINVAL else message)


def c_rules(rules):
    """A PywarRules struct for a Rules value."""
    return ffi.new("PywarRules *", rules_module.c_numbers(rules))


def result_dict(result, players=2):
    """A PywarResult as a dict, with outcome names and winner None or a player number."""
    return {
        "winner": None if result.winner == lib.PYWAR_NOBODY else result.winner,
        "outcome": rules_module.OUTCOMES[result.outcome],
        "rounds": result.rounds,
        "battles": result.battles,
        "ties": result.ties,
        "wars": result.wars,
        "longest_tie_streak": result.longest_tie_streak,
        "stranded": result.stranded,
        "piles": [[result.piles[p][0], result.piles[p][1]] for p in range(players)],
        "cycle_start": None if result.cycle_start < 0 else result.cycle_start,
        "cycle_period": None if result.cycle_period < 0 else result.cycle_period,
        "digest": result.digest,
        "lead_changes": result.lead_changes,
        "biggest_pot": result.biggest_pot,
        "comeback": result.comeback,
        "deepest_war": result.deepest_war,
        "refills": result.refills,
        "war_depths": {depth: result.war_depths[depth]
                       for depth in range(1, lib.PYWAR_WAR_DEPTHS) if result.war_depths[depth]},
    }


class Sink:
    """Where a streamed transcript goes: a text stream, the first error writing it, and
    the game's stop flag.  A Ctrl-C that lands in the callback cannot propagate through
    C (cffi would print it and carry on), so it is kept, the flag tells C to end the
    game after its round, and play() raises it once C has returned."""

    def __init__(self, stream, stop):
        self.stream = stream
        self.stop = stop
        self.error = None

    def write(self, data):
        """Write a piece of the transcript, unless an earlier piece failed."""
        if self.error is None:
            try:
                self.stream.write(data)
            except BaseException as error:
                self.fail(error)

    def fail(self, error):
        """Keep the first error, to raise once C has returned, and stop the game."""
        if self.error is None:
            self.error = error
        self.stop[0] = 1


def pywar_text_sink(context, data, length):
    """C calls this with each piece of a streamed transcript."""
    ffi.from_handle(context).write(ffi.unpack(data, length).decode("ascii"))


def text_sink_failed(exception, value, traceback):
    """cffi calls this when pywar_text_sink raises outside Sink.write: a Ctrl-C that
    lands as the callback begins.  Hand it to the sink, which stops the game."""
    frame = traceback.tb_frame if traceback is not None else None
    context = frame.f_locals.get("context") if frame is not None else None
    if context is not None:
        ffi.from_handle(context).fail(value)


if ffi is not None:
    try:
        ffi.def_extern(onerror=text_sink_failed)(pywar_text_sink)
    except ffi.error:                           # a core built from older sources
        ffi = lib = None
        MISSING = "the C core (pywar._core) was built from older sources: reinstall pywar"


def text_buffer(target, stop):
    """A PywarText for a transcript or a trace: NULL for False, a growing buffer for
    True, or a buffer that hands its pieces to a text stream, whose errors and Ctrl-C
    set the stop flag.  (buffer, sink or None)"""
    if target is False:
        return ffi.NULL, None
    text = ffi.new("PywarText *")
    if target is True:
        return text, None
    sink = Sink(target, stop)
    sink.handle = ffi.new_handle(sink)          # kept alive with the sink
    text.sink, text.context = lib.pywar_text_sink, sink.handle
    return text, sink


def take_text(text, target):
    """The text a buffer holds if the caller asked for it (True), then free the buffer.
    A buffer whose first allocation failed holds no text (its data is NULL)."""
    if text == ffi.NULL:
        return None
    try:
        if target is not True:
            return None
        if text.data == ffi.NULL:
            return ""
        return ffi.string(text.data, text.length).decode("ascii")
    finally:
        lib.pywar_text_free(text)


def take_texts(text, target, lines, trace):
    """take_text of a transcript and a trace buffer: (words, events), both freed
    whatever happens to the first."""
    try:
        words = take_text(text, target)
    finally:
        events = take_text(lines, trace)
    return words, events


def c_deal(deal):
    """(cards, hand counts) for a deal of hands of card ids, or NULLs for none."""
    if deal is None:
        return ffi.NULL, ffi.NULL
    cards = [card for hand in deal for card in hand]
    return ffi.new("uint8_t[]", cards), ffi.new("int[]", [len(hand) for hand in deal])


def play(seed, rules, transcript=False, deal=None, trace=False, stop=None):
    """Play one game in C: (result dict, transcript or None, trace lines or None).

    transcript and trace are each False (none), True (returned as a str) or a text stream
    that receives the text piece by piece as the game goes.  deal, if given, is a hand of
    card ids per player, each top first.  stop, a stop_flag(), ends the game early."""
    result = ffi.new("PywarResult *")
    stop = stop_flag() if stop is None else stop
    text, text_sink = text_buffer(transcript, stop)
    lines, trace_sink = text_buffer(trace, stop)
    cards, counts = c_deal(deal)
    call = (lambda: lib.pywar_play(seed, c_rules(rules), cards, counts, result, text, lines,
                                   stop))
    quiet = text_sink is None and trace_sink is None
    try:
        status = call_stoppably(call, stop) if quiet and may_run_long(rules) else call()
    finally:
        words, events = take_texts(text, transcript, lines, trace)
    for sink in (text_sink, trace_sink):
        if sink is not None and sink.error is not None:
            raise sink.error                    # before the stop it caused
    check_status(status)
    return result_dict(result[0], rules_module.players(rules)), words, events


LONG_ROUNDS = 1_000_000       # rounds that C plays in a few hundredths of a second


def may_run_long(rules):
    """True for a game that may go on for seconds: one that can repeat itself, with
    cycle detection off and a cap above LONG_ROUNDS.  (Others end at a cycle, at the cap,
    or, shuffled at random, in thousands of rounds at most.)"""
    repeats = rules_module.can_cycle(rules) and not rules.detect_cycles
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


def stop_flag():
    """A flag that ends the batches it is given early: set flag[0] = 1 to stop."""
    return ffi.new("int32_t *")


def play_batch(first_seed, rules, arrays, stop=None):
    """Play len(arrays['rounds']) games from first_seed into NumPy arrays, in C, and
    return how many were played: all of them, unless stop (a stop_flag()) was set.

    The arrays must be C-contiguous and of the dtypes in BATCH_FIELDS.  The GIL
    is released while C works, so threads can fill slices of one set of arrays.  If
    arrays has a "war_depths" entry (int64[PYWAR_WAR_DEPTHS]), it receives the batch's
    war depths summed over its finished games: [d] rounds with d wars.
    """
    count = len(arrays["rounds"])
    batch = ffi.new("PywarBatch *")
    batch.stop = ffi.NULL if stop is None else stop
    keep = []
    for name, dtype in BATCH_FIELDS.items():
        array = arrays[name]
        if array.dtype != dtype or len(array) != count or not array.flags.c_contiguous:
            raise ValueError(f"batch array {name!r} must be contiguous {dtype}[{count}]")
        pointer = ffi.from_buffer(f"{dtype}_t[]", array, require_writable=True)
        keep.append(pointer)                 # the struct's pointers do not keep it alive
        setattr(batch, name, pointer)
    check_status(lib.pywar_play_batch(first_seed, count, c_rules(rules), batch))
    if "war_depths" in arrays:
        arrays["war_depths"][:] = list(batch.war_depths)
    return batch.finished


def rng_draws(seed, count):
    """The first count rand() values after srand(seed), from the C core's generator."""
    out = ffi.new("uint32_t[]", count)
    check_status(lib.pywar_rng_draws(seed, count, out))
    return list(out)


PORT_STACKS = ("pile", "adt")               # PYWAR_STACK_PILE, PYWAR_STACK_ADT


def port_play(seed, stack, transcript=False, trace=False):
    """Play one game in the port's C (csrc/port/): (result dict, transcript, trace).

    stack is "pile" (Program 4) or "adt" (Program 6).  transcript and trace are each
    False (none), True (the text, returned) or a text stream that the text is written
    to as the game goes (None is returned).  The trace is its event lines, no header."""
    if stack not in PORT_STACKS:
        raise ValueError(f"stack must be 'pile' (Program 4) or 'adt' (Program 6), "
                         f"not {stack!r}")
    result = ffi.new("PywarResult *")
    unheeded = stop_flag()      # the port has no stop: its games end within a few thousand rounds
    text, text_sink = text_buffer(transcript, unheeded)
    lines, trace_sink = text_buffer(trace, unheeded)
    try:
        check_status(lib.pywar_port_play(seed, PORT_STACKS.index(stack), result, text, lines))
    finally:
        words, events = take_texts(text, transcript, lines, trace)
    for sink in (text_sink, trace_sink):
        if sink is not None and sink.error is not None:
            raise sink.error
    return result_dict(result[0]), words, events


def rng_reduce(n, values):
    """values[i] % n for each 32-bit word, as the C core's fastmod computes it."""
    words = list(values)
    out = ffi.new("uint32_t[]", len(words))
    status = lib.pywar_rng_reduce(n, ffi.new("uint32_t[]", words), len(words), out)
    check_status(status, refused=f"the C core refused the modulus {n}: it must be at least 1")
    return list(out)


def count_events(seed, rules, deal=None, limit=2 ** 62):
    """How many events one game's trace has (pywar_play's arguments), counted in C
    without writing it.  A game of more than limit events is stopped there, and counts
    limit + 1."""
    cards, counts = c_deal(deal)
    events = ffi.new("int64_t *")
    stop = stop_flag()
    call = (lambda: lib.pywar_count_events(seed, c_rules(rules), cards, counts, limit,
                                           events, stop))
    check_status(call_stoppably(call, stop) if may_run_long(rules) else call())
    return events[0]
