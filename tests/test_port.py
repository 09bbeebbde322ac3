"""The port (csrc/port/, pywar/port/): the SMU reference program member for member, in C
and in Python, with Program 4's piles and Program 6's stack ADT.  It prints the
reference's transcripts byte for byte, agrees with the engine game by game, and traces
each game in the same bytes whichever port and stack plays it."""

import doctest
import hashlib
import io
import json
import random
import re
import subprocess
import sys

import pytest

import pywar
import pywar.port
from conftest import ROOT, needs_c, reference_digests, reference_transcript
from pywar import _checked
from pywar.cli import main
from pywar.common import trace as trace_module
from pywar.port.card import RANK, SUIT, Card
from pywar.port.pile import Pile
from pywar.port.tabletop import TableTop
from pywar.rules import PRESETS

PORTS = [pytest.param("port-c", marks=needs_c), "port-python"]
STACKS = ["pile", "adt"]
RANK_WORDS = "two three four five six seven eight nine ten jack queen king ace".split()
SUIT_WORDS = ["heart", "diamond", "spade", "club"]
EDGE_SEEDS = [0, 1, 2 ** 31 - 1, 2 ** 31, 2 ** 32 - 1]


def seeds(count, salt):
    """count seeds: the edge cases, then a fixed sample of the 32-bit range."""
    return EDGE_SEEDS + random.Random(salt).sample(range(2 ** 32), count - len(EDGE_SEEDS))


def port_trace(engine, seed, stack):
    """The event lines of a port's trace of the seed."""
    if engine == "port-c":
        return _checked.port_play(seed, stack, trace=True)[2]
    return pywar.port.play(seed, stack, trace=True)[2]


def card_id(words):
    """The id of a card named as the reference names it ("ace of spades")."""
    rank, suit = re.fullmatch(r"(\w+) of (\w+)s", words).groups()
    return SUIT_WORDS.index(suit) * 13 + RANK_WORDS.index(rank)


# The reference's own output -------------------------------------------------------------

@pytest.mark.parametrize("stack", STACKS)
@pytest.mark.parametrize("engine", PORTS)
@pytest.mark.parametrize("seed", [1, 1553, 17455])
def test_transcript_is_the_reference_one(seed, engine, stack):
    game = pywar.play(seed, engine=engine, stack=stack, transcript=True)
    assert game.transcript == reference_transcript(seed)
    assert game.engine == engine


@pytest.mark.parametrize("stack", STACKS)
@pytest.mark.parametrize("engine", PORTS)
def test_digests_of_seeds_0_to_100(engine, stack):
    for seed, sha, rounds in reference_digests():
        game = pywar.play(seed, engine=engine, stack=stack, transcript=True)
        assert hashlib.sha256(game.transcript.encode()).hexdigest() == sha, seed
        assert game.rounds == rounds, seed


@pytest.mark.parametrize("stack", STACKS)
@pytest.mark.parametrize("engine", PORTS)
def test_reference_facts_of_seed_1(engine, stack):
    """The reference's README: 450 rounds, B loses, 2 cards stranded, 28 + 22 left."""
    game = pywar.play(1, engine=engine, stack=stack)
    assert (game.rounds, game.winner, game.outcome, game.stranded) == (450, "A", "win", 2)
    assert game.piles == {"A": {"to_play": 28, "played": 22},
                          "B": {"to_play": 0, "played": 0}}


# The port agrees with the engine ---------------------------------------------------------

@pytest.fixture(scope="module")
def engine_games():
    """The C engine's games, with transcripts, cached across the tests that use them."""
    cache = {}

    def game(seed):
        if seed not in cache:
            cache[seed] = pywar.play(seed, engine="c", transcript=True)
        return cache[seed]
    return game


def assert_same_game(port, engine):
    """Every field but the engine's name, and the transcript, are the same."""
    assert {**port.to_json(), "engine": None} == {**engine.to_json(), "engine": None}, port.seed
    assert port.transcript == engine.transcript, port.seed


