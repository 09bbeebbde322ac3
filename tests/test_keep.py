"""pywar grade --keep DIR, one seed again, a seed run by hand, and round numbers as the file
counts them (issue 38): each submission's runs kept byte for byte in DIR/NAME/, named by
the examples, the JSON, the terminal and the page; DIR pywar's own, no name leaving it."""

import gzip
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path
from urllib.parse import unquote

import pytest

import pywar
from conftest import CLASS, ROOT, needs_tools
from pywar.check.grading import keep, report
from pywar.check.grading.grade import Submission
from pywar.check.submission.names import kept_name
from pywar.check.referee.judge import judge
from pywar.cli import main

NAMES = ["..", ".", "", ".hidden", "a/b", "%2E", "ann\n\x1b[31m", "x\udcff", "\u202eevil",
         "é" * 200, "a" * 300, "a" * 301, "ok name"]


def run(capsys, *argv):
    """main(argv): (exit status, stdout, stderr)."""
    status = main([str(arg) for arg in argv])
    out, err = capsys.readouterr()
    return status, out, err


# ---- DIR and the names in it

def test_no_name_leaves_dir_or_hides_and_two_names_stay_two():
    """A submission's name is untrusted: never a separator, '.', '..', a hidden name, a
    control character or a name too long for a file system, and no two alike."""
    kept = [kept_name(name) for name in NAMES]
    for name in kept:
        assert "/" not in name and "\0" not in name and name not in (".", "..")
        assert not name.startswith(".") and name.isprintable(), name
        assert len(name.encode()) <= 255
    assert len(set(kept)) == len(NAMES)
    assert kept_name("alice") == "alice" and kept_name("x\udcff") == "x\\xff"


def test_dir_is_made_or_an_empty_folder_and_never_a_link(tmp_path):
    """DIR is made where it is not, taken where it is an empty folder, and refused where it
    holds a file, is a file, or is a link (even to an empty folder)."""
    keep.ready(tmp_path / "new")
    assert (tmp_path / "new").is_dir()
    keep.ready(tmp_path / "new")                    # empty: taken
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "mine.txt").write_text("the instructor's")
    (tmp_path / "file").write_text("")
    (tmp_path / "empty").mkdir()
    (tmp_path / "link").symlink_to(tmp_path / "empty")
    for name, why in (("full", "is not empty"), ("file", "is not a folder"),
                      ("link", "is a link")):
        with pytest.raises(keep.KeepRefused, match=why):
            keep.ready(tmp_path / name)
    assert (tmp_path / "full" / "mine.txt").read_text() == "the instructor's"


def kept_folder(folder, name, files):
    """A submission's folder kept in DIR (ready first) and put in place: its Kept."""
    kept = keep.Kept(str(folder), name)
    for seed, printed in files.items():
        kept.run(seed, printed)
    kept.commit()
    return kept


def test_a_dir_pywar_wrote_is_taken_again_and_a_stopped_grading_leaves_it_as_it_was(
        tmp_path):
    """An interrupted grading's DIR refused the next ('is not empty', issue 48): a DIR that
    pywar grade --keep wrote is taken again, each submission's folder replaced once it is
    graded, and one whose grading is stopped (a Ctrl-C in it) left as it was."""
    folder = tmp_path / "kept"
    keep.ready(str(folder))
    kept_folder(folder, "ann", {1: b"first ann", 2: b"first ann 2"})
    kept_folder(folder, "ben", {1: b"first ben"})
    keep.ready(str(folder))                         # taken again
    kept_folder(folder, "ann", {1: b"second ann"})
    stopped = keep.Kept(str(folder), "ben")
    with pytest.raises(KeyboardInterrupt), keep.discarded_if_stopped(stopped):
        stopped.run(1, b"second ben, cut short")
        raise KeyboardInterrupt
    assert sorted(os.listdir(folder / "ann")) == ["seed-1.txt"]       # replaced whole
    assert (folder / "ann" / "seed-1.txt").read_bytes() == b"second ann"
    assert (folder / "ben" / "seed-1.txt").read_bytes() == b"first ben"    # as it was
    assert sorted(os.listdir(folder)) == [keep.MARKER, "ann", "ben"]   # nothing left over
    keep.ready(str(folder))


