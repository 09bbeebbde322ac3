"""The seeds of a check or a grading: those drawn fresh, the one keyed to a submission's
files, and the seeds said in words.
Standard library alone (no runner, no grader), so that pywar exercise's check can say
them in the browser's Python too (pywar page)."""

import hashlib
import hmac
import itertools
import secrets

FIRST_FRESH = 2                  # the least seed drawn: glibc's srand(0) is srand(1)
DAY = 86_400                     # seconds
FRESH_LIMIT = 2 ** 31 - DAY      # the seeds drawn are below it: times a program can meet
                                 # (issue 46), a day short of 2038's last second in an
                                 # int, so that the time, and the time and a day, fit in
                                 # an int (of 50 seeds past 2^31, three real programs that
                                 # keep time() in an int crashed on 22 to 26: grading.md)


def draw_fresh(count, fixed=()):
    """count seeds drawn from the system's random source, none of them fixed: a game
    recorded for the fixed seeds serves none of them; each a time a program can meet, from
    FIRST_FRESH to below FRESH_LIMIT (docs/grading.md)."""
    drawn = []
    while len(drawn) < count:
        seed = FIRST_FRESH + secrets.randbelow(FRESH_LIMIT - FIRST_FRESH)
        if seed not in fixed and seed not in drawn:
            drawn.append(seed)
    return tuple(drawn)


def keyed_seed(key, sha256, fixed=()):
    """The seed keyed to a submission's files: HMAC-SHA256 of their sha256 (hex) under the
    grading key, taken from FIRST_FRESH to below FRESH_LIMIT as a drawn seed is, none of
    the fixed (the next of "sha256:1", "sha256:2"... where it is one): the same for the
    same files and key, known beforehand by no one without the key, and not to be ground
    by padding a file, as a plain hash of the files could (docs/grading.md)."""
    for attempt in itertools.count():
        mac = hmac.new(key, f"{sha256}:{attempt}".encode(), hashlib.sha256).digest()
        seed = FIRST_FRESH + int.from_bytes(mac, "big") % (FRESH_LIMIT - FIRST_FRESH)
        if seed not in fixed:
            return seed


def seeds_words(seeds):
    """'seed 7', 'seeds 1 to 40', 'seeds 3, 9 and 12', 'seeds 1 to 3, 5 and 7 to 40'."""
    if len(seeds) == 1:
        return f"seed {seeds[0]}"
    runs = consecutive(seeds)
    if len(runs) == 1:
        return f"seeds {seeds[0]} to {seeds[-1]}"
    parts = [f"{run[0]} to {run[-1]}" if len(run) > 2 else ", ".join(map(str, run))
             for run in runs]
    words = ", ".join(parts)
    head, comma, last = words.rpartition(", ")
    return f"seeds {head} and {last}" if comma else f"seeds {words}"


def consecutive(seeds):
    """The seeds in runs of consecutive ones: [1, 2, 3, 5] -> [[1, 2, 3], [5]]."""
    runs = []
    for seed in seeds:
        if runs and seed == runs[-1][-1] + 1:
            runs[-1].append(seed)
        else:
            runs.append([seed])
    return runs