@needs_c
@pytest.mark.parametrize("stack", STACKS)
def test_port_c_agrees_with_the_engine_on_2000_seeds(engine_games, stack):
    for seed in seeds(2000, 8):
        port = pywar.play(seed, engine="port-c", stack=stack, transcript=True)
        assert_same_game(port, engine_games(seed))


@needs_c
@pytest.mark.parametrize("stack", STACKS)
def test_port_python_agrees_with_the_engine_on_100_seeds(engine_games, stack):
    for seed in seeds(100, 8):
        port = pywar.play(seed, engine="port-python", stack=stack, transcript=True)
        assert_same_game(port, engine_games(seed))


@pytest.mark.parametrize("engine", PORTS)
def test_ports_agree_with_the_python_engine(engine):
    for seed in seeds(40, 9):
        twin = pywar.play(seed, engine="python", transcript=True)
        for stack in STACKS:
            assert_same_game(pywar.play(seed, engine=engine, stack=stack, transcript=True), twin)


@needs_c
@pytest.mark.slow
def test_port_c_agrees_with_the_engine_on_100000_seeds():
    for seed in range(100_000):
        engine = pywar.play(seed, engine="c").to_json()
        for stack in STACKS:
            port = pywar.play(seed, engine="port-c", stack=stack).to_json()
            assert {**port, "engine": None} == {**engine, "engine": None}, seed


@pytest.mark.slow
def test_port_python_agrees_with_the_twin_on_2000_seeds():
    for seed in seeds(2000, 10):
        twin = pywar.play(seed, engine="python").to_json()
        for stack in STACKS:
            port = pywar.play(seed, engine="port-python", stack=stack).to_json()
            assert {**port, "engine": None} == {**twin, "engine": None}, seed


# The trace ----------------------------------------------------------------------------------

@pytest.mark.parametrize("seed", [1, 1553, 17455, 2 ** 32 - 1])
def test_every_port_and_stack_writes_the_same_trace(seed):
    engines = ["port-c", "port-python"] if _checked.available() else ["port-python"]
    traces = {(engine, stack): port_trace(engine, seed, stack)
              for engine in engines for stack in STACKS}
    first = traces[("port-python", "pile")]
    assert first.startswith('{"event":"deal","round":0,"battle":0,"hands":[[')
    assert all(trace == first for trace in traces.values()), seed


def transcript_facts(transcript):
    """What the transcript says, read from its words alone."""
    lines = transcript.splitlines()
    hand_a = lines[lines.index("Player A:") + 2:lines.index("Player B:") - 1]
    last_counts = [line for line in lines if re.fullmatch(r"Player [AB] has .*", line)][-2:]
    return {
        "rounds": int(re.findall(r"^======== Round (\d+) ========$", transcript, re.M)[-1]),
        "hand A, bottom first": [card_id(line.split(", ")[1]) for line in hand_a],
        "face-up pairs": [(card_id(a), card_id(b)) for a, b in re.findall(
            r"^Player A plays (.*)\nPlayer B plays (.*)$", transcript, re.M)],
        "winners": re.findall(r"^Player ([AB]) wins", transcript, re.M),
        "ties": transcript.count("There is a tie... Doing another battle."),
        "refills": re.findall(r"^Shuffling player ([AB]) cards\.\.\.$", transcript, re.M),
        "losers": re.findall(r"^Player ([AB]) ran out of cards\.  Player \1 has lost\.$", transcript, re.M),
        "final piles": [[int(n) for n in re.findall(r"\d+", line)] for line in last_counts],
    }


