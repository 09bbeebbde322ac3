"""Grading a class: each submission built in a scratch copy, run on N seeds under
limits with its clock reading the seed, every run refereed, and the rubric filled in
(docs/grading.md).

The rubric's items (pywar.check.referee.rubric), each {"ok", "failed", "of",
"example"}: builds, runs, format, deal, plays, ranks, ties, pickup, refill, counts, end,
memory.
"""

import multiprocessing
import os
import re
import resource
import signal
import tempfile
import threading
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field, replace

from ..referee.effort import Effort, OutOfTime
from ..referee.finding import Finding
from ..assignment.file import ONE_CARD_LEFT_OUT, game_of
from ..referee.judge import judge
from ..referee.single import judge_single
from ..referee.mistakes import MISTAKE, ROW
from ..referee.quote import LINE
from ..referee.rubric import GAME_ITEMS, ITEM, NAMES, RUBRIC, default_weights
from ..referee.words import rank_of
from ..runner import sandbox
from ...stopping import STOPPING
from ..seeds import keyed_seed, seeds_words
from .build import build, case_note, compiler_errors, first_error, run_argv, tail
from .canned import not_the_reference_s
from .keep import Kept, discarded_if_stopped
from .memcheck import instrumentation_notes, memcheck
from .receipt import files_sha256, stable

DEFAULT_BUILD = "g++ -std=c++17 -O1 -o {program} ./*.cpp"   # ./: no file is an option
DEFAULT_RUN = "{program}"
SEEDS = 2 ** 32
FRESH = 2                        # seeds drawn fresh at each grading, besides -n's
FLOOD_REFEREED = 2 * sandbox.MIB     # of a run that flooded its output, what is refereed
REFEREE_SECONDS = 10.0              # the referee's time on one seed: seed 1553's 18,375
                                    # lines take 0.2 s, 2 MiB of one battle line 1 to 4 s
                                    # (bench/test_grading.py -k 15mib)
SECONDS_A_SEED = 3.0                # the default budget of a submission's runs, a seed
RUNS_IN_BUDGET = 4                  # the default budget holds this many runs' --timeout
REFEREE_MEMORY = 512 * sandbox.MIB  # a referee's process's data (RLIMIT_DATA, not its stack): it
                                    # starts at 30 MB; the referee takes 10 times a game's
                                    # transcript, 37 times one line said again and again
                                    # (2 MiB of 'Player A plays jack of hearts': 112 MB at
                                    # its peak), so every 16 MiB transcript but the last
                                    # kind (past 12 MiB of it) is refereed within it
REFEREE_HERE = sandbox.MIB          # a transcript shorter than this is refereed in pywar's
                                    # own process (40 MB at most) where no job has its own
RUN_SETUP = 1.0                     # seconds of a run past its time limit at most: the
                                    # sandbox's setup and its kill (11 runs of a burner
                                    # under --timeout 10 took 111 s, its build included)


def default_budget(games, wall):
    """The seconds a submission's runs may take together by default: 3 s a seed (120 s
    for 40, where a program that ends takes well under 1 s a seed, its refereeing with
    it), and room for four runs of the whole time limit at least."""
    return max(games * SECONDS_A_SEED, RUNS_IN_BUDGET * (wall + RUN_SETUP))


@dataclass
class Settings:
    """How to grade: the commands, the seeds, the limits and the weights."""
    build: str = DEFAULT_BUILD
    run: str = DEFAULT_RUN
    games: int = 40
    seed: int = 1
    limits: sandbox.Limits = sandbox.Limits()
    memory: bool = True
    fix_include_case: bool = False      # build with each #include's case matched to its file
    isolation: object = "auto"          # the command's sandbox.Isolation (resolved where it
                                        # starts), or a wish: auto, required or none
    group: int = None                   # one submission's group (grade_one's): sandbox.run
    weights: dict = field(default_factory=default_weights)
    referee_time: float = REFEREE_SECONDS   # seconds the referee may take on one seed
    budget: float = None                # seconds of all a submission's runs together, their
                                        # refereeing with them (None: default_budget)
    fresh: tuple = ()                   # seeds drawn for this grading (draw_fresh), or given
    key: bytes = None                   # the grading key (grading_key): each submission's
                                        # first fresh seed keyed to its files; None: none is
    known: dict = field(default_factory=dict)   # a submission's sha256 -> its keyed seed
                                        # in an old grade (--since): kept, whatever the key
    keyed: int = None                   # this submission's keyed seed (keyed_to's)
    keep: str = None                    # --keep DIR: each submission's outputs kept there
    stdin: str = ""                     # what each run reads on stdin (an assignment's)
    assignment: object = None           # an assignment file's Assignment whose game the
                                        # referee judges (None: SMU's, judge's)

    def fixed(self):
        """The seeds of -n and --seed: the same at every grading."""
        return [(self.seed + i) % SEEDS for i in range(self.games)]

    def seeds(self):
        """The seeds a submission is run on: the fixed ones, then the fresh ones, its keyed
        seed first."""
        fixed = self.fixed()
        fresh = (() if self.keyed is None else (self.keyed,)) + tuple(self.fresh)
        return fixed + [seed for seed in dict.fromkeys(fresh) if seed not in fixed]

    def keyed_to(self, sha256):
        """The Settings of a submission whose files have this sha256: its keyed seed set
        (an old grade's for the same files, else seeds.keyed_seed's under the key), and
        the key dropped (a Dask worker is sent no key); as it is where no seed is keyed
        (--fresh 0) or the files could not be hashed (a submission past its copy's bounds,
        which is not built)."""
        if self.key is None or sha256 is None:
            return self
        fixed = self.fixed()
        seed = self.known.get(sha256)
        if seed is None or seed in fixed:
            seed = keyed_seed(self.key, sha256, fixed)
        return replace(self, key=None, known={}, keyed=seed)

    def seed_count(self):
        """How many seeds a submission is run on, its keyed seed with them."""
        return len(self.seeds()) + (self.key is not None)

    def run_order(self):
        """The seeds in the order they are run: the fresh first, so that a budget spent
        leaves fixed seeds unrun, whose games a table may hold, never the fresh (issue 47)."""
        return self.drawn() + self.fixed()

    def drawn(self):
        """The fresh seeds run on (those not fixed already)."""
        return [seed for seed in self.seeds() if seed not in self.fixed()]

    def memcheck_seed(self):
        """The seed valgrind runs on: the first fresh, keyed to the submission's files (a
        program cannot know it beforehand, and behave on it alone, and the same files get
        it at every grading: issue 46), else the first fixed one (--fresh 0)."""
        return (self.drawn() or [self.seed])[0]

    def budget_seconds(self):
        """The budget of a submission's runs, in seconds."""
        return self.budget if self.budget is not None else default_budget(
            self.seed_count(), self.limits.wall)           # the fresh seeds' runs too