@pytest.mark.parametrize("planted, named", [
    ("notes.txt", "notes.txt"), ("ann/notes.txt", "ann/notes.txt"),
    ("ann/seed-9.txt -> target", "ann/seed-9.txt"), ("old -> ann", "old"),
])
def test_what_pywar_did_not_write_in_a_dir_it_wrote_is_refused(tmp_path, planted, named):
    """A file of the instructor's, or a link, in a DIR pywar wrote (at its top or in a
    submission's folder) is refused, named, and left; pywar replaces only its own."""
    folder = tmp_path / "kept"
    keep.ready(str(folder))
    kept_folder(folder, "ann", {1: b"ann"})
    (tmp_path / "target").write_text("the instructor's")
    path, _, target = planted.partition(" -> ")
    if target:
        (folder / path).symlink_to(folder / target if target == "ann" else tmp_path / target)
    else:
        (folder / path).write_text("the instructor's")
    with pytest.raises(keep.KeepRefused, match=f"is not empty, and '{named}' in it is not"):
        keep.ready(str(folder))
    assert (tmp_path / "target").read_text() == "the instructor's"
    assert (folder / "ann" / "seed-1.txt").read_bytes() == b"ann"


@needs_tools("cc", "g++")
def test_a_dir_pywar_may_not_write_into_is_one_line_before_any_work(tmp_path, capsys,
                                                                      monkeypatch):
    """A non-empty DIR is a usage error (2), one DIR cannot be made is exit 3: both before
    any grading."""
    monkeypatch.setattr("pywar.cli.grade.grade", lambda *a, **k: pytest.fail("graded"))
    (tmp_path / "sub").mkdir()
    (tmp_path / "kept").mkdir()
    (tmp_path / "kept" / "notes.txt").write_text("")
    status, _, err = run(capsys, "grade", tmp_path / "sub", "--no-memory", "--keep",
                         tmp_path / "kept")
    assert status == 2 and err.count("\n") == 1 and "is not empty" in err
    status, _, err = run(capsys, "grade", tmp_path / "sub", "--no-memory", "--keep",
                         tmp_path / "no" / "such")
    assert status == 3 and err.count("\n") == 1 and "cannot write --keep" in err


def test_a_file_in_the_way_is_never_written_through(tmp_path):
    """Every file is made new, no link followed: a link planted where a run's file goes
    (by a run of the grader's own user, say) is left, its target untouched, and a note
    says what was not kept."""
    target = tmp_path / "target"
    target.write_text("the instructor's")
    folder = tmp_path / "kept"
    keep.ready(str(folder))
    kept = keep.Kept(str(folder), "ann")
    (folder / ".ann.part" / "seed-1.txt").symlink_to(target)   # where its files are written
    assert kept.run(1, b"printed") is None
    assert kept.run(2, b"printed") == str(folder / "ann" / "seed-2.txt")
    kept.commit()
    assert target.read_text() == "the instructor's"
    assert (folder / "ann").stat().st_mode & 0o777 == 0o700       # no run's user may read
    assert (folder / "ann" / "seed-2.txt").stat().st_mode & 0o777 == 0o600
    assert kept.note().startswith("--keep: could not keep seed-1.txt: ")
    with pytest.raises(FileExistsError):
        keep.Kept(str(folder), "ann")               # a name is kept once in a grading


def test_a_large_output_is_kept_gzipped_and_alike_on_a_rerun(tmp_path, monkeypatch):
    """Past GZIP_PAST a run is kept as seed-N.txt.gz, whose bytes are the run's, and a
    rerun's file, a day later, is the same bytes (no time or name in the gzip header)."""
    printed = (b"Player A plays \xff\xfe ten\r\n" * 60_000)[:keep.GZIP_PAST + 1]
    paths = []
    for day, folder in enumerate((tmp_path / "k1", tmp_path / "k2")):
        keep.ready(str(folder))
        monkeypatch.setattr(gzip.time, "time", lambda: 1e9 + day * 86_400)
        kept = keep.Kept(str(folder), "ann")
        paths.append(kept.run(3, printed))
        kept.commit()
    assert all(path.endswith("seed-3.txt.gz") for path in paths)
    first, second = (Path(path).read_bytes() for path in paths)
    assert first == second and gzip.decompress(first) == printed
    small = keep.Kept(str(tmp_path / "k1"), "ben").run(3, printed[:keep.GZIP_PAST])
    assert small.endswith("seed-3.txt")


# ---- Round numbers as the file counts them

