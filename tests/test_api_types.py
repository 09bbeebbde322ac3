"""The API refuses an argument of the wrong type with a TypeError naming it, before any
work: a file descriptor is not a path, a text file is not a binary one."""

import io
import os

import pytest

import pywar
from conftest import needs_c
from pywar.sim import batch

pytestmark = needs_c
EXACT = {"deck": "4x1", "piles": "queue", "pickup": "winner-first"}


@pytest.fixture
def no_work(monkeypatch):
    """Any game played fails the test: the refusal must come first."""
    monkeypatch.setattr(batch, "run", lambda *args, **kwargs: pytest.fail("played"))
    monkeypatch.setattr(pywar.twin, "play", lambda *args, **kwargs: pytest.fail("played"))
    monkeypatch.setattr(pywar._checked, "play", lambda *args, **kwargs: pytest.fail("played"))


CALLS = [
    (lambda: pywar.simulate(3, csv=True), "csv", "bool"),
    (lambda: pywar.simulate(3, csv=False), "csv", "bool"),
    (lambda: pywar.simulate(3, csv=1), "csv", "a file descriptor is not a path"),
    (lambda: pywar.simulate(3, csv=io.StringIO()), "csv", "StringIO"),
    (lambda: pywar.simulate(3, csv=3.5), "csv", "float"),
    (lambda: pywar.simulate(3, client="x"), "client", "str"),
    (lambda: pywar.simulate(3, progress=5), "progress", "int"),
    (lambda: pywar.exact_counts(client=5, **EXACT), "client", "int"),
    (lambda: pywar.exact_counts(progress="x", **EXACT), "progress", "str"),
    (lambda: pywar.play(1, trace=1), "trace", "int"),
    (lambda: pywar.play(1, trace=None), "trace", "NoneType"),
    (lambda: pywar.play(1, transcript=None), "transcript", "NoneType"),
    (lambda: pywar.play(1, transcript="yes"), "transcript", "str"),
]


@pytest.mark.parametrize("call, name, words", CALLS)
def test_a_wrong_type_is_a_type_error_naming_the_argument(call, name, words, no_work):
    with pytest.raises(TypeError) as caught:
        call()
    message = str(caught.value)
    assert message.startswith(f"{name} must be") and words in message


def test_a_file_descriptor_given_as_csv_is_left_open(tmp_path):
    """csv=f.fileno() closed the caller's file; now it is refused and the file works."""
    with open(tmp_path / "mine.txt", "w") as mine:
        with pytest.raises(TypeError):
            pywar.simulate(3, csv=mine.fileno())
        mine.write("still open\n")
    assert (tmp_path / "mine.txt").read_text() == "still open\n"


def test_write_csv_refuses_a_file_descriptor_and_takes_a_binary_file(tmp_path):
    simulation = pywar.simulate(3, engine="c")
    with open(tmp_path / "mine.csv", "wb") as mine:
        with pytest.raises(TypeError, match="a file descriptor is not a path"):
            simulation.write_csv(mine.fileno())
        simulation.write_csv(mine)
    rows = (tmp_path / "mine.csv").read_text().splitlines()
    assert rows[0].startswith("seed,") and [row.split(",")[0] for row in rows[1:]] == \
        ["0", "1", "2"]
    os.fstat(1)                                 # stdout is still open


def test_a_binary_file_and_a_path_like_are_taken(tmp_path):
    buffer = io.BytesIO()
    pywar.simulate(2, csv=buffer, engine="c")
    pywar.simulate(2, csv=tmp_path / "games.csv", engine="c")
    assert buffer.getvalue() == (tmp_path / "games.csv").read_bytes()
    assert buffer.getvalue().count(b"\n") == 3


@pytest.mark.parametrize("call", [
    lambda progress: pywar.simulate(40, seed=7, engine="python", progress=progress).combined_digest(),
    lambda progress: pywar.exact_counts(**EXACT, engine="python", progress=progress).to_json()["rounds"],
])
def test_progress_true_draws_a_bar_and_false_draws_nothing(call, capsys):
    """A flag, as tqdm's users pass (progress=False raised a TypeError): the results are
    the ones without a bar, and only True writes one, on stderr."""
    quiet = call(None)
    capsys.readouterr()
    assert call(False) == quiet and capsys.readouterr() == ("", "")
    assert call(True) == quiet
    out, err = capsys.readouterr()
    assert out == "" and "games" in err
