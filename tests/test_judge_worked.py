"""The referee (pywar.check.referee) on short transcripts worked out by hand: seed 1's
deal and first three rounds as the reference prints them, then rounds played by a rule
of their own, their counts worked out here, line by line.  Each test holds a verdict of
the referee (an item, a mistake's row, a line) against what the rules and the rubric of
docs/grading.md say of that game, not against the referee's own tables."""

import pytest

from conftest import reference_transcript
from pywar.check.referee import quote
from pywar.check.referee.exact import referee
from pywar.check.referee.judge import judge
from pywar.check.referee.lines import Reader, Said

LINES = reference_transcript(1).splitlines()
ROUND_4 = LINES.index("======== Round 4 ========")
COUNTS = "Player {} has {} in their 'to play' pile and {} in their 'played' pile."
WINS = "Player {} wins the 'currently in play' pile."
TIE = "There is a tie... Doing another battle."


def battle(a_card, b_card, verdict, a_counts, b_counts, header=None):
    """A battle's lines in the reference's words: its header (a new round's), both plays,
    the verdict ('A', 'B' or 'tie'), a blank, both counts, a blank."""
    said = TIE if verdict == "tie" else WINS.format(verdict)
    return ([f"======== Round {header} ========"] if header else []) + [
        f"Player A plays {a_card}", f"Player B plays {b_card}", said, "",
        COUNTS.format("A", *a_counts), COUNTS.format("B", *b_counts), ""]


def seed_1_then(*battles):
    """Seed 1's transcript to its fourth round, then the battles given: a run stopped
    there (so that no end is due)."""
    lines = LINES[:ROUND_4] + [line for lines in battles for line in lines]
    return judge("\n".join(lines) + "\n", complete=False)


# Seed 1's next cards (its round 4 and on): A four of clubs, ten of spades, two of
# diamonds, five of clubs, queen of clubs; B four of hearts, nine of diamonds, three of
# spades, five of diamonds.  Before round 4: A 23 to play, 2 played; B 23 and 4.

def test_a_tie_decided_is_tie_decided_charged_once_to_ties():
    """Two ties, each decided for player A, who takes the two tied cards: docs/grading.md
    charges a tie decided to `ties`, once a seed, and then plays by it."""
    judged = seed_1_then(
        battle("four of clubs", "four of hearts", "A", (22, 4), (22, 4), header=4),
        battle("ten of spades", "nine of diamonds", "A", (21, 6), (21, 4), header=5),
        battle("two of diamonds", "three of spades", "B", (20, 6), (20, 6), header=6),
        battle("five of clubs", "five of diamonds", "A", (19, 8), (19, 6), header=7))
    assert judged.broken() == ["ties"]
    assert list(judged.mistakes) == ["tie_decided"]
    first, times = judged.findings["ties"]
    assert times == 1 and first.line == ROUND_4 + 4            # round 4's verdict line
    assert first.required == "another battle: both play a four, a tie"


def test_tied_cards_given_back_are_tie_returned_charged_to_pickup():
    """A tie broken by player A, who takes only the last battle's two cards, each tied
    card going back to its owner's 'played' pile: the pot's pickup (docs/grading.md's
    rubric: "the winner takes the whole pot"), not the tie, is what the rules lose."""
    judged = seed_1_then(
        battle("four of clubs", "four of hearts", "tie", (22, 2), (22, 4), header=4),
        battle("ten of spades", "nine of diamonds", "A", (21, 2 + 2 + 1), (21, 4 + 1)),
        battle("two of diamonds", "three of spades", "B", (20, 5), (20, 7), header=5))
    assert judged.broken() == ["pickup"]
    assert list(judged.mistakes) == ["tie_returned"]
    assert judged.findings["pickup"][1] == 1


def test_a_battle_with_no_verdict_line_is_charged_where_the_verdict_was_due():
    """The ranks finding is at the line after the two plays (line 68 of seed 1 is round
    1's verdict), not at the battle's last line."""
    lines = list(LINES)
    verdict = LINES.index("Player A wins the 'currently in play' pile.")
    assert LINES[verdict - 2:verdict] == ["Player A plays ace of diamonds",
                                          "Player B plays seven of diamonds"]
    del lines[verdict]
    first, _ = judge("\n".join(lines) + "\n").findings["ranks"]
    assert first.line == verdict + 1 and first.said == "no verdict line"


def test_a_pile_s_size_other_than_its_listing_breaks_the_deal():
    """'There are 25 cards in the pile.' above B's 26 cards: the deal, at that line."""
    at = LINES.index("Player B:") + 1
    lines = list(LINES)
    lines[at] = "There are 25 cards in the pile."
    judged = judge("\n".join(lines) + "\n")
    assert judged.broken() == ["deal"] and list(judged.mistakes) == ["deal_size_wrong"]
    first, _ = judged.findings["deal"]
    assert first.line == at + 1 and first.required == "the number of cards listed, 26"


@pytest.mark.parametrize("line, header", [
    ("======== Round 01 ========", "======== Round 1 ========"),
    ("Card 01, king of spades", "Card 1, king of spades")])
def test_a_number_with_a_leading_zero_is_not_the_reference_s(line, header):
    """The reference prints 'Round 1' and 'Card 1', never '01': both referees say so at
    that line."""
    at = LINES.index(header)
    lines = list(LINES)
    lines[at] = line
    text = "\n".join(lines) + "\n"
    judged = judge(text)
    assert judged.broken() == ["format"]
    first, _ = judged.findings["format"]
    assert (first.line, first.required, first.said) == (at + 1, repr(header), repr(line))
    assert referee(text).fault.line == at + 1


def test_a_long_line_is_quoted_cut_after_its_first_200_characters():
    """A counts line of 250 characters: the finding quotes its first 200 and '...'."""
    at = LINES.index("Player A has 25 in their 'to play' pile and 2 in their 'played' pile.")
    long = "Player A has 25 in their 'to play' pile and 3 in their 'played' pile." + "!" * 181
    lines = list(LINES)
    lines[at] = long
    first, _ = judge("\n".join(lines) + "\n").findings["counts"]
    assert len(long) == 250 and first.said == repr(long[:200] + "...")
    assert quote.cut("x" * 60) == "x" * 60 and quote.cut("x" * 61) == "x" * 60 + "..."


@pytest.mark.parametrize("line, said", [
    ("Player A is out of cards to play: shuffling 12 played cards back in.", Said("refill", 0)),
    ("Player B: deck empty, 1 refill so far", Said("refill", 1)),
    ("Player A is out of cards to play: 0 to play, 12 played.",
     Said("counts", 0, to_play=0, played=12)),
])
def test_a_refill_line_may_carry_one_number_a_counts_line_two(line, said):
    """A line cued as a refill is one with a number in it; with two, it is the counts."""
    assert Reader().events(line) == [said]
