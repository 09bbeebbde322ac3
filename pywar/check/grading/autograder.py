"""Gradescope's autograder zip (`pywar autograder OUT.zip [grade's options]`; docs/
grading.md, section 5), by gradescope/autograder_samples docs/specs.md: at its root
`setup.sh`, which Gradescope runs once, as root, to build the image, `run_autograder`,
executable, which it runs for each submission in /autograder, and pywar's sdist.

setup.sh installs pywar from the sdist, with its C core (PYWAR_REQUIRE_C: a core that
fails to build fails the image), into a venv of its own, never the system python3 that
runs Gradescope's harness (python3_issues.md); run_autograder grades
/autograder/submission with the options given into /autograder/results/results.json.
Both name /autograder as $AUTOGRADER where it is set (a test's), else /autograder.
The zip's bytes are a function of its inputs (its entries' times are fixed).
"""

import importlib.util
import os
import shlex
import subprocess
import sys
import tarfile
import tempfile
import zipfile

from ... import installed

PACKAGES = ("python3", "python3-venv", "python3-dev", "gcc", "g++", "valgrind", "bubblewrap")
VENV = "$AUTOGRADER/pywar-venv"
SUBMISSION = "$AUTOGRADER/submission"
RESULTS = "$AUTOGRADER/results/results.json"
ZIP_TIME = (1980, 1, 1, 0, 0, 0)            # the zip's entries' time: no time of the machine
SDIST_SECONDS = 600                         # building the sdist, at most

SETUP = """\
#!/usr/bin/env bash
# pywar {version}'s autograder, written by pywar autograder (docs/grading.md, section 5):
# pywar installed from its sdist, with its C core, into a venv of its own (Gradescope's
# harness runs on the system python3, which is left as it is).
set -euo pipefail
AUTOGRADER="${{AUTOGRADER:-/autograder}}"
apt-get update
apt-get install -y --no-install-recommends {packages}
python3 -c 'import sys; sys.exit(sys.version_info < (3, 10))' || {{
    echo "pywar needs Python 3.10 or newer: choose Gradescope's Ubuntu 22.04 base image" >&2
    exit 1
}}
python3 -m venv "{venv}"
PYWAR_REQUIRE_C=1 "{venv}/bin/pip" install "$AUTOGRADER/source/{sdist}"
"{venv}/bin/pywar" --version
# the grading key of valgrind's seed, made once into the image, so that each grading's
# container keys the same files to the same seed (docs/grading.md, section 2, "The seed")
"{venv}/bin/python" -c 'from pywar.check.grading.grading_key import grading_key; grading_key()'
"""

ASSIGNMENT_FILE = "assignment.toml"     # an --assignment-file's copy, in the zip, and
ASSIGNMENT = f"$AUTOGRADER/source/{ASSIGNMENT_FILE}"     # where Gradescope unzips it
RUN = """\
#!/usr/bin/env bash
# pywar {version}'s autograder: grades the submission into results.json; the class table
# goes to stdout, which Gradescope shows the instructor.
AUTOGRADER="${{AUTOGRADER:-/autograder}}"
mkdir -p "$AUTOGRADER/results"
exec "{venv}/bin/pywar" grade "{submission}" --gradescope "{results}"{assignment} {options}
"""


class NoSdist(Exception):
    """pywar's sdist cannot be had or is not pywar's: one line."""


def scripts(sdist_name, options, assignment=False):
    """(setup.sh, run_autograder) for an sdist of that name and grade's options (a list
    of words, each quoted for the shell), grading under the zip's assignment file where
    it holds one."""
    version = installed.version()
    setup = SETUP.format(version=version, packages=" ".join(PACKAGES), venv=VENV,
                         sdist=sdist_name)
    run = RUN.format(version=version, venv=VENV, submission=SUBMISSION, results=RESULTS,
                     options=shlex.join(options), assignment=(
                         f' --assignment-file "{ASSIGNMENT}"' if assignment else "")
                     ).rstrip() + "\n"
    return setup, run


