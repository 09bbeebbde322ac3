"""pywar replay: every implementation's trace follows the rules, and an edited trace is
refused at the line that breaks one.  The expected lines are found by a plain search of
the trace for the edited event; the expected values come from docs/trace.md's example,
docs/rules.md's test vectors and the reference transcripts."""

import json
from functools import lru_cache

import pytest

import pywar
from conftest import DATA, needs_c, reference_transcript
from pywar.cli import main
from pywar.check.implementations.replay import NotATrace, check_trace

REFERENCE_SEEDS = (1, 1553, 17455)
IMPLEMENTATIONS = [("c", None), ("python", None), ("port-c", "pile"), ("port-python", "adt")]


@lru_cache(maxsize=None)
def trace_of(seed, rules="smu", engine="python", **dimensions):
    """A game's trace, as its lines."""
    return tuple(pywar.play(seed, rules, engine=engine, trace=True, **dimensions).trace
                 .splitlines())


def spelled(event):
    """An event as the trace spells it."""
    return json.dumps(event, separators=(",", ":"))


def text(lines):
    """The trace's text of its lines."""
    return "\n".join(lines) + "\n"


def line_of(lines, kind, nth=0, **keys):
    """The number (1 is the header) of the nth line of an event kind with these keys."""
    found = [number for number, line in enumerate(lines, start=1)
             if number > 1 and json.loads(line)["event"] == kind
             and all(json.loads(line).get(key) == value for key, value in keys.items())]
    return found[nth]


def edited(lines, number, **changes):
    """The trace with line number's event changed."""
    event = json.loads(lines[number - 1])
    event.update(changes)
    return lines[:number - 1] + (spelled(event),) + lines[number:]


def without(lines, number):
    """The trace without line number."""
    return lines[:number - 1] + lines[number:]


def fault_of(lines):
    """The fault replay finds in a trace's lines."""
    fault = check_trace(text(lines)).fault
    assert fault is not None
    return fault


# ---- What every implementation writes

@pytest.mark.parametrize("seed", REFERENCE_SEEDS)
def test_the_four_implementations_write_one_trace_that_replay_accepts(seed, capsys):
    """From the second line on, the traces are the same bytes; replay accepts each and
    tells the reference's transcript from it."""
    engines = IMPLEMENTATIONS if pywar._checked.available() else IMPLEMENTATIONS[1::2]
    events = set()
    for engine, stack in engines:
        trace = pywar.play(seed, engine=engine, stack=stack, trace=True).trace
        events.add(trace.split("\n", 1)[1])
        result = check_trace(trace)
        assert result.fault is None, (engine, stack, result.fault)
    assert len(events) == 1
    assert check_trace(trace).header["stack"] == "adt"


def test_replay_prints_the_reference_transcript(tmp_path, capsys):
    path = tmp_path / "game.jsonl"
    path.write_text(pywar.play(1553, engine="port-python", trace=True).trace)
    assert main(["replay", str(path)]) == 0
    out, err = capsys.readouterr()
    assert out == reference_transcript(1553)
    assert err.count("\n") == 1 and "follow the rules" in err and "2,087 rounds" in err


GAMES = [(seed, rules, dimensions) for seed in (1, 12, 351)
         for rules, dimensions in [("smu", {}), ("lehigh", {}), ("iofall", {}),
                                   ("iofall-single", {}),
                                   ("smu", {"face_down": 2, "short_war": "all-but-one"}),
                                   ("smu", {"face_down": 3, "short_war": "last-card",
                                            "pickup": "winner-first"}),
                                   ("lehigh", {"players": 3, "pickup": "seat-interleaved"}),
                                   ("lehigh", {"face_down": 25}),
                                   ("smu", {"refill": "keep", "max_rounds": 400,
                                            "pickup": "loser-first"}),
                                   ("iofall", {"players": 4, "pickup": "seat-block"}),
                                   ("lehigh", {"deck": "5x1", "pickup": "winner-first"}),
                                   ("lehigh", {"players": 3, "pickup": "natural"}),
                                   ("smu", {"piles": "queue", "pickup": "sorted"})]]


