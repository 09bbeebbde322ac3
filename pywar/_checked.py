"""A thin checked layer over the compiled core (pywar._core): Python values in,
Python values out, and every C return code turned into an exception.

The raw layer is pywar._core.lib; the friendly layer is pywar (the facade).
"""

import os
from functools import lru_cache

from . import rules as rules_module
from .common.fields import BATCH_FIELDS, FIELDS, OUTCOMES
from .common.rng import RNG_PATH_VARIABLE, RNG_PATHS, RngPathError



def shadowing_checkout():
    """(this checkout's folder, the installed pywar's folder) when Python imported a
    source checkout (the current folder comes first on sys.path) while pywar is installed
    elsewhere, else None.  The checkout's own pywar.egg-info, which `pip install .` writes
    there and the current folder puts first, is no installation: it is passed over (it
    hid the installed pywar, and the warning said to install a compiler, issue 48)."""
    import os
    from .installed import installations
    top = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    if not os.path.isdir(os.path.join(top, "csrc")):
        return None                     # an installed copy, not a checkout
    for folder, editable in installations():
        if folder == top and editable:
            return None                 # this checkout, installed editable: no other
        if folder != top:
            return top, folder
    return None


SHADOW = None                              # (checkout, installed) when one hides the other
try:
    from ._core import ffi, lib
    MISSING = None
except ImportError as error:               # not built, or built but not loadable here
    ffi = lib = None
    if isinstance(error, ModuleNotFoundError) and error.name == f"{__package__}._core":
        SHADOW = shadowing_checkout()
        MISSING = "the C core (pywar._core) is not built" + (
            f" in the checkout {SHADOW[0]}, which Python imported from the current folder "
            f"instead of the pywar installed in {SHADOW[1]}" if SHADOW else "")
    else:
        MISSING = f"the C core (pywar._core) cannot be loaded ({error})"

ERRORS = {"PYWAR_ENOMEM": (MemoryError, "the C core ran out of memory"),    # pywar.h's codes
          "PYWAR_EINVAL": (ValueError, "the C core refused the rules or the deal"),
          "PYWAR_ESTOPPED": (KeyboardInterrupt, "the game was stopped")}


def available():
    """True when the C core is built and importable."""
    return lib is not None


def missing():
    """Why the C core cannot be used, in a few words, or None when it can."""
    if available():
        return None
    return MISSING or "the C core (pywar._core) is not built"


def remedy():
    """What to do about a missing core, in a few words."""
    if SHADOW:
        return f"run from another folder than {SHADOW[0]}, or pip install -e {SHADOW[0]}"
    return "install a C compiler and reinstall pywar (pip install .)"


def sanitized():
    """True when the core was built with PYWAR_SANITIZE=1 (ASan and UBSan)."""
    return lib is not None and getattr(lib, "PYWAR_SANITIZED", 0) == 1


def check_status(status, refused=None):
    """Raise the exception that a C return code stands for; refused, if given, says
    what PYWAR_EINVAL means for this call."""
    if status != lib.PYWAR_OK:
        codes = {getattr(lib, name): meaning for name, meaning in ERRORS.items()}
        error, message = codes.get(status, (RuntimeError, f"C core error {status}"))
        raise error(refused if refused and status == lib.PYWAR_EINVAL else message)


def c_rules(rules, path=None):
    """A PywarRules struct for a Rules value, its games made on the generator's path
    named path (rng_path)."""
    struct = ffi.new("PywarRules *", rules_module.c_numbers(rules))
    struct.rng_path = rng_path(path)
    return struct


@lru_cache(maxsize=None)
def rng_paths():
    """The generator's paths this processor can run, by name (RNG_PATHS), and the one
    "best" stands for here: (names, best).  C: pywar_rng_paths."""
    best = ffi.new("int *")
    usable = lib.pywar_rng_paths(best)
    return (tuple(name for number, name in enumerate(RNG_PATHS) if usable >> number & 1),
            RNG_PATHS[best[0]])


@lru_cache(maxsize=None)
def rng_path(path=None):
    """The C number of the generator's path named path, or if None by PYWAR_RNG_PATH,
    or "best"; an RngPathError (a ValueError) naming the paths this processor runs for
    another.  Each name is read once (the environment's when the first game is set up:
    a lookup at every call added a fifth to a checked play())."""
    name = os.environ.get(RNG_PATH_VARIABLE) or "best" if path is None else path
    usable, _ = rng_paths()
    if name not in usable:
        given = f"{RNG_PATH_VARIABLE}={name!r}" if path is None else f"rng path {name!r}"
        raise RngPathError(f"{given}: this processor runs the generator's paths "
                         f"{', '.join(usable)}")
    return RNG_PATHS.index(name)


def result_dict(result, players=2):
    """A PywarResult as a dict, with outcome names and winner None or a player number."""
    return {row.name: python_value(row.kind, getattr(result, row.name), players)
            for row in FIELDS}


def python_value(kind, value, players):
    """A PywarResult field's value in Python: None for no winner and no cycle, an
    outcome's name, the piles as [to play, played] lists, the war depths as a dict."""
    if kind == "winner":
        return None if value == lib.PYWAR_NOBODY else value
    if kind == "outcome":
        return OUTCOMES[value]
    if kind == "cycle":
        return None if value < 0 else value
    if kind == "piles":
        return [[value[p][0], value[p][1]] for p in range(players)]
    if kind == "record":
        return [list(value[p]) for p in range(players)]
    if kind == "depths":
        return {depth: value[depth] for depth in range(1, lib.PYWAR_WAR_DEPTHS) if value[depth]}
    return value


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


