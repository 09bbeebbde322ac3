"""pywar play --trace: the trace to a file (the transcript still on stdout), or to stdout
in place of the transcript; a file that cannot be written is one line and exit 3."""

import json
import os

import pytest

import pywar
from conftest import reference_transcript
from pywar.cli import main
from pywar.check.implementations.replay import check_trace


def run(capsys, *argv):
    """main(argv): (exit status, stdout, stderr)."""
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize("engine", ["python", "port-python"])
def test_the_trace_goes_to_the_file_and_the_transcript_to_stdout(tmp_path, capsys, engine):
    path = tmp_path / "game.jsonl"
    status, out, err = run(capsys, "play", "--seed", "17455", "--engine", engine,
                           "--trace", str(path))
    assert (status, err) == (0, "")
    assert out == reference_transcript(17455)
    trace = path.read_text()
    assert json.loads(trace.split("\n", 1)[0])["engine"] == engine
    assert trace.count("\n") == 166                  # the header and 165 events
    assert check_trace(trace).fault is None


def test_a_trace_to_stdout_replaces_the_transcript(capsys):
    status, out, err = run(capsys, "play", "--seed", "17455", "--engine", "python",
                           "--trace", "-")
    assert (status, err) == (0, "")
    header = json.loads(out.split("\n", 1)[0])
    assert (header["trace"], header["seed"], header["engine"]) == ("pywar", 17455, "python")
    assert "Welcome" not in out
    assert check_trace(out).fault is None


def test_json_with_a_file_trace(tmp_path, capsys):
    path = tmp_path / "game.jsonl"
    status, out, _ = run(capsys, "play", "--seed", "12", "--rules", "lehigh", "--json",
                         "--trace", str(path), "--engine", "python")
    assert status == 0 and json.loads(out)["outcome"] == "cycle"
    assert path.read_text().splitlines()[-1].startswith('{"event":"end"')


def test_json_and_a_trace_on_stdout_is_a_usage_error(capsys):
    status, out, err = run(capsys, "play", "--json", "--trace", "-")
    assert (status, out) == (2, "") and err.count("\n") == 1 and "--trace" in err


def test_a_file_that_cannot_be_opened_fails_before_the_game(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(pywar, "play", lambda *args, **kwargs: pytest.fail("played"))
    status, out, err = run(capsys, "play", "--seed", "1", "--trace",
                           str(tmp_path / "no-folder" / "game.jsonl"))
    assert (status, out) == (3, "")
    path = str(tmp_path / "no-folder" / "game.jsonl")
    assert err == f"pywar play: error: cannot write --trace {path!r}: No such file or directory\n"


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full")
def test_a_full_disk_is_exit_3(capsys):
    status, _, err = run(capsys, "play", "--seed", "1", "--engine", "python",
                         "--trace", "/dev/full")
    assert status == 3 and err == "pywar play: error: cannot write --trace '/dev/full': " \
                                  "No space left on device\n"
