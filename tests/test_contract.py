"""The API's contract, one suite run against every engine, as CPython runs one heapq
suite against its C and its Python module: play, simulate, Game and the trace, each
held to the SMU reference's captured transcripts and lengths (tests/data), which no
engine wrote."""

import hashlib
import json

import numpy as np
import pytest

import pywar
from conftest import needs_c, reference_digests, reference_transcript
from pywar.common.fields import FIELDS, OUTCOMES

ENGINES = [pytest.param("c", marks=needs_c), "python",
           pytest.param("port-c", marks=needs_c), "port-python"]
BATCH_ENGINES = [pytest.param("c", marks=needs_c), "python"]     # simulate's
STEPPING_ENGINES = ("python", "port-python")                      # Game's: Python only
SEEDS = (1, 1553, 17455)                                          # the captured transcripts
REFERENCE = {seed: (sha, rounds) for seed, sha, rounds in reference_digests()[:12]}


@pytest.fixture(params=ENGINES)
def engine(request):
    """Each engine in turn."""
    return request.param


# ---- play

@pytest.mark.parametrize("seed", SEEDS)
def test_play_gives_the_reference_transcript(engine, seed):
    """The transcript is the reference program's, byte for byte."""
    assert pywar.play(seed, engine=engine, transcript=True).transcript == \
        reference_transcript(seed)


def test_play_gives_the_reference_lengths(engine):
    """Seeds 0 to 11: the reference's rounds, and its transcript's sha256."""
    for seed, (sha, rounds) in REFERENCE.items():
        game = pywar.play(seed, engine=engine, transcript=True)
        assert (game.rounds, hashlib.sha256(game.transcript.encode()).hexdigest()) == \
            (rounds, sha), seed


def test_play_returns_a_result_that_adds_up(engine):
    """The GameResult names its engine, holds every field of the table, keeps every card
    (the piles and the pot's stranded cards make 52) and counts a battle per round and
    per war; its JSON has the digest in 16 hex digits."""
    game = pywar.play(1553, engine=engine)
    assert isinstance(game, pywar.GameResult) and game.engine == engine
    assert all(hasattr(game, row.name) for row in FIELDS)
    cards = sum(pile["to_play"] + pile["played"] for pile in game.piles.values())
    assert cards + game.stranded == 52
    assert game.battles == game.rounds + game.wars
    assert game.winner in ("A", "B", None) and game.outcome in OUTCOMES
    assert json.loads(json.dumps(game.to_json()))["digest"] == f"{game.digest:016x}"


def test_every_engine_gives_the_same_result(engine):
    """All the fields but the engine's name equal the Python twin's."""
    mine = pywar.play(17455, engine=engine).to_json()
    twin = pywar.play(17455, engine="python").to_json()
    assert {**mine, "engine": None} == {**twin, "engine": None}


# ---- the trace

def test_the_trace_is_the_game(engine):
    """The trace's header names the engine and the seed; its events read back
    (pywar.read_trace); its end event says how the game ended; and its events are the
    same from every engine."""
    game = pywar.play(1553, engine=engine, trace=True)
    header, events = pywar.read_trace(game.trace.splitlines())
    assert (header["engine"], header["seed"]) == (engine, 1553)
    end = json.loads(game.trace.splitlines()[-1])
    assert (end["event"], end["round"], end["outcome"]) == ("end", game.rounds, game.outcome)
    assert "ABCDEFGH"[end["winner"]] == game.winner
    twin = pywar.play(1553, engine="python", trace=True).trace.splitlines()[1:]
    assert game.trace.splitlines()[1:] == twin


# ---- simulate

@pytest.mark.parametrize("batch_engine", BATCH_ENGINES)
def test_simulate_plays_the_games_that_play_plays(batch_engine):
    """Each game of a simulation is the game that play gives for its seed, and the
    summary counts them."""
    simulation = pywar.simulate(12, seed=0, engine=batch_engine)
    assert simulation.summary()["games"] == 12
    assert list(simulation.arrays["rounds"]) == [REFERENCE[seed][1] for seed in range(12)]
    digests = [pywar.play(seed, engine=batch_engine).digest for seed in range(12)]
    assert np.array_equal(simulation.arrays["digest"], np.array(digests, dtype=np.uint64))


@pytest.mark.parametrize("port", [pytest.param("port-c", marks=needs_c), "port-python"])
def test_simulate_refuses_the_port_in_one_line(port):
    """The port plays one game at a time: simulate says which engines it takes."""
    with pytest.raises(ValueError, match="simulate with engine c or python"):
        pywar.simulate(2, engine=port)


# ---- Game, the stepper

def test_game_steps_to_the_result_of_play(engine):
    """Stepping a game to its end gives play's transcript and result (the stepper plays
    the Python implementations; the C engines are refused, naming those)."""
    if engine not in STEPPING_ENGINES:
        with pytest.raises(ValueError, match="python"):
            pywar.Game(17455, engine=engine)
        return
    game = pywar.Game(17455, engine=engine)
    steps = game.run()
    assert game.over
    assert "".join(step.narration for step in steps) == reference_transcript(17455)
    played = pywar.play(17455, engine=engine)
    assert (game.result.winner, game.result.rounds, game.result.digest) == \
        (played.winner, played.rounds, played.digest)
