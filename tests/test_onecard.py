"""The one-card game (docs/rules.md 7.10, preset cecs325): single battles, no war, no
cards won back, the most battles won wins.  Its results against a plain count of the
dealt hands, its twins, its words and its refusals."""

import json
import random
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import pywar
from conftest import needs_c
from pywar import rules as rules_module
from pywar.rules import RulesError, make_rules

ENGINES = ["python", pytest.param("c", marks=needs_c)]
WAR_SETTINGS = [("face_down", 1), ("short_war", "last-card"), ("pickup", "pot-order"),
                ("piles", "queue"), ("refill", "keep")]


def plain_count(hands, ranks):
    """The game by hand: battle i compares every hand's i-th card (top first) while every
    hand has one; returns each player's [won, lost, tied] and the winner (None: a draw)."""
    players = len(hands)
    record = [[0, 0, 0] for _ in range(players)]
    for cards in zip(*hands):
        rank = [card % ranks for card in cards]
        top = [p for p in range(players) if rank[p] == max(rank)]
        for p in range(players):
            record[p][0 if top == [p] else 2 if p in top else 1] += 1
    won = [wins for wins, _, _ in record]
    most = [p for p in range(players) if won[p] == max(won)]
    return record, most[0] if len(most) == 1 else None


def dealt_hands(game):
    """The hands of a traced game's deal event, top first."""
    return json.loads(game.trace.splitlines()[1])["hands"]


def assert_counted(game, hands, ranks):
    """The game's result is the plain count of its hands."""
    record, winner = plain_count(hands, ranks)
    names = "ABCDEFGH"
    assert game.record == {names[p]: dict(zip(("won", "lost", "tied"), counts))
                           for p, counts in enumerate(record)}
    assert game.winner == (None if winner is None else names[winner])
    assert game.outcome == ("draw" if winner is None else "win")
    battles = min(len(hand) for hand in hands)
    assert (game.rounds, game.battles, game.wars) == (battles, battles, 0)
    ties = sum(1 for cards in zip(*hands)
               if [card % ranks for card in cards].count(max(card % ranks for card in cards)) > 1)
    assert game.ties == ties
    assert game.stranded == battles * len(hands)          # no card is won back
    assert game.refills == game.biggest_pot == 0


@pytest.mark.parametrize("engine", ENGINES)
def test_shuffled_games_are_the_plain_count_of_their_deal(engine):
    """200 seeds of cecs325: the hands the deal event shows, counted by hand."""
    outcomes = set()
    for seed in range(200):
        game = pywar.play(seed, "cecs325", engine=engine, trace=True)
        hands = dealt_hands(game)
        assert [len(hand) for hand in hands] == [26, 26]
        assert_counted(game, hands, 13)
        assert game.rounds == 26
        outcomes.add(game.outcome)
    assert outcomes == {"win", "draw"}


@pytest.mark.parametrize("engine", ENGINES)
def test_given_deals_are_the_plain_count(engine):
    """Deals made here, of 2 to 5 players, decks of other shapes, hands of unequal
    sizes: the engine plays what the test dealt, and nothing else."""
    rng = random.Random(49)
    for _ in range(150):
        players = rng.randint(2, 5)
        ranks, suits = rng.choice([(13, 4), (4, 4), (2, 5), (5, 2)])
        cards = rng.sample(range(ranks * suits), rng.randint(players, ranks * suits))
        cut = sorted(rng.sample(range(1, len(cards)), players - 1))
        hands = [cards[a:b] for a, b in zip([0, *cut], [*cut, len(cards)])]
        game = pywar.play(0, "cecs325", engine=engine, deal=hands, players=players,
                          deck=f"{ranks}x{suits}")
        assert_counted(game, hands, ranks)


@pytest.mark.parametrize("engine", ENGINES)
def test_more_players_are_the_plain_count_of_their_deal(engine):
    """3 to 8 players: a tie is tied for those sharing the top rank, lost for the others;
    the first seats' extra cards stay in their hands."""
    for players in range(3, 9):
        for seed in range(25):
            game = pywar.play(seed, "cecs325", engine=engine, players=players, trace=True)
            hands = dealt_hands(game)
            assert_counted(game, hands, 13)
            short = min(len(hand) for hand in hands)
            assert [pile["to_play"] for pile in game.piles.values()] == [
                len(hand) - short for hand in hands]