@dataclass
class Submission:
    """One student's grade: the rubric's items, the score, and notes on the runs."""
    name: str
    items: dict
    score: float
    max_score: float
    notes: list = field(default_factory=list)
    left_out: list = field(default_factory=list)    # items out of the rubric (--no-memory)
    mistakes: dict = field(default_factory=dict)    # a row's name -> on how many runs seen
    mistakes_by_seed: dict = field(default_factory=dict)    # a seed -> the rows seen on it
    seeds: list = field(default_factory=list)       # every seed run on, the fresh last
    fresh: list = field(default_factory=list)       # those fresh: its keyed seed, then
                                                    # those drawn for this grading
    sha256: str = None                  # of its files (receipt.files_sha256)
    lms: dict = None                    # the LMS's record of it, from a download
    keyed: int = None                   # its seed keyed to its files (Settings.keyed_to)


    def to_json(self):
        """The submission as a JSON-ready dict."""
        return {"name": self.name, "sha256": self.sha256, "items": self.items,
                "score": self.score, "max_score": self.max_score, "notes": self.notes,
                "left_out": self.left_out, "mistakes": self.mistakes,
                "mistakes_by_seed": {str(seed): rows for seed, rows in
                                     self.mistakes_by_seed.items()},
                "seeds": self.seeds, "fresh": self.fresh, "keyed": self.keyed,
                **({"lms": self.lms} if self.lms is not None else {})}

    def seeds_said(self, each=False):
        """Every seed of its grading, in words that let it be replayed (each: said of a
        class, where each submission has a keyed seed of its own)."""
        fixed = [seed for seed in self.seeds if seed not in self.fresh]
        said = seeds_words(fixed) if fixed else "no seed"
        drawn = [seed for seed in self.fresh if seed != self.keyed]
        if self.keyed is not None:
            said += (", one keyed to each submission's files" if each else
                     f", seed {self.keyed} keyed to its files") + \
                " (valgrind's: the same at every grading of the same files)"
        if not drawn:
            return said
        listed = ",".join(map(str, drawn))
        return (f"{said}, and {len(drawn)} drawn fresh for this grading: {listed} (grade "
                f"again on {'them' if len(drawn) > 1 else 'it'} with --fresh-seeds {listed})")


class GradeInterrupted(Exception):
    """A Ctrl-C while grading: the submissions graded, from the first with no gap."""

    def __init__(self, graded):
        super().__init__("interrupted")
        self.graded = graded


class ItemMarks:
    """An item's marks over the runs: on how many it was put to the test, on how many
    broken, and the first example."""

    def __init__(self):
        self.failed, self.of, self.example = 0, 0, None
        self.why = None                     # an example that says why it was not checked

    def add(self, broken, example=None, checked=True):
        """One run (or build) judged: broken or not; unchecked when its rule was never
        put to the test (and nothing broke it), with the example saying why kept."""
        if not (checked or broken):
            self.why = self.why or example
            return
        self.of += 1
        if broken:
            self.failed += 1
            if self.example is None:
                self.example = example

    def item(self, unchecked=None):
        """The rubric's form: {"ok", "failed", "of", "example"}; ok only where the rule
        was put to the test and kept (unchecked: the example of an item never tested)."""
        ok = self.failed == 0 and self.of > 0
        return {"ok": ok, "failed": self.failed, "of": self.of,
                "example": self.example if self.of else self.why or unchecked}