def play(seed, rules, transcript=False, deal=None, trace=False, stop=None, runner=None):
    """Play one game in C: (result dict, transcript or None, trace lines or None).

    transcript and trace are each False (none), True (returned as a str) or a text stream
    that receives the text piece by piece as the game goes.  deal, if given, is a hand of
    card ids per player, each top first.  stop, a stop_flag(), ends the game early.
    runner, if given, makes the C call of a game that streams no text: runner(call,
    stop) (pywar.stopping.call_stoppably lets a Ctrl-C reach it)."""
    result = ffi.new("PywarResult *")
    stop = stop_flag() if stop is None else stop
    text, text_sink = text_buffer(transcript, stop)
    lines, trace_sink = text_buffer(trace, stop)
    cards, counts = c_deal(deal)
    call = (lambda: lib.pywar_play(seed, c_rules(rules), cards, counts, result, text, lines,
                                   stop))
    quiet = text_sink is None and trace_sink is None
    try:
        status = runner(call, stop) if quiet and runner is not None else call()
    finally:
        words, events = take_texts(text, transcript, lines, trace)
    for sink in (text_sink, trace_sink):
        if sink is not None and sink.error is not None:
            raise sink.error                    # before the stop it caused
    check_status(status)
    return result_dict(result[0], rules_module.players(rules)), words, events


def stop_flag():
    """A flag that ends the batches it is given early: set flag[0] = 1 to stop."""
    return ffi.new("int32_t *")


def play_batch(first_seed, rules, arrays, stop=None, path=None):
    """Play len(arrays['rounds']) games from first_seed into NumPy arrays, in C, and
    return how many were played: all of them, unless stop (a stop_flag()) was set.
    path names the generator's path (rng_path; bench/ times each).

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
    check_status(lib.pywar_play_batch(first_seed, count, c_rules(rules, path), batch))
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


def exact_census(rules, prefixes, stop=None, listing=None):
    """Play parts of every deal, each (prefix, mirrored), in C into one census, without the
    GIL, and return the census's fields as Python values.  C: pywar_exact_part."""
    census = ffi.new("PywarExactCensus *")
    try:
        exact_play(rules, prefixes, census, stop, listing)
        return census_fields(census, rules_module.deck_size(rules))
    finally:
        lib.pywar_exact_free(census)


def exact_play(rules, prefixes, census, stop=None, listing=None):
    """Play parts, each (prefix, mirrored), in C into a PywarExactCensus that the caller
    frees (pywar_exact_free).  C: pywar_exact_part."""
    numbers = c_rules(rules)
    for prefix, mirrored in prefixes:
        start = ffi.new("uint8_t[]", list(prefix) or [0])
        check_status(lib.pywar_exact_part(numbers, start, len(prefix), int(mirrored), census,
                                          ffi.NULL if listing is None else listing,
                                          ffi.NULL if stop is None else stop))


def census_fields(census, cards):
    """A PywarExactCensus's fields as Python values: counts, histograms as dicts, the
    set of cycle keys, the longest game (rounds, ranks, battles) and the one with the most
    battles (battles, ranks, rounds), or None."""
    def histogram(counts, size):
        return {index: counts[index] for index in range(size) if counts[index]}
    slots = [(census.keys[2 * i], census.keys[2 * i + 1]) for i in range(census.keys_capacity)]
    def record(best, length, other):
        return (length, tuple(best.ranks[0:cards]), other) if best.rounds > 0 else None
    longest, most = census.longest, census.most_battles
    return dict(sequences=census.sequences, a_wins=census.a_wins, b_wins=census.b_wins,
                both_lose=census.both_lose, cycles=census.cycles, capped=census.capped,
                rounds=histogram(census.rounds, census.rounds_size),
                battles=histogram(census.battles, census.battles_size),
                cycle_lengths=histogram(census.periods, census.periods_size),
                cycle_keys={(count - 1) << 64 | value for count, value in slots if count},
                longest=record(longest, longest.rounds, longest.battles),
                most_battles=record(most, most.battles, most.rounds))


EXACT_COLUMNS = {"winner": "int8_t", "outcome": "int8_t", "rounds": "int32_t",
                 "battles": "int32_t", "ties": "int32_t", "wars": "int32_t",
                 "cycle_period": "int32_t"}         # PywarExactList's arrays


def exact_listing(rules, prefix, mirrored, count):
    """Each of the count games of one part, in order, played in C: (winner, outcome,
    rounds, battles, ties, wars, cycle_period) tuples, winner None or 0/1, cycle_period
    None unless it cycled.  C: pywar_exact_part with a PywarExactList."""
    arrays = {name: ffi.new(f"{kind}[]", count) for name, kind in EXACT_COLUMNS.items()}
    games = ffi.new("PywarExactList *", {"capacity": count, **arrays})
    exact_census(rules, [(prefix, mirrored)], listing=games)
    rows = zip(*(list(arrays[name][0:games.count]) for name in EXACT_COLUMNS))
    return [(None if winner < 0 else winner, OUTCOMES[outcome], rounds, battles, ties, wars,
             None if period < 0 else period)
            for winner, outcome, rounds, battles, ties, wars, period in rows]
def count_events(seed, rules, deal=None, limit=2 ** 62, runner=None):
    """How many events one game's trace has (pywar_play's arguments), counted in C
    without writing it.  A game of more than limit events is stopped there, and counts
    limit + 1.  runner, if given, makes the C call, as for play().  C: pywar_count_events."""
    cards, counts = c_deal(deal)
    events = ffi.new("int64_t *")
    stop = stop_flag()
    call = (lambda: lib.pywar_count_events(seed, c_rules(rules), cards, counts, limit,
                                           events, stop))
    check_status(call() if runner is None else runner(call, stop))
    return events[0]