@needs_c
@pytest.mark.parametrize("seed, rules, dimensions", GAMES)
def test_replay_accepts_the_engines_traces_under_every_rule(seed, rules, dimensions):
    result = check_trace(pywar.play(seed, rules, engine="c", trace=True, **dimensions).trace)
    assert result.fault is None, result.fault


# ---- Edited traces, one rule each

def test_a_face_up_card_that_is_not_the_top():
    lines = trace_of(17455)
    fault = fault_of(edited(lines, 4, card=5))          # docs/trace.md: A shows card 27
    assert (fault.line, fault.round, fault.battle) == (4, 1, 1)
    assert "player A's face-up card, card 27 (three of spades)" in fault.reason
    assert '"card":5' in fault.reason


def test_a_wrong_winner():
    fault = fault_of(edited(trace_of(17455), 6, winner=0))
    assert (fault.line, fault.round, fault.battle) == (6, 1, 1)
    assert "player B to win" in fault.reason and '"winner":0' in fault.reason


def test_a_tie_told_as_a_win():
    lines = trace_of(17455)
    number = line_of(lines, "battle", tied=[0, 1])
    fault = fault_of(edited(lines, number, winner=0, tied=[]))
    assert fault.line == number and "a tie: A and B show the same rank" in fault.reason


def test_a_pickup_in_the_wrong_order():
    fault = fault_of(edited(trace_of(17455), 7, cards=[27, 2]))     # smu takes [2, 27]
    assert (fault.line, fault.round, fault.battle) == (7, 1, 1)
    assert "order of pickup smu, [2, 27]" in fault.reason


def test_a_winner_first_pickup_in_pot_order():
    lines = trace_of(1, "lehigh", pickup="winner-first")
    number = line_of(lines, "pickup", player=1)
    event = json.loads(lines[number - 1])
    pot_order = [json.loads(line)["card"] for line in lines[number - 4:number - 2]]
    assert event["cards"] == pot_order[::-1]            # B's card first, then A's
    fault = fault_of(edited(lines, number, cards=pot_order))
    assert fault.line == number and "winner-first" in fault.reason


@pytest.mark.parametrize("pickup", ["natural", "sorted"])
def test_a_pickup_by_rank_taken_as_smu_takes_it(pickup):
    """Under natural and sorted the winner of a battle without a war takes its higher
    card first (docs/rules.md 7.4); smu's order, the pot from the top, is a fault when A
    won."""
    lines = trace_of(1, "lehigh", pickup=pickup)
    events = [json.loads(line) for line in lines]
    number = next(number for number, event in enumerate(events, start=1)
                  if event.get("event") == "pickup" and event["player"] == 0
                  and len(event["cards"]) == 2)
    event = json.loads(lines[number - 1])
    top_first = [json.loads(line)["card"] for line in lines[number - 4:number - 2]][::-1]
    assert event["cards"] == top_first[::-1]           # A's card (the higher) first
    fault = fault_of(edited(lines, number, cards=top_first))
    assert fault.line == number and f"order of pickup {pickup}" in fault.reason


def test_a_random_pickup_must_be_the_pot():
    lines = trace_of(1, "iofall")
    number = line_of(lines, "pickup")
    cards = json.loads(lines[number - 1])["cards"]
    fault = fault_of(edited(lines, number, cards=cards[:-1] + [(cards[-1] + 1) % 52]))
    assert fault.line == number and "in any order (pickup random)" in fault.reason
    assert check_trace(text(edited(lines, number, cards=cards[::-1]))).fault.line > number


def test_a_war_with_too_few_face_down_cards():
    lines = trace_of(1, "lehigh")
    number = line_of(lines, "face_down")
    cards = json.loads(lines[number - 1])["cards"]
    assert len(cards) == 3                              # lehigh: 3 down
    fault = fault_of(edited(lines, number, cards=cards[:2]))
    assert fault.line == number and "3 face-down cards" in fault.reason


def test_a_missing_refill():
    lines = trace_of(17455)
    number = line_of(lines, "refill")
    fault = fault_of(without(lines, number))
    assert fault.line == number
    assert "refill" in fault.reason and "'to play' pile is empty" in fault.reason


