"""A submission built: copied into a scratch folder of its own, its #includes whose case
differs from their files' named (and, with --fix-include-case, matched), built by the
build command in pywar's runner, and only the program taken out."""

import os
import re
import shlex
import shutil

from ..runner import sandbox

PROGRAM = "pywar-program"


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


def sources_in(folder):
    """The source files of a submission, as paths relative to it, its folders included
    (the copy is bounded: sandbox.safe_copy), no link followed."""
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
                          sandbox.BUILD_LIMITS, show=[copy], writable=[out],
                          isolation=settings.isolation, group=settings.group)
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
