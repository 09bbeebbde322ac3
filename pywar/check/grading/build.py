"""A submission built: copied into a scratch folder of its own, its #includes whose case
differs from their files' named (and, with --fix-include-case, matched), built by the
build command in pywar's runner, and only the program taken out."""

import os
import re
import shlex
import shutil
import tempfile

from ..referee.quote import LINE
from ..runner import sandbox
from ..submission.copying import safe_copy
from ..submission.bounds import MIB, TooLarge
from ..submission.files import SOURCES

PROGRAM = "pywar-program"


def tail(text, count=3):
    """The last lines of a text, each cut as a quoted line is."""
    return [line[:LINE] for line in text.rstrip("\n").split("\n")[-count:]] \
        if text.strip() else []


INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"\n]{1,200})"', re.M)
SOURCE_READ = 1 << 20               # bytes of a source file read for its #includes


def first_error(text):
    """The compiler's first 'error:' line of a build's output, or None."""
    return next(iter(compiler_errors(text)), None)


ERROR_CHARS = 300                   # of a compiler's error line quoted
ERRORS = 10                         # a failed build's error lines quoted, at most


def compiler_errors(text):
    """The compiler's first ERRORS 'error:' lines of a build's output, each cut short."""
    found = re.findall(r"^.*\berror\b:.*$", text or "", re.M)
    return [line.strip()[:ERROR_CHARS] for line in found[:ERRORS]]


def sources_in(folder):
    """The source files of a submission, as paths relative to it, its folders included
    (the copy is bounded: submission.copying.safe_copy), no link followed."""
    found = []
    for top, folders, files in os.walk(folder):
        folders[:] = sorted(f for f in folders if not os.path.islink(os.path.join(top, f)))
        found += sorted(os.path.relpath(os.path.join(top, name), folder) for name in files
                        if name.lower().endswith(SOURCES))
    return found


def in_another_case(folder, path):
    """The real path (relative to folder) of a relative path that exists only in another
    case, or None (it exists as it is, not at all, or outside the folder)."""
    parts = os.path.normpath(path).split(os.sep)
    if parts[0] in ("..", "") or os.path.lexists(os.path.join(folder, path)):
        return None
    real = []
    for part in parts:
        here = os.path.join(folder, *real)
        try:
            names = {name.lower(): name for name in sorted(os.listdir(here))}
        except OSError:
            return None
        if part.lower() not in names:
            return None
        real.append(names[part.lower()])
    found = os.path.join(*real)
    return found if os.path.isfile(os.path.join(folder, found)) else None


def include_case(folder):
    """[(the file that includes, the path included, the file's real path)] of each
    #include "X" of a submission whose X exists only in another case (it builds on
    Windows and macOS, whose file names ignore case, and not on Linux); X is read from
    the including file's folder ("./card.h", "../include/Card.h")."""
    found = []
    for name in sources_in(folder):
        try:
            with open(os.path.join(folder, name), "rb") as source:
                text = source.read(SOURCE_READ).decode("utf-8", "replace")
        except OSError:
            continue
        for included in INCLUDE.findall(text):
            path = os.path.normpath(os.path.join(os.path.dirname(name), included))
            real = in_another_case(folder, path)
            if real is not None:
                found.append((name, included, real))
    return list(dict.fromkeys(found))


def case_note(found):
    """The words for an #include whose case differs from its file's."""
    name, included, real = found[0]
    more = f" (and {len(found) - 1} more)" if len(found) > 1 else ""
    return (f'{name}: #include "{included}", but the file is {real}: it builds on Windows '
            f"and macOS, not on Linux{more}")


def match_case(folder, found):
    """Copy each file whose #include differs in case under the path included (its folders
    made in that case where they differ too)."""
    for name, included, real in found:
        target = os.path.join(folder, os.path.normpath(os.path.join(os.path.dirname(name),
                                                                    included)))
        if not os.path.lexists(target):
            os.makedirs(os.path.dirname(target), exist_ok=True)
            shutil.copyfile(os.path.join(folder, real), target, follow_symlinks=False)