@pytest.mark.parametrize("engine", PORTS)
@pytest.mark.parametrize("seed", [1, 1553, 17455, 40])
def test_the_trace_tells_what_the_transcript_says(engine, seed):
    game = pywar.play(seed, engine=engine, transcript=True)
    facts = transcript_facts(game.transcript)
    events = [json.loads(line) for line in port_trace(engine, seed, "adt").splitlines()]
    kinds = [event["event"] for event in events]
    battles = [event for event in events if event["event"] == "battle"]
    assert [event["round"] for event in events if event["event"] == "round"][-1] \
        == facts["rounds"] == game.rounds
    assert events[0]["hands"][0][::-1] == facts["hand A, bottom first"]
    face_ups = [event["card"] for event in events if event["event"] == "face_up"]
    assert list(zip(face_ups[0::2], face_ups[1::2])) == facts["face-up pairs"]
    assert ["AB"[event["winner"]] for event in battles if event["winner"] is not None] \
        == facts["winners"]
    assert sum(event["winner"] is None for event in battles) == facts["ties"] == game.ties
    assert ["AB"[event["player"]] for event in events if event["event"] == "refill"] \
        == facts["refills"]
    assert ["AB"[event["player"]] for event in events if event["event"] == "run_out"] \
        == facts["losers"]
    assert events[-1]["piles"] == facts["final piles"]
    assert kinds.count("pickup") == len(facts["winners"])
    assert kinds[-1] == "end" and events[-1]["pot"] == game.stranded


def test_a_trace_with_its_header_reads_back():
    rules = PRESETS["smu"].to_dict()
    header = trace_module.header_line("port-python", 17455, rules, stack="adt")
    lines = pywar.port.play(17455, "adt", trace=True)[2]
    read_header, events = trace_module.read((header + lines).splitlines())
    assert read_header["stack"] == "adt" and read_header["engine"] == "port-python"
    assert len(events) == len(lines.splitlines())


# The entry points ----------------------------------------------------------------------

def test_the_port_needs_nothing_beyond_the_standard_library():
    code = ("import pywar.port, sys; pywar.port.play(1); "
            "assert 'numpy' not in sys.modules and 'pywar._core' not in sys.modules; "
            "import pywar; pywar.play(1, engine='port-python', stack='adt'); "
            "assert 'numpy' not in sys.modules and 'pywar._core' not in sys.modules")
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)


def test_pywar_port_play_returns_counts_and_texts():
    counts, transcript, trace = pywar.port.play(17455, "adt", transcript=True, trace=True)
    assert (counts.rounds, counts.winner, counts.outcome) == (29, 1, "win")
    assert transcript == reference_transcript(17455)
    assert trace.endswith('"outcome":"win","winner":1,"piles":[[0,0],[36,16]],"pot":0}\n')
    assert pywar.port.play(17455)[1:] == (None, None)


@pytest.mark.parametrize("engine", PORTS)
def test_a_transcript_and_a_trace_stream(engine):
    text, trace = io.StringIO(), io.StringIO()
    if engine == "port-c":
        _, words, lines = _checked.port_play(1553, "adt", text, trace)
    else:
        _, words, lines = pywar.port.play(1553, "adt", text, trace)
    assert (words, lines) == (None, None)
    assert text.getvalue() == reference_transcript(1553)
    assert trace.getvalue() == port_trace(engine, 1553, "pile")


@needs_c
def test_a_failing_stream_raises_after_the_game():
    class Broken(io.StringIO):
        def write(self, data):
            raise OSError("disk full")
    with pytest.raises(OSError, match="disk full"):
        _checked.port_play(1553, "pile", Broken())


@needs_c
def test_the_c_port_refuses_bad_arguments():
    ffi, lib = _checked.ffi, _checked.lib
    result = ffi.new("PywarResult *")
    assert lib.pywar_port_play(1, 2, result, ffi.NULL, ffi.NULL) == lib.PYWAR_EINVAL
    assert lib.pywar_port_play(1, lib.PYWAR_STACK_ADT, ffi.NULL, ffi.NULL, ffi.NULL) \
        == lib.PYWAR_EINVAL
    assert lib.pywar_port_play(1, lib.PYWAR_STACK_ADT, result, ffi.NULL, ffi.NULL) == lib.PYWAR_OK
    assert result.rounds == 450
    with pytest.raises(ValueError, match="'pile' .* or 'adt'"):
        _checked.port_play(1, "heap")


