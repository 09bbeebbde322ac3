"""Grading a class: each submission built in a scratch copy, run on N seeds under
limits with its clock reading the seed, every run refereed, and the rubric filled in
(docs/grading.md).

The rubric's items (pywar.check.referee.rubric), each {"ok", "failed", "of",
"example"}: builds, runs, format, deal, plays, ranks, ties, pickup, refill, counts, end,
memory.
"""

import os
import re
import shlex
import shutil
import tempfile
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

from ..runner import sandbox
from ..referee.judge import judge
from ..referee.rubric import GAME_ITEMS, ITEM, NAMES, default_weights

DEFAULT_BUILD = "g++ -std=c++17 -O1 -o {program} ./*.cpp"   # ./: no file is an option
DEFAULT_RUN = "{program}"
PROGRAM = "pywar-program"
SEEDS = 2 ** 32
VALGRIND = ("valgrind", "--leak-check=full", "--trace-children=yes",
            "--errors-for-leak-kinds=definite,indirect,possible",
            "--show-leak-kinds=definite,indirect,possible", "--error-exitcode=99")
VALGRIND_LIMITS = sandbox.PROFILES["memcheck"]
FLOOD_REFEREED = 2 * sandbox.MIB     # of a run that flooded its output, what is refereed
SUMMARY_MARKS = ("definitely lost", "indirectly lost", "possibly lost", "Invalid read",
                 "Invalid write", "Invalid free", "Mismatched free", "uninitialised")


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
    weights: dict = field(default_factory=default_weights)

    def seeds(self):
        """The seeds every submission is run on."""
        return [(self.seed + i) % SEEDS for i in range(self.games)]


@dataclass
class Submission:
    """One student's grade: the rubric's items, the score, and notes on the runs."""
    name: str
    items: dict
    score: float
    max_score: float
    notes: list = field(default_factory=list)
    left_out: list = field(default_factory=list)    # items out of the rubric (--no-memory)

    def to_json(self):
        """The submission as a JSON-ready dict."""
        return {"name": self.name, "items": self.items, "score": self.score,
                "max_score": self.max_score, "notes": self.notes, "left_out": self.left_out}


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


def tail(text, count=3):
    """The last lines of a text."""
    return text.rstrip("\n").split("\n")[-count:] if text.strip() else []


INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"\n]{1,200})"', re.M)
SOURCES = (".c", ".cc", ".cpp", ".cxx", ".h", ".hh", ".hpp", ".hxx")
SOURCE_READ = 1 << 20               # bytes of a source file read for its #includes


def first_error(text):
    """The compiler's first 'error:' line of a build's output, or None."""
    found = re.search(r"^.*\berror\b:.*$", text or "", re.M)
    return found.group(0).strip()[:300] if found else None


def include_case(folder):
    """[(the file that includes, the name included, the file's real name)] of each
    #include "X" of a submission whose X exists only in another case (it builds on
    Windows and macOS, whose file names ignore case, and not on Linux)."""
    try:
        names = {entry.name for entry in os.scandir(folder) if entry.is_file(follow_symlinks=False)}
    except OSError:
        return []
    lower = {}
    for name in sorted(names):
        lower.setdefault(name.lower(), name)
    found = []
    for name in sorted(n for n in names if n.lower().endswith(SOURCES)):
        try:
            with open(os.path.join(folder, name), "rb") as source:
                text = source.read(SOURCE_READ).decode("utf-8", "replace")
        except OSError:
            continue
        for included in INCLUDE.findall(text):
            real = lower.get(included.lower())
            if included not in names and "/" not in included and real is not None:
                found.append((name, included, real))
    return list(dict.fromkeys(found))


def case_note(found):
    """The words for an #include whose case differs from its file's."""
    name, included, real = found[0]
    more = f" (and {len(found) - 1} more)" if len(found) > 1 else ""
    return (f'{name}: #include "{included}", but the file is {real}: it builds on Windows '
            f"and macOS, not on Linux{more}")


def match_case(folder, found):
    """Copy each file whose #include differs in case under the name included."""
    for _, included, real in found:
        target = os.path.join(folder, included)
        if not os.path.lexists(target):
            shutil.copyfile(os.path.join(folder, real), target, follow_symlinks=False)


BUILD_SCRIPT = ('PYWAR_PROGRAM="$PWD/{name}"; export PYWAR_PROGRAM; cp -R -- "$1/." . || exit 125; '
                '/bin/sh -c "$2"; status=$?; '
                'if [ -f "$PYWAR_PROGRAM" ]; then cp -- "$PYWAR_PROGRAM" "$3/{name}"; fi; '
                'exit $status')