def not_checked(item, built=True, why=None):
    """The example of an item never put to the test: why, or its row's reason (or that
    the build it depends on failed)."""
    if why is None:
        row = ITEM[item]
        why = "the program did not build" if not built and row.depends else row.unchecked
    return {"said": f"not checked: {why}"}


class WorkEffort(Effort):
    """The referee's Effort with its deadline on the CPU clock of its thread (the referee
    computes alone in it), so that a busy machine changes no verdict (issue 51): once the
    clock's deadline has passed, it moves on by the CPU time not yet used, and each step
    still reads the clock alone (the thread's CPU clock costs 12 times as much, 1.4 us
    against 0.11: python -m timeit -s 'import time' 'time.thread_time()').  The call of
    Effort.step costs about 5%: seed 1553's game judged in 0.249 s against 0.232, the
    best of 5 each, at a load of 7 to 10 on 2 cores (2026-12-06)."""

    def __init__(self, seconds=None):
        super().__init__(seconds)
        self.started = time.thread_time()

    def step(self, amount=1):
        """amount steps more; OutOfTime once the thread's CPU time has run out."""
        try:
            super().step(amount)
        except OutOfTime:
            left = self.seconds - (time.thread_time() - self.started)
            if left <= 0:
                raise
            self.deadline = time.monotonic() + left


class OutOfMemory(Exception):
    """The referee of a transcript ran out of its process's memory (REFEREE_MEMORY)."""

    def __init__(self, seconds, memory):
        super().__init__(seconds, memory)
        self.seconds = seconds          # the CPU time it took, which the budget is charged
        self.memory = memory            # the bytes of data it had (RLIMIT_DATA)


def referee_for(printed, complete, seed, seconds, **judging):
    """referee_one within seconds of the referee's CPU time, from now: its Judgement, its
    note, and the CPU seconds it took, which the budget is charged; OutOfMemory past the
    memory of a referee's process."""
    start = time.thread_time()
    try:
        judged, fault = referee_one(printed, complete, seed, WorkEffort(seconds), **judging)
    except MemoryError:                 # raised once its frames, and what they held, are gone
        judged = fault = MemoryError
    if judged is MemoryError:
        raise OutOfMemory(time.thread_time() - start,
                          resource.getrlimit(resource.RLIMIT_DATA)[0])
    return judged, fault, time.thread_time() - start


def referee_one(printed, complete, seed, effort=None, assignment=None):
    """The referee's Judgement of one run (under an assignment's game and words, where
    given), or (None, the note) on a fault of pywar's own: that seed's items are then not
    checked, and every other seed is graded.  OutOfTime once the effort's deadline has
    passed."""
    try:
        if assignment is not None and game_of(assignment.rules) == "one-card":
            return judge_single(printed, assignment.wording, assignment.rules.players,
                                complete, effort), None
        if assignment is not None:
            return judge(printed, complete=complete, effort=effort,
                         wording=assignment.wording), None
        return judge(printed, complete=complete, effort=effort), None
    except (OutOfTime, MemoryError):
        raise
    except Exception as error:          # pywar's own fault: contained to this seed
        return None, (f"pywar could not referee seed {seed}: {type(error).__name__}: "
                      f"{str(error)[:200]} (this is pywar's fault, not the program's: "
                      "please report it); that seed's items are not checked")


@dataclass
class SeedRun:
    """One seed's run: how it ended, what it printed, the referee's Judgement of it (None
    on a fault of pywar's own, in fault)."""
    seed: int
    outcome: object
    printed: str
    judged: object = None
    fault: str = None
    late: str = None                    # why it was not refereed in time, if it was not

    def stopped(self):
        """Whether the run was stopped (time, output, a signal) before it could end."""
        outcome = self.outcome
        return outcome.timed_out or outcome.flooded or (outcome.status or 0) < 0


def referee_runs(settings, program, clock, ran, kept=None, referee=referee_for):
    """Run the seeds under the limits and referee what each printed (by referee, as
    referee_for), while the budget left holds a whole run (its time limit and RUN_SETUP;
    the seeds past it are not run), so that a program that takes its whole time limit on
    every seed costs no more than the budget; ran() after each seed, run or not (it raises
    KeyboardInterrupt once grading is interrupted); each run's stdout kept as it wrote
    it (kept: --keep).  The budget is charged each run's own time and the referee's CPU
    time on it, not the time a busy machine kept them waiting (issue 51).  The seeds are
    run in settings.run_order() (the fresh first); the SeedRuns of the seeds run, in the
    order of settings.seeds()."""
    runs = []
    left = settings.budget_seconds()
    for seed in settings.run_order():
        if left < settings.limits.wall + RUN_SETUP:
            ran()
            continue
        outcome = sandbox.run(run_argv(settings, program, seed), settings.limits,
                              isolation=settings.isolation, group=settings.group,
                              env=sandbox.seeded(clock, seed),
                              stdin=settings.stdin.encode())
        if kept is not None:
            kept.run(seed, outcome.stdout_bytes)
        outcome = replace(outcome, stdout_bytes=b"")    # kept: not held for every seed
        run = SeedRun(seed, outcome, outcome.stdout[:FLOOD_REFEREED] if outcome.flooded else
                  outcome.stdout)
        left -= outcome.own_seconds()
        left -= referee_in_time(run, settings, left, referee)
        runs.append(run)
        ran()
    order = {seed: place for place, seed in enumerate(settings.seeds())}
    runs.sort(key=lambda run: order[run.seed])
    same_deals(runs)
    recorded_games(runs)
    return runs


