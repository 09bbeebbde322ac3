"""Outputs never destroy what pywar did not make (pywar/atomic.py, pywar/cli/outputs.py):
a failed or interrupted output leaves a device, a FIFO, a symlink and its target, and an
earlier run's file as they were; two outputs on one file are refused before any work.

Each expected content is the one the test wrote there itself before the command ran."""

import os
import stat
import threading

import pytest

import pywar
from conftest import needs_c
from pywar.cli import main

pytestmark = needs_c
OLD = "an earlier run's file\n"
FULL = "/dev/full"
needs_root = pytest.mark.skipif(os.geteuid() != 0, reason="mknod needs root")
needs_dev_full = pytest.mark.skipif(not os.path.exists(FULL), reason="no /dev/full")


def listing(folder):
    """The names in a folder, sorted (a temporary file left behind would show)."""
    return sorted(os.listdir(folder))


class Drain:
    """A reader of a FIFO, on a thread, opened before the command opens it to write."""

    def __init__(self, path):
        self.descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
        self.data = b""
        self.done = threading.Event()
        self.thread = threading.Thread(target=self.read, daemon=True)
        self.thread.start()

    def read(self):
        """Read until closed."""
        while not self.done.is_set():
            try:
                chunk = os.read(self.descriptor, 65536)
            except BlockingIOError:
                self.done.wait(0.01)
                continue
            self.data += chunk

    def close(self):
        """Stop reading and close the FIFO."""
        self.done.set()
        self.thread.join()
        os.close(self.descriptor)


@needs_root
@needs_dev_full
def test_a_device_a_fifo_and_a_symlink_survive_a_failing_output(tmp_path, capsys):
    """As root: each is an output beside one that fails (a plot that cannot be opened, a
    page on a full disk); all three are still there, and the symlink's target keeps its
    content."""
    pytest.importorskip("matplotlib")
    device = tmp_path / "null-device"
    os.mknod(device, stat.S_IFCHR | 0o666, os.makedev(1, 3))   # the null device's numbers
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    target = tmp_path / "target.csv"
    target.write_text(OLD)
    link = tmp_path / "link.csv"
    link.symlink_to(target)
    drain = Drain(fifo)
    try:
        for output in (device, fifo, link):
            assert main(["simulate", "-n", "5", "--csv", str(output),
                         "--plot", str(tmp_path / "no-folder" / "p.png")]) == 3
            assert main(["play", "--seed", "17455", "--trace", str(output),
                         "--html", FULL]) == 3
    finally:
        drain.close()
    assert stat.S_ISCHR(os.stat(device).st_mode)
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert target.read_text() == OLD
    assert listing(tmp_path) == ["fifo", "link.csv", "null-device", "target.csv"]
    assert b'"trace":"pywar"' in drain.data          # the FIFO was written, directly
    assert os.path.exists(FULL)


@needs_dev_full
def test_a_page_on_dev_full_fails_and_dev_full_stays(capsys):
    status = main(["play", "--seed", "1", "--html", FULL])
    assert status == 3 and "No space left on device" in capsys.readouterr().err
    assert stat.S_ISCHR(os.stat(FULL).st_mode)


def test_a_plot_that_cannot_be_written_keeps_an_earlier_csv(tmp_path, capsys):
    """pywar simulate -n 10 --csv old.csv --plot /nonexistent/x.png destroyed old.csv."""
    old = tmp_path / "old.csv"
    old.write_text(OLD)
    status = main(["simulate", "-n", "10", "--csv", str(old),
                   "--plot", str(tmp_path / "nonexistent" / "x.png")])
    assert status == 3
    assert old.read_text() == OLD
    assert listing(tmp_path) == ["old.csv"]


@needs_dev_full
def test_a_trace_beside_a_failing_page_keeps_the_earlier_trace(tmp_path, capsys):
    """The page fails after the game: the trace, complete by then, is not put in place."""
    trace = tmp_path / "game.jsonl"
    trace.write_text(OLD)
    assert main(["play", "--seed", "17455", "--trace", str(trace), "--html", FULL]) == 3
    assert trace.read_text() == OLD
    assert listing(tmp_path) == ["game.jsonl"]


def test_a_finished_output_replaces_the_file_and_keeps_its_permissions(tmp_path, capsys):
    path = tmp_path / "games.csv"
    path.write_text(OLD)
    os.chmod(path, 0o640)
    assert main(["simulate", "-n", "3", "--csv", str(path)]) == 0
    assert path.read_text().count("\n") == 4 and path.read_text().startswith("seed,")
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o640
    assert listing(tmp_path) == ["games.csv"]