def renumbered(seed, ranks_round):
    """The reference's transcript of a seed with its round headers numbered from 0, and
    the verdict of its first battle won in round ranks_round given to the other player."""
    lines = pywar.play(seed, transcript=True).transcript.split("\n")
    header = re.compile(r"^(=+ Round )(\d+)( =+)$")
    at = None
    for index, line in enumerate(lines):
        found = header.match(line)
        if found:
            number = int(found.group(2))
            lines[index] = f"{found.group(1)}{number - 1}{found.group(3)}"
            at = index if number == ranks_round else at
    win = next(i for i in range(at, len(lines)) if "wins the 'currently in play'" in lines[i])
    other = "B" if lines[win].startswith("Player A") else "A"
    lines[win] = f"Player {other}" + lines[win][len("Player A"):]
    return "\n".join(lines)


def test_a_finding_says_the_files_round_beside_pywars():
    """Under the file's 'Round 6', pywar's round 7 is said with the file's: 'round 7, the
    file's Round 6'; where they agree, pywar's alone."""
    judged = judge(renumbered(17455, 9))
    finding = judged.first("ranks") or judged.first("pickup")
    assert (finding.round, finding.file_round) == (9, 8)
    assert "(round 9, the file's Round 8)" in finding.text()
    example = finding.to_json(4)
    assert "seed 4, line %d (round 9, the file's Round 8): " % finding.line in \
        report.example_text(finding.item, example)
    plain = judge(pywar.play(17455, transcript=True).transcript.replace(
        "Player A wins the 'currently in play'", "Player B wins the 'currently in play'", 1))
    found = next(iter(plain.findings.values()))[0]
    assert found.file_round == found.round and "the file's" not in found.text()


# ---- A class kept, one seed again, and a seed by hand

@pytest.fixture(scope="module")
def kept_class(tmp_path_factory):
    """ace_low graded on seeds 1 to 3 with --keep, --json and --html, the page in a folder
    of its own: (its JSON submission, the terminal's report, the page's path, DIR)."""
    if not shutil.which("g++"):
        pytest.skip("needs g++")
    folder = tmp_path_factory.mktemp("kept")
    pywar_command = Path(sys.executable).parent / "pywar"
    argv = [str(pywar_command), "grade", str(CLASS / "ace_low"), "-n", "3", "--seed", "1",
            "--fresh", "0", "--no-memory", "--keep", "kept"]
    (folder / "pages").mkdir()
    graded = subprocess.run([*argv, "--json", "--html", "pages/class.html"], cwd=folder,
                            capture_output=True, text=True, check=True)
    sub = json.loads(graded.stdout)["submissions"][0]
    table = report.terminal([Submission(**sub)])        # the terminal's, from the same grades
    return sub, table, folder / "pages" / "class.html", folder


def test_each_run_is_kept_and_each_example_names_its_file_and_line(kept_class):
    """DIR/ace_low/ holds seed-1.txt to seed-3.txt and build.txt; the ranks example names
    seed 1's file, whose line is the line quoted, in the JSON and on the terminal."""
    sub, table, _, folder = kept_class
    files = sorted(os.listdir(folder / "kept" / "ace_low"))
    assert files == ["build.txt", "seed-1.txt", "seed-2.txt", "seed-3.txt"]
    assert "$ g++ -std=c++17" in (folder / "kept" / "ace_low" / "build.txt").read_text()
    example = sub["items"]["ranks"]["example"]
    assert example["kept"] == os.path.join("kept", "ace_low", f"seed-{example['seed']}.txt")
    lines = (folder / example["kept"]).read_bytes().split(b"\n")
    for number, text in example["context"]:
        assert lines[number - 1].decode() == text
    assert f"      at {example['kept']}:{example['line']}\n" in table


def test_the_page_links_each_example_to_its_kept_lines(kept_class):
    """The ranks cell links to its example on the page; the example links to the kept file
    (relative to the page) and shows its lines, the quoted line beside what the rules
    required there."""
    sub, _, page, _ = kept_class
    html = page.read_text()
    cell = re.search(r'data-item="ranks"><a href="#([^"]+)">', html).group(1)
    entry = re.search(rf'<li data-item="ranks" id="{cell}">(.*?)</li>', html).group(1)
    href = re.search(r'<p class="kept">kept: <a href="([^"]+)">', entry).group(1)
    example = sub["items"]["ranks"]["example"]
    assert (page.parent / unquote(href)).resolve() == (page.parent.parent /
                                                      example["kept"]).resolve()
    row = re.search(r'<tr class="at"><td>(\d+)</td><td>(.*?)</td><td>(.*?)</td></tr>',
                    entry)
    assert int(row.group(1)) == example["line"]
    assert row.group(3).startswith("the rules require player A to win")