def judging(settings):
    """The keywords that hand the referee an assignment's game (none for SMU's)."""
    return {} if settings.assignment is None else {"assignment": settings.assignment}


def left_out_of(settings):
    """The items out of the rubric: memory with --no-memory, and the items of rules the
    assignment's game has not (a one-card game's pickup and refill)."""
    memory = [] if settings.memory else [RUBRIC.memory]
    if settings.assignment is None or game_of(settings.assignment.rules) != "one-card":
        return memory
    return [*ONE_CARD_LEFT_OUT, *memory]


def referee_in_time(run, settings, left, referee=referee_for):
    """Referee a run within the referee's time on a seed and the budget left: past them
    the seed is not refereed (its game items not checked, its run judged as it ended),
    and run.late says why.  The seconds it took (all it was given, if it ran out)."""
    seconds = max(0.0, min(settings.referee_time, left))
    try:
        run.judged, run.fault, took = referee(run.printed, not run.stopped(), run.seed,
                                              seconds, **judging(settings))
    except OutOfTime:                     # a transcript too long to referee: never a stall
        why = (f"the referee's time on a seed, {settings.referee_time:g} s (--referee-time)"
               if seconds == settings.referee_time else "the submission's time budget")
        run.late = f"not refereed: too long ({why} ran out)"
        return seconds
    except OutOfMemory as error:          # one line said again and again, past 12 MiB
        limit = (f"the referee's memory, {error.memory // sandbox.MIB} MiB,"
                 if error.memory != resource.RLIM_INFINITY else "the machine's memory")
        run.late = f"not refereed: too long ({limit} ran out)"
        return error.seconds
    return took


def memcheck_seed_of(settings, runs):
    """The seed valgrind runs on: settings.memcheck_seed(), unless its run crashed or did
    not finish; then the first fixed seed whose run ended by itself (a crash costs `runs`,
    and what a crashed program held is no leak of its own: one mistake, one item), else
    settings.memcheck_seed() all the same.  Never a drawn seed: the choice depends on the
    files alone, not on the draw (issue 46)."""
    ended = {run.seed for run in runs if run.outcome.ending() in (None, "exit_status")}
    first = settings.memcheck_seed()
    return next((seed for seed in [first, *settings.fixed()] if seed in ended), first)


def unrun(settings, runs):
    """The seeds the budget left unrun, in the order of settings.seeds()."""
    run = {r.seed for r in runs}
    return [seed for seed in settings.seeds() if seed not in run]


def budget_note(settings, runs):
    """The note of the seeds the budget left out, or None when every seed was run."""
    left_out = unrun(settings, runs)
    if not left_out:
        return None
    return (f"{seeds_words(left_out)}: not run: the submission's time budget, "
            f"{settings.budget_seconds():g} s for all its runs (--budget), was spent on "
            f"{len(runs)} of {len(settings.seeds())} seeds, where a run may take "
            f"{settings.limits.wall:g} s; each costs runs, as a timeout does, and its "
            "game items are judged on the seeds run")


def tally_unrun(settings, runs, tallies):
    """Each seed the budget left unrun, broken under runs as a run that timed out is
    (issue 47: a program slow on the fixed seeds kept its fresh ones from running)."""
    for seed in unrun(settings, runs):
        tallies[RUBRIC.runs].add(True, {
            "seed": seed, "required": "a run that ends by itself with status 0",
            "said": f"not run: the submission's time budget, {settings.budget_seconds():g}"
                    " s for all its runs (--budget), was spent on its other seeds"})


def alone_note(settings, runs):
    """The note of a grading of one fixed seed whose deal was read and repeats none here
    (issue 46): whether a deal repeats another seed's is judged across a grading's seeds,
    so a grading of more seeds may mark its deal where this one cannot; None otherwise."""
    seed = settings.seed
    run = next((run for run in runs if run.seed == seed), None)
    if settings.games != 1 or run is None or not run.judged or run.judged.dealt is None or \
            {ROW.same_deal.name, ROW.not_its_game.name} & set(run.judged.mistakes):
        return None
    return (f"seed {seed}: its deal was compared with this grading's {len(runs)} "
            f"{'seed' if len(runs) == 1 else 'seeds'} alone: a deal that repeats another "
            "seed's (same_deal, not_its_game: deal) is found only beside that seed, so a "
            "grading of more seeds may mark deal where this one does not; to grade it "
            f"beside the seed a grading said it repeats, give that one too: --seed {seed} "
            "-n 1 --fresh-seeds S")


