"""A thin checked layer over the compiled core (pywar._core): Python values in,
Python values out, and every C return code turned into an exception.

The raw layer is pywar._core.lib; the friendly layer is pywar (the facade).
"""

from . import rules as rules_module

try:
    from ._core import ffi, lib
except ImportError:                        # the C core was not built
    ffi = lib = None

ERRORS = {-1: (MemoryError, "the C core ran out of memory"),
          -2: (ValueError, "the C core refused the rules")}

BATCH_FIELDS = {                           # PywarBatch field: NumPy dtype
    "rounds": "int32", "battles": "int32", "ties": "int32", "wars": "int32",
    "longest_tie_streak": "int32", "stranded": "int32", "winner": "int8",
    "outcome": "int8", "cycle_start": "int32", "cycle_period": "int32",
    "digest": "uint64",
}


def available():
    """True when the C core is built and importable."""
    return lib is not None


def check_status(status, refused=None):
    """Raise the exception that a C return code stands for; refused, if given, says
    what PYWAR_EINVAL means for this call."""
    if status != lib.PYWAR_OK:
        error, message = ERRORS.get(status, (RuntimeError, f"C core error {status}"))
        raise error(refused if refused and status == lib.PYWAR_EINVAL else message)


def c_rules(rules):
    """A PywarRules struct for a Rules value."""
    return ffi.new("PywarRules *", rules_module.c_numbers(rules))


def result_dict(result):
    """A PywarResult as a dict, with outcome names and winner None, 0 or 1."""
    return {
        "winner": None if result.winner == lib.PYWAR_NOBODY else result.winner,
        "outcome": rules_module.OUTCOMES[result.outcome],
        "rounds": result.rounds,
        "battles": result.battles,
        "ties": result.ties,
        "wars": result.wars,
        "longest_tie_streak": result.longest_tie_streak,
        "stranded": result.stranded,
        "piles": [[result.piles[p][0], result.piles[p][1]] for p in (0, 1)],
        "cycle_start": None if result.cycle_start < 0 else result.cycle_start,
        "cycle_period": None if result.cycle_period < 0 else result.cycle_period,
        "digest": result.digest,
    }


class Sink:
    """Where a streamed transcript goes: a text stream, and the first error writing it."""

    def __init__(self, stream):
        self.stream = stream
        self.error = None

    def write(self, data):
        """Write a piece of the transcript, unless an earlier piece failed."""
        if self.error is None:
            try:
                self.stream.write(data)
            except Exception as error:          # raised again once C has returned
                self.error = error


def pywar_text_sink(context, data, length):
    """C calls this with each piece of a streamed transcript."""
    ffi.from_handle(context).write(ffi.unpack(data, length).decode("ascii"))


if ffi is not None:
    try:
        ffi.def_extern()(pywar_text_sink)
    except ffi.error:                           # a core built from older sources
        ffi = lib = None


def play(seed, rules, transcript=False, deal=None):
    """Play one game in C: (result dict, transcript str or None).

    transcript is False (no text), True (the text, returned) or a text stream that
    the text is written to, piece by piece, as the game goes.  deal, if given, is
    (A's card ids, B's card ids), each hand top first."""
    result = ffi.new("PywarResult *")
    text = ffi.new("PywarText *") if transcript is not False else ffi.NULL
    sink = None
    if transcript not in (False, True):
        sink = Sink(transcript)
        handle = ffi.new_handle(sink)           # kept alive until the call returns
        text.sink, text.context = lib.pywar_text_sink, handle
    hands = (ffi.NULL, 0, 0) if deal is None else (
        ffi.new("uint8_t[]", list(deal[0]) + list(deal[1])), len(deal[0]), len(deal[1]))
    try:
        check_status(lib.pywar_play_deal(seed, c_rules(rules), *hands, result, text))
        words = ffi.string(text.data, text.length).decode("ascii") if transcript is True else None
    finally:
        if text != ffi.NULL:
            lib.pywar_text_free(text)
    if sink is not None and sink.error is not None:
        raise sink.error
    return result_dict(result[0]), words


def stop_flag():
    """A flag that ends the batches it is given early: set flag[0] = 1 to stop."""
    return ffi.new("int32_t *")


def play_batch(first_seed, rules, arrays, stop=None):
    """Play len(arrays['rounds']) games from first_seed into NumPy arrays, in C, and
    return how many were played: all of them, unless stop (a stop_flag()) was set.

    The arrays must be C-contiguous and of the dtypes in BATCH_FIELDS.  The GIL
    is released while C works, so threads can fill slices of one set of arrays.
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
    return batch.finished


def rng_draws(seed, count):
    """The first count rand() values after srand(seed), from the C core's generator."""
    out = ffi.new("uint32_t[]", count)
    check_status(lib.pywar_rng_draws(seed, count, out))
    return list(out)


def rng_reduce(n, values):
    """values[i] % n for each 32-bit word, as the C core's fastmod computes it."""
    words = list(values)
    out = ffi.new("uint32_t[]", len(words))
    status = lib.pywar_rng_reduce(n, ffi.new("uint32_t[]", words), len(words), out)
    check_status(status, refused=f"the C core refused the modulus {n}: it must be at least 1")
    return list(out)
