"""pywar grade: every student program of a class built, run on the same seeds under
limits, refereed rule by rule, and reported (pywar.check; docs/grading.md)."""

import argparse
import math
import os
import resource
import shlex
import shutil
import subprocess
import sys
import tempfile
import time

from ..check.assignment.file import builtin, game_of, not_yet
from ..check.grading import gradescope_results, grading_key, keep, regrade, report
from ..check.grading.receipt import receipt
from ..check.runner import sandbox
from ..check.submission.names import readable
from ..check.grading.grade import (DEFAULT_BUILD, DEFAULT_RUN, FRESH, REFEREE_SECONDS,
                                   RUN_SETUP, SECONDS_A_SEED, GradeInterrupted, Settings,
                                   grade, name_of)
from ..check.seeds import draw_fresh
from ..check.referee.rubric import NAMES, default_weights
from ..engine_choice import usable_cores
from . import lms
from .assignment import assignment_of
from .common import (Progress, add_isolation_option, add_progress_option, checked_isolation,
                     count_type, examples, interrupted_status, interrupted_words, seed_type,
                     usage_errors)
from .inputs import cannot, seconds_type
from .outputs import check_distinct, keep_finished, output_files, refuse_stdout
from .simulate import add_scheduler_option, check_scheduler, cluster_client

EXAMPLES = examples(
    ("pywar grade submissions/*/", "every student's folder: the class table"),
    ("pywar grade submissions/*/ -n 100 --jobs 2 --html class.html",
     "100 seeds each, two at a time, and a page of the class"),
    ("pywar grade submissions/*/ --scheduler tcp://10.0.0.1:8786",
     "on a Dask cluster's workers, each sandboxing its runs: docs/grading.md"),
    ("pywar grade alice/ --run '{program} --seed {seed}'",
     "a program that takes its seed as an argument"),
    ("pywar grade submissions.zip --csv import.csv --assignment 'War (4242)'",
     "Canvas's download: its gradebook import (Moodle's, Gradescope's: docs/grading.md)"),
    ("pywar grade submissions/*/ --assignment-file course.toml",
     "under an assignment file: its build, run, stdin and weights (docs/grading.md, 8)"),
    ("pywar grade alice/ --seed 15 -n 1 --fresh 0 --keep seed15",
     "seed 15 alone again: its output kept in seed15/alice/seed-15.txt"),
    ("pywar grade /autograder/submission --gradescope /autograder/results/results.json "
     "--weights format=0.5,memory=2", "Gradescope's autograder: docs/grading.md"),
)
MAX_WEIGHT = 1_000_000          # points an item may be worth: twelve of them add up exactly
MAX_MEMORY_MIB = 1_048_576      # 1 TiB of address space
MAX_OUTPUT_MIB = 1_024          # 1 GiB: what a run prints is read back into memory
MAX_FRESH = 1_000               # seeds drawn fresh at one grading, at most
HARD_LIMITS = (                 # the run's limits that a user who is not root cannot raise
    ("--timeout", resource.RLIMIT_CPU, "s of CPU time", "ulimit -Ht", 1),
    ("--memory-limit", resource.RLIMIT_AS, "MiB of address space", "ulimit -Hv", sandbox.MIB),
    ("--output-limit", resource.RLIMIT_FSIZE, "MiB of a file's size", "ulimit -Hf", sandbox.MIB),
)


def weights_type(text, base=None):
    """--weights item=W,...: the weights of the items named (the others base's, else 1)."""
    weights = dict(base) if base is not None else default_weights()
    for part in filter(None, text.split(",")):
        name, _, value = part.partition("=")
        if name not in weights:
            raise ValueError(f"--weights: unknown item {name!r}: choose {', '.join(NAMES)}")
        try:
            weights[name] = float(value)
        except ValueError:
            raise ValueError(f"--weights: {name}={value!r} is not a number") from None
        if not 0 <= weights[name] <= MAX_WEIGHT:      # NaN too: JSON has no NaN or Infinity
            raise ValueError(f"--weights: {name} must be a number from 0 to {MAX_WEIGHT:,}, "
                             f"not {value}")
    return weights


