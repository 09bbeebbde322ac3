"""pywar check: play the same seeds in two implementations and show where they part.

    pywar check -n 2000                                 # c against python, in bulk
    pywar check --engine port-c --against python --seed 1553 -n 50
    pywar check --engine cmd:'./student --seed {seed}' --against port-c -n 100

c against python compares the games' results and digests in bulk (the digest folds
every event), then drills into the first differing seed with traces; --traces compares
every game's trace and transcript instead, as every other pair does.  A Ctrl-C reports
the games compared so far, all of which agreed, and exits 130.
"""

import hashlib
import json
import sys
from dataclasses import dataclass, field

import numpy as np

import pywar
from ..compare import Difference, first_difference
from ..outside import ENGINE_HELP, Builtin, OutsideError, implementation
from ..referee import NotATranscript, referee
from ..rules import make_rules
from .common import (InterruptGuard, Progress, add_progress_option, add_rule_options,
                     add_seed_range_options, examples, interrupted_status, rule_dimensions,
                     usage_errors)
from .inputs import seconds_type

EXAMPLES = examples(
    ("pywar check -n 2000", "the C engine and its Python twin, in bulk"),
    ("pywar check --engine port-c --against python --seed 1553 -n 50", "the port and the twin"),
    ("pywar check --engine cmd:'./student --seed {seed}' --against port-c -n 100",
     "a student's program, run once per seed"),
    ("pywar check -n 200 --rules lehigh --traces --json",
     "every game's trace compared; the verdict as JSON"),
)
SEEDS = 2 ** 32
CHUNK = 10_000           # seeds played in bulk at a time: memory stays small
BULK = {"c", "python"}


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
        return 1 if not self.agree else interrupted_status() if self.interrupted else 0

    def to_json(self):
        """The verdict as a JSON-ready dict ('games' is the number compared)."""
        return {"rules": self.rules, "engine": self.engine, "against": self.against,
                "seed": self.seed, "requested": self.requested, "games": self.compared,
                "agreed": self.agreed, "interrupted": self.interrupted, "agree": self.agree,
                "first_seed": self.first_seed, "differing_fields": self.differing_fields,
                "difference": None if self.difference is None else self.difference.to_json(),
                "error": self.error, "referee": self.referee, "digest": self.digest}

    def last_seed(self):
        """The last seed of the games that agree."""
        return (self.seed + self.agreed - 1) % SEEDS

    def text(self):
        """The verdict as lines for a reader."""
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


# ---- Setting up

def checked_games(args):
    """The number of games: at most one per 32-bit seed."""
    if args.games > SEEDS:
        args.parser.error(f"-n must be an integer from 1 to {SEEDS:,} (each 32-bit seed "
                          f"once), not {args.games:,}")
    return args.games


def stacks(args):
    """The port stacks of the two sides: --stack for each port engine, --stack-against
    for the other side."""
    ports = pywar.PORT_ENGINES
    if args.stack and args.engine not in ports and args.against not in ports:
        args.parser.error("--stack is for the port engines (port-c, port-python)")
    if args.stack_against and args.against not in ports:
        args.parser.error("--stack-against is for a port engine (port-c, port-python) "
                          "given to --against")
    mine = args.stack if args.engine in ports else None
    theirs = args.stack_against or (args.stack if args.against in ports else None)
    return mine, theirs


def setting_up(args):
    """(rules, one side, the other): checked before any game, usage errors otherwise."""
    checked_games(args)
    mine, theirs = stacks(args)
    with usage_errors(args.parser):
        rules = make_rules(args.rules, **rule_dimensions(args))
        one = implementation(args.engine, mine, args.timeout)
        other = implementation(args.against, theirs, args.timeout)
        one.check(rules)
        other.check(rules)
    return rules, one, other


def in_bulk(one, other, args):
    """True for the C engine against the Python twin, compared by their results."""
    both_built_in = isinstance(one, Builtin) and isinstance(other, Builtin)
    return both_built_in and {one.engine, other.engine} == BULK and not args.traces


# ---- In bulk: c against python

