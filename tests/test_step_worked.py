"""The stepper's model and page (pywar.step) against values worked out apart from them:
each card's short name from the referee's own card words, and the round a repeating
game's cycle starts from the table's states, searched round by round."""

import json

import pytest

import pywar
import pywar.step.page
from pywar.check.referee.words import NAME_OF
from pywar.common.table_state import TableState
from pywar.common.trace import read
from pywar.step.model import card_label

SHORT = {"two": "2", "three": "3", "four": "4", "five": "5", "six": "6", "seven": "7",
         "eight": "8", "nine": "9", "ten": "10", "jack": "J", "queen": "Q", "king": "K",
         "ace": "A"}


def test_each_card_s_short_name_is_its_name():
    """'ace of spades' is AS, 'ten of hearts' 10H: every card of the deck (ids are suit
    * 13 + rank, the referee's words name them apart from the stepper)."""
    for card, name in NAME_OF.items():
        rank, _, suit = name.split()
        assert card_label(card, "13x4") == SHORT[rank] + suit[0].upper(), name


@pytest.mark.parametrize("card, deck, label", [(0, "5x4", "1H"), (4, "5x4", "5H"),
                                               (5, "5x4", "1D"), (19, "5x4", "5C"),
                                               (9, "10x4", "10H")])
def test_a_deck_of_other_ranks_numbers_them_from_1(card, deck, label):
    assert card_label(card, deck) == label


def states_after_rounds(trace):
    """The table (piles and pot) before each round's first event, and at the cycle's
    event: the state after rounds 0, 1, 2, ..."""
    header, events = read(trace.splitlines())
    table = TableState(header, events)
    states = []
    for at, event in enumerate(events):
        if event["event"] in ("round", "cycle"):
            table.run(until=at)
            state = table.state()
            states.append(json.dumps([state["piles"], state["pot"]], sort_keys=True))
    return header, events, states


def test_the_page_says_the_round_a_repeating_game_s_cycle_starts():
    """lehigh's seed 11 repeats: the first state seen twice is the state after round
    s, again after round s + p; so rounds s + 1 on repeat every p rounds."""
    game = pywar.play(11, "lehigh", trace=True)
    assert game.outcome == "cycle"
    _, events, states = states_after_rounds(game.trace)
    first = {}
    for after, state in enumerate(states):
        if state in first:
            break
        first[state] = after
    start, period = first[state], after - first[state]
    ending = pywar.step.page.ending(events, ["Player 1", "Player 2"])
    assert f"every {period} rounds from round {start + 1}." in ending