def test_a_new_file_gets_the_umask_permissions(tmp_path, capsys):
    previous = os.umask(0o027)
    try:
        assert main(["play", "--seed", "1", "--trace", str(tmp_path / "t.jsonl")]) == 0
    finally:
        os.umask(previous)
    assert stat.S_IMODE(os.stat(tmp_path / "t.jsonl").st_mode) == 0o640


def test_nothing_is_at_the_path_until_the_output_is_complete(tmp_path):
    """The old content stays while the new is written; the commit swaps them."""
    from pywar.atomic import AtomicFile
    path = tmp_path / "out.txt"
    path.write_text(OLD)
    output = AtomicFile(str(path), binary=False)
    output.stream.write("new\n")
    output.stream.flush()
    assert path.read_text() == OLD
    output.commit()
    assert path.read_text() == "new\n" and listing(tmp_path) == ["out.txt"]


def test_a_block_that_raises_leaves_the_path_and_one_that_is_kept_commits(tmp_path):
    from pywar.atomic import written
    path = tmp_path / "out.bin"
    path.write_bytes(b"old")
    with pytest.raises(ZeroDivisionError):
        with written(str(path)) as stream:
            stream.write(b"new")
            1 / 0
    assert path.read_bytes() == b"old"
    with pytest.raises(KeyboardInterrupt):
        with written(str(path), keep=KeyboardInterrupt) as stream:
            stream.write(b"part")
            raise KeyboardInterrupt
    assert path.read_bytes() == b"part" and listing(tmp_path) == ["out.bin"]


def test_the_api_csv_is_left_as_it_was_when_the_run_fails(tmp_path):
    """simulate(csv=PATH) whose progress callback raises: the old file stays."""
    path = tmp_path / "games.csv"
    path.write_text(OLD)

    def broken(finished, total):
        raise RuntimeError("the caller's callback failed")

    with pytest.raises(RuntimeError):
        pywar.simulate(2000, csv=str(path), progress=broken, engine="c")
    assert path.read_text() == OLD and listing(tmp_path) == ["games.csv"]


def test_the_api_csv_of_an_interrupted_run_is_put_in_place(tmp_path):
    """Ctrl-C in the progress callback: the CSV holds the games of .simulation."""
    path = tmp_path / "games.csv"
    path.write_text(OLD)
    calls = []

    def interrupt(finished, total):
        calls.append(finished)
        if finished > 0:
            raise KeyboardInterrupt

    with pytest.raises(pywar.SimulationInterrupted) as caught:
        pywar.simulate(200_000, csv=str(path), progress=interrupt, engine="c", jobs=1,
                       chunk=256)
    rows = path.read_text().splitlines()
    assert rows[0].startswith("seed,")
    assert len(rows) - 1 == caught.value.simulation.games > 0


def test_write_csv_and_plot_write_through_a_temporary_file(tmp_path):
    path = tmp_path / "games.csv"
    path.write_text(OLD)
    simulation = pywar.simulate(4, engine="c")
    simulation.write_csv(str(path))
    assert path.read_text().count("\n") == 5 and listing(tmp_path) == ["games.csv"]


SAME_FILE = [
    (["play", "--seed", "1", "--trace", "/dev/stdout"], "--trace '/dev/stdout' and stdout"),
    (["play", "--seed", "1", "--html", "{x}.html", "--trace", "{x}.html"],
     "--html '{x}.html' and --trace '{x}.html'"),
    (["simulate", "-n", "5", "--csv", "/dev/stdout"],
     "--csv '/dev/stdout' and the summary on stdout"),
    (["simulate", "-n", "5", "--plot", "{x}.png", "--csv", "{x}.png"],
     "--csv '{x}.png' and --plot '{x}.png'"),
]


@pytest.mark.parametrize("argv, words", SAME_FILE)
def test_two_outputs_on_one_file_are_refused_before_any_work(argv, words, tmp_path,
                                                             monkeypatch, capfd):
    """Each pair overwrote the other with exit 0.  Here stdout is a file of its own, as
    `> out.txt` makes it, so /dev/stdout names that file."""
    pytest.importorskip("matplotlib")
    monkeypatch.setattr(pywar, "play", lambda *args, **kwargs: pytest.fail("played"))
    monkeypatch.setattr(pywar, "simulate", lambda *args, **kwargs: pytest.fail("played"))
    base = str(tmp_path / "same")
    status = main([word.replace("{x}", base) for word in argv])
    out, err = capfd.readouterr()
    assert (status, out) == (2, "")
    assert words.replace("{x}", base) + " are the same file" in err
    assert listing(tmp_path) == []