def bulk_runs(one, other, rules, start, count, report):
    """Both engines' Simulations of count seeds from start, the C engine's first, and
    whether a Ctrl-C cut them short (then the games both finished are compared)."""
    runs = {}
    for engine in ("c", "python"):
        try:
            runs[engine] = pywar.simulate(count, rules, seed=start, engine=engine,
                                          progress=report if engine == "python" else None)
        except pywar.SimulationInterrupted as stop:
            runs[engine] = stop.simulation
            if engine == "c":
                return None, None, True
            return runs[one.engine], runs[other.engine], True
    return runs[one.engine], runs[other.engine], False


def first_differing_game(one_run, other_run, count):
    """(index, differing fields) of the first of count games that differ, or None."""
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
        start = (verdict.seed + done) % SEEDS
        count = min(CHUNK, verdict.requested - done)
        report = (lambda finished, total: progress(done + finished, verdict.requested))
        one_run, other_run, interrupted = bulk_runs(one, other, rules, start, count, report)
        finished = 0 if one_run is None else min(one_run.games, other_run.games)
        found = None if finished == 0 else first_differing_game(one_run, other_run, finished)
        if found is not None:
            index, fields = found
            add_digests(digest, one_run, index)
            verdict.agreed = done + index
            verdict.first_seed = (start + index) % SEEDS
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
    if run is not None and count:
        digest.update(np.ascontiguousarray(run.arrays["digest"][:count], dtype="<u8").tobytes())


# ---- Seed by seed: every other pair

def referee_side(side, rules):
    """The referee's first fault in a side that printed only a smu transcript, or None."""
    if side.trace is not None or rules.narration != "smu":
        return None
    try:
        fault = referee(side.transcript).fault
    except NotATranscript as error:
        return f"{side.name}: {error}"
    return None if fault is None else f"{side.name}: {fault}"


def seed_by_seed(verdict, one, other, rules, progress):
    """Play each seed in both, compare traces, transcripts and results; stop at the
    first game that differs or an implementation that fails."""
    digest = hashlib.sha256()
    for i in range(verdict.requested):
        seed = (verdict.seed + i) % SEEDS
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


# ---- The command

def run_check(args):
    """Compare two implementations seed by seed: 0 agree, 1 a game differs, 130 a
    Ctrl-C (after reporting the games compared)."""
    rules, one, other = setting_up(args)
    verdict = Verdict(one.name, other.name, rules.name, args.seed, args.games)
    progress = Progress("checking", args.progress)
    with InterruptGuard() as guard:
        try:
            if in_bulk(one, other, args):
                bulk_check(verdict, one, other, rules, progress)
            else:
                seed_by_seed(verdict, one, other, rules, progress)
        except KeyboardInterrupt:
            verdict.interrupted = True
        finally:
            guard.holding = True                # a further Ctrl-C waits for the report
            progress.close()
        if verdict.interrupted:
            print(f"{args.parser.prog}: interrupted", file=sys.stderr)
        text = json.dumps(verdict.to_json()) + "\n" if args.json else verdict.text()
        sys.stdout.write(text)
    return verdict.status()


def add(subparsers):
    """The check subcommand."""
    parser = subparsers.add_parser(
        "check", help="play the same seeds in two implementations and show where they part",
        description="Play the same seeds in two implementations (c and python by default) "
                    "and compare every game. At the first game that differs, print its "
                    "seed, the first differing event, both sides, and the transcript lines "
                    "around the first differing line as a unified diff. Exit status 1 if a "
                    "game differs, 130 after a Ctrl-C.",
        epilog=EXAMPLES)
    add_seed_range_options(parser, default=1000)
    add_rule_options(parser)
    parser.add_argument("--engine", default="c", metavar="X",
                        help=f"one implementation: {ENGINE_HELP} (default: c)")
    parser.add_argument("--against", default="python", metavar="Y",
                        help="the other, named the same way (default: python)")
    parser.add_argument("--stack", choices=("pile", "adt"),
                        help="the port's stack, for each port engine (default: pile)")
    parser.add_argument("--stack-against", choices=("pile", "adt"),
                        help="the stack of the port engine given to --against")
    parser.add_argument("--traces", action="store_true",
                        help="c against python: compare each game's trace and transcript, "
                             "not only its result and digest (slower)")
    parser.add_argument("--timeout", type=seconds_type, default=10.0, metavar="S",
                        help="seconds an outside implementation may take for a game "
                             "(default: 10)")
    parser.add_argument("--json", action="store_true", help="print the verdict as one JSON line")
    add_progress_option(parser)
    parser.set_defaults(run=run_check, parser=parser)