def same_deals(runs):
    """Deals listed alike on two seeds, or alike but for their cards' suits (the same ranks
    in the same places, either player first): a fair shuffle does either with chance
    below 1 in 10^49.  Where every run deals one deal, the program does not seed rand()
    (same_deal; a deal in the deck's own order is its own mistake already); where others
    deal their own, its games do not follow its clock: a game recorded, not played
    (not_its_game).  deal, on each seed that repeats another's."""
    dealt = [run for run in runs if run.judged and run.judged.dealt is not None
             and ROW.deal_unshuffled.name not in run.judged.mistakes]
    groups = {}
    for run in dealt:
        groups.setdefault(deal_shape(run.judged.dealt), []).append(run)
    one_deal = len({run.judged.dealt for run in dealt}) == 1
    for alike in groups.values():
        if len({glibc_seed(run.seed) for run in alike}) < 2:
            continue
        for run in alike:
            other = next(other for other in alike if glibc_seed(other.seed) !=
                         glibc_seed(run.seed))
            charge(run, *repeat_words(run, other, one_deal))


def recorded_games(runs):
    """Deals that are not the reference's for their seed where other seeds deal the
    reference's own for theirs (canned.not_the_reference_s): a table of the reference's
    games, not_its_game on each such seed (issue 47), unless a repeated deal (or none
    shuffled) is charged already."""
    others, own = not_the_reference_s(runs, glibc_seed)
    charged = {ROW.same_deal.name, ROW.not_its_game.name, ROW.deal_unshuffled.name}
    for run in others:
        if charged.isdisjoint(run.judged.mistakes):
            charge(run, f"not the reference's deal for seed {run.seed}, where "
                   f"{seeds_words(own)} deal the reference's own deal for theirs: games "
                   "of the reference's recorded for some seeds, not played (a shuffle of "
                   "its own deals the reference's deal for a seed with chance 1 in 52!)",
                   ROW.not_its_game)


def deal_shape(dealt):
    """A deal as its ranks alone, either player first: alike for a deal and the same deal
    with its cards renamed within their ranks (or its players swapped)."""
    return tuple(sorted(tuple(rank_of(card) for card in pile) for pile in dealt))


def glibc_seed(seed):
    """The seed as glibc's srand() takes it: seeds 0 and 1 deal alike (docs/rules.md)."""
    return seed or 1


def repeat_words(run, other, one_deal):
    """(what the file says, the row) of a run that repeats another seed's deal."""
    if one_deal:
        return (f"the same deal as on seed {other.seed}: the program seeds rand() alike on "
                "every run (no srand(), a constant, or getpid(), the same in every "
                "sandboxed run), where srand(time(NULL)) reads the seed (a fair shuffle "
                "deals alike twice with chance 1 in 52!)"), ROW.same_deal
    renamed = "" if run.judged.dealt == other.judged.dealt else \
        " with its cards renamed (the same ranks in the same places)"
    return (f"the deal of seed {other.seed}{renamed}, where other seeds deal their own: "
            "its games do not follow its clock, a game recorded, not played (a fair "
            "shuffle deals alike twice, but for the suits, with chance below 1 in 10^49)"
            ), ROW.not_its_game


def charge(run, said, row):
    """A repeated deal charged to deal on a run, with its row."""
    judged = run.judged
    finding = Finding(required="a deal of its own on each seed", said=said, item=RUBRIC.deal,
                      mistake=row.name)
    judged.findings.setdefault(RUBRIC.deal, [finding, 0])[1] += 1
    judged.mistakes.setdefault(row.name, finding)


def endless_words(run):
    """(whether the run's stop is a mistake's consequence, charged to that mistake's item;
    what the game told did, in words, the same on every seed where it can be) of a run
    stopped for time or output.  A game played with no shuffle left to it is a function
    of its piles alone, so it ends or repeats for ever: where it repeats within what was
    refereed, where and how are said; a flood of such a game that does not repeat yet is
    its mistake's too, but a run that stopped printing (a timeout) is not, unless its game
    repeats."""
    judged = run.judged
    causes = [MISTAKE[name] for name in judged.mistakes if MISTAKE[name].loops]
    going = not judged.finished and judged.playing     # its game, not other lines, at the stop
    if judged.repeats is None:
        said = "the game told does not repeat"
    else:
        start, period = judged.repeats
        said = f"the game repeats from round {start:,} every {period:,} rounds"
    excused = bool(causes) and going and (judged.repeats is not None or run.outcome.flooded)
    if not excused:
        return False, f"{said}, by no mistake pywar knows" if judged.repeats else said
    cause = f"{causes[0].sentence} ({causes[0].item})"
    if judged.repeats is None:
        return True, f"{said} in what was refereed, and may not end: {cause}"
    return True, f"{said}: {cause}"


STDERR_LINES = 4                    # lines of a run's stderr in its example, at most
CRASH_WORDS = re.compile(           # a line that says why a run died (glibc, libstdc++,
    r"ERROR: \w*Sanitizer|runtime error:|SUMMARY: \w*Sanitizer|Assertion .* failed|"
    r"terminate called|what\(\):|stack smashing|double free|free\(\): |malloc\(\): |"
    r"corrupted|Segmentation fault|Aborted|core dumped")     # the sanitizers, a shell)


