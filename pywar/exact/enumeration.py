"""Every deal of a small deck, played to its end: exact counts of the games that end,
of endless games and their cycles, and of game lengths (docs/rules.md section 14).

    >>> import pywar
    >>> result = pywar.exact_counts(deck="5x1", piles="queue", pickup="winner-first", jobs=1)
    >>> result.orderings, result.cycles, result.distinct_cycles, result.longest["rounds"]
    (120, 30, 2, 8)

The work is split into parts (Part: the rules and a prefix of the rank sequence, small
and picklable), each played in C (csrc/engine/exact.c) or by the twin
(pywar/twin/exact.py) into a Census, and censuses merge exactly: counts add, histograms
add key by key, the sets of cycles join.  So the parts can run anywhere, in any order,
and the result does not depend on how the deals were split.  They run on threads, or
as tasks on a Dask cluster (pywar/sim/cluster.py, exact(client=...)).
"""

import math
import threading
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field, replace
from fractions import Fraction

from ..rules import RulesError, make_rules, parse_deck
from ..twin.exact import play_part, seatless, swapped_deal

MAX_CARDS = 16                 # C: PYWAR_EXACT_MAX_CARDS
TARGET_PARTS = 100             # split into at least this many parts...
SMALL_PART = 50_000            # ... unless the parts already play at most this many games
COUNTS = ("a_wins", "b_wins", "both_lose", "cycles", "capped")
HISTOGRAMS = ("rounds", "battles", "cycle_lengths")


def check_rules(rules):
    """Raise a one-line ValueError unless nothing random happens after the deal and the
    deck is small enough to play every deal of it."""
    if rules.game != "war":
        raise RulesError("exact counts games of {game} 'war' only, not {value!r}: a "
                         "one-card game's deals are not enumerated (docs/exact.md)",
                         value=rules.game)
    if rules.piles != "queue":
        raise RulesError("exact needs {piles} 'queue', not {value!r}: it deals each hand "
                         "as a queue, played in the order received", value=rules.piles)
    if rules.players != 2:
        raise RulesError("exact needs {players} 2, not {value}", value=rules.players)
    if rules.pickup == "random":
        raise RulesError("exact needs a fixed pickup, not {pickup} 'random': a random "
                         "pickup shuffles every pot")
    if not rules.detect_cycles:
        raise RulesError("exact needs cycle detection, not {detect_cycles}: an endless "
                         "game must end")
    ranks, suits = parse_deck(rules.deck)
    if ranks * suits > MAX_CARDS:
        raise RulesError("exact plays a {deck} of at most {most} cards, not {value} "
                         "({cards} cards)", most=MAX_CARDS, value=rules.deck,
                         cards=ranks * suits)


def symmetric(rules):
    """True when swapping the players is an exact symmetry of the deals: seatless rules
    and equal hands (an even deck), so each deal's twin is a deal too."""
    ranks, suits = parse_deck(rules.deck)
    return ranks * suits % 2 == 0 and seatless(rules)


def multiset_count(counts):
    """The number of distinct orderings of a multiset with these multiplicities."""
    total = math.factorial(sum(counts))
    for count in counts:
        total //= math.factorial(count)
    return total


def prefixes(ranks, suits, length):
    """Every distinct sequence of `length` ranks that starts a deal, in increasing order."""
    left = [suits] * ranks
    found = []

    def extend(prefix):
        """Every way to go on from prefix, in increasing order."""
        if len(prefix) == length:
            found.append(tuple(prefix))
            return
        for rank in range(ranks):
            if left[rank]:
                left[rank] -= 1
                extend(prefix + [rank])
                left[rank] += 1
    extend([])
    return found


def prefix_length(rules, mirror):
    """The shortest prefix (even, when mirroring) that splits the deck into at least
    TARGET_PARTS parts, or into parts of at most SMALL_PART games, or the whole deck."""
    ranks, suits = parse_deck(rules.deck)
    cards = ranks * suits
    for length in range(0, cards + 1, 2 if mirror else 1):
        count = len(prefixes(ranks, suits, length))
        if count >= TARGET_PARTS or multiset_count([suits] * ranks) // count <= SMALL_PART:
            return length
    return cards