def build(source, work, settings):
    """Copy a submission and build it: (the program's path or None, the build's Outcome,
    the #includes whose case differs from their files').  The build runs in a scratch of its own with a copy of the sources; only the program
    comes out, read with O_NOFOLLOW into a folder of pywar's that no run may write."""
    copy, out, bin_folder = (os.path.join(work, name) for name in ("src", "out", "bin"))
    try:
        skipped = sandbox.safe_copy(source, copy)
    except (OSError, sandbox.CopyTrouble) as error:
        outcome = sandbox.Outcome(None, "", "", 0.0, sandbox.BUILD_LIMITS,
                                  failed_to_start=f"the submission cannot be copied: {error}")
        return None, outcome, []
    cases = include_case(copy)
    if cases and settings.fix_include_case:
        match_case(copy, cases)
    os.mkdir(out, 0o700)
    command = settings.build.replace("{program}", '"$PYWAR_PROGRAM"')
    script = BUILD_SCRIPT.format(name=PROGRAM)
    outcome = sandbox.run(["/bin/sh", "-c", script, "pywar-build", copy, command, out],
                          sandbox.BUILD_LIMITS, show=[copy], writable=[out])
    outcome.notes = skipped
    made = sandbox.read_file_of_run(os.path.join(out, PROGRAM), sandbox.BUILD_LIMITS.output)
    sandbox.remove(out)
    if outcome.status != 0 or not made:
        return None, outcome, cases
    os.mkdir(bin_folder, 0o755)
    program = os.path.join(bin_folder, PROGRAM)
    with open(program, "xb") as file:
        file.write(made)
    os.chmod(program, 0o755)
    return program, outcome, cases


def run_argv(settings, program, seed):
    """The command line of one run."""
    words = shlex.split(settings.run)
    return [word.replace("{program}", program).replace("{seed}", str(seed)) for word in words]


def valgrind_reports(log):
    """valgrind's log by process: {pid: (commands started, its ERROR SUMMARY line or
    None)}, in the order the processes first appear."""
    reports = {}
    for line in log.splitlines():
        head, _, said = line.partition("== ")
        if not head.startswith("==") or not head[2:].isdigit():
            continue
        commands, summary = reports.get(head[2:], (0, None))
        if said.startswith("Command:"):
            commands += 1
        elif said.startswith("ERROR SUMMARY:"):
            summary = said.strip()
        reports[head[2:]] = (commands, summary)
    return reports


def memcheck_said(outcome, log):
    """(broken, words) of a memcheck run: what valgrind found, or why it checked nothing
    (a run that ends without the program's summary, or one that replaced itself by exec,
    is "not checked": not ok, and no points)."""
    marks = [line.split("== ", 1)[-1].strip() for line in log.splitlines()
             if any(mark in line for mark in SUMMARY_MARKS)
             and " 0 bytes in 0 blocks" not in line]      # a crash's summary lists zeros
    reports = list(valgrind_reports(log).values())
    if marks or outcome.status == 99:
        return True, "; ".join(dict.fromkeys(marks)) or "valgrind found an error"
    if not reports or reports[0][1] is None:
        why = outcome.trouble() or "its log has no summary"
        return True, f"not checked: valgrind ended without its summary ({why})"
    if reports[0][0] > 1:
        return True, ("not checked: the program replaced itself by exec, and valgrind cannot "
                      "see the leaks of a program that is gone")
    return False, "no report"


def memcheck(settings, program, seed, clock):
    """valgrind memcheck on one seed: (broken, example).  valgrind writes its log to a
    file pywar opened (no name the run could replace), read with a size bound."""
    limits = VALGRIND_LIMITS
    with tempfile.TemporaryFile() as log_file:
        argv = [*VALGRIND, f"--log-fd={log_file.fileno()}", *run_argv(settings, program, seed)]
        outcome = sandbox.run(argv, limits, env=sandbox.seeded(clock, seed),
                              pass_fds=(log_file.fileno(),))
        log_file.seek(0)
        log = log_file.read(limits.output).decode("utf-8", "replace")
    broken, said = memcheck_said(outcome, log)
    checked = not said.startswith("not checked")
    return broken and checked, {"seed": seed, "required": "no leak and no invalid read or "
                                "write under valgrind memcheck", "said": said}, checked


def not_checked(item, built=True, why=None):
    """The example of an item never put to the test: why, or its row's reason (or that
    the build it depends on failed)."""
    if why is None:
        row = ITEM[item]
        why = "the program did not build" if not built and row.depends else row.unchecked
    return {"said": f"not checked: {why}"}


def referee_one(printed, complete, seed):
    """The referee's Judgement of one run, or (None, the note) on a fault of pywar's own:
    that seed's items are then not checked, and every other seed is graded."""
    try:
        return judge(printed, complete=complete), None
    except Exception as error:          # pywar's own fault: contained to this seed
        return None, (f"pywar could not referee seed {seed}: {type(error).__name__}: "
                      f"{str(error)[:200]} (this is pywar's fault, not the program's: "
                      "please report it); that seed's items are not checked")