def seeds_list(text):
    """--fresh-seeds S,...: the seeds of an earlier grading's fresh draw, to replay it."""
    seeds = []
    for part in text.split(","):
        try:
            seeds.append(seed_type(part.strip()))
        except argparse.ArgumentTypeError as error:
            raise argparse.ArgumentTypeError(f"{error}, as in --fresh-seeds 3141592653,"
                                             "2718281828") from None
    return tuple(seeds)


def check_quoting(parser, settings):
    """A usage error, before any work, for a --run that shlex cannot split or a --build
    that the shell cannot parse (sh -n: read, not run)."""
    try:
        shlex.split(settings.run)
    except ValueError as error:
        parser.error(f"--run {settings.run!r}: {error} (quote as a shell does, as in "
                     "--run '{program} --seed {seed}')")
    command = settings.build.replace("{program}", "pywar-program")
    parsed = subprocess.run(["/bin/sh", "-n", "-c", command], stdin=subprocess.DEVNULL,
                            capture_output=True, text=True, errors="replace")
    if parsed.returncode != 0:
        said = (parsed.stderr.strip().splitlines() or ["it cannot be parsed"])[-1]
        said = said.split("Syntax error: ", 1)[-1]
        parser.error(f"--build {settings.build!r} is not a command the shell can read: {said}")


def check_hard_limits(parser, limits):
    """A usage error for a limit above the hard limit of this process, which a run started
    by a user who is not root cannot be given (root may raise it)."""
    if os.geteuid() == 0:
        return
    wanted = {resource.RLIMIT_CPU: limits.cpu + 1, resource.RLIMIT_AS: limits.memory,
              resource.RLIMIT_FSIZE: limits.output}
    for option, which, unit, command, scale in HARD_LIMITS:
        hard = resource.getrlimit(which)[1]
        if hard != resource.RLIM_INFINITY and wanted[which] > hard:
            most = hard // scale - (1 if which == resource.RLIMIT_CPU else 0)
            parser.error(f"{option} is above what this shell allows a run ({command}: "
                         f"{hard // scale:,} {unit}): give at most {most:,}")


def warn_of_open_folders(args):
    """One line on stderr where runs without bubblewrap, as root, may read a classmate's
    folder: any user may reach it, and pywar's command line, every user's to read in
    /proc, names it (pywar cannot close a folder of the instructor's)."""
    if args.isolation.mode != "none" or not sandbox.as_root():
        return
    folders = [source for source in args.sources if isinstance(source, str)]
    opened = [folder for folder in folders if sandbox.open_to_others(folder)]
    if len(folders) > 1 and opened:
        print(f"{args.parser.prog}: warning: without bubblewrap a run may read what any "
              f"user may: {len(opened)} submissions' folders are open to other users "
              f"({opened[0]!r} the first), so a run may read a classmate's sources: chmod "
              "700 the folder that holds them (docs/grading.md)", file=sys.stderr)


def check_gradescope_options(args):
    """A usage error for a Gradescope visibility without --gradescope."""
    for option, value in (("--gradescope-visibility", args.gradescope_visibility),
                          ("--gradescope-stdout-visibility", args.stdout_visibility)):
        if value is not None and not args.gradescope:
            args.parser.error(f"{option} sets a field of --gradescope's results.json: give "
                              "--gradescope FILE too")


def old_grade(args):
    """The grade JSON of --since, read before any work (None without it), or a usage
    error in one line for one that is not a pywar grade JSON."""
    if args.since is None:
        return None
    try:
        return regrade.load_old(args.since)
    except regrade.NotAGrade as error:
        args.parser.error(f"--since {args.since!r} is not a pywar grade JSON ({error}): "
                          "give a file that pywar grade --json wrote")
    except OSError as error:
        args.parser.error(f"--since {args.since!r} cannot be read: "
                          f"{error.strerror or error}")