def test_a_hand_worked_game():
    """A: ace, two, seven; B: king, two of clubs (13), seven of spades (18); deck 13x4.
    Battle 1: ace over king, A wins; 2 and 3: equal ranks, ties.  A wins 1-0-2."""
    game = pywar.play(0, "cecs325", engine="python", deal=([12, 0, 5], [11, 13, 18]),
                      transcript=True)
    assert game.record == {"A": {"won": 1, "lost": 0, "tied": 2},
                           "B": {"won": 0, "lost": 1, "tied": 2}}
    assert (game.winner, game.outcome, game.battles, game.ties, game.stranded) == (
        "A", "win", 3, 2, 6)
    assert game.transcript.endswith(
        "Battle 1: A plays ace of hearts, B plays king of hearts. A wins.\n"
        "Battle 2: A plays two of hearts, B plays two of diamonds. A and B tie.\n"
        "Battle 3: A plays seven of hearts, B plays seven of diamonds. A and B tie.\n"
        "\nAfter 3 battles:\n"
        "Player A won 1, lost 0, tied 2.\n"
        "Player B won 0, lost 1, tied 2.\n"
        "Player A wins.\n")


def test_a_draw_is_said():
    game = pywar.play(2, "cecs325", engine="python", transcript=True)
    assert (game.winner, game.outcome) == (None, "draw")
    assert game.transcript.endswith("Player B won 12, lost 12, tied 2.\nNobody wins: a draw.\n")


def narrated_record(transcript, players):
    """Each player's record as the transcript's last lines say it."""
    lines = transcript.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("After "))
    record = {}
    for line in lines[start + 1:start + 1 + players]:
        name, won, lost, tied = (line.split()[1], line.split()[3], line.split()[5],
                                 line.split()[7])
        record[name] = {"won": int(won.strip(",")), "lost": int(lost.strip(",")),
                        "tied": int(tied.strip("."))}
    return record


@needs_c
@pytest.mark.parametrize("players", [2, 3, 5])
def test_the_twins_agree_and_the_narration_tallies_the_result(players):
    """C and twin: the same result, digest, transcript and trace on 60 seeds, in every
    narration; the narrator's tally (its own count of the battle events) is the result's
    record."""
    for seed in range(60):
        narration = rules_module.NARRATIONS[seed % 3]
        rules = rules_module.Rules(name="one", game="one-card", players=players,
                                   narration=narration)
        c = pywar.play(seed, rules, engine="c", transcript=True, trace=True)
        py = pywar.play(seed, rules, engine="python", transcript=True, trace=True)
        assert {**c.to_json(), "engine": None} == {**py.to_json(), "engine": None}, seed
        assert c.transcript == py.transcript, seed
        assert c.trace.splitlines()[1:] == py.trace.splitlines()[1:], seed   # the header names the engine
        assert narrated_record(c.transcript, players) == c.record


one_card_rules = st.builds(
    lambda players, deck, shuffle, max_rounds: rules_module.Rules(
        name="one", game="one-card", players=players, deck=deck, shuffle=shuffle,
        max_rounds=max_rounds),
    st.integers(2, 8), st.sampled_from(["13x4", "4x4", "2x5", "3x3", "13x1"]),
    st.sampled_from(rules_module.SHUFFLES), st.sampled_from([3, 30, 10_000_000]))


@needs_c
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=one_card_rules, seed=st.integers(0, 2 ** 32 - 1))
def test_the_twins_agree_on_any_one_card_game(rules, seed):
    c = pywar.play(seed, rules, engine="c", transcript=True)
    py = pywar.play(seed, rules, engine="python", transcript=True)
    assert {**c.to_json(), "engine": None} == {**py.to_json(), "engine": None}
    assert c.transcript == py.transcript