def test_a_refill_that_is_not_due():
    lines = trace_of(17455)
    number = line_of(lines, "refill")
    early = line_of(lines, "round", nth=2)
    assert early < number
    moved = lines[:early - 1] + (lines[number - 1],) + lines[early - 1:]
    fault = fault_of(moved)
    assert fault.line == early and "the rules require round 3 to begin" in fault.reason


def test_a_forged_refill_that_is_not_due():
    """A refill of A's 'played' pile at the start of round 3, numbered as it would be
    there and with its sizes right, while A still holds 24 cards to play: the rules
    require A's face-up card.  smu: until the first refill, A's 'played' pile holds the
    cards of A's pickups."""
    lines = trace_of(17455)
    number = line_of(lines, "round", nth=2)
    start = json.loads(lines[number - 1])
    before = [json.loads(line) for line in lines[1:number]]
    assert (start["round"], start["piles"][0]) == (3, [24, 2])
    assert "refill" not in [event["event"] for event in before]
    played = [card for event in before if event["event"] == "pickup"
              and event["player"] == 0 for card in event["cards"]]
    forged = {"event": "refill", "round": 3, "battle": start["battle"], "player": 0,
              "cards": played, "piles": [[26, 0], start["piles"][1]], "pot": 0}
    fault = fault_of(lines[:number] + (spelled(forged),) + lines[number:])
    assert (fault.line, fault.round) == (number + 1, 3)
    assert fault.reason == ("the rules require player A's face-up card, " + first_card(lines,
                            number) + ", the top of its 'to play' pile; the trace says "
                            + spelled({key: forged[key] for key in list(forged)[:5]}))


def first_card(lines, number):
    """The card of the first face_up after line number, as replay names it."""
    card = json.loads(lines[line_of(lines, "face_up", nth=4) - 1])["card"]
    assert line_of(lines, "face_up", nth=4) == number + 1
    suits = ("hearts", "diamonds", "spades", "clubs")
    faces = "two three four five six seven eight nine ten jack queen king ace".split()
    return f"card {card} ({faces[card % 13]} of {suits[card // 13]})"


def test_a_kept_refill_keeps_its_order():
    lines = trace_of(1, "smu", refill="keep", max_rounds=400)
    number = line_of(lines, "refill")
    cards = json.loads(lines[number - 1])["cards"]
    fault = fault_of(edited(lines, number, cards=cards[::-1]))
    assert fault.line == number and "as it lies" in fault.reason


def test_sizes_that_do_not_add_up():
    fault = fault_of(edited(trace_of(17455), 3, pot=7))
    assert fault.line == 3 and "pot 7" in fault.reason


def test_a_round_numbered_wrong():
    lines = trace_of(17455)
    number = line_of(lines, "round", nth=1)
    fault = fault_of(edited(lines, number, round=3))
    assert fault.line == number
    assert fault.reason == ("the rules require this round in round 2, battle 1; the trace "
                            "says round 3, battle 1")


def test_a_missing_run_out():
    lines = trace_of(1)          # docs/rules.md: B runs out in a tie, 2 cards stranded
    number = line_of(lines, "run_out")
    assert json.loads(lines[number - 1])["player"] == 1
    fault = fault_of(without(lines, number))
    assert fault.line == number and "player B to run out" in fault.reason


def test_a_run_out_that_is_not_due():
    lines = trace_of(17455)
    number = line_of(lines, "round", nth=5)
    early = json.loads(lines[number - 1])
    run_out = {"event": "run_out", "round": 5, "battle": early["battle"], "player": 0,
               "piles": early["piles"], "pot": 0}
    fault = fault_of(lines[:number - 1] + (spelled(run_out),) + lines[number - 1:])
    assert fault.line == number and "round 6 to begin" in fault.reason


def test_a_wrong_end():
    lines = trace_of(17455)                             # B wins (docs/rules.md 13)
    fault = fault_of(edited(lines, len(lines), winner=0))
    assert fault.line == len(lines) and "outcome win, player B the winner" in fault.reason