def check_submission_folders(parser, submissions):
    """A usage error for a SUBMISSION that is no folder, or two of one name (each is
    reported by its name)."""
    for folder in submissions:
        if not os.path.isdir(folder):
            parser.error(f"{folder!r} is not a folder: each SUBMISSION is a folder of one "
                         "student's sources")
    names = [readable(os.path.basename(os.path.normpath(folder)))
             for folder in submissions]          # a byte that is not UTF-8 as \\xff
    twice = [name for name in dict.fromkeys(names) if names.count(name) > 1]
    if twice:
        same = [readable(folder) for folder, name in zip(submissions, names)
                if name == twice[0]]
        parser.error(f"two submissions have the same folder name, {twice[0]!r} "
                     f"({', '.join(map(repr, same))}): each is reported by its name")


def not_smu_game(assignment):
    """Whether an assignment's game or words are not SMU's (the referee then judges by its
    file)."""
    return game_of(assignment.rules) != "war" or assignment.wording != builtin("smu").wording


def under_assignment(args):
    """--assignment-file FILE read and checked (a usage error for a bad one, or one that
    pywar grade cannot grade under yet; exit 3 for one it cannot read), and its build,
    run, weights and memory taken where the command line gives none (docs/grading.md,
    section 8)."""
    found = None
    if args.assignment_file is not None:
        found = assignment_of(args.parser, args.assignment_file)[1]
        said = not_yet(found)
        if said:
            args.parser.error(f"--assignment-file {args.assignment_file!r}: cannot grade "
                              f"under it yet: {said}")
        heavy = [item for item, weight in found.weights.items() if weight > MAX_WEIGHT]
        if heavy:
            args.parser.error(f"--assignment-file {args.assignment_file!r}: rubric.weights."
                              f"{heavy[0]} must be a number from 0 to {MAX_WEIGHT:,}")
    args.build = args.build or (found.build if found else DEFAULT_BUILD)
    args.run_command = args.run_command or (found.run if found else DEFAULT_RUN)
    args.memory = args.memory if args.memory is not None else (found.memory if found
                                                               else True)
    args.assignment_weights = found.weights if found else None
    args.stdin = found.stdin if found else ""
    args.graded_under = found if found is not None and not_smu_game(found) else None


def checked(args):
    """The Settings of a command line, or a usage error found before any work."""
    args.sources = lms.read_sources(args)
    check_submission_folders(args.parser, [s for s in args.sources if isinstance(s, str)])
    if args.gradescope and len(args.sources) != 1:
        args.parser.error("--gradescope writes the results of one submission: give one folder")
    check_gradescope_options(args)
    lms.check_options(args, args.sources)
    under_assignment(args)
    outputs = [("--html", args.html), ("--gradescope", args.gradescope), ("--csv", args.csv)]
    for option, path in outputs:
        if path:
            refuse_stdout(option, path, args.parser)
    check_distinct(args.parser, [*outputs, ("the report on stdout", "-")])
    args.old_grade = old_grade(args)
    checked_isolation(args)
    with usage_errors(args.parser):
        check_scheduler(args)
    if args.scheduler is not None and args.keep is not None:
        args.parser.error("--keep writes on this machine, and --scheduler grades on the "
                          "cluster's: give one of them")
    warn_of_open_folders(args)
    if sandbox.c_compiler() is None:
        args.parser.error("no C compiler (cc, gcc or clang): pywar builds its seed clock with "
                          "one")
    if args.memory and shutil.which("valgrind") is None:
        args.parser.error("the memory item needs valgrind (apt-get install valgrind), or give "
                          "--no-memory")
    try:
        weights = weights_type(args.weights or "", args.assignment_weights)
    except ValueError as error:
        args.parser.error(str(error))
    if "{program}" not in args.run_command:
        args.parser.error("--run must name {program}, as in --run '{program} --seed {seed}'")
    limits = sandbox.Limits(wall=args.timeout, cpu=max(1, math.ceil(args.timeout)),
                            memory=args.memory_limit * sandbox.MIB,
                            output=args.output_limit * sandbox.MIB)
    check_hard_limits(args.parser, limits)
    if args.budget is not None and args.budget < args.timeout + RUN_SETUP:
        args.parser.error(f"--budget ({args.budget:g} s) must be at least --timeout and "
                          f"{RUN_SETUP:g} s more ({args.timeout + RUN_SETUP:g} s): a run "
                          "starts only while the budget left holds it whole")
    settings = Settings(build=args.build, run=args.run_command, games=args.games,
                        seed=args.seed, limits=limits, memory=args.memory, weights=weights,
                        fix_include_case=args.fix_include_case, isolation=args.isolation,
                        referee_time=args.referee_time, budget=args.budget,
                        keep=args.keep, stdin=args.stdin,
                        assignment=args.graded_under)
    fresh = FRESH if args.fresh is None else args.fresh
    settings.fresh = (args.fresh_seeds if args.fresh_seeds is not None else
                      draw_fresh(max(0, fresh - 1), settings.fixed()))  # and the keyed one
    check_quoting(args.parser, settings)
    if args.fresh_seeds is not None or fresh:
        settings.key = key_or_exit()
        settings.known = regrade.keyed_seeds(args.old_grade)
    settings.keep = ready_to_keep(args)
    return settings


