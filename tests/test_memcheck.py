"""The memory item's trust in valgrind (issue 36): valgrind runs in the program's own
process, so its summary counts only as the last line it wrote of the program, not from
a run killed by SIGKILL or at its time limit, on a descriptor the program cannot write;
and valgrind's run gets its memory from --memory-limit."""

import hashlib
import hmac
import json
import os
import shutil
import signal
import subprocess
import tempfile
from dataclasses import replace

import pytest

from conftest import DATA, needs_tools
from pywar.check.grading import memcheck
from pywar.check.grading.grade import Settings
from pywar.check.seeds import FIRST_FRESH, FRESH_LIMIT, keyed_seed
from pywar.cli import main
from pywar.check.referee.mistakes import ROW
from pywar.check.runner import sandbox
from pywar.check.runner.sandbox import MIB, Limits

CLASS = DATA / "class"
PID = "4242"
FORGED = f"=={PID}== ERROR SUMMARY: 0 errors from 0 contexts (suppressed: 0 from 0)\n"
LOG_START = f"=={PID}== Memcheck, a memory error detector\n=={PID}== Command: ./war\n"
CLEAN_END = (f"=={PID}== All heap blocks were freed -- no leaks are possible\n"
             f"=={PID}== \n" + FORGED)


def outcome(status, timed_out=False):
    """A run of valgrind that ended so."""
    return sandbox.Outcome(status, "", "", 1.0, sandbox.PROFILES["memcheck"], timed_out)


def test_a_clean_run_that_exited_is_checked_and_ok_whatever_its_status():
    """valgrind's verdict is its exit status: FOUND_ERRORS, else the program's own."""
    assert memcheck.memcheck_said(outcome(0), LOG_START + CLEAN_END) == (None, "no report")
    assert memcheck.memcheck_said(outcome(3), LOG_START + CLEAN_END) == (None, "no report")


@pytest.mark.parametrize("ending", [outcome(-9), outcome(None, timed_out=True), outcome(-15),
                                    outcome(-11), outcome(-25)],
                         ids=["killed", "hung", "sigterm", "crash", "output_limit"])
def test_a_clean_log_of_a_run_that_did_not_exit_is_not_checked(ending):
    """The audits' forgeries (issues 36 and 47): a clean summary in the log, written by the
    program, then a SIGKILL of its own group, a hang, or (valgrind's log filled to its
    limit so that valgrind's own summary no longer fits) a SIGTERM: a run ended by a
    signal gave no verdict of valgrind's, and its log is no verdict."""
    mistake, said = memcheck.memcheck_said(ending, LOG_START + CLEAN_END)
    assert mistake is ROW.memcheck_unfinished
    how = "did not finish within 120 s" if ending.timed_out else \
        f"was killed by {signal.Signals(-ending.status).name}"
    assert said == (f"not checked: the program {how}, and valgrind's verdict is "
                    "its exit status: a run that did not exit gave none (a summary in its "
                    "log may be the program's own)")


def test_a_log_past_its_size_limit_is_not_checked():
    """A log filled to its limit by the program (then an exec, say, whose Command line no
    longer fits): what valgrind said last is not known."""
    mistake, said = memcheck.memcheck_said(outcome(0), LOG_START + CLEAN_END, full=True)
    assert (mistake, said) == (ROW.memcheck_unfinished, "not checked: valgrind's log passed "
                               "its 64 MiB, so what valgrind said last of the program is not "
                               "known")


def test_a_summary_that_is_not_valgrind_s_last_word_is_not_checked():
    log = LOG_START + FORGED + f"=={PID}== Warning: set address range perms\n"
    mistake, said = memcheck.memcheck_said(outcome(0), log)
    assert (mistake, said) == (ROW.memcheck_unfinished, "not checked: valgrind's summary "
                               "is not the last it said of the program")


