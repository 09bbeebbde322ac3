"""The facade: results, engines, and clear errors for bad input."""

import json
import os
import warnings

import pytest

import pywar
from conftest import needs_c
from pywar import _checked

JSON_KEYS = {"rules", "seed", "engine", "winner", "outcome", "rounds", "battles", "ties",
             "wars", "longest_tie_streak", "stranded", "piles", "digest", "cycle_start",
             "cycle_period", "lead_changes", "biggest_pot", "comeback", "deepest_war",
             "refills", "war_rounds", "war_depths", "record"}


def test_result_fields_add_up():
    game = pywar.play(17455, engine="python")
    cards = sum(pile["to_play"] + pile["played"] for pile in game.piles.values())
    assert cards + game.stranded == 52
    assert game.battles == game.rounds + game.wars
    assert game.winner in ("A", "B") and game.outcome == "win"


def test_json_has_the_documented_keys():
    data = pywar.play(1553, engine="python").to_json()
    assert set(data) == JSON_KEYS
    assert data["digest"] == f"{pywar.play(1553, engine='python').digest:016x}"
    json.dumps(data)


@pytest.mark.parametrize("seed", ["1", 1.0, None, True, [1]])
def test_seed_of_the_wrong_type(seed):
    with pytest.raises(TypeError, match="0 to 4294967295"):
        pywar.play(seed)


@pytest.mark.parametrize("seed", [-1, 2 ** 32, 2 ** 64])
def test_seed_out_of_range(seed):
    with pytest.raises(ValueError, match="0 to 4294967295"):
        pywar.play(seed)


def test_unknown_rules_name_the_presets():
    with pytest.raises(ValueError, match="smu, lehigh, iofall, iofall-single"):
        pywar.play(1, rules="texas")


def test_unknown_engine_names_the_engines():
    with pytest.raises(ValueError, match="auto, c, python"):
        pywar.play(1, engine="rust")


@pytest.mark.parametrize("dimensions, error, words", [
    ({"pickup": "sideways"}, ValueError, "pot-order"),
    ({"short_war": "surrender"}, ValueError, "all-but-one"),
    ({"piles": "heap"}, ValueError, "queue"),
    ({"shuffle": "riffle"}, ValueError, "fisher-yates"),
    ({"face_down": 26}, ValueError, "0 to 25"),
    ({"face_down": "3"}, TypeError, "int"),
    ({"max_rounds": 0}, ValueError, "1 to"),
    ({"detect_cycles": "yes"}, TypeError, "True or False"),
    ({"colour": "red"}, TypeError, "face_down"),
])
def test_bad_dimensions(dimensions, error, words):
    with pytest.raises(error, match=words):
        pywar.play(1, **dimensions)


@pytest.mark.parametrize("deal, words", [
    (([], [1]), "each player at least one card"),
    (([0, 5], [7, 5]), "ids from 0 to 51: card 5 is dealt 2 times"),
    (([52], [1]), "ids from 0 to 51: 52 is not a card of the deck"),
    (([-1], [2]), "ids from 0 to 51: -1 is not a card of the deck")])
def test_bad_deals(deal, words):
    """Each names what is wrong: a card dealt twice was 'distinct ids' alone (issue 37)."""
    with pytest.raises(ValueError, match="deal") as refused:
        pywar.play(1, deal=deal)
    assert str(refused.value).endswith(words)


def test_engine_from_the_environment(monkeypatch):
    monkeypatch.setenv("PYWAR_ENGINE", "python")
    assert pywar.play(5).engine == "python"
    monkeypatch.setenv("PYWAR_ENGINE", "nonsense")
    with pytest.raises(ValueError, match="auto, c, python"):
        pywar.play(5)


def test_auto_falls_back_to_the_twin_with_a_warning(monkeypatch):
    monkeypatch.setattr(_checked, "lib", None)
    monkeypatch.delenv("PYWAR_REQUIRE_C", raising=False)      # set in CI: then an error
    with pytest.warns(RuntimeWarning, match="not built"):
        game = pywar.play(17455, engine="auto")
    assert game.engine == "python" and game.rounds == 29
    with pytest.raises(RuntimeError, match="engine='python'"):
        pywar.play(1, engine="c")


@needs_c
def test_auto_is_c_when_built():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert pywar.play(3, engine="auto").engine == "c"


@needs_c
def test_c_refuses_bad_rules_itself():
    """The checked layer turns the C core's return codes into exceptions."""
    rules = pywar.preset("smu")
    struct = _checked.c_rules(rules)
    struct.max_rounds = 0
    result = _checked.ffi.new("PywarResult *")
    null = _checked.ffi.NULL
    status = _checked.lib.pywar_play(1, struct, null, null, result, null, null, null)
    assert status == _checked.lib.PYWAR_EINVAL
    with pytest.raises(ValueError, match="refused"):
        _checked.check_status(status)


def test_the_c_core_is_built_where_it_is_required():
    """CI sets PYWAR_REQUIRE_C, so that a core that failed to build fails the run."""
    if os.environ.get("PYWAR_REQUIRE_C"):
        assert _checked.available(), "the C core is not built"
    else:
        pytest.skip("PYWAR_REQUIRE_C is not set")


@pytest.mark.parametrize("engine", [pytest.param("c", marks=needs_c), "python"])
def test_a_transcript_streams_to_a_file(engine, tmp_path):
    """Seed 1553's 635 kB transcript goes out in pieces, the same text as a whole."""
    path = tmp_path / "game.txt"
    with path.open("w") as stream:
        game = pywar.play(1553, engine=engine, transcript=stream)
    assert game.transcript is None
    assert path.read_text() == pywar.play(1553, engine=engine, transcript=True).transcript


@needs_c
def test_a_failing_stream_raises_after_the_game():
    class Full:
        writes = 0

        def write(self, text):
            self.writes += 1
            if self.writes == 3:
                raise OSError("disk full")

    stream = Full()
    with pytest.raises(OSError, match="disk full"):
        pywar.play(1553, engine="c", transcript=stream)
    assert stream.writes == 3


def test_the_version_is_the_projects():
    """pywar.__version__ (it had none) is pyproject.toml's, as --version says it."""
    tomllib = pytest.importorskip("tomllib")
    pyproject = os.path.join(os.path.dirname(__file__), os.pardir, "pyproject.toml")
    if not os.path.exists(pyproject):
        pytest.skip("needs a checkout (pyproject.toml beside tests/)")
    with open(pyproject, "rb") as file:
        number = tomllib.load(file)["project"]["version"]
    assert pywar.__version__ == number
    from pywar.cli.common import version
    assert version().startswith(f"{number} (")


def test_a_study_from_seed_0_counts_seed_1s_game_twice():
    """docs/rules.md, section 1: simulate starts at 0, which glibc plays as 1, and from 1
    its games are distinct (the help says to start at 1 for N distinct games)."""
    games = pywar.simulate(3, seed=0, engine="python").arrays
    rows = list(zip(*(games[name] for name in ("rounds", "winner", "battles"))))
    assert rows[0] == rows[1] and rows[1] != rows[2]