def test_the_null_device_takes_two_outputs(capsys):
    assert main(["play", "--seed", "1", "--trace", os.devnull, "--html", os.devnull]) == 0


def test_ctrl_c_before_the_first_game_leaves_the_csv_as_it_was(tmp_path, monkeypatch,
                                                               capfd):
    """A Ctrl-C before the first game left a 0-byte CSV, then the CSV of its header in
    place of an earlier run's: a file is replaced only by an output of at least one
    finished game (issue 48), so the earlier CSV and plot stay, beside the summary of no
    games; on stdout, what was written, the header of a CSV of no games."""
    from pywar.sim.simulation import CSV_HEADER

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt
    monkeypatch.setattr(pywar, "simulate", interrupted)
    path, plot = tmp_path / "games.csv", tmp_path / "games.png"
    path.write_text(OLD)
    plot.write_text(OLD)
    assert main(["simulate", "-n", "10", "--csv", str(path), "--plot", str(plot),
                 "--json"]) == 130
    assert '"games": 0' in capfd.readouterr().out
    assert path.read_text() == OLD and plot.read_text() == OLD
    assert listing(tmp_path) == ["games.csv", "games.png"]
    assert main(["simulate", "-n", "10", "--csv", "-"]) == 130
    out, err = capfd.readouterr()
    assert (out, err) == (CSV_HEADER.decode(), "no games finished\n")


def test_an_interrupted_output_of_no_finished_work_leaves_the_path(tmp_path):
    """The rule in the shared layer: written(..., keep, finished) commits an interrupted
    output only where it holds finished work, and keep_finished discards every file of
    a command that finished none (an existing path as it was, a new one not made)."""
    from pywar.atomic import written
    from pywar.cli.outputs import keep_finished, output_files
    path = tmp_path / "out.bin"
    path.write_bytes(b"old")
    for done, expected in ((0, b"old"), (3, b"part")):
        with pytest.raises(KeyboardInterrupt):
            with written(str(path), keep=KeyboardInterrupt,
                         finished=lambda stopped: done) as stream:
                stream.write(b"part")
                raise KeyboardInterrupt
        assert path.read_bytes() == expected and listing(tmp_path) == ["out.bin"]
    for done, expected in ((0, [b"part", None]), (1, [b"new", b"new"])):
        with output_files(("--a", str(path), True, None),
                          ("--b", str(tmp_path / "new.bin"), True, None)) as files:
            keep_finished(files, done)
            for output in files.values():
                output.write(b"new")
        assert [path.read_bytes(), (tmp_path / "new.bin").read_bytes()
                if (tmp_path / "new.bin").exists() else None] == expected


def test_a_path_where_stderr_writes_is_added_to_not_replaced(tmp_path):
    """--csv /dev/stderr with stderr appended to a log (2>>log): the rows go after what
    the log held, and the log is the same file (neither replaced by a rename nor
    truncated by a reopening)."""
    import subprocess
    import sys
    log = tmp_path / "log.txt"
    log.write_text("kept\n")
    inode = log.stat().st_ino
    with open(log, "a") as stderr:
        done = subprocess.run([sys.executable, "-m", "pywar", "simulate", "-n", "3", "--csv",
                               "/dev/stderr", "--json", "--no-progress"],
                              stderr=stderr, stdout=subprocess.DEVNULL)
    lines = log.read_text().splitlines()
    assert done.returncode == 0 and log.stat().st_ino == inode
    assert lines[0] == "kept" and lines[1].startswith("seed,winner,") and len(lines) == 5


@pytest.mark.parametrize("argv, words", [
    (["--html", "/dev/stdout"], "--html '/dev/stdout' and the report on stdout"),
    (["--html", "{x}", "--gradescope", "{x}"], "--html '{x}' and --gradescope '{x}'"),
])
def test_grade_refuses_two_outputs_on_one_file_before_any_work(argv, words, tmp_path, capfd):
    """pywar grade --html r.html >> r.html mixed the table and the page into one file,
    and --html x --gradescope x lost the page; both are usage errors now, with no
    submission built."""
    submission, outputs = tmp_path / "student", tmp_path / "out"
    submission.mkdir()
    outputs.mkdir()
    base = str(outputs / "same")
    status = main(["grade", *[word.replace("{x}", base) for word in argv], str(submission)])
    out, err = capfd.readouterr()
    assert (status, out) == (2, "")
    assert words.replace("{x}", base) + " are the same file" in err
    assert listing(outputs) == [] and listing(submission) == []


# ---- A failure at the last flush, and a file the user may not write (issue 31)