def test_the_cap_comes_when_the_rounds_reach_it():
    lines = trace_of(1, max_rounds=5)
    number = line_of(lines, "cap")
    assert json.loads(lines[number - 1])["round"] == 5
    fault = fault_of(without(lines, number))
    assert fault.line == number and "the cap: 5 rounds played" in fault.reason


def test_the_cycle_start_and_period():
    """lehigh seed 12 repeats every 52 rounds after 91 (docs/rules.md 13)."""
    lines = trace_of(12, "lehigh")
    number = line_of(lines, "cycle")
    assert json.loads(lines[number - 1])["start"] == 91
    for change in ({"start": 90}, {"period": 26}, {"period": 104}):
        fault = fault_of(edited(lines, number, **change))
        assert fault.line == number and '"start":91,"period":52' not in fault.reason
    assert "after round 179 were the hands after round 127" in fault.reason
    fault = fault_of(without(lines, number))
    assert fault.line == number and "the cycle" in fault.reason


def test_a_take_back_of_the_wrong_card():
    lines = trace_of(11, "lehigh")
    number = line_of(lines, "take_back")
    card = json.loads(lines[number - 1])["card"]
    fault = fault_of(edited(lines, number, card=(card + 13) % 52))
    assert fault.line == number and f"take back its last face-up card, card {card}" in fault.reason


def test_lines_after_the_end_and_a_cut_trace():
    lines = trace_of(17455)
    fault = fault_of(lines + (lines[-1],))
    assert fault.line == len(lines) + 1 and "after the end" in fault.reason
    fault = fault_of(lines[:-3])
    assert fault.line == len(lines) - 2 and "the trace ends here" in fault.reason


@pytest.mark.parametrize("seed, rules", [(17455, "smu"), (12, "lehigh"), (7, "iofall")])
def test_a_trace_cut_exactly_before_its_end_event(seed, rules, tmp_path, capsys):
    """The last line, the end, missing: a fault at that line, naming the end the rules
    require (a replay that took the trace as complete went on to a KeyError: 'winner')."""
    lines = trace_of(seed, rules)
    assert json.loads(lines[-1])["event"] == "end"
    end = json.loads(lines[-1])
    fault = fault_of(lines[:-1])
    assert fault.line == len(lines) and fault.round == end["round"]
    assert fault.reason.startswith("the trace ends here, where the rules require the end: "
                                   f"outcome {end['outcome']}, ")
    path = tmp_path / "cut.jsonl"
    path.write_text(text(lines[:-1]))
    assert main(["replay", "-q", str(path)]) == 1
    out, err = capsys.readouterr()
    assert out == "" and err == f"pywar replay: {path}: {fault}\n"


@pytest.mark.parametrize("bad, words", [
    ("not json", "not a JSON line"),
    ('{"event": "round"}', "the keys"),
    ('{"event":"dance","round":1}', "'dance' is not an event"),
])
def test_a_line_that_is_not_an_event(bad, words):
    lines = trace_of(17455)
    fault = fault_of(lines[:4] + (bad,) + lines[5:])
    assert fault.line == 5 and words in fault.reason


def test_a_line_spelled_with_spaces():
    lines = trace_of(17455)
    fault = fault_of(lines[:4] + (json.dumps(json.loads(lines[4])),) + lines[5:])
    assert fault.line == 5 and "spelled" in fault.reason


def test_a_deal_that_deals_a_card_twice():
    lines = trace_of(17455)
    hands = json.loads(lines[1])["hands"]
    hands[0][0] = hands[1][0]
    fault = fault_of(edited(lines, 2, hands=hands))
    assert fault.line == 2 and "dealt once" in fault.reason


def test_a_given_deal_is_the_header_s():
    lines = tuple(pywar.play(0, "lehigh", engine="python", deal=([2, 0], [1, 3]), trace=True,
                             deck="2x2").trace.splitlines())
    assert check_trace(text(lines)).fault is None
    fault = fault_of(edited(lines, 2, hands=[[0, 2], [1, 3]]))
    assert fault.line == 2 and "the header's deal [[2, 0], [1, 3]]" in fault.reason


# ---- The command

