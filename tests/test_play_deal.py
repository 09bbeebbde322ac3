"""pywar play --deal A/B: a given deal from the command line, and Spivey's 52-card deal
("Cycles in War", 2010; the notes on published anchors, 1d), which cycles under winner-first."""

import json

import pytest

import pywar
from conftest import needs_c
from pywar import cli
from pywar.rules import parse_deal

SPIVEY = """26 46  1  7  8 27  9 28 29 47  2 10 11 30 12 31 32 48  3 13 14 33 15 34 35 49
16 36 17 37 38 50  4 18 19 39 20 40 41 51  5 21 22 42 23 43 44 52  6 24 25 45"""
SPIVEY_RULES = ["--deck", "52x1", "--piles", "queue", "--pickup", "winner-first"]


def spivey_deal(card_one_high):
    """Spivey's rows as the --deal text: his card k is id 52 - k when card 1 is the
    highest, else id k - 1 (the order of ranks reversed)."""
    rows = [[int(card) for card in line.split()] for line in SPIVEY.splitlines()]
    ids = [[52 - card if card_one_high else card - 1 for card in row] for row in rows]
    return "/".join(",".join(str(card) for card in row) for row in ids)


def play_json(capsys, *argv):
    """The JSON result of pywar play with these arguments."""
    assert cli.main(["play", "--seed", "0", "--json", *argv]) == 0
    return json.loads(capsys.readouterr().out)


def test_a_deal_is_written_a_slash_b_top_first():
    assert parse_deal("2,0/1") == ((2, 0), (1,))
    assert parse_deal(" 26, 46 / 16 ") == ((26, 46), (16,))


@pytest.mark.parametrize("engine", ["c", "python"])
def test_the_deal_reaches_the_game(capsys, engine):
    data = play_json(capsys, "--deck", "5x1", "--deal", "4,0,2/1,3", "--engine", engine)
    assert data == pywar.play(0, deck="5x1", deal=([4, 0, 2], [1, 3]), engine=engine).to_json()
    assert data["rounds"] != pywar.play(0, deck="5x1", deal=([4, 2, 0], [1, 3])).rounds


def test_a_transcript_of_a_given_deal_shows_the_hands(capsys):
    assert cli.main(["play", "--seed", "0", "--deck", "3x1", "--deal", "2,0/1"]) == 0
    out = capsys.readouterr().out
    assert "Shuffling" not in out
    assert "Player A:\nThere are 2 cards in the pile.\nCard 1, 1 of hearts\n" \
           "Card 2, 3 of hearts\n" in out                     # bottom first: 0, then 2
    assert "Player A plays 3 of hearts\nPlayer B plays 2 of hearts\n" in out


@pytest.mark.parametrize("deal, words", [
    ("4,0,2", "A's cards/B's cards"),
    ("4,0/2/1", "A's cards/B's cards"),
    ("4,x/1", "A's cards/B's cards"),
    ("4,0,2/", "A's cards/B's cards"),
    ("4,0,5/1", "from 0 to 4"),
    ("4,0,1/1", "distinct"),
])
def test_a_bad_deal_is_one_line(capsys, deal, words):
    assert cli.main(["play", "--seed", "0", "--deck", "5x1", "--deal", deal]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and words in err


def test_the_port_refuses_a_deal_in_one_line(capsys):
    assert cli.main(["play", "--seed", "0", "--engine", "port-c", "--deal", "0/1"]) == 2
    assert "shuffled deck only" in capsys.readouterr().err


@needs_c
def test_spiveys_deal_returns_to_itself_after_31920_rounds(capsys):
    """Card 1 the highest, each row top first, winner-first: the deal lies on a cycle of
    31,920 rounds (Spivey: "over 30,000 battles for the deck to return")."""
    data = play_json(capsys, *SPIVEY_RULES, "--deal", spivey_deal(True))
    assert (data["outcome"], data["cycle_start"], data["cycle_period"]) == ("cycle", 0, 31920)


@needs_c
def test_spiveys_deal_with_the_ranks_reversed_ends_after_276_rounds(capsys):
    data = play_json(capsys, *SPIVEY_RULES, "--deal", spivey_deal(False))
    assert (data["outcome"], data["winner"], data["rounds"]) == ("win", "B", 276)