@pytest.mark.parametrize("kwargs, words", [
    ({"engine": "port-python", "rules": "lehigh"}, "the port plays only the smu rules"),
    ({"engine": "port-python", "face_down": 1}, "the port plays only the smu rules"),
    ({"engine": "port-python", "max_rounds": 100}, "the port plays only the smu rules"),
    ({"engine": "port-python", "deal": ([1], [2])}, "the port deals a shuffled deck only"),
    ({"engine": "port-python", "stack": "heap"}, "'pile' .* or 'adt'"),
    ({"engine": "python", "stack": "adt"}, "stack is for the port engines"),
    pytest.param({"engine": "c", "stack": "pile"}, "stack is for the port engines", marks=needs_c),
])
def test_the_facade_refuses_in_one_line(kwargs, words):
    with pytest.raises(ValueError, match=words) as caught:
        pywar.play(1, **kwargs)
    assert "\n" not in str(caught.value)


def test_simulate_refuses_the_port():
    with pytest.raises(ValueError, match="one game at a time"):
        pywar.simulate(10, engine="port-python")


def test_the_engine_names_include_the_port():
    assert {"port-c", "port-python"} <= set(pywar.ENGINES)


@pytest.mark.parametrize("stack", STACKS)
@pytest.mark.parametrize("engine", PORTS)
def test_pywar_play_prints_the_reference_transcript(capsys, engine, stack):
    status = main(["play", "--engine", engine, "--stack", stack, "--seed", "1553"])
    out, err = capsys.readouterr()
    assert (status, out, err) == (0, reference_transcript(1553), "")


@pytest.mark.parametrize("argv, words", [
    (["--engine", "port-python", "--rules", "lehigh"], "the port plays only the smu rules"),
    (["--engine", "port-python", "--face-down", "2"], "the port plays only the smu rules"),
    (["--engine", "python", "--stack", "adt"], "stack is for the port engines"),
    (["--engine", "port-python", "--stack", "heap"], "invalid choice"),
])
def test_pywar_play_refuses_in_one_line(capsys, monkeypatch, argv, words):
    monkeypatch.delenv("PYWAR_ENGINE", raising=False)
    status = main(["play", "--seed", "1", *argv])
    out, err = capsys.readouterr()
    assert status == 2 and out == ""
    assert err.startswith("pywar play: error: ") and err.count("\n") == 1, err
    assert words in err


# Readable objects ------------------------------------------------------------------------

def test_ranks_and_suits_are_named_enums():
    assert (RANK.ACE, RANK.TWO, SUIT.HEART, SUIT.SPADE, SUIT.CLUB) == (12, 0, 0, 2, 3)
    assert [rank.name for rank in RANK][:3] == ["TWO", "THREE", "FOUR"] and len(RANK) == 13


def test_cards_piles_players_and_tables_print_readably():
    card = Card()
    assert repr(card) == "<Card error of errors>"
    card.set_suit_and_rank(SUIT.SPADE, RANK.ACE)
    assert repr(card) == "<Card ace of spades>" and str(card) == "ace of spades"
    assert card.get_rank() is RANK.ACE and card.get_suit() is SUIT.SPADE
    for stack in STACKS:
        pile = Pile(stack)
        assert repr(pile) == "<Pile: 0 cards>"
        pile.add_card_to_pile(card)
        assert repr(pile) == "<Pile: 1 card, top: ace of spades>"
    table = TableTop(17455, "adt")
    dealt = TableTop(17455, "pile").player_a.get_to_play_pile()
    assert repr(table.player_a.get_to_play_pile()) == repr(dealt) \
        == f"<Pile: 26 cards, top: {dealt.cards[25]}>"
    assert repr(table.player_b) == "<Player: 26 to play, 0 played>"
    assert repr(table).startswith("<TableTop: A <Player: 26 to play, 0 played>, B <Player:")
    assert repr(table).endswith("currently in play <Pile: 0 cards>>")
    table.destroy()
    assert repr(table.player_a) == "<Player: deleted>"


def test_the_reading_guide_examples_run():
    failures, tried = doctest.testfile(str(ROOT / "docs" / "reading-guide.md"),
                                       module_relative=False)
    assert tried > 0 and failures == 0
    failures, tried = doctest.testmod(pywar.port)
    assert tried > 0 and failures == 0