def said_on_stderr(text):
    """What a run said on its stderr, bounded for its example: the lines that say why it
    died (an assertion, `terminate called after throwing ...`, a sanitizer's ERROR and
    SUMMARY), else its last lines; STDERR_LINES at most, each cut as a quoted line is."""
    lines = [line.rstrip() for line in (text or "").split("\n") if line.strip()]
    telling = [line for line in lines if CRASH_WORDS.search(line[:LINE])]
    chosen = telling[:STDERR_LINES] if telling else lines[-STDERR_LINES:]
    return [line[:LINE] for line in chosen]


def tally_runs(runs, tallies, notes, mistakes, by_seed=None):
    """Each run's marks, mistakes and notes: a run stopped in a game that a mistake makes
    repeat forever keeps runs (its item pays for it), and says so; by_seed gets each
    seed's mistakes, by row name (pywar similar compares them)."""
    by_seed = {} if by_seed is None else by_seed
    for run in runs:
        seen = Counter()
        judged, outcome = run.judged, run.outcome
        trouble = outcome.trouble()
        progress = judged.progress() if judged else "not refereed"
        explained, words = False, None
        if judged and judged.rounds and (outcome.timed_out or outcome.flooded):
            explained, words = endless_words(run)
        example = {"seed": run.seed, "required": "a run that ends by itself with status 0",
                   "said": trouble, "progress": f"{progress}; {words}" if words else progress,
                   "last_lines": judged.last_lines if judged else tail(run.printed),
                   "stderr": said_on_stderr(outcome.stderr)}
        tallies[RUBRIC.runs].add(bool(trouble) and not explained, example)
        if outcome.ending() and not explained:
            seen[MISTAKE[outcome.ending()].name] += 1
        if judged:
            seen.update(judged.mistakes.keys())
        mistakes.update(seen)
        if seen:
            by_seed[run.seed] = sorted(seen)
        if trouble:                         # said once of the seeds it ended alike
            notes.append((run.seed, f"it {trouble}", words if explained else
                          example["progress"]))
        if run.fault:
            notes.append((None, run.fault))
        if run.late:
            notes.append((run.seed, f"{run.late}; its game items are not checked"))
            for item in GAME_ITEMS:
                tallies[item].add(False, {"seed": run.seed, "said": f"not checked: seed "
                                          f"{run.seed} was {run.late}"}, False)
        for item in GAME_ITEMS if judged else ():
            first = judged.first(item)
            tallies[item].add(first is not None, first.to_json(run.seed) if first else
                              unchecked_why(run, trouble, progress), judged.checked(item))


def unchecked_why(run, trouble, progress):
    """Why an item was not put to the test on a run, where its row's reason ("no refill
    was due on these seeds") would claim what the run never showed: a game not shown (its
    end told, no battle), or a run that stopped first; None where the row's reason is true."""
    if ROW.game_not_shown.name in run.judged.mistakes:
        return {"seed": run.seed, "said": f"not checked: seed {run.seed}'s game is not "
                "shown (its end told, and no battle before it)"}
    if trouble:
        return {"seed": run.seed, "said": f"not checked: seed {run.seed}'s run {trouble} "
                f"before its rule was put to the test ({progress})"}
    return None


def said_once(notes):
    """Notes of seeds, each said once: 'seeds 1 to 40: ...' for one said of many.  A note
    is (seed, text) or (seed, text, detail): a detail the same on every seed of its text
    is said as it is, one that differs (how far each game got) the first seed's alone."""
    seeds = {}
    for seed, text, *detail in notes:
        seeds.setdefault(text, []).append((seed, detail[0] if detail else None))
    return [note_words(text, group) for text, group in seeds.items()]


def note_words(text, group):
    """One note said of the (seed, detail) of every seed it was seen on."""
    seeds = [seed for seed, _ in group]
    said = text if seeds == [None] else f"{seeds_words(seeds)}: {text}"
    details = list(dict.fromkeys(detail for _, detail in group if detail))
    if len(details) > 1:
        first = next(seed for seed, detail in group if detail)
        return f"{said}; the first, seed {first}: {details[0]}"
    return f"{said}; {details[0]}" if details else said