@needs_c
def test_a_batch_counts_what_single_games_count():
    """simulate's arrays (the C batch) against single games of the twin."""
    sim = pywar.simulate(300, "cecs325", seed=0, jobs=1)
    for seed in range(300):
        game = pywar.play(seed, "cecs325", engine="python")
        winner = -1 if game.winner is None else "AB".index(game.winner)
        assert (sim.winner[seed], sim.ties[seed], sim.digest[seed]) == (
            winner, game.ties, game.digest)
    draws = sum(1 for seed in range(300) if sim.winner[seed] == -1)
    assert sim.summary()["outcomes"]["draw"] == draws > 0


@pytest.mark.parametrize("setting, value", WAR_SETTINGS)
def test_a_war_setting_is_refused_in_one_line(setting, value):
    with pytest.raises(RulesError) as refused:
        make_rules("cecs325", **{setting: value})
    message = str(refused.value)
    assert "\n" not in message and f"not {setting}={value!r}" in message
    for name, default in rules_module.ONE_CARD_FIXED.items():
        assert f"{name} {default!r}" in message


def test_the_command_line_refuses_a_war_setting_by_its_option():
    run = subprocess.run([sys.executable, "-m", "pywar", "play", "--game", "one-card",
                          "--piles", "queue"], capture_output=True, text=True)
    assert run.returncode == 2 and run.stdout == ""
    assert run.stderr.count("\n") == 1
    assert "--game 'one-card'" in run.stderr and "not --piles queue" in run.stderr


@needs_c
def test_the_c_core_refuses_what_python_refuses():
    from pywar import _checked
    ffi, lib = _checked.ffi, _checked.lib
    good = rules_module.c_numbers(pywar.preset("cecs325"))
    assert lib.pywar_rules_check(ffi.new("PywarRules *", good)) == lib.PYWAR_OK
    for setting, value in WAR_SETTINGS:
        war = rules_module.c_numbers(make_rules("smu", **{setting: value}))
        numbers = {**war, "game": rules_module.GAMES.index("one-card")}
        assert lib.pywar_rules_check(ffi.new("PywarRules *", numbers)) == lib.PYWAR_EINVAL
    assert lib.pywar_rules_check(ffi.new("PywarRules *", {**good, "game": 2})) == lib.PYWAR_EINVAL


def test_exact_refuses_a_one_card_game_in_one_line():
    with pytest.raises(RulesError, match=r"^exact counts games of game 'war' only, not "
                                         r"'one-card': [^\n]*$"):
        pywar.exact_counts("cecs325", deck="4x2", jobs=1)


def test_play_and_simulate_say_the_score():
    play = subprocess.run([sys.executable, "-m", "pywar", "play", "--rules", "cecs325",
                           "--seed", "1", "--json"], capture_output=True, text=True, check=True)
    data = json.loads(play.stdout)
    assert data["record"] == pywar.play(1, "cecs325", engine="python").record
    assert data["outcome"] == "win" and data["winner"] == "B" and data["battles"] == 26
    simulate = subprocess.run([sys.executable, "-m", "pywar", "simulate", "--rules",
                               "cecs325", "-n", "200", "--engine", "python", "--json"],
                              capture_output=True, text=True, check=True)
    summary = json.loads(simulate.stdout)
    draws = sum(pywar.play(seed, "cecs325", engine="python").outcome == "draw"
                for seed in range(200))
    assert summary["outcomes"]["draw"] == draws
    assert summary["mean_wars"] == 0 and summary["max_rounds"] == 26


@pytest.mark.parametrize("engine", ["python", pytest.param("c", marks=needs_c),
                                    "port-python", pytest.param("port-c", marks=needs_c)])
def test_war_games_keep_a_record_of_every_battle(engine):
    """In War too, and in the port: each battle counts once for each player."""
    for seed in range(20):
        game = pywar.play(seed, "smu", engine=engine)
        a, b = game.record["A"], game.record["B"]
        assert a["won"] + a["lost"] + a["tied"] == game.battles
        assert (a["won"], a["tied"]) == (b["lost"], b["tied"]) == (
            b["lost"], game.ties)
        assert a["won"] + b["won"] == game.battles - game.ties
