"""Where two implementations agree and where they part: check() plays the same seeds in
both and returns a Verdict.

c against python compares the games' results and digests in bulk (the digest folds
every event), then drills into the first differing seed with traces; traces=True
compares every game's trace and transcript instead, as every other pair does.
keep_going=True plays every seed whatever happens and tallies them by kind: agree,
differ, crashed, timed out, exit status (and failed: printed no transcript, could not
run), with the seeds of each and the first report of each kind.
"""

import hashlib
from dataclasses import dataclass, field

from ...common.fields import SEED_LIMIT, check_count, check_seed
from .difference import Difference, first_difference
from .outside import FAILURES, Builtin, OutsideError, implementation, kind_of
from ..referee.judge import judge
from ...rules import make_rules
from ...sim import run

CHUNK = 10_000           # seeds played in bulk at a time: memory stays small
BULK = {"c", "python"}
KINDS = ("agree", "differ") + FAILURES          # what keep_going tallies, seed by seed
SHOWN_SEEDS = 10                                # seeds listed per kind in the text


def check(n=1000, rules="smu", seed=0, engine="c", against="python", stack=None,
          stack_against=None, traces=False, timeout=10.0, progress=None, keep_going=False,
          isolation="auto", **dimensions):
    """Play n games from seed in two implementations and return the Verdict: where they
    first differ, if they do.  engine and against are each an engine name, a
    'cmd:PROGRAM {seed}' or a 'py:MODULE:CLASS' (pywar.check.implementations.outside); stack and
    stack_against are the port stacks of either side.  progress, if given, is called as
    progress(compared, n).  keep_going plays every seed one at a time and tallies them
    by kind (verdict.tally).  isolation: how an outside side runs (sandbox.MODES).  A Ctrl-C ends the check with the games compared so far:
    verdict.interrupted is then True."""
    n = check_count("n", n, high=SEED_LIMIT)
    seed = check_seed(seed)
    chosen = make_rules(rules, **dimensions)
    one, other = sides(chosen, engine, against, stack, stack_against, timeout, isolation)
    verdict = Verdict(one.name, other.name, chosen.name, seed, n)
    try:
        report = progress or (lambda done, total: None)
        if keep_going:
            tally_every_seed(verdict, one, other, chosen, report)
        else:
            compare(verdict, one, other, chosen, report, traces)
    except KeyboardInterrupt:
        verdict.interrupted = True
    return verdict


def sides(rules, engine, against, stack=None, stack_against=None, timeout=10.0,
          isolation="auto"):
    """The two implementations, each checked against the rules: a one-line ValueError
    (or OutsideError) before any game for one that cannot play them."""
    one = implementation(engine, stack, timeout, isolation)
    other = implementation(against, stack_against, timeout, isolation)
    one.check(rules)
    other.check(rules)
    return one, other


def compare(verdict, one, other, rules, progress, traces=False):
    """Fill the verdict: in bulk for c against python, else seed by seed."""
    if in_bulk(one, other, traces):
        bulk_check(verdict, one, other, rules, progress)
    else:
        seed_by_seed(verdict, one, other, rules, progress)