def entry(name, mode, compress=zipfile.ZIP_DEFLATED):
    """A zip entry of a fixed time and a Unix mode."""
    info = zipfile.ZipInfo(name, ZIP_TIME)
    info.compress_type = compress
    info.external_attr = (0o100000 | mode) << 16          # a regular file, its mode
    info.create_system = 3                                 # Unix: the mode is read
    return info


def autograder_zip(out, sdist, options, assignment=None):
    """Write the autograder zip into the binary file out: setup.sh, run_autograder
    (executable), the sdist and an assignment file's text (None: none), at its root."""
    setup, run = scripts(os.path.basename(sdist), options, assignment is not None)
    with zipfile.ZipFile(out, "w") as archive:
        archive.writestr(entry("setup.sh", 0o755), setup)
        archive.writestr(entry("run_autograder", 0o755), run)
        if assignment is not None:
            archive.writestr(entry(ASSIGNMENT_FILE, 0o644), assignment)
        with open(sdist, "rb") as source:
            archive.writestr(entry(os.path.basename(sdist), 0o644, zipfile.ZIP_STORED),
                             source.read())             # gzipped already


def checked_sdist(path):
    """path, or NoSdist for a file that is not an sdist of this pywar (its PKG-INFO's
    name and version, its C core's sources)."""
    version = installed.version()
    try:
        with tarfile.open(path, "r:gz") as archive:
            names = archive.getnames()
            top = names[0].split("/", 1)[0] if names else ""
            info = archive.extractfile(f"{top}/PKG-INFO")
            said = info.read(1 << 16).decode("utf-8", "replace") if info else ""
    except (OSError, tarfile.TarError, KeyError, EOFError) as error:
        raise NoSdist(f"{path!r} is not an sdist of pywar ({error})") from None
    if "Name: pywar\n" not in said or f"\nVersion: {version}\n" not in said:
        raise NoSdist(f"{path!r} is not an sdist of pywar {version}, the pywar whose "
                      "options were checked: build it from this pywar's checkout "
                      "(python -m build --sdist)")
    if not any(name.startswith(f"{top}/csrc/") for name in names):
        raise NoSdist(f"{path!r} holds no csrc/: pywar's C core could not be built from it")
    return path


def checkout():
    """The checkout this pywar runs from (a folder with pyproject.toml and csrc/), or
    None for an installed pywar."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(installed.__file__)))
    ok = all(os.path.exists(os.path.join(root, part)) for part in ("pyproject.toml", "csrc"))
    return root if ok else None


def built_sdist(folder):
    """Build pywar's sdist from its checkout into folder (python -m build --sdist): its
    path, or NoSdist saying why not."""
    root = checkout()
    if root is None:
        raise NoSdist("this pywar is installed, not a checkout: give --sdist FILE, pywar's "
                      "sdist (python -m build --sdist in a checkout)")
    if importlib.util.find_spec("build") is None:
        raise NoSdist("building pywar's sdist needs the build package (pip install build), "
                      "or give --sdist FILE")
    made = subprocess.run([sys.executable, "-m", "build", "--sdist", "--outdir", folder, root],
                          stdin=subprocess.DEVNULL, capture_output=True, text=True,
                          errors="replace", timeout=SDIST_SECONDS)
    found = [name for name in os.listdir(folder) if name.endswith(".tar.gz")]
    if made.returncode != 0 or len(found) != 1:
        said = (made.stderr.strip().splitlines() or ["no words"])[-1]
        raise NoSdist(f"python -m build --sdist failed in {root!r}: {said}")
    return checked_sdist(os.path.join(folder, found[0]))


def sdist_folder():
    """A temporary folder for the sdist built (tempfile's, removed by the caller)."""
    return tempfile.TemporaryDirectory(prefix="pywar-sdist-")
