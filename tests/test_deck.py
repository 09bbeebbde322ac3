"""The deck dimension RxS (docs/rules.md section 2): card i has rank i % R and suit i / R,
a higher rank wins, and play, simulate, check and the trace all take it."""

import json
import random

import pytest

import pywar
from conftest import needs_c
from pywar import cli
from test_trace import narrate, rebuild

ENGINES = ["c", "python"]
QUEUE = {"piles": "queue", "pickup": "winner-first"}


@pytest.mark.parametrize("engine", ENGINES)
def test_a_hand_worked_game_of_three_distinct_cards(engine):
    """3x1: A 2,0 against B 1. Round 1: 2 beats 1, A takes 2 then 1; B has none."""
    game = pywar.play(0, deck="3x1", deal=([2, 0], [1]), engine=engine, **QUEUE)
    assert (game.outcome, game.winner, game.rounds, game.battles) == ("win", "A", 1, 1)
    assert game.piles["A"]["to_play"] == 3


@pytest.mark.parametrize("engine", ENGINES)
def test_cards_of_one_rank_tie_across_suits(engine):
    """2x2: ids 0, 2 are rank 0 and 1, 3 rank 1. A 0,1 against B 2,3 with no face-down
    cards: 0 ties 2, 1 ties 3, and then neither has a card: both lose, 4 stranded."""
    game = pywar.play(0, deck="2x2", deal=([0, 1], [2, 3]), engine=engine, **QUEUE)
    assert (game.outcome, game.winner, game.battles, game.ties, game.wars) == \
        ("both-lose", None, 2, 2, 1)
    assert game.stranded == 4


@pytest.mark.parametrize("engine", ENGINES)
def test_the_higher_rank_wins_whatever_the_suit(engine):
    """3x2: card 2 is rank 2 (suit 0), card 4 rank 1 (suit 1): A's 2 beats B's 4."""
    game = pywar.play(0, deck="3x2", deal=([2, 0], [4]), engine=engine, **QUEUE)
    assert (game.winner, game.rounds) == ("A", 1)
    reverse = pywar.play(0, deck="3x2", deal=([4, 0], [2]), engine=engine, **QUEUE)
    assert reverse.winner == "B"


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("deck, card, smu, lehigh", [
    ("5x1", 4, "5 of hearts", "5 of Hearts"),
    ("6x2", 7, "2 of diamonds", "2 of Diamonds"),
    ("1x6", 5, "1 of suit6s", "1 of Suit6"),
    ("13x4", 12, "ace of hearts", "Ace of Hearts"),
    ("13x4", 39, "two of clubs", "Deuce of Clubs"),
])
def test_cards_are_named_by_their_rank_number(engine, deck, card, smu, lehigh):
    others = [other for other in range(2) if other != card][:1]
    deal = ([card], others)
    smu_text = pywar.play(0, deck=deck, deal=deal, engine=engine, transcript=True).transcript
    assert f"Card 1, {smu}\n" in smu_text
    lehigh_text = pywar.play(0, "lehigh", deck=deck, deal=deal, engine=engine,
                             transcript=True).transcript
    assert lehigh_text.splitlines()[1].startswith(f"{lehigh} against ")


@pytest.mark.parametrize("deal", [([5], [0]), ([0, 1], [1]), ([0], [])])
def test_a_deal_must_hold_cards_of_the_deck(deal):
    with pytest.raises(ValueError):
        pywar.play(0, deck="5x1", deal=deal)


@needs_c
@pytest.mark.parametrize("deck", ["7x2", "5x1", "2x13", "1x4", "52x1"])
def test_a_shuffled_deal_deals_the_whole_deck_alternately(deck):
    ranks, suits = (int(part) for part in deck.split("x"))
    size = ranks * suits
    for seed in range(5):
        game = pywar.play(seed, "lehigh", deck=deck, trace=True)
        hands = json.loads(game.trace.splitlines()[1])["hands"]
        assert sorted(hands[0] + hands[1]) == list(range(size))
        assert (len(hands[0]), len(hands[1])) == ((size + 1) // 2, size // 2)


@needs_c
@pytest.mark.parametrize("rules", list(pywar.PRESETS))
@pytest.mark.parametrize("deck", ["5x3", "13x1", "2x4"])
def test_no_card_is_made_or_lost(rules, deck):
    ranks, suits = (int(part) for part in deck.split("x"))
    for seed in range(60):
        game = pywar.play(seed, rules, deck=deck)
        held = sum(pile["to_play"] + pile["played"] for pile in game.piles.values())
        assert held + game.stranded == ranks * suits, (rules, deck, seed)


@needs_c
@pytest.mark.parametrize("rules, deck", [("smu", "5x3"), ("lehigh", "4x3"),
                                         ("iofall", "13x1"), ("lehigh", "2x5")])
def test_the_engines_agree_and_the_trace_narrates_back(rules, deck):
    for seed in range(15):
        c = pywar.play(seed, rules, deck=deck, engine="c", transcript=True, trace=True)
        py = pywar.play(seed, rules, deck=deck, engine="python", transcript=True, trace=True)
        assert (c.digest, c.transcript) == (py.digest, py.transcript)
        assert c.trace.split("\n", 1)[1] == py.trace.split("\n", 1)[1]
        assert json.loads(c.trace.split("\n", 1)[0])["rules"]["deck"] == deck
        assert narrate(c.trace) == c.transcript
        events = rebuild(c.trace)
        assert max(event["round"] for event in events) == c.rounds


@needs_c
def test_simulate_plays_the_deck():
    sim = pywar.simulate(300, "lehigh", deck="3x2", jobs=2)
    twin = pywar.simulate(300, "lehigh", deck="3x2", engine="python")
    assert sim.combined_digest() == twin.combined_digest()
    assert sim.combined_digest() != pywar.simulate(300, "lehigh", jobs=1).combined_digest()
    assert max(sim.rounds) < max(pywar.simulate(300, "lehigh", jobs=1).rounds)


@needs_c
@pytest.mark.parametrize("command", ["play", "simulate", "check"])
def test_the_commands_take_a_deck(capsys, command):
    argv = {"play": ["play", "--seed", "4", "--json"],
            "simulate": ["simulate", "-n", "50", "--json"],
            "check": ["check", "-n", "50", "--json"]}[command]
    assert cli.main(argv + ["--deck", "4x3", "--rules", "lehigh"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert "deck=4x3" in data["rules"]
    if command == "play":
        assert data == pywar.play(4, "lehigh", deck="4x3").to_json()


@pytest.mark.parametrize("deck", ["1x1", "0x4", "53x1", "4x", "x4", "4*4", "04x4"])
def test_a_bad_deck_is_one_line(capsys, deck):
    assert cli.main(["play", "--seed", "1", "--deck", deck]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "deck" in err


def test_a_deck_changes_nothing_at_13x4():
    seeds = random.Random(13).sample(range(2 ** 32), 10)
    for seed in seeds:
        assert pywar.play(seed, deck="13x4").digest == pywar.play(seed).digest