def test_replay_exits_1_naming_the_line(tmp_path, capsys):
    path = tmp_path / "bad.jsonl"
    path.write_text(text(edited(trace_of(17455), 6, winner=0)))
    assert main(["replay", str(path)]) == 1
    out, err = capsys.readouterr()
    reference = reference_transcript(17455)
    first_round = reference.index("======== Round 1 ========\n")
    assert out == reference[:first_round] + "======== Round 1 ========\n"
    assert err == (f"pywar replay: {path}: line 6 (round 1, battle 1): the rules require "
                   "player B to win the battle of card 27 (three of spades), card 2 (four of "
                   'hearts); the trace says {"event":"battle","round":1,"battle":1,'
                   '"winner":0,"tied":[]}\n')


@pytest.mark.parametrize("content, words", [
    (b"", "empty"), (b"hello\n", "not a JSON header"), (b'{"trace":"other"}\n', '"trace":"pywar"'),
    (b'{"trace":"pywar","version":2}\n', "version 2"), (b"\xff\xfe\n", "not a text file"),
])
def test_a_file_that_is_not_a_trace_is_exit_2(tmp_path, capsys, content, words):
    path = tmp_path / "file"
    path.write_bytes(content)
    assert main(["replay", str(path)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and words in err and "Traceback" not in err


def test_a_header_with_unknown_rules_is_exit_2(tmp_path, capsys):
    header = json.loads(trace_of(17455)[0])
    header["rules"]["pickup"] = "grab"
    path = tmp_path / "file"
    path.write_text(spelled(header) + "\n")
    assert main(["replay", str(path)]) == 2
    assert "unknown pickup 'grab'" in capsys.readouterr().err


def test_a_file_that_cannot_be_read_is_exit_3(tmp_path, capsys):
    assert main(["replay", str(tmp_path / "missing.jsonl")]) == 3
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1
    assert err.startswith("pywar replay: error: cannot read ")
    assert main(["replay", str(tmp_path)]) == 3


def test_not_a_trace_is_a_value_error():
    with pytest.raises(NotATrace):
        check_trace((DATA / "seed-1.txt").read_text())


# ---- A one-card game (docs/rules.md 7.10, docs/trace.md)

@pytest.mark.parametrize("engine", [pytest.param("c", marks=needs_c), "python"])
@pytest.mark.parametrize("seed, dimensions", [(1, {}), (2, {}), (5, {"players": 3}),
                                              (9, {"players": 5})])
def test_replay_accepts_a_one_card_game_s_trace(engine, seed, dimensions):
    """Each engine's one-card trace follows the rules, whose end replay works out from
    the battles it counts: seed 1 B by the most battles won, seed 2 a draw (docs/trace.md,
    docs/rules.md's vectors)."""
    trace = pywar.play(seed, "cecs325", engine=engine, trace=True, **dimensions).trace
    result = check_trace(trace)
    assert result.fault is None, result.fault
    end = json.loads(trace.splitlines()[-1])
    won = [0] * (dimensions.get("players", 2))
    for line in trace.splitlines()[1:]:
        event = json.loads(line)
        if event["event"] == "battle" and event["winner"] is not None:
            won[event["winner"]] += 1
    most = [player for player, count in enumerate(won) if count == max(won)]
    assert (end["outcome"], end["winner"]) == (("win", most[0]) if len(most) == 1
                                               else ("draw", None))


def test_a_one_card_trace_edited_is_refused_at_its_line():
    """A wrong winner, a pickup where nothing is won back, and a wrong end are each
    refused at their line."""
    lines = trace_of(1, "cecs325")
    battle = line_of(lines, "battle", winner=0)
    fault = fault_of(edited(lines, battle, winner=1))
    assert fault.line == battle and "player A to win the battle" in fault.reason
    event = json.loads(lines[battle - 1])
    pickup = spelled({"event": "pickup", "round": event["round"], "battle": event["battle"],
                      "player": 0, "cards": [], "piles": event["piles"], "pot": event["pot"]})
    fault = fault_of(lines[:battle] + (pickup,) + lines[battle:])
    assert fault.line == battle + 1 and "round" in fault.reason
    fault = fault_of(edited(lines, len(lines), outcome="draw", winner=None))
    assert fault.line == len(lines) and "outcome win, player B the winner" in fault.reason