def test_what_valgrind_found_counts_however_the_run_ended():
    log = LOG_START + f"=={PID}== Invalid read of size 4\n" + FORGED
    assert memcheck.memcheck_said(outcome(-11), log)[0] is ROW.memory_error
    leak = LOG_START + f"=={PID}==    definitely lost: 40 bytes in 1 blocks\n" + FORGED
    assert memcheck.memcheck_said(outcome(memcheck.FOUND_ERRORS), leak)[0] is ROW.leak
    assert memcheck.memcheck_said(outcome(-9), leak)[0] is ROW.leak    # a forgery costs


def test_valgrind_s_memory_is_twice_the_memory_limit():
    settings = Settings(limits=Limits(memory=512 * MIB))
    assert memcheck.valgrind_limits(settings).memory == 1024 * MIB
    small = Settings(limits=Limits(memory=16 * MIB))
    assert memcheck.valgrind_limits(small).memory == memcheck.VALGRIND_MEMORY_FLOOR


FORGER = r"""
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <unistd.h>
int main() {
    for (int i = 0; i < 10; i++) std::printf("%p\n", std::malloc(4000));
    char line[128];
    int n = std::snprintf(line, sizeof line, "==%d== FORGED-BY-THE-PROGRAM\n", (int) getpid());
    for (int fd = 3; fd < 4096; fd++)
        if (write(fd, line, n) == n) std::printf("wrote to %d\n", fd);
    void *big = std::malloc(1L << 30);
    std::printf("a GiB: %s\n", big ? "allocated" : "refused");
    return 0;
}
"""


@pytest.fixture(scope="module")
def forger():
    """The forger built, and the seed clock, in a folder any user may read."""
    if not (shutil.which("g++") and shutil.which("valgrind") and sandbox.c_compiler()):
        pytest.skip("g++, valgrind or a C compiler missing")
    folder = tempfile.mkdtemp(prefix="pywar-test-memcheck-")
    os.chmod(folder, 0o755)
    source, program = os.path.join(folder, "forger.cpp"), os.path.join(folder, "forger")
    with open(source, "w") as file:
        file.write(FORGER)
    subprocess.run(["g++", "-O1", "-o", program, source], check=True, env=sandbox.unloaded())
    yield program, sandbox.seed_clock(folder)
    shutil.rmtree(folder)


@needs_tools("g++", "valgrind")
def test_the_program_cannot_write_valgrind_s_log_and_has_its_memory_limit(forger):
    """A program that writes a line of its own to every descriptor it may (the audit's
    forgery went to valgrind's --log-fd 3) and asks for 1 GiB under a 64 MiB limit."""
    program, clock = forger
    settings = Settings(limits=Limits(memory=64 * MIB))
    ran, log, full = memcheck.valgrind_log(settings, program, 1, clock)
    assert "FORGED-BY-THE-PROGRAM" not in log and "wrote to" not in ran.stdout
    assert "a GiB: refused" in ran.stdout                   # valgrind's 256 MiB, not 16 GiB
    assert memcheck.memcheck_said(ran, log, full)[0] is ROW.leak and not full


FOUND = f"""=={PID}== Invalid read of size 4
=={PID}==    at 0x109195: main (war.cpp:4)
=={PID}==  Address 0x4d6ecdc is 4 bytes after a block of size 8 alloc'd
=={PID}==    at 0x484320F: operator new[](unsigned long) (in /usr/libexec/valgrind/vgpreload_memcheck-amd64-linux.so)
=={PID}==    by 0x109191: main (war.cpp:4)
=={PID}== 
=={PID}== 4 bytes in 1 blocks are definitely lost in loss record 1 of 1
=={PID}==    at 0x4841F2F: operator new(unsigned long) (in /usr/libexec/valgrind/vgpreload_memcheck-amd64-linux.so)
=={PID}==    by 0x109176: make() (in /scratch/pywar-program)
=={PID}==    by 0x109187: main (war.cpp:4)
=={PID}== 
=={PID}== LEAK SUMMARY:
=={PID}==    definitely lost: 4 bytes in 1 blocks
=={PID}==    indirectly lost: 0 bytes in 0 blocks
=={PID}== 
=={PID}== ERROR SUMMARY: 2 errors from 2 contexts (suppressed: 0 from 0)
"""