@dataclass
class Verdict:
    """What a check found.  agreed counts the games, from the first seed on, that were
    played by both and agree; a difference or an error ends the check at first_seed."""
    engine: str
    against: str
    rules: str
    seed: int
    requested: int
    agreed: int = 0
    interrupted: bool = False
    first_seed: object = None
    difference: object = None
    differing_fields: list = field(default_factory=list)
    error: object = None
    referee: object = None
    digest: object = None
    tally: object = None          # keep_going: {kind: [seeds]}, and the first of each
    firsts: dict = field(default_factory=dict)

    @property
    def agree(self):
        """True when no game compared differs."""
        return self.first_seed is None

    @property
    def compared(self):
        """The games finished and compared, the differing one included."""
        return self.agreed + (0 if self.agree else 1)

    def status(self):
        """The exit status: 1 a game differs, 130 interrupted, else 0."""
        if self.tally is not None:
            parted = any(self.tally[kind] for kind in KINDS[1:])
            return 1 if parted else 130 if self.interrupted else 0
        return 1 if not self.agree else 130 if self.interrupted else 0

    def to_json(self):
        """The verdict as a JSON-ready dict ('games' is the number compared)."""
        if self.tally is not None:
            return {"rules": self.rules, "engine": self.engine, "against": self.against,
                    "seed": self.seed, "requested": self.requested,
                    "games": sum(map(len, self.tally.values())),
                    "interrupted": self.interrupted, "tally": self.tally,
                    "firsts": self.firsts}
        return {"rules": self.rules, "engine": self.engine, "against": self.against,
                "seed": self.seed, "requested": self.requested, "games": self.compared,
                "agreed": self.agreed, "interrupted": self.interrupted, "agree": self.agree,
                "first_seed": self.first_seed, "differing_fields": self.differing_fields,
                "difference": None if self.difference is None else self.difference.to_json(),
                "error": self.error, "referee": self.referee, "digest": self.digest}

    def last_seed(self):
        """The last seed of the games that agree."""
        return (self.seed + self.agreed - 1) % SEED_LIMIT

    def tally_text(self):
        """keep_going's verdict: each kind with its count and seeds, then the first
        example of each kind but agree."""
        played = sum(map(len, self.tally.values()))
        lines = [f"{self.engine} and {self.against} on {played:,} seeds of {self.rules} from "
                 f"seed {self.seed}" + (" (interrupted)" if self.interrupted else "") + ":"]
        for kind in KINDS:
            seeds = self.tally[kind]
            listed = ", ".join(map(str, seeds[:SHOWN_SEEDS]))
            more = f" and {len(seeds) - SHOWN_SEEDS:,} more" if len(seeds) > SHOWN_SEEDS else ""
            lines.append(f"  {kind}: {len(seeds):,} seed{'' if len(seeds) == 1 else 's'}"
                         + (f" ({listed}{more})" if seeds and kind != "agree" else ""))
        for kind, first in self.firsts.items():
            lines.append(f"first {kind}, seed {first['seed']}: {first['report']}")
        return "\n".join(lines) + "\n"

    def text(self):
        """The verdict as lines for a reader."""
        if self.tally is not None:
            return self.tally_text()
        pair = f"{self.engine} and {self.against}"
        before = f"the {self.agreed:,} games before it agree"
        if self.error:
            return (f"{self.error}\n{pair}: the check stopped at seed {self.first_seed} "
                    f"({self.rules} rules); {before}.\n")
        if not self.agree:
            lines = [self.difference.report().rstrip("\n")]
            lines += [] if self.referee is None else [f"the referee: {self.referee}"]
            fields = f" in {', '.join(self.differing_fields)}" if self.differing_fields else ""
            lines.append(f"{pair} differ{fields} at seed {self.first_seed} ({self.rules} "
                         f"rules); {before}" + (" (interrupted)" if self.interrupted else "")
                         + ".")
            return "\n".join(lines) + "\n"
        if self.interrupted:
            if self.agreed == 0:
                return f"Interrupted before {pair} finished a game: nothing was compared.\n"
            return (f"Interrupted: {pair} agree on the {self.agreed:,} games compared, of "
                    f"{self.rules} from seed {self.seed} to {self.last_seed()}; the other "
                    f"{self.requested - self.agreed:,} were not compared.\n")
        digest = "" if self.digest is None else f" (digest {self.digest})"
        return (f"{pair} agree on all {self.agreed:,} games of {self.rules} from seed "
                f"{self.seed}{digest}.\n")


def in_bulk(one, other, traces=False):
    """True for the C engine against the Python twin, compared by their results (unless
    traces asks for every game's trace and transcript)."""
    both_built_in = isinstance(one, Builtin) and isinstance(other, Builtin)
    return both_built_in and {one.engine, other.engine} == BULK and not traces


# ---- In bulk: c against python

def bulk_runs(one, other, rules, start, count, report):
    """Both engines' Simulations of count seeds from start, the C engine's first, and
    whether a Ctrl-C cut them short (then the games both finished are compared)."""
    from ...sim.simulation import SimulationInterrupted
    runs = {}
    for engine in ("c", "python"):
        try:
            runs[engine] = run.simulate(count, rules, seed=start, engine=engine,
                                          progress=report if engine == "python" else None)
        except SimulationInterrupted as stop:
            runs[engine] = stop.simulation
            if engine == "c":
                return None, None, True
            return runs[one.engine], runs[other.engine], True
    return runs[one.engine], runs[other.engine], False


def first_differing_game(one_run, other_run, count):
    """(index, differing fields) of the first of count games that differ, or None."""
    import numpy as np
    firsts = [np.flatnonzero(one_run.arrays[name][:count] != other_run.arrays[name][:count])
              for name in one_run.arrays]
    found = [indices[0] for indices in firsts if len(indices)]
    if not found:
        return None
    index = int(min(found))
    fields = [name for name in one_run.arrays
              if one_run.arrays[name][index] != other_run.arrays[name][index]]
    return index, fields


def bulk_difference(one, other, rules, seed, fields, values):
    """The drill into a differing seed: where the traces part, or, if play() gives the
    same games, the batch fields that differ."""
    found = first_difference(one.play(seed, rules), other.play(seed, rules), seed)
    if found is not None:
        return found
    shown = ", ".join(f"{name} {a} / {b}" for name, (a, b) in values.items())
    return Difference((one.name, other.name), "results", seed, fields=fields,
                      note=f"the batch results differ ({shown}); played one at a time, the "
                           "two give the same trace, transcript and result")