def key_or_exit():
    """The grading key (made the first time), or exit 3 in one line where it cannot be
    read or made."""
    try:
        return grading_key.grading_key()
    except grading_key.KeyUnusable as error:
        raise cannot("use", f"the grading key {error.path!r}", error.why) from None


def ready_to_keep(args):
    """--keep DIR made (or taken: an empty folder, or one pywar grade --keep wrote), last
    of the checks: its KeepDir, opened once (None without --keep); a usage error for a
    DIR pywar may not write into, exit 3 for one that cannot be made."""
    if args.keep is None:
        return None
    try:
        return keep.ready(args.keep)
    except keep.KeepRefused as error:
        args.parser.error(str(error))
    except OSError as error:
        raise cannot("write", f"--keep {args.keep!r}", error) from None


def run_grade(args):
    """Grade the submissions: 0 once reported (a grade is no difference to exit 1 on);
    130 after a Ctrl-C (143 SIGTERM, 129 SIGHUP), once the submissions graded before it
    are reported.  A download's students are written into a scratch folder of pywar's,
    removed at the end."""
    with tempfile.TemporaryDirectory(prefix="pywar-download-") as args.scratch:
        return grade_and_report(args)


def grade_and_report(args):
    """run_grade's work, its scratch folder made."""
    settings = checked(args)
    status = 0
    sys.stdout.reconfigure(errors="backslashreplace")      # a name a terminal cannot show
    with output_files(("--html", args.html, False, "utf-8"),
                      ("--gradescope", args.gradescope, False, "utf-8"),
                      ("--csv", args.csv, False, "utf-8")) as files, \
            cluster_client(args) as client:
        progress = Progress("grading", args.progress)
        started = time.monotonic()
        try:
            submissions = graded(args, settings, client, progress)
        except GradeInterrupted as stop:
            submissions, status = stop.graded, interrupted_status()
        finally:
            progress.close()
        if status:
            print(f"{args.parser.prog}: {interrupted_words()}: {len(submissions)} of "
                  f"{len(args.sources)} submissions graded", file=sys.stderr)
        keep_finished(files, len(submissions))      # none graded: each file as it was
        write_reports(args, settings, submissions, files, time.monotonic() - started)
    return status


def graded(args, settings, client, progress):
    """The Submissions, graded here in --jobs threads or on the Dask cluster of client;
    a worker that cannot isolate runs under --isolation required is a usage error."""
    if client is None:
        return grade(args.sources, settings, args.jobs or usable_cores(), progress)
    from ..check.grading.cluster import grade_on_cluster
    try:
        return grade_on_cluster(client, args.sources, settings, progress)
    except sandbox.SandboxMissing as error:
        args.parser.error(f"on a Dask worker: {error}")