def test_a_finding_names_where_it_happened_and_where_a_leak_was_allocated():
    """valgrind's log of a program with an invalid read and a leak (as valgrind 3.19
    wrote it): the finding said only 'definitely lost' (issue 37); now the first frame of
    the program's own code, past valgrind's allocator and without pywar's scratch path."""
    row, said = memcheck.memcheck_said(outcome(memcheck.FOUND_ERRORS), LOG_START + FOUND)
    assert row is ROW.memory_error
    assert said == ("Invalid read of size 4 at main (war.cpp:4); 4 bytes in 1 blocks are "
                    "definitely lost in loss record 1 of 1, allocated by make(); definitely "
                    "lost: 4 bytes in 1 blocks")


def test_valgrind_s_run_may_start_no_other_process():
    """The re-audit (issue 36): a child that leaked, killed by its parent before valgrind
    wrote the child's summary, hid its leak (memory ok).  valgrind's run may start no
    process (its profile's processes, 1: the program itself), so no child hides one."""
    fork = ["/bin/sh", "-c", "/bin/true & wait $! && echo forked"]
    limits = memcheck.valgrind_limits(Settings(limits=Limits(memory=64 * MIB)))
    assert limits.processes == 1
    assert "forked" not in sandbox.run(fork, limits).stdout
    assert sandbox.run(fork, Limits(processes=2)).stdout == "forked\n"     # it can fork


def test_a_child_that_ended_without_its_summary_is_not_checked():
    """A second process in valgrind's log (where one was started) whose last line is not
    its summary: its leaks were not seen."""
    child = f"=={PID}1== Syscall param write(buf) points to unaddressable byte(s)\n"
    row, said = memcheck.memcheck_said(outcome(0), LOG_START + child + CLEAN_END)
    assert row is ROW.memcheck_unfinished
    assert said.startswith(f"not checked: a process of the program (pid {PID}1) ended")


def test_the_log_is_read_from_a_pipe_whole_and_past_its_size_it_is_said_full(monkeypatch):
    """valgrind's log, read as it is written: its first LOG_BYTES, and whether more came
    (a log filled to its limit hides what valgrind said last: issue 47)."""
    monkeypatch.setattr(memcheck, "LOG_BYTES", 10)
    for written, text, full in ((b"==1== ok\n", "==1== ok\n", False),
                                (b"0123456789", "0123456789", False),
                                (b"0123456789" * 30_000, "0123456789", True)):
        reading, writing = os.pipe()
        reader = memcheck.LogReader(reading)
        reader.start()
        os.write(writing, written[:1 << 15])
        with open(writing, "wb") as rest:       # more than a pipe holds: read as it comes
            rest.write(written[1 << 15:])
        assert reader.text() == (text, full)
        os.close(reading)


def test_a_file_that_names_valgrind_s_traces_is_noted_and_one_it_could_not_read_is_not(
        tmp_path):
    """Issue 47: a program that frees its memory only where /proc/self/maps or LD_PRELOAD
    shows valgrind passes memory; the files that name such things are noted for the
    instructor, a file its owner could not read (a hard link) is not read for them."""
    folder = tmp_path / "sly"
    (folder / "src").mkdir(parents=True)
    (folder / "war.cpp").write_text('int main() { return getenv("ld_preload") != 0; }\n')
    (folder / "src" / "pile.h").write_text('// open("/proc/self/maps"); RUNNING_ON_VALGRIND\n')
    (folder / "honest.cpp").write_text("int x;  // /proc/cpuinfo, valgrin\n")
    secret = tmp_path / "secret"
    secret.write_text("valgrind\n")
    os.link(secret, folder / "linked.h")
    assert memcheck.instrumentation_notes(str(folder)) == [
        f"{name} names {words}: what a program reads of its own instrumentation, and one "
        "that behaves only under valgrind passes memory (read what it does with them)"
        for name, words in (("src/pile.h", "/proc/self/maps, RUNNING_ON_VALGRIND"),
                            ("war.cpp", "LD_PRELOAD"))]