def bulk_check(verdict, one, other, rules, progress):
    """c against python: chunks of seeds in bulk, compared field by field."""
    digest = hashlib.sha256()
    while verdict.agreed < verdict.requested:
        done = verdict.agreed
        start = (verdict.seed + done) % SEED_LIMIT
        count = min(CHUNK, verdict.requested - done)
        report = (lambda finished, total: progress(done + finished, verdict.requested))
        one_run, other_run, interrupted = bulk_runs(one, other, rules, start, count, report)
        finished = 0 if one_run is None else min(one_run.games, other_run.games)
        found = None if finished == 0 else first_differing_game(one_run, other_run, finished)
        if found is not None:
            index, fields = found
            add_digests(digest, one_run, index)
            verdict.agreed = done + index
            verdict.first_seed = (start + index) % SEED_LIMIT
            verdict.differing_fields = fields
            verdict.interrupted = interrupted
            values = {name: (one_run.arrays[name][index].item(),
                             other_run.arrays[name][index].item()) for name in fields}
            verdict.difference = bulk_difference(one, other, rules, verdict.first_seed,
                                                 fields, values)
            return
        add_digests(digest, one_run, finished)
        verdict.agreed = done + finished
        if interrupted:
            verdict.interrupted = True
            return
    verdict.digest = digest.hexdigest()


def add_digests(digest, run, count):
    """Fold the first count games' 64-bit digests (little-endian) into a sha256."""
    import numpy as np
    if run is not None and count:
        digest.update(np.ascontiguousarray(run.arrays["digest"][:count], dtype="<u8").tobytes())


# ---- Seed by seed: every other pair

def referee_side(side, rules):
    """What the keep-going referee (pywar.check.referee.judge) finds in a side that printed only
    a smu transcript: its first broken item's first example, the others named; or None."""
    if side.trace is not None or rules.narration != "smu":
        return None
    judged = judge(side.transcript)
    broken = judged.broken()
    if not broken:
        return None
    also = f" (also broken: {', '.join(broken[1:])})" if len(broken) > 1 else ""
    return f"{side.name}: {broken[0]}: {judged.first(broken[0]).text()}{also}"


def seed_by_seed(verdict, one, other, rules, progress):
    """Play each seed in both, compare traces, transcripts and results; stop at the
    first game that differs or an implementation that fails."""
    digest = hashlib.sha256()
    for i in range(verdict.requested):
        seed = (verdict.seed + i) % SEED_LIMIT
        try:
            sides = (one.play(seed, rules), other.play(seed, rules))
        except OutsideError as error:
            verdict.first_seed, verdict.error = seed, str(error)
            return
        found = first_difference(*sides, seed=seed)
        if found is not None:
            verdict.first_seed, verdict.difference = seed, found
            verdict.differing_fields = found.fields
            verdict.referee = referee_side(sides[0], rules) or referee_side(sides[1], rules)
            return
        if sides[0].result is not None:
            digest.update(int(sides[0].result["digest"], 16).to_bytes(8, "little"))
        verdict.agreed = i + 1
        progress(i + 1, verdict.requested)
    if isinstance(one, Builtin):
        verdict.digest = digest.hexdigest()


# ---- Every seed, whatever happens (keep_going)

def printed_so_far(error):
    """How far the game that a failed program printed got, refereed: '' when it printed
    nothing, or a trace."""
    if not error.printed or kind_of(error.printed) == "trace":
        return ""
    judged = judge(error.printed, complete=error.kind == "exit status")
    broken = ", ".join(judged.broken()) or "none"
    last = " | ".join(map(repr, judged.last_lines))
    return f" ({judged.progress()}; rules broken: {broken}; its last lines: {last})"


def tally_every_seed(verdict, one, other, rules, progress):
    """Play every seed, whatever happens, tallying each seed under its kind."""
    verdict.tally = {kind: [] for kind in KINDS}
    for i in range(verdict.requested):
        seed = (verdict.seed + i) % SEED_LIMIT
        try:
            sides = (one.play(seed, rules), other.play(seed, rules))
            found = first_difference(*sides, seed=seed)
            kind = "agree" if found is None else "differ"
            report = None if found is None else found.report().rstrip("\n")
            if found is not None:
                also = referee_side(sides[0], rules) or referee_side(sides[1], rules)
                report += "" if also is None else f"\nthe referee: {also}"
        except OutsideError as error:
            kind, report = error.kind, str(error) + printed_so_far(error)
        verdict.tally[kind].append(seed)
        if report is not None and kind not in verdict.firsts:
            verdict.firsts[kind] = {"seed": seed, "report": report}
        progress(i + 1, verdict.requested)