NOBODY = 65534
FLUSHED_AT_CLOSE = """
import signal, sys
from pywar.atomic import written
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)    # a write past the limit fails with EFBIG
try:
    with written(sys.argv[1], binary=False) as stream:
        stream.write("x" * 5000)                 # under the buffer's 8192: written at close
except OSError as error:
    print(error.strerror)
"""


def limited_to(size):
    """A preexec_fn: files the child writes may hold at most size bytes."""
    import resource
    return lambda: resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))


def test_a_failure_at_the_final_flush_leaves_the_old_file(tmp_path):
    """Everything written sits in the stream's buffer until close() flushes it, which
    fails (RLIMIT_FSIZE of 1,000 bytes): the temporary file must not have been renamed
    into place before the close, which would leave a cut file where the old one was."""
    import subprocess
    import sys
    path = tmp_path / "out.csv"
    path.write_text(OLD)
    done = subprocess.run([sys.executable, "-c", FLUSHED_AT_CLOSE, str(path)],
                          capture_output=True, text=True, preexec_fn=limited_to(1000))
    assert (done.returncode, done.stdout, done.stderr) == (0, "File too large\n", "")
    assert path.read_text() == OLD and listing(tmp_path) == ["out.csv"]


def test_a_csv_whose_close_fails_is_exit_3_and_keeps_the_old_csv(tmp_path):
    """The command's way there: simulate's three rows fit the buffer, and the flush of
    the close fails."""
    import signal
    import subprocess
    import sys
    path = tmp_path / "games.csv"
    path.write_text(OLD)

    def limits():
        limited_to(200)()
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    done = subprocess.run([sys.executable, "-m", "pywar", "simulate", "-n", "3", "--csv",
                           str(path)], capture_output=True, text=True, preexec_fn=limits)
    assert done.returncode == 3
    assert done.stderr == (f"pywar simulate: error: cannot write --csv {str(path)!r}: "
                           "File too large\n")
    assert path.read_text() == OLD and listing(tmp_path) == ["games.csv"]


def as_a_user(action):
    """action() as a user who is not root: in a child process that becomes nobody when
    the tests run as root.  What it returned (a str), or the name of what it raised."""
    def outcome():
        try:
            return action()
        except BaseException as error:
            return type(error).__name__
    if os.geteuid() != 0:
        return outcome()
    reader, writer = os.pipe()
    child = os.fork()
    if child == 0:
        os.close(reader)
        said = "could not become nobody"
        try:
            os.setgroups([])
            os.setresgid(NOBODY, NOBODY, NOBODY)
            os.setresuid(NOBODY, NOBODY, NOBODY)
            said = outcome()
        finally:
            os.write(writer, said.encode())
            os._exit(0)
    os.close(writer)
    os.waitpid(child, 0)
    with os.fdopen(reader) as pipe:
        return pipe.read()


@pytest.fixture
def users_folder():
    """A folder that the user (nobody, when the tests run as root) may write, holding
    OLD in a file of mode 0444 that is theirs: (folder, path)."""
    import shutil
    import tempfile
    folder = tempfile.mkdtemp(prefix="pywar-test-readonly-")   # outside root's tmp_path
    path = os.path.join(folder, "games.csv")
    with open(path, "w") as file:
        file.write(OLD)
    os.chmod(path, 0o444)
    os.chmod(folder, 0o777)
    if os.geteuid() == 0:
        os.chown(path, NOBODY, NOBODY)
    yield folder, path
    shutil.rmtree(folder)


def test_a_file_the_user_may_not_write_is_refused_not_replaced(users_folder):
    """A 0444 file of the user's in a folder they may write: the shell's > refuses it
    (Permission denied); pywar replaced it by renaming its temporary file over it."""
    from pywar.atomic import AtomicFile
    folder, path = users_folder

    def write():
        output = AtomicFile(path, binary=False)
        output.stream.write("new\n")
        output.commit()
        return "written"
    assert as_a_user(write) == "PermissionError"
    assert open(path).read() == OLD and listing(folder) == ["games.csv"]
    os.chmod(path, 0o644)                                      # once writable, written
    assert as_a_user(write) == "written" and open(path).read() == "new\n"


def test_the_command_names_the_file_the_user_may_not_write(users_folder):
    """pywar simulate --csv onto it: exit 3 in one line before any work, as the user;
    root may write it, as the shell's > lets root."""
    import contextlib
    import io
    folder, path = users_folder

    def simulate():
        err = io.StringIO()
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            status = main(["simulate", "-n", "3", "--csv", path])
        return f"{status} {err.getvalue()}"
    assert as_a_user(simulate) == (f"3 pywar simulate: error: cannot write --csv {path!r}: "
                                   "Permission denied\n")
    assert open(path).read() == OLD and listing(folder) == ["games.csv"]
