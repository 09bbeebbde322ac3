"""A student's program, checked as an instructor would: tests/data/student_war.c, a short
C version of smu that prints the transcript of --seed N with the C library's
srand(N)/rand(), built here with cc, and checked through cmd: seed by seed; once as
written, once with a planted mistake (the winner takes the pile bottom first).  The
expected seeds and lines come from the reference's digests of seeds 0 to 100 and its
transcript of seed 1 (seed 0 plays seed 1's game on glibc)."""

import hashlib
import os
import re
import shutil
import subprocess

import pytest

from conftest import DATA, open_folder, reference_digests, reference_transcript
from pywar.cli import main

SOURCE = DATA / "student_war.c"
GLIBC = hasattr(os, "confstr") and "CS_GNU_LIBC_VERSION" in os.confstr_names

pytestmark = [pytest.mark.skipif(shutil.which("cc") is None, reason="no C compiler"),
              pytest.mark.skipif(not GLIBC, reason="srand/rand are glibc's only on glibc")]


@pytest.fixture(scope="module")
def programs():
    """The student's program built as written and with the planted mistake, in a folder
    the runner's user may enter (their cmd: runs, as root without bubblewrap)."""
    with open_folder() as folder:
        built = {}
        for name, flags in (("student", []), ("planted", ["-DPLANTED"])):
            built[name] = str(folder / name)
            subprocess.run(["cc", "-std=c11", "-O1", "-Wall", "-Wextra", "-Werror", *flags,
                            "-o", built[name], str(SOURCE)], check=True)
        yield built


def transcript(program, seed):
    """What the program prints for a seed."""
    return subprocess.run([program, "--seed", str(seed)], capture_output=True, text=True,
                          check=True).stdout


def run(capsys, *argv):
    """main(argv): (exit status, stdout, stderr)."""
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def engine(programs, name):
    """The cmd: engine of a built program."""
    return f"cmd:{programs[name]} --seed {{seed}}"


def test_the_student_prints_the_reference_games(programs):
    """The sha256 of each transcript of seeds 0 to 100 is the reference's."""
    for seed, sha, _ in reference_digests():
        text = transcript(programs["student"], seed)
        assert hashlib.sha256(text.encode()).hexdigest() == sha, seed


def test_check_finds_the_student_agrees(programs, capsys):
    status, out, _ = run(capsys, "check", "--engine", engine(programs, "student"),
                         "--against", "port-python", "--seed", "17455", "-n", "4")
    assert status == 0 and out.startswith("cmd:") and "agree on all 4 games" in out


def first_planted_seed(programs):
    """The first seed whose planted transcript is not the reference's, by its digest."""
    for seed, sha, _ in reference_digests():
        text = transcript(programs["planted"], seed)
        if hashlib.sha256(text.encode()).hexdigest() != sha:
            return seed, text
    return None


def test_check_finds_the_planted_mistake_at_its_seed_and_line(programs, capsys):
    seed, planted = first_planted_seed(programs)
    reference = reference_transcript(1 if seed == 0 else seed).splitlines()
    lines = planted.splitlines()
    first = next(i for i, (mine, good) in enumerate(zip(lines, reference)) if mine != good)
    round_ = sum(1 for line in reference[:first + 1] if line.startswith("======== Round "))
    status, out, _ = run(capsys, "check", "--engine", engine(programs, "planted"),
                         "--against", "python", "-n", "101")
    assert status == 1
    report = out.splitlines()
    assert report[0].startswith(f"seed {seed}: the transcripts part at line {first + 1}, in "
                                "the narration of event ")
    assert re.search(rf", round {round_}, battle \d+$", report[0]), report[0]
    assert report[1:3] == [f"--- {engine(programs, 'planted')}", "+++ python"]
    assert report[3].startswith(f"@@ -{first - 2},")
    assert report[4:7] == [" " + line for line in reference[first - 3:first]]
    assert report[7] == "-" + lines[first] and "+" + reference[first] in report
    assert report[-1].endswith(f"differ at seed {seed} (smu rules); the {seed} games before "
                               "it agree.")


def test_the_referee_sees_the_mistake_only_with_the_seed(programs, capsys, tmp_path):
    """The pile order is hidden by the shuffle at each refill: without the seed the game
    is legal; with it, the referee names the first line that is not the reference's."""
    seed, planted = first_planted_seed(programs)
    reference = reference_transcript(1 if seed == 0 else seed).splitlines()
    first = next(i for i, (mine, good) in enumerate(zip(planted.splitlines(), reference))
                 if mine != good)
    path = tmp_path / "planted.txt"
    path.write_text(planted)
    status, out, _ = run(capsys, "referee", str(path))
    assert status == 0 and "a legal game of smu" in out
    status, out, _ = run(capsys, "referee", "--engine", engine(programs, "planted"),
                         "--seed", str(seed))
    assert status == 1
    assert f": line {first + 1} (round " in out
    assert out.endswith(f"has {reference[first]!r} here; the file says "
                        f"{planted.splitlines()[first]!r}\n")
    status, out, _ = run(capsys, "referee", "--engine", engine(programs, "student"),
                         "--seed", str(seed))
    assert status == 0


def test_a_student_that_cannot_be_seeded(programs, capsys):
    status, out, _ = run(capsys, "check", "--engine", f"cmd:{programs['student']} {{seed}}",
                         "-n", "3")
    assert status == 1
    assert out.splitlines()[0] == (f"cmd:{programs['student']} {{seed}} exited with status 2 "
                                   f"on seed 0: usage: {programs['student']} --seed N")