def grade_one(source, settings, clock, ran=lambda: None, referee=referee_for):
    """Grade one submission folder: a Submission.  Its build and runs share a group of
    their own, and its folder of pywar's (the copy, the program) is closed to every
    other run (sandbox.close_folder): no classmate's run may read or run them; each
    seed's transcript refereed by referee (referee_for here, a Referees in processes)."""
    name = name_of(source)
    digest = files_sha256(source)
    tallies = {item: ItemMarks() for item in NAMES}
    notes, mistakes, by_seed = list(getattr(source, "notes", ())), Counter(), {}
    settings = replace(settings.keyed_to(digest), group=sandbox.new_group())
    kept = keep_folder(settings, name, notes)
    with tempfile.TemporaryDirectory(prefix="pywar-grade-") as work, \
            discarded_if_stopped(kept):
        sandbox.close_folder(work, settings.group)
        program, outcome, cases, said = build(source, work, settings)
        notes.extend(outcome.notes)
        if kept is not None:
            kept.build(settings.build, outcome, said)
        fixed = bool(cases) and settings.fix_include_case
        if cases:
            said = (f"{said}; " if program is None else "built only with "
                    "--fix-include-case; ") + case_note(cases)
            mistakes[ROW.include_case.name] += 1
        elif program is None:
            mistakes[ROW.build_fails.name] += 1
        tallies[RUBRIC.builds].add(program is None or fixed, {
            "required": "the build command to succeed", "command": settings.build,
            "said": said, "error": None if program is not None else
            first_error(outcome.stderr or outcome.stdout),
            "last_lines": tail(outcome.stderr or outcome.stdout, 5),
            "errors": compiler_errors(outcome.stderr or outcome.stdout)})
        if program is not None:
            runs = referee_runs(settings, program, clock, ran, kept, referee)
            seed_notes = []
            tally_runs(runs, tallies, seed_notes, mistakes, by_seed)
            tally_unrun(settings, runs, tallies)
            notes.extend(said_once(seed_notes))
            notes.extend(filter(None, [budget_note(settings, runs),
                                       alone_note(settings, runs)]))
            hung = {run.seed for run in runs if run.outcome.timed_out}
            seed = memcheck_seed_of(settings, runs)
            if settings.memory and seed in hung:                # valgrind would hang too
                tallies[RUBRIC.memory].add(False, {"seed": seed, "said": (
                    f"not checked: its run of seed {seed} did not finish within "
                    f"{settings.limits.wall:g} s, so valgrind's (slower) could not")}, False)
            elif settings.memory and seed in unrun(settings, runs):
                tallies[RUBRIC.memory].add(False, {"seed": seed, "said": (
                    f"not checked: seed {seed} was not run, its time budget "
                    "spent on its other seeds, so valgrind's (slower) run was not")}, False)
            elif settings.memory:
                *marks, mistake = memcheck(settings, program, seed, clock,
                                           kept and kept.valgrind)
                notes.extend(instrumentation_notes(source))
                tallies[RUBRIC.memory].add(*marks)
                if mistake is not None:
                    mistakes[mistake.name] += 1
    built = program is not None
    items = {item: tally.item(not_checked(item, built)) for item, tally in tallies.items()}
    if kept is not None:
        kept.commit()
        kept_examples(items, kept)
        notes.extend(filter(None, [kept.note()]))
    left_out = left_out_of(settings)
    for item in left_out:
        items[item] = {"ok": False, "failed": 0, "of": 0, "example": {"said": (
            "left out (--no-memory)" if item == RUBRIC.memory else
            f"left out (the rules of {settings.assignment.name!r} have no {item})")}}
    return Submission(name, stable(items), *score_of(items, settings.weights, left_out),
                      stable(notes), left_out, dict(sorted(mistakes.items())),
                      dict(sorted(by_seed.items())), settings.seeds(), settings.drawn(), digest,
                      lms_of(source), settings.keyed)


def name_of(source):
    """A submission's name: its folder's, or, for a student of an LMS's download
    (submission.students.Student), their name in the class."""
    return getattr(source, "submission_name", None) or os.path.basename(os.path.normpath(source))


def lms_of(source):
    """The LMS's record of a student of a download (None for a folder)."""
    record = getattr(source, "lms_record", None)
    return record() if record is not None else None


def keep_folder(settings, name, notes):
    """The submission's folder of --keep DIR (a Kept), or None: no --keep, or a folder
    that cannot be made (a note says why)."""
    if settings.keep is None:
        return None
    try:
        return Kept(settings.keep, name)
    except OSError as error:
        notes.append(f"--keep: could not make its folder in {settings.keep!r}: "
                     f"{error.strerror or error}")
        return None


def kept_examples(items, kept):
    """Each example named with the file kept of what it quotes: 'kept', its path (the
    build's output, valgrind's log, or the run of its seed), beside its line."""
    for name, item in items.items():
        example = item["example"]
        if not example:
            continue
        key = "build" if name == RUBRIC.builds else "memory" if name == RUBRIC.memory else \
            example.get("seed")
        if key in kept.files:
            example["kept"] = kept.files[key]


def score_of(items, weights, left_out=()):
    """(score, max_score): the weights of the items put to the test and kept, of the
    whole rubric (an item never put to the test earns nothing; one left out, as memory
    with --no-memory, counts in neither)."""
    score = sum(weights[item] for item in NAMES if items[item]["ok"])
    return round(score, 6), round(sum(weights[item] for item in NAMES
                                      if item not in left_out), 6)


def grade_safely(source, settings, clock, ran=lambda: None, referee=referee_for):
    """grade_one, with a fault of pywar's own on one submission reported as pywar's in
    that submission's notes, its items not checked, and the class graded on."""
    try:
        return grade_one(source, settings, clock, ran, referee)
    except Exception as error:          # pywar's own fault: contained to this submission
        return fault_submission(name_of(source), settings, error, sha256_or_none(source),
                                lms_of(source))