OPTION_STARTS = ("@", "-")      # a name gcc reads as a file of its options, or an option
DISK_FULL = "No space left on device"
CHANNEL_FAILED = 125            # the script's status when the program cannot go out
FULL_KIB = 1024                 # free KiB under which a failed build's disk was full
BUILD_SCRIPT = """\
PYWAR_PROGRAM="$PWD/{name}"; export PYWAR_PROGRAM
cp -R -- "$1/." . || exit {failed}
/bin/sh -c "$2"; status=$?
if [ $status -ne 0 ]; then
    df -Pk . /tmp 2>/dev/null | awk 'NR > 1 && $4 < {full} {{full = 1}} END {{exit !full}}' &&
        echo "pywar: {disk_full}: the build filled its disk" >&2
    exit $status
fi
if [ -f "$PYWAR_PROGRAM" ]; then cat -- "$PYWAR_PROGRAM" > "/dev/fd/$3" || exit {failed}; fi
"""                             # $1: the copy, $2: the build command, $3: the program's fd


def option_names(folder):
    """The paths (relative to folder) of a submission's files and folders whose name
    starts with '@' or '-': gcc reads '@opts.cpp' as a file of options wherever its name
    is passed, even as ./@opts.cpp (g++ hands cc1plus `-dumpbase @opts.cpp`)."""
    found = []
    for top, folders, files in os.walk(folder):
        folders.sort()
        found += sorted(os.path.relpath(os.path.join(top, name), folder)
                        for name in folders + files if name.startswith(OPTION_STARTS))
    return found


def refused(names):
    """The words of a build not run for its names."""
    more = f" (and {len(names) - 1} more)" if len(names) > 1 else ""
    return (f"was not run: {names[0]}{more}: a file or folder whose name starts with '@' or "
            "'-' is read by gcc as a file of its options or as an option; rename it")


IGNORED_FOLDERS = ("__MACOSX",)  # what a zip made on macOS holds beside the sources


def source_folder(folder):
    """The folder (relative to folder, '.' for itself) a submission's sources are in: it,
    or, where it holds nothing but one folder, that folder's, and so on down (a zip of
    a folder, as Gradescope unpacks it: War/*.cpp); '.' where none holds a source."""
    here = "."
    while True:
        path = os.path.join(folder, here)
        names = [name for name in sorted(os.listdir(path))
                 if not name.startswith(".") and name not in IGNORED_FOLDERS]
        if any(name.lower().endswith(SOURCES) and os.path.isfile(os.path.join(path, name))
               for name in names):
            return here
        only = os.path.join(path, names[0]) if len(names) == 1 else None
        if only is None or os.path.islink(only) or not os.path.isdir(only):
            return "."
        here = os.path.normpath(os.path.join(here, names[0]))


COMPILED = ("./*.cpp", "*.cpp")     # the default build's glob (./*.cpp), a word of its own
NAMED = 3                           # files named in the words of a source-less submission


def compiles_the_glob(command):
    """Whether a build command compiles the folder's *.cpp by the shell's glob, a word of
    its own (not `$(find . -name '*.cpp')`, which finds sources in folders below)."""
    try:
        return any(word in COMPILED for word in shlex.split(command))
    except ValueError:                  # unbalanced quotes: the shell will say so
        return False


def sourceless(folder, inner, command):
    """Why a build that compiles ./*.cpp (the default) would have nothing to compile, in
    one line, or None: the folder it builds in holds no .cpp file (an empty or source-less
    submission, said so, not by the compiler's "fatal error: ./*.cpp").  A build command
    of the instructor's own (make, a script) is left to say what it finds."""
    here = os.path.join(folder, inner)
    if not compiles_the_glob(command) or any(
            name.lower().endswith(".cpp") and os.path.isfile(os.path.join(here, name))
            for name in os.listdir(here)):
        return None
    sources = sources_in(folder)
    count = sum(len(files) for _, _, files in os.walk(folder))
    if not count:
        held = "it is empty"
    elif not sources:
        held = f"none of its {count} file{'s' if count > 1 else ''} is a C or C++ source"
    else:
        held = "its sources: " + ", ".join(sources[:NAMED]) + (
            f" and {len(sources) - NAMED} more" if len(sources) > NAMED else "")
    where = "" if inner == "." else f" in {inner}/"
    return f"the submission holds no C++ sources{where} (no .cpp file; {held})"