@dataclass(frozen=True)
class Part:
    """Every deal whose rank sequence starts with prefix; mirrored, it stands for its
    player-swapped twin part as well.  Picklable: a job for a thread or a cluster."""
    rules: object
    prefix: tuple
    mirrored: bool = False


def plan(rules, symmetry=True, length=None):
    """The parts that cover every deal once: with symmetry (where it is exact) a part
    and its twin part are one mirrored part.  length: the prefix length (default: the
    shortest giving TARGET_PARTS parts)."""
    check_rules(rules)
    mirror = symmetry and symmetric(rules)
    length = prefix_length(rules, mirror) if length is None else length
    if mirror and length % 2:
        raise ValueError("with symmetry, parts need a prefix of even length")
    parts = []
    for prefix in prefixes(*parse_deck(rules.deck), length):
        swapped = swapped_deal(prefix)
        if not mirror or prefix == swapped:
            parts.append(Part(rules, prefix))
        elif prefix < swapped:
            parts.append(Part(rules, prefix, mirrored=True))
    return parts


@dataclass
class Census:
    """What some parts counted, in rank sequences.  Censuses merge exactly (merge)."""
    sequences: int = 0
    a_wins: int = 0
    b_wins: int = 0
    both_lose: int = 0
    cycles: int = 0
    capped: int = 0
    rounds: dict = field(default_factory=dict)          # rounds: games that end so
    battles: dict = field(default_factory=dict)         # battles: games that end so
    cycle_lengths: dict = field(default_factory=dict)   # rounds: games in such a cycle
    cycle_keys: set = field(default_factory=set)        # the cycles met (section 14)
    longest: object = None                              # (rounds, ranks, battles)
    most_battles: object = None                         # (battles, ranks, rounds)

    def merge(self, other):
        """This census and another, added: a new Census."""
        merged = Census(**{name: getattr(self, name) + getattr(other, name)
                          for name in ("sequences",) + COUNTS})
        for name in HISTOGRAMS:
            combined = dict(getattr(self, name))
            for key, count in getattr(other, name).items():
                combined[key] = combined.get(key, 0) + count
            setattr(merged, name, combined)
        merged.cycle_keys = self.cycle_keys | other.cycle_keys
        for name in ("longest", "most_battles"):
            candidates = [best for best in (getattr(self, name), getattr(other, name))
                          if best is not None]
            setattr(merged, name, min(candidates, key=lambda best: (-best[0], best[1]),
                                      default=None))
        return merged


def run_parts(parts, engine="c", stop=None):
    """Play some parts of one rule set and return their Census (engine 'c' or 'python')."""
    if not parts:
        return Census()
    rules = parts[0].rules
    if engine == "python":
        fields = None
        for part in parts:
            fields = play_part(rules, part.prefix, part.mirrored, fields)
        return Census(**fields)
    from .. import _checked
    prefixes = [(part.prefix, part.mirrored) for part in parts]
    return Census(**_checked.exact_census(rules, prefixes, stop))


def run_part(part, engine="c"):
    """Play one part and return its Census: the unit of work for a scheduler."""
    return run_parts([part], engine)


def run_parts_on(client, parts, progress=None):
    """The merged Census of exact parts, each played as a Dask task (run_part) on a
    distributed.Client; progress(games, total) as parts finish.  Ctrl-C cancels the parts
    not finished."""
    from distributed import as_completed
    token = uuid.uuid4().hex
    games = {f"pywar-part-{token}-{i}": part_games(part) for i, part in enumerate(parts)}
    futures = [client.submit(run_part, part, key=key, pure=False)
               for key, part in zip(games, parts)]
    total, done, everything = Census(), 0, sum(games.values())
    try:
        for future, census in as_completed(futures, loop=client.loop, with_results=True):
            total = total.merge(census)
            done += games[future.key]
            if progress is not None:
                progress(done, everything)
    finally:
        client.cancel(futures)
    return total


def listing(part, engine="c"):
    """Each game of a part (not its twins), in order: (winner, outcome, rounds, battles,
    ties, wars, cycle_period) tuples, winner None or 0/1, cycle_period None unless it
    cycled."""
    count = part_games(part)
    if engine == "python":
        games = []
        play_part(part.rules, part.prefix, part.mirrored, listing=games)
        return games
    from .. import _checked
    return _checked.exact_listing(part.rules, part.prefix, part.mirrored, count)