def fault_submission(name, settings, error, sha256, lms=None):
    """The Submission of one that pywar could not grade, for an error of its own: its
    items not checked, and a note saying so."""
    why = "pywar could not grade this submission"
    items = {item: {"ok": False, "failed": 0, "of": 0,
                    "example": not_checked(item, why=why)} for item in NAMES}
    settings = settings.keyed_to(sha256)
    left_out = left_out_of(settings)
    note = (f"{why}: {type(error).__name__}: {str(error)[:200]} (this is pywar's "
            "fault, not the program's: please report it)")
    return Submission(name, items, *score_of(items, settings.weights, left_out),
                      stable([note]), left_out, {}, {}, settings.seeds(), settings.drawn(),
                      sha256, lms, settings.keyed)


def sha256_or_none(source):
    """The sha256 of a submission's files, or None where hashing meets a fault of its own
    (grade_safely's: the class is graded on)."""
    try:
        return files_sha256(source)
    except Exception:                   # pywar's own fault, already reported once
        return None


def finished(futures):
    """The results of the futures that finished, from the first, up to the first gap."""
    results = []
    for future in futures:
        if future.cancelled() or not future.done() or future.exception() is not None:
            break
        results.append(future.result())
    return results


class Referees:
    """The referee of a class, in processes of its own, each within memory (REFEREE_MEMORY:
    the referee takes up to 37 times its transcript, issue 47): one a job where several
    jobs grade (it is Python, and the jobs' threads would take turns at it under the GIL;
    the builds and runs are other processes), else one, started for the first transcript
    of here_below bytes or more (those shorter are refereed in this process).
    forkserver's: no thread, lock or signal handler of the grader's is inherited
    (quiet_referee)."""

    def __init__(self, jobs, here_below=0, memory=REFEREE_MEMORY):
        self.jobs, self.here_below, self.memory = jobs, here_below, memory
        self.lock = threading.Lock()
        self.pool = None if here_below else self.started()

    def started(self):
        """A pool of the referee's processes."""
        return ProcessPoolExecutor(self.jobs, multiprocessing.get_context("forkserver"),
                                   initializer=quiet_referee, initargs=(self.memory,))

    def __call__(self, printed, complete, seed, seconds, **judging):
        """referee_for in one of the processes (here, for a transcript shorter than
        here_below); a pool one of whose processes died (the kernel's OOM killer, say) is
        started again once, then the referee runs here: one dead process was every later
        submission's 'pywar could not grade'."""
        if len(printed) < self.here_below:
            return referee_for(printed, complete, seed, seconds, **judging)
        with self.lock:
            if self.pool is None:
                self.pool = self.started()
        for _ in range(2):
            pool = self.pool
            try:
                return pool.submit(referee_for, printed, complete, seed, seconds,
                                   **judging).result()
            except BrokenProcessPool:
                with self.lock:
                    if self.pool is pool:           # not started again by another job yet
                        pool.shutdown(wait=False, cancel_futures=True)
                        self.pool = self.started()
        return referee_for(printed, complete, seed, seconds, **judging)

    def close(self):
        """Stop the processes."""
        if self.pool is not None:
            self.pool.shutdown(cancel_futures=True)


PR_SET_PDEATHSIG = 1                # prctl(2): the signal a process gets at its parent's end


def quiet_referee(memory=REFEREE_MEMORY):
    """A referee's process: its data bounded by memory (a MemoryError past it,
    OutOfMemory to the grader), the stopping signals ignored (the grader stops its jobs,
    then the processes), SIGKILL at its parent's end."""
    for number in STOPPING:
        signal.signal(number, signal.SIG_IGN)
    try:
        import ctypes
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    except (OSError, AttributeError):   # not Linux: its parent's pipe closing ends it
        pass
    resource.setrlimit(resource.RLIMIT_DATA, (memory, memory))


def grade(sources, settings, jobs=1, progress=None):
    """Grade every submission, in parallel with jobs threads (their referee in as many
    processes where jobs > 1, else in one for the long transcripts: Referees): the
    Submissions in order; progress(runs done, runs in all) after each run."""
    settings = replace(settings, isolation=sandbox.resolve(settings.isolation))   # once
    total = len(sources) * settings.seed_count()
    done = [0]
    lock = threading.Lock()
    stop = threading.Event()

    def ran():
        if stop.is_set():
            raise KeyboardInterrupt
        with lock:
            done[0] += 1
            if progress:
                progress(done[0], total)
    referee = (Referees(jobs) if jobs > 1 and len(sources) > 1 else
               Referees(1, here_below=REFEREE_HERE))
    try:
        with tempfile.TemporaryDirectory(prefix="pywar-clock-") as folder:
            os.chmod(folder, 0o755)
            clock = sandbox.seed_clock(folder)
            return in_threads(sources, jobs, stop, lambda source: grade_safely(
                source, settings, clock, ran, referee))
    finally:
        referee.close()                     # once every job's thread has ended


def in_threads(sources, jobs, stop, grade_source):
    """grade_source(source) of each source, in jobs threads: the results in order; a
    Ctrl-C sets stop and raises GradeInterrupted with the prefix finished."""
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        futures = []
        try:                            # a Ctrl-C may land while the first are graded
            for source in sources:
                futures.append(pool.submit(grade_source, source))
            return [future.result() for future in futures]
        except KeyboardInterrupt:
            stop.set()
            for future in futures:
                future.cancel()
            raise GradeInterrupted(finished(futures)) from None