def build_said(outcome, made, isolation):
    """What went wrong in a build, in words ('' when it made a program): a program that
    could not go out named by its size, a full disk by its bound."""
    limits = outcome.limits
    if outcome.status == CHANNEL_FAILED and made:
        return f"made a program of more than {limits.output // MIB} MiB"
    said = outcome.trouble() or ("" if made else "no program was made")
    output = (outcome.stderr or "") + (outcome.stdout or "")
    if said and DISK_FULL in output:
        bound = (f"its {limits.disk // MIB} MiB of disk"
                 if sandbox.resolve(isolation, check=False).mode == "bwrap" else "the disk")
        said += f"; it filled {bound} ({DISK_FULL})"
    return said


def build(source, work, settings):
    """Copy a submission and build it: (the program's path or None, the build's Outcome,
    the #includes whose case differs from their files', what went wrong in words).  The
    build runs in a scratch of its own (under bubblewrap a tmpfs of the build's disk) with
    a copy of the sources, and no folder of the grader's to write: the program comes out
    through a file pywar opened (its descriptor, bounded as every file of the run), into
    a folder of pywar's that no run may write."""
    copy, bin_folder = (os.path.join(work, name) for name in ("src", "bin"))
    try:
        skipped = safe_copy(source, copy)
    except (OSError, TooLarge) as error:
        outcome = sandbox.Outcome(None, "", "", 0.0, sandbox.BUILD_LIMITS,
                                  failed_to_start=f"the submission cannot be copied: {error}")
        return None, outcome, [], outcome.trouble()
    names = option_names(copy)
    if names:
        outcome = sandbox.Outcome(None, "", "", 0.0, sandbox.BUILD_LIMITS, notes=skipped)
        return None, outcome, [], refused(names)
    cases = include_case(copy)
    if cases and settings.fix_include_case:
        match_case(copy, cases)
    inner = source_folder(copy)
    nothing = sourceless(copy, inner, settings.build)
    if nothing:
        outcome = sandbox.Outcome(None, "", "", 0.0, sandbox.BUILD_LIMITS, notes=skipped)
        return None, outcome, cases, f"was not run: {nothing}"
    outcome, made = run_build(copy, os.path.join(copy, inner), settings)
    outcome.notes = skipped + ([f"its sources are in the folder {inner}/ alone: built there"]
                               if inner != "." else [])
    said = build_said(outcome, made, settings.isolation)
    if said:
        return None, outcome, cases, said
    os.mkdir(bin_folder, 0o755)
    program = os.path.join(bin_folder, PROGRAM)
    with open(program, "xb") as file:
        file.write(made)
    os.chmod(program, 0o755)
    return program, outcome, cases, ""


def run_build(copy, sources, settings):
    """Run the build command on the folder of a copy's sources: (its Outcome, the program's bytes, up to the
    build's output limit and one more).  The program goes out through an unnamed file
    of pywar's that the build's user may write (by its descriptor, /dev/fd/N: no name
    on the grader's disk), bounded by RLIMIT_FSIZE as every file the build writes."""
    limits = sandbox.BUILD_LIMITS
    command = settings.build.replace("{program}", '"$PYWAR_PROGRAM"')
    script = BUILD_SCRIPT.format(name=PROGRAM, failed=CHANNEL_FAILED, full=FULL_KIB,
                                 disk_full=DISK_FULL)
    with tempfile.TemporaryFile() as channel:
        os.fchmod(channel.fileno(), 0o622)         # the run's own user opens it to write
        outcome = sandbox.run(["/bin/sh", "-c", script, "pywar-build", sources, command,
                               str(channel.fileno())], limits, show=[copy],
                              pass_fds=(channel.fileno(),), isolation=settings.isolation,
                              group=settings.group)
        channel.seek(0)
        made = channel.read(limits.output + 1)
    return outcome, made


def run_argv(settings, program, seed):
    """The command line of one run."""
    words = shlex.split(settings.run)
    return [word.replace("{program}", program).replace("{seed}", str(seed)) for word in words]