def part_games(part):
    """How many games a part plays: the rank sequences that start with its prefix."""
    return multiset_count(remaining(part.rules, part.prefix))


def remaining(rules, prefix):
    """How many of each rank are left after a prefix."""
    ranks, suits = parse_deck(rules.deck)
    return [suits - list(prefix).count(rank) for rank in range(ranks)]


def deal_of(ranks, suits_of_deck, ranks_of_deck):
    """A rank sequence as a deal of card ids (A's hand, B's hand, top first): the k-th
    card of a rank in the sequence is that rank's suit k, id k * R + rank."""
    seen = {}
    ids = []
    for rank in ranks:
        suit = seen.get(rank, 0)
        seen[rank] = suit + 1
        ids.append(suit * ranks_of_deck + rank)
    return [ids[0::2], ids[1::2]]


def run_threads(parts, jobs, stop, progress):
    """Play the parts on jobs threads, each taking the next part when it is free and
    keeping one C census (pywar._checked.exact_census); merge the threads' censuses."""
    lock = threading.Lock()
    queue = list(reversed(parts))
    done, total = [0], sum(part_games(part) for part in parts)

    def taken():
        """The parts a worker takes, one at a time, each counted once it is played."""
        part = None
        while True:
            with lock:
                if part is not None:
                    done[0] += part_games(part)
                    if progress is not None:
                        progress(done[0], total)
                if not queue:
                    return
                part = queue.pop()
            yield part.prefix, part.mirrored

    def worker():
        from .. import _checked
        return Census(**_checked.exact_census(parts[0].rules, taken(), stop))

    with ThreadPoolExecutor(max_workers=jobs) as pool:
        futures = [pool.submit(worker) for _ in range(min(jobs, len(parts)))]
        try:
            censuses = [future.result() for future in futures]
        except KeyboardInterrupt:
            if stop is not None:
                stop[0] = 1
            raise
    total = Census()
    for census in censuses:
        total = total.merge(census)
    return total


@dataclass(frozen=True)
class ExactResult:
    """Every deal of a deck under one rule set: counts in orderings of the deck (deals)
    unless named for rank sequences; the same names in JSON."""
    deck: str
    rules: str
    engine: str
    orderings: int              # n! deals
    rank_sequences: int         # distinct sequences of ranks: n! / (S!)^R
    weight: int                 # orderings per rank sequence: (S!)^R
    a_wins: int
    b_wins: int
    both_lose: int
    ended: int                  # a_wins + b_wins + both_lose
    cycles: int                 # deals that never end
    capped: int                 # deals stopped by max_rounds
    sequences: dict             # the same six counts in rank sequences
    cycle_lengths: dict         # cycle length in rounds: deals that fall into it
    distinct_cycles: int        # the cycles met (a cycle and its twin once: twins_merged)
    twins_merged: bool          # the rules treat the seats alike: twins count as one
    longest: object             # the longest game that ends: rounds, battles, ranks, deal
    most_battles: object        # the game that ends with the most battles: the same keys
    mean_rounds: object         # over the games that end (None if none does)
    mean_rounds_fraction: object
    mean_battles: object
    mean_battles_fraction: object
    rounds: dict                # rounds: deals that end after so many
    battles: dict               # battles: deals that end after so many
    symmetry: object            # "player-swap" where it was used, else None
    parts: int
    jobs: int
    seconds: float
    games_per_second: float     # rank sequences played a second (mirrored twins not)

    def to_json(self):
        """The result as a JSON-ready dict (histogram keys become strings in JSON)."""
        return asdict(self)


def mean(histogram):
    """The exact mean of a {value: count} histogram as a Fraction, or None if empty."""
    total = sum(histogram.values())
    return Fraction(sum(value * count for value, count in histogram.items()), total) \
        if total else None