def referee_runs(settings, program, clock, tallies, notes, ran):
    """Run every seed under the limits and referee what each printed; ran() after each
    (which raises KeyboardInterrupt once grading is interrupted).  The seeds whose runs
    did not finish in time."""
    hung = set()
    for seed in settings.seeds():
        outcome = sandbox.run(run_argv(settings, program, seed), settings.limits,
                              env=sandbox.seeded(clock, seed))
        trouble = outcome.trouble()
        stopped = outcome.timed_out or outcome.flooded or (outcome.status or 0) < 0
        printed = outcome.stdout[:FLOOD_REFEREED] if outcome.flooded else outcome.stdout
        if outcome.timed_out:
            hung.add(seed)
        judged, fault = referee_one(printed, not stopped, seed)
        progress = judged.progress() if judged else "not refereed"
        example = {"seed": seed, "required": "a run that ends by itself with status 0",
                   "said": trouble, "progress": progress,
                   "last_lines": judged.last_lines if judged else tail(printed)}
        tallies["runs"].add(bool(trouble), example)
        if trouble:
            notes.append(f"seed {seed}: it {trouble}; {progress}")
        if fault:
            notes.append(fault)
        for item in GAME_ITEMS if judged else ():
            first = judged.first(item)
            tallies[item].add(first is not None, first and first.to_json(seed),
                              judged.checked(item))
        ran()
    return hung


def grade_one(source, settings, clock, ran=lambda: None):
    """Grade one submission folder: a Submission."""
    name = os.path.basename(os.path.normpath(source))
    tallies = {item: ItemMarks() for item in NAMES}
    notes = []
    with tempfile.TemporaryDirectory(prefix="pywar-grade-") as work:
        os.chmod(work, 0o755)
        program, outcome, cases = build(source, work, settings)
        notes.extend(outcome.notes)
        fixed = bool(cases) and settings.fix_include_case
        said = outcome.trouble() or "no program was made"
        if cases:
            said = (f"{said}; " if program is None else "built only with "
                    "--fix-include-case; ") + case_note(cases)
        tallies["builds"].add(program is None or fixed, {
            "required": "the build command to succeed", "command": settings.build,
            "said": said, "error": None if program is not None else
            first_error(outcome.stderr or outcome.stdout),
            "last_lines": tail(outcome.stderr or outcome.stdout, 5)})
        if program is not None:
            hung = referee_runs(settings, program, clock, tallies, notes, ran)
            if settings.memory and settings.seed in hung:       # valgrind would hang too
                tallies["memory"].add(False, {"seed": settings.seed, "said": (
                    f"not checked: its run of seed {settings.seed} did not finish within "
                    f"{settings.limits.wall:g} s, so valgrind's (slower) could not")}, False)
            elif settings.memory:
                tallies["memory"].add(*memcheck(settings, program, settings.seed, clock))
    built = program is not None
    items = {item: tally.item(not_checked(item, built)) for item, tally in tallies.items()}
    left_out = [] if settings.memory else ["memory"]
    for item in left_out:
        items[item] = {"ok": False, "failed": 0, "of": 0,
                       "example": {"said": "left out (--no-memory)"}}
    return Submission(name, items, *score_of(items, settings.weights, left_out), notes,
                      left_out)


def score_of(items, weights, left_out=()):
    """(score, max_score): the weights of the items put to the test and kept, of the
    whole rubric (an item never put to the test earns nothing; one left out, as memory
    with --no-memory, counts in neither)."""
    score = sum(weights[item] for item in NAMES if items[item]["ok"])
    return round(score, 6), round(sum(weights[item] for item in NAMES
                                      if item not in left_out), 6)


def grade_safely(source, settings, clock, ran=lambda: None):
    """grade_one, with a fault of pywar's own on one submission reported as pywar's in
    that submission's notes, its items not checked, and the class graded on."""
    try:
        return grade_one(source, settings, clock, ran)
    except Exception as error:          # pywar's own fault: contained to this submission
        why = "pywar could not grade this submission"
        items = {item: {"ok": False, "failed": 0, "of": 0,
                        "example": not_checked(item, why=why)} for item in NAMES}
        left_out = [] if settings.memory else ["memory"]
        note = (f"{why}: {type(error).__name__}: {str(error)[:200]} (this is pywar's "
                "fault, not the program's: please report it)")
        return Submission(os.path.basename(os.path.normpath(source)), items,
                          *score_of(items, settings.weights, left_out), [note], left_out)


def finished(futures):
    """The results of the futures that finished, from the first, up to the first gap."""
    results = []
    for future in futures:
        if future.cancelled() or not future.done() or future.exception() is not None:
            break
        results.append(future.result())
    return results


def grade(sources, settings, jobs=1, progress=None):
    """Grade every submission, in parallel with jobs threads: the Submissions in order;
    progress(runs done, runs in all) after each run."""
    total = len(sources) * settings.games
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
    with tempfile.TemporaryDirectory(prefix="pywar-clock-") as folder:
        os.chmod(folder, 0o755)
        clock = sandbox.seed_clock(folder)
        with ThreadPoolExecutor(max_workers=jobs) as pool:
            futures = [pool.submit(grade_safely, source, settings, clock, ran)
                       for source in sources]
            try:
                return [future.result() for future in futures]
            except KeyboardInterrupt:
                stop.set()
                for future in futures:
                    future.cancel()
                raise GradeInterrupted(finished(futures)) from None