def test_one_seed_again_keeps_the_same_bytes(kept_class, tmp_path, capsys):
    """pywar grade SUB --seed 2 -n 1 --keep DIR keeps what the class's run of seed 2 kept."""
    folder = kept_class[3]
    status, _, _ = run(capsys, "grade", CLASS / "ace_low", "--seed", "2", "-n", "1",
                       "--fresh", "0", "--no-memory", "--keep", tmp_path / "again")
    assert status == 0
    assert (tmp_path / "again" / "ace_low" / "seed-2.txt").read_bytes() == \
        (folder / "kept" / "ace_low" / "seed-2.txt").read_bytes()


def by_hand_recipe():
    """The two lines of docs/grading.md that run a student's program on a seed by hand."""
    text = (ROOT / "docs" / "grading.md").read_text()
    block = text.split("<!-- by hand -->\n```sh\n", 1)[1].split("```", 1)[0]
    return [line.split("  #", 1)[0].strip() for line in block.splitlines()
            if line.strip()][:2]


@needs_tools("cc", "g++")
def test_the_docs_two_lines_run_a_seed_as_pywar_grade_ran_it(kept_class, tmp_path):
    """docs/grading.md's two lines (the build, then env $(pywar clock --seed 15)), run in
    a copy of the student's folder on seed 3, print the bytes pywar grade kept of it."""
    student = shutil.copytree(CLASS / "ace_low", tmp_path / "ace_low")
    build, seed = by_hand_recipe()
    assert "env $(pywar clock --seed 15) ./war > seed-15.txt" in seed
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}:{os.environ['PATH']}",
           "XDG_CACHE_HOME": str(tmp_path / "cache")}
    for line in (build, seed.replace("15", "3")):
        subprocess.run(["/bin/sh", "-c", line], cwd=student, env=env, check=True)
    assert (student / "seed-3.txt").read_bytes() == \
        (kept_class[3] / "kept" / "ace_low" / "seed-3.txt").read_bytes()


@needs_tools("cc")
def test_pywar_clock_prints_a_runs_environment_for_env(tmp_path, capsys):
    """env's arguments: a cleared environment, the run's variables, the seed clock built
    in the folder given (once: a second call reuses it)."""
    status, out, _ = run(capsys, "clock", "--seed", "7", "--library", tmp_path)
    words = shlex.split(out)
    assert status == 0 and words[0] == "-i"
    env = dict(word.split("=", 1) for word in words[1:])
    assert env["PYWAR_SEED"] == "7" and env["TZ"] == "UTC" and "HOME" not in env
    assert Path(env["LD_PRELOAD"]).parent == tmp_path and Path(env["LD_PRELOAD"]).is_file()
    made = os.stat(env["LD_PRELOAD"]).st_mtime_ns
    assert run(capsys, "clock", "--seed", "8", "--library", tmp_path)[0] == 0
    assert os.stat(env["LD_PRELOAD"]).st_mtime_ns == made
    shown = subprocess.run(["env", *words, "/bin/date", "+%s"], capture_output=True,
                           text=True, check=True)
    assert shown.stdout.strip() == "7"


@needs_tools("g++", "valgrind")
def test_bytes_not_utf8_valgrinds_log_and_the_build_are_kept(tmp_path, capsys):
    """A run's stdout is kept as its bytes (not UTF-8, a carriage return), valgrind's log
    as valgrind.txt, which the memory example names."""
    student = tmp_path / "ann"
    student.mkdir()
    (student / "main.cpp").write_text(
        '#include <cstdio>\nint *volatile lost;\n'
        'int main() { lost = new int[4]; lost = nullptr; fwrite("caf\\xe9\\r\\nend\\n", 1, 10,'
        ' stdout); return 0; }\n')
    status, out, _ = run(capsys, "grade", student, "-n", "1", "--fresh", "0", "--keep",
                         tmp_path / "kept", "--json")
    assert status == 0
    kept = tmp_path / "kept" / "ann"
    assert (kept / "seed-1.txt").read_bytes() == b"caf\xe9\r\nend\n"
    assert "definitely lost" in (kept / "valgrind.txt").read_text()
    memory = json.loads(out)["submissions"][0]["items"]["memory"]["example"]
    assert memory["kept"] == str(kept / "valgrind.txt")