def summarize(rules, census, engine, parts, jobs, seconds):
    """The ExactResult of a whole deck's census."""
    ranks, suits = parse_deck(rules.deck)
    weight = math.factorial(suits) ** ranks
    counts = {name: getattr(census, name) for name in COUNTS}
    counts["ended"] = counts["a_wins"] + counts["b_wins"] + counts["both_lose"]
    longest = most_battles = None
    if census.longest is not None:
        length, sequence, battles = census.longest
        longest = {"rounds": length, "battles": battles, "ranks": list(sequence),
                   "deal": deal_of(sequence, suits, ranks)}
        battles, sequence, length = census.most_battles
        most_battles = {"rounds": length, "battles": battles, "ranks": list(sequence),
                        "deal": deal_of(sequence, suits, ranks)}
    means = {name: mean(getattr(census, name)) for name in ("rounds", "battles")}
    played = sum(part_games(part) for part in parts)
    return ExactResult(
        deck=rules.deck, rules=rules.name, engine=engine,
        orderings=math.factorial(ranks * suits), rank_sequences=census.sequences,
        weight=weight, **{name: count * weight for name, count in counts.items()},
        sequences=counts,
        cycle_lengths={length: count * weight for length, count
                       in sorted(census.cycle_lengths.items())},
        distinct_cycles=len(census.cycle_keys), twins_merged=seatless(rules),
        longest=longest, most_battles=most_battles,
        mean_rounds=None if means["rounds"] is None else float(means["rounds"]),
        mean_rounds_fraction=None if means["rounds"] is None else str(means["rounds"]),
        mean_battles=None if means["battles"] is None else float(means["battles"]),
        mean_battles_fraction=None if means["battles"] is None else str(means["battles"]),
        rounds={key: count * weight for key, count in sorted(census.rounds.items())},
        battles={key: count * weight for key, count in sorted(census.battles.items())},
        symmetry="player-swap" if any(part.mirrored for part in parts) else None,
        parts=len(parts), jobs=jobs, seconds=seconds,
        games_per_second=played / seconds if seconds > 0 else 0.0)


def exact(rules="smu", jobs=None, engine=None, symmetry=True, prefix_length=None,
          progress=None, stop=None, client=None, **dimensions):
    """Play every deal of the rules' deck and return an ExactResult.

    rules is a preset or Rules value and dimensions are set over it, as for pywar.play;
    the rules must draw nothing after the deal (queue piles, a pickup other than random,
    cycle detection on), else a one-line ValueError.  engine 'c' (default, on jobs
    threads) or 'python' (the twin, slowly); symmetry uses the player swap where it is
    exact; prefix_length sets how the deals are split (the result does not depend on
    it); progress(games, total) is called as parts finish (True: a bar, False: none); stop, a
    pywar._checked.stop_flag(), ends the C parts early once set.  client, a
    distributed.Client (pip install 'pywar[dask]'), runs each part as a task on its
    cluster's workers instead (jobs is then the workers' threads); the result is the same.
    """
    from ..arguments import check_client, progress_function
    from ..common.fields import check_count
    from ..engine_choice import resolve_engine, usable_cores
    progress = progress_function(progress, "counting")
    check_client(client)
    chosen = make_rules(rules, **dimensions)
    check_rules(chosen)
    engine = resolve_engine(engine)
    if engine not in ("c", "python"):
        raise RulesError("exact plays with {engine} c or python, not {value!r}", value=engine)
    jobs = usable_cores() if jobs is None else check_count("jobs", jobs, high=1024)
    parts = plan(chosen, symmetry, prefix_length)
    start = time.perf_counter()
    if engine == "python":
        census = run_parts(parts, "python")
        jobs = 1
    elif client is not None:
        from ..sim import cluster
        jobs = cluster.threads_of(client)
        census = run_parts_on(client, parts, progress)
    else:
        from .. import _checked
        stop = _checked.stop_flag() if stop is None else stop      # Ctrl-C stops every thread
        census = run_threads(parts, jobs, stop, progress)
    seconds = time.perf_counter() - start
    return summarize(chosen, census, engine, parts, jobs, seconds)


def same_counts(first, second):
    """True when two ExactResults agree on everything but how they were computed."""
    how = {"engine": "", "symmetry": None, "parts": 0, "jobs": 0, "seconds": 0.0,
           "games_per_second": 0.0}
    return replace(first, **how) == replace(second, **how)