def write_reports(args, settings, submissions, files, seconds=None):
    """Write each report asked for: the page, Gradescope's results (seconds: the
    grading's), the gradebook's CSV (an LMS's import), and on stdout the JSON (with its
    receipt) or the table, with a regrade's changes."""
    if "--html" in files:
        files["--html"].write(report.html_page(
            submissions, os.path.dirname(os.path.abspath(args.html))))
    if "--gradescope" in files:
        files["--gradescope"].write(gradescope_results.results(
            submissions[0], settings.weights, args.gradescope_visibility,
            args.stdout_visibility, args.gradescope_tests, seconds))
    if "--csv" in files:
        files["--csv"].write(lms.gradebook(args, submissions, settings.weights))
    made = lms.receipt_downloads(receipt(settings), args)
    since = None
    if args.old_grade is not None:
        asked = [readable(name_of(source)) for source in args.sources]
        since = regrade.changes(args.old_grade, report.class_json(submissions, made), asked)
    if args.json:
        sys.stdout.write(report.as_json(submissions, made, since))
        return
    sys.stdout.write(report.terminal(submissions) +
                     (regrade.words(since, args.since) if since is not None else ""))


def add(subparsers):
    """The grade subcommand."""
    parser = subparsers.add_parser(
        "grade", help="grade a class: every student program, every rule it breaks",
        description="Build each SUBMISSION (a folder of one student's sources, or an LMS's "
                    "download: Canvas's, Moodle's or Gradescope's zip, or the folder it "
                    "unzips to, each of its students one submission) in a scratch "
                    "copy, run it on N seeds with its clock reading the seed (so that an "
                    "unchanged srand(time(NULL)) plays seed by seed), with no stdin (but an "
                    "--assignment-file's run.stdin), a "
                    "scrubbed environment and limits on time, memory, output and processes, "
                    "referee every run rule by rule, and report the rubric: " +
                    ", ".join(NAMES) + ". Every build and run is sandboxed by bubblewrap "
                    "where it works (--isolation; docs/grading.md).",
        epilog=EXAMPLES)
    parser.add_argument("submissions", metavar="SUBMISSION", nargs="+",
                        help="a folder of one student's sources, or an LMS's download (a "
                             "zip, or the folder it unzips to)")
    parser.add_argument("--assignment-file", metavar="FILE",
                        help="grade under an assignment file (its build, run, stdin, rubric; "
                             "pywar assignment show smu prints SMU's, the default); an "
                             "option given here overrides the file's")
    parser.add_argument("--build", metavar="CMD",
                        help="the shell command that builds {program} in the copy "
                             f"(default: {DEFAULT_BUILD.replace('%', '%%')})")
    parser.add_argument("--run", dest="run_command", metavar="CMD",
                        help="the command of one run: {program}, and {seed} for a program "
                             "that takes its seed (default: {program})")
    parser.add_argument("-n", "--games", type=count_type(1, 100_000), default=40, metavar="N",
                        help="seeds to run each program on (default: 40)")
    parser.add_argument("--seed", type=seed_type, default=1, metavar="S",
                        help="the first seed (default: 1)")
    fresh = parser.add_mutually_exclusive_group()
    fresh.add_argument("--fresh", type=count_type(0, MAX_FRESH), metavar="F",
                       help="fresh seeds of each submission, besides the N from S, so "
                            "that no game recorded for fixed seeds serves: the first keyed "
                            "to its files by your grading key (valgrind's: the same files get "
                            "it at every grading, and no student can know it), the others "
                            "drawn from the system's random source at each grading "
                            f"(default: {FRESH}; the report names them; the key is made once "
                            f"in $XDG_CONFIG_HOME/pywar/{grading_key.FILE_NAME}, else "
                            f"~/.config/pywar/{grading_key.FILE_NAME})")
    fresh.add_argument("--fresh-seeds", type=seeds_list, metavar="S,...",
                       help="these seeds in place of those drawn: to grade again on an "
                            "earlier grading's, as its report says (each submission's keyed "
                            "seed is keyed again, or taken from --since's file)")
    parser.add_argument("--jobs", type=count_type(1, 256), metavar="J",
                        help="submissions graded at once (default: the usable cores)")
    parser.add_argument("--timeout", type=seconds_type, default=10.0, metavar="S",
                        help="seconds a run may take, of CPU and of its own on the clock "
                             "(not those a busy machine kept it waiting), at most a day "
                             "(default: 10)")
    parser.add_argument("--budget", type=seconds_type, default=None, metavar="S",
                        help="seconds all of a submission's runs may take together, of "
                             "their own, their refereeing included: past it the seeds left "
                             "are not run "
                             f"(default: {SECONDS_A_SEED:g} s a seed, and four --timeout "
                             "at least)")
    parser.add_argument("--referee-time", type=seconds_type, default=REFEREE_SECONDS,
                        metavar="S", help="seconds the referee may compute on one seed's "
                                          "transcript: past it that seed is not refereed "
                                          f"(default: {REFEREE_SECONDS:g})")
    parser.add_argument("--memory-limit", type=count_type(16, MAX_MEMORY_MIB), default=512,
                        metavar="MIB", help="address space of each process of a run, in MiB "
                                            "(default: 512)")
    parser.add_argument("--output-limit", type=count_type(1, MAX_OUTPUT_MIB), default=16,
                        metavar="MIB", help="what a run may print, in MiB (default: 16)")
    parser.add_argument("--fix-include-case", action="store_true",
                        help="build with each #include \"X\" whose file exists only in another "
                             "case (it builds on Windows and macOS, not on Linux) matched to "
                             "it: builds still fails, with that reason, and every other item "
                             "is graded")
    add_scheduler_option(parser, "grade the submissions, one task each,")
    add_isolation_option(parser)
    parser.add_argument("--no-memory", dest="memory", action="store_false", default=None,
                        help="skip the memory item (valgrind memcheck on one seed: the one "
                             "keyed to the submission's files, or with --fresh 0 the first)")
    parser.add_argument("--weights", metavar="ITEM=W,...",
                        help="points per item (default: 1 each), as format=0.5,memory=2")
    parser.add_argument("--keep", metavar="DIR",
                        help="keep each submission's outputs in DIR/NAME/ as graded: each "
                             "run's stdout (seed-N.txt, gzipped past "
                             f"{keep.GZIP_PAST // sandbox.MIB} MiB), the build's output and "
                             "valgrind's log; DIR is made, or must be an empty folder or "
                             "one pywar grade --keep wrote, whose submissions' folders are "
                             "replaced as they are graded")
    parser.add_argument("--json", action="store_true",
                        help="print the grades as one line of JSON")
    parser.add_argument("--html", metavar="FILE", help="write the class report as a page")
    parser.add_argument("--gradescope", metavar="FILE",
                        help="write Gradescope's results.json (one submission)")
    parser.add_argument("--gradescope-visibility", choices=gradescope_results.VISIBILITY,
                        metavar="WHEN", help="when students see the results: " +
                        ", ".join(gradescope_results.VISIBILITY) + " (default: Gradescope's, "
                        "visible)")
    parser.add_argument("--gradescope-stdout-visibility", dest="stdout_visibility",
                        choices=gradescope_results.VISIBILITY, metavar="WHEN",
                        help="when students see the autograder's stdout, the table: the "
                             "same choices (default: Gradescope's, hidden)")
    parser.add_argument("--csv", metavar="FILE",
                        help="write the gradebook: the import of the LMS the class came "
                             "from (Canvas's, Moodle's worksheet), or a row per student, each "
                             "item's points, the score and the most (--csv-format)")
    parser.add_argument("--since", metavar="OLD.json",
                        help="grade again and say what changed since OLD.json (pywar grade "
                             "--json's), per student, and why it may have")
    lms.add_options(parser)
    add_progress_option(parser)
    parser.set_defaults(run=run_grade, parser=parser)