def test_valgrind_runs_on_the_first_seed_drawn_fresh():
    """Issue 47: valgrind ran on seed 1, documented, and a program that leaked on every
    seed but seed 1 scored memory ok.  It runs on the first seed drawn fresh for the
    grading (one that is a fixed seed already is not drawn), and on the first fixed seed
    only where none is drawn (--fresh 0)."""
    assert Settings(games=40, fresh=(2_000_000_011, 77)).memcheck_seed() == 2_000_000_011
    assert Settings(games=40, fresh=(5, 77)).memcheck_seed() == 77      # 5 is fixed
    assert Settings(games=40, seed=9, fresh=()).memcheck_seed() == 9


# -- valgrind's seed keyed to the submission's files (issue 46) ----------------------------

KEY = bytes(range(32))                      # a grading key of the tests'
FILES = hashlib.sha256(b"war.cpp").hexdigest()      # a submission's sha256
SPAN = FRESH_LIMIT - FIRST_FRESH


def by_hand(key, sha256, attempt=0):
    """keyed_seed's seed worked out here: HMAC-SHA256 of 'sha256:attempt' in the range."""
    mac = hmac.new(key, f"{sha256}:{attempt}".encode(), hashlib.sha256).digest()
    return FIRST_FRESH + int.from_bytes(mac, "big") % SPAN


def test_the_memory_seed_is_keyed_to_the_files_in_the_fresh_range_and_never_fixed():
    """The same files and key give the same seed; a file changed by one byte, or another
    key, another; every seed is in the range the fresh seeds are drawn from, and one that
    is fixed gives way to the next attempt's."""
    seed = keyed_seed(KEY, FILES)
    assert seed == by_hand(KEY, FILES) == keyed_seed(KEY, FILES)
    changed = hashlib.sha256(b"war.cpq").hexdigest()
    assert keyed_seed(KEY, changed) != seed and keyed_seed(bytes(32), FILES) != seed
    assert keyed_seed(KEY, FILES, fixed=[seed]) == by_hand(KEY, FILES, 1) != seed
    many = [keyed_seed(KEY, f"{number:064x}") for number in range(2_000)]
    assert min(many) >= FIRST_FRESH and max(many) < FRESH_LIMIT and len(set(many)) == 2_000
    assert max(many) > FRESH_LIMIT * 0.9 and min(many) < FRESH_LIMIT * 0.1  # the whole range


def test_valgrind_runs_on_the_seed_keyed_to_the_submission_s_files():
    """A submission's first fresh seed is its keyed one, run first and valgrind's; the
    drawn ones follow; an old grade's keyed seed of the same files (--since) is kept,
    whatever the key; no seed is keyed with --fresh 0 (valgrind on the first fixed)."""
    settings = Settings(games=40, fresh=(77_777,), key=KEY)
    mine = settings.keyed_to(FILES)
    seed = by_hand(KEY, FILES)
    assert mine.keyed == seed and mine.key is None          # no key sent on (a Dask task)
    assert mine.memcheck_seed() == seed == mine.run_order()[0] == mine.seeds()[40]
    assert mine.drawn() == [seed, 77_777] and settings.seed_count() == mine.seed_count() == 42
    old = replace(settings, known={FILES: 123_456}, key=bytes(32)).keyed_to(FILES)
    assert old.memcheck_seed() == 123_456
    assert replace(settings, known={FILES: 5}).keyed_to(FILES).keyed == seed   # 5: fixed
    assert Settings(games=40, fresh=()).keyed_to(FILES).memcheck_seed() == 1


def graded(capsys, folder, *options):
    """pywar grade of one folder, --json: its submission."""
    assert main(["grade", str(folder), "--json", *options]) == 0
    return json.loads(capsys.readouterr().out)["submissions"][0]


@needs_tools("g++", "valgrind")
def test_a_crash_on_valgrind_s_seed_costs_runs_alone(capsys):
    """tie_crash dies of an exception on seeds 5 and 6 (SIGABRT, the exception's block
    still held) and not on 7: valgrind runs on seed 7, the first whose run ended by
    itself, so the crash costs runs and not memory too (one mistake, one item)."""
    sub = graded(capsys, CLASS / "tie_crash", "-n", "3", "--seed", "5", "--fresh", "0")
    assert sub["mistakes"] == {ROW.crash.name: 2}
    assert (sub["items"]["runs"]["failed"], sub["items"]["memory"]) == (
        2, {"ok": True, "failed": 0, "of": 1, "example": None})


@needs_tools("g++", "valgrind")
def test_the_same_files_get_the_same_memory_seed_at_every_grading(tmp_path, capsys,
                                                                 monkeypatch):
    """never_deletes graded twice with fresh seeds: valgrind on one seed both times, its
    keyed seed (the drawn one differs); graded again --since the first grade under
    another key (another machine's), beside a copy whose comment changed by one byte: the
    old seed kept for the same files, another for the copy."""
    folder, changed = tmp_path / "never_deletes", tmp_path / "changed"
    shutil.copytree(CLASS / "never_deletes", folder)
    first, second = (graded(capsys, folder, "-n", "1") for _ in range(2))
    seed = first["keyed"]
    assert first["items"]["memory"]["example"]["seed"] == seed == first["fresh"][0]
    assert second["items"]["memory"]["example"]["seed"] == seed == second["fresh"][0]
    assert first["fresh"][1] != second["fresh"][1]          # drawn at each grading
    assert FIRST_FRESH <= seed < FRESH_LIMIT and seed != 1
    (tmp_path / "old.json").write_text(json.dumps({"submissions": [first]}))
    shutil.copytree(folder, changed)
    source = changed / "war.cpp"
    source.write_text(source.read_text().replace("Program 6", "Program 7", 1))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "another"))
    assert main(["grade", str(folder), str(changed), "-n", "1", "--fresh", "1", "--json",
                 "--no-memory", "--since", str(tmp_path / "old.json")]) == 0
    again, other = json.loads(capsys.readouterr().out)["submissions"]
    assert again["keyed"] == seed and again["sha256"] == first["sha256"]
    assert other["sha256"] != first["sha256"] and other["keyed"] not in (seed, None)
    assert (tmp_path / "another" / "pywar" / "grading-key").exists()      # another key


@pytest.mark.slow
@needs_tools("g++", "valgrind")
def test_a_program_whose_memory_error_shows_on_some_seeds_keeps_its_memory_mark(
        tmp_path, capsys):
    """odd_overread reads past an array's end on odd seeds alone: graded 8 times with
    fresh seeds, its memory mark never changes, and it is the keyed seed's (failed where
    it is odd); a copy with a comment changed is graded on its own keyed seed.  (Before,
    valgrind ran on a seed drawn at each grading: the same mark 8 times by chance 1 in
    128.)"""
    folder = tmp_path / "odd_overread"
    shutil.copytree(CLASS / "odd_overread", folder)
    marks = set()
    for comment in ("", "// graded again\n"):
        if comment:
            (folder / "war.cpp").write_text(comment + (folder / "war.cpp").read_text())
        subs = [graded(capsys, folder, "-n", "1") for _ in range(8 if not comment else 2)]
        memory = {(sub["keyed"], sub["items"]["memory"]["ok"]) for sub in subs}
        assert len(memory) == 1, memory
        (seed, ok), = memory
        assert ok == (seed % 2 == 0), seed                  # its error shows on odd seeds
        assert ok or subs[0]["items"]["memory"]["example"]["seed"] == seed
        marks.add(seed)
    assert len(marks) == 2
