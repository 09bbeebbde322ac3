"""The referee that keeps going (pywar.check.referee.judge) on the reference's own transcripts,
each changed by hand in one way: the change is found under its rubric item alone, the
referee goes on to the end of the game, and its words read as plain English."""

import doctest
import re

import pytest

import pywar
import pywar.check.referee.judge
import pywar.check.referee.lines
from conftest import ROOT, reference_transcript
from pywar.check.referee.judge import judge
from pywar.check.referee.words import article

SEED = 1
TEXT = reference_transcript(SEED)
LINES = TEXT.splitlines()


def changed(edit):
    """The reference's transcript of seed 1 with its lines changed by edit(lines)."""
    lines = list(LINES)
    edit(lines)
    return "\n".join(lines) + "\n"


def broken(text, complete=True):
    """{item: (first finding, how many times)} of a text."""
    return {item: (found[0], found[1]) for item, found in judge(text, complete).findings.items()}


def index_of(pattern, start=0):
    """The index of the first line from start that matches a pattern."""
    return next(i for i in range(start, len(LINES)) if re.fullmatch(pattern, LINES[i]))


@pytest.mark.parametrize("seed", [1, 1553, 17455])
def test_the_reference_breaks_no_rule(seed):
    judged = judge(reference_transcript(seed))
    assert judged.findings == {} and judged.finished
    assert judged.rounds == pywar.play(seed, transcript=True).rounds


def test_the_modules_examples_run():
    for module in (pywar.check.referee.judge, pywar.check.referee.lines):
        failures, tried = doctest.testmod(module)
        assert tried > 0 and failures == 0


def test_a_card_dealt_twice_breaks_the_deal():
    def twice(lines):
        lines[9] = "Card 2, " + lines[8].split(", ")[1]    # A's second card: its first again
    found = broken(changed(twice))
    assert list(found) == ["deal"]
    first, _ = found["deal"]
    assert first.line == 10 and "a second time (first on line 9)" in first.said


def test_a_wrong_count_breaks_counts_alone_and_the_referee_goes_on():
    at = index_of(r"Player A has \d+ .*", 70)

    def wrong(lines):
        lines[at] = lines[at].replace("has 24 in", "has 23 in")
    found = broken(changed(wrong))
    assert list(found) == ["counts"] and found["counts"][0].line == at + 1
    assert found["counts"][0].required == "player A's counts: 24 to play and 2 played"
    assert judge(changed(wrong)).finished


def test_a_winner_named_on_a_tie_breaks_ties_and_says_an():
    at = index_of(r"There is a tie\.\.\. Doing another battle\.")
    rank = LINES[at - 1].split()[3]                         # 'four'

    def winner(lines):
        lines[at] = "Player A wins the 'currently in play' pile."
    found = broken(changed(winner))
    assert "ties" in found
    assert found["ties"][0].required == f"another battle: both play {article(rank)} {rank}, a tie"


@pytest.mark.parametrize("word, expected", [("eight", "an"), ("ace", "an"), ("king", "a"),
                                            ("two", "a")])
def test_articles(word, expected):
    assert article(word) == expected


def test_a_line_after_the_end_breaks_end():
    found = broken(TEXT + "======== Round 451 ========\nPlayer A plays two of hearts\n")
    assert list(found) == ["end"]
    assert found["end"][0].required == "nothing after the end: the game was over"


def test_a_file_that_stops_early_breaks_end_unless_the_program_crashed():
    cut = "\n".join(LINES[:500]) + "\n"
    assert list(broken(cut)) == ["end"]
    assert broken(cut, complete=False) == {}
    judged = judge(cut, complete=False)
    assert judged.progress() == f"the game got to round {judged.rounds}"
    assert judged.last_lines == LINES[497:500]


def test_a_refill_that_is_not_printed_breaks_refill_alone():
    def silent(lines):
        at = index_of(r"Player A ran out of cards in .*")
        del lines[at:at + 3]
    found = broken(changed(silent))
    assert list(found) == ["refill"]


def test_its_own_words_break_only_the_format():
    words = ((r"Player (.) plays (.*)", r"player \1 plays the \2!"),
             (r"Player (.) wins the 'currently in play' pile\.", r"Player \1 wins the loot!"),
             (r"There is a tie\.\.\. Doing another battle\.", "It's a tie... battle again!"),
             (r"======== Round (\d+) ========", r"ROUND \1"),
             (r"Player (.) has (\d+) in their 'to play' pile and (\d+) in their 'played' pile\.",
              r"Player \1: \2 to play, \3 played"),
             (r"Player (.) ran out of cards\.  Player . has lost\.", r"Player \1 loses!"),
             (r"Card (\d+), (.*)", r"\1: \2"))

    def own(lines):
        for i, line in enumerate(lines):
            for pattern, new in words:
                lines[i] = re.sub(f"^{pattern}$", new, lines[i])
    found = broken(changed(own))
    assert list(found) == ["format"]
    assert found["format"][0].said == "'1: king of spades'"
    assert judge(changed(own)).finished


def test_a_missing_tie_line_is_named_where_it_was_due():
    tie = index_of(r"There is a tie.*")

    def silent(lines):
        del lines[tie]
    first, _ = broken(changed(silent))["ties"]
    assert first.line == tie + 1                # right after the two plays, not a later line
    assert first.said == "''"


def test_rounds_numbered_from_zero_break_the_format_alone():
    def from_zero(lines):
        for i, line in enumerate(lines):
            lines[i] = re.sub(r"^(=+ Round )(\d+)( =+)$",
                              lambda m: f"{m[1]}{int(m[2]) - 1}{m[3]}", line)
    first_header = index_of(r"=+ Round 1 =+")
    found = broken(changed(from_zero))
    assert list(found) == ["format"]
    first, _ = found["format"]
    assert first.line == first_header + 1
    assert first.required == repr(LINES[first_header])     # '======== Round 1 ========'
    assert first.said == repr(LINES[first_header].replace("Round 1", "Round 0"))


def test_a_round_header_of_100000_digits_is_quoted_cut_short():
    header = index_of(r"=+ Round 1 =+")

    def huge(lines):
        lines[header] = "======== Round " + "7" * 100_000 + " ========"
    first, _ = broken(changed(huge))["format"]
    assert first.line == header + 1
    assert first.required == repr(LINES[header])        # Round 1, not Round None
    assert first.said.startswith("'======== Round 777") and len(first.said) < 300


def test_a_listing_numbered_from_zero_is_a_format_departure():
    def from_zero(lines):
        for i in range(8, 34):
            lines[i] = re.sub(r"Card (\d+),", lambda m: f"Card {int(m[1]) - 1},", lines[i])
    found = broken(changed(from_zero))
    assert list(found) == ["format"]


def understood_examples():
    """(kind, line) of each example in docs/grading.md's table of what is understood."""
    text = (ROOT / "docs" / "grading.md").read_text()
    table = text[text.index("| kind | the reference's words |"):text.index("A line it does not")]
    rows = re.findall(r"^\| (\w+) \| (.*) \| (.*) \|$", table, re.M)
    return [(kind, line) for kind, words, also in rows
            for line in re.findall(r"`([^`]+)`", words + " " + also)]


@pytest.mark.parametrize("kind, line", understood_examples())
def test_every_example_of_the_docs_is_understood(kind, line):
    """Each example, read after the docs' example of a file that names its players."""
    reader = pywar.check.referee.lines.Reader()
    reader.events("Alice plays the king of hearts")
    reader.events("Bob plays the two of clubs")
    assert reader.events(line)[0][0] == kind


def test_the_docs_give_examples_of_every_kind():
    assert {kind for kind, _ in understood_examples()} == {
        "welcome", "pile", "size", "listed", "round", "plays", "wins", "tie", "refill",
        "counts", "lost"}


@pytest.mark.parametrize("text", ["", "hello\n", "\x00\x01garbage"])
def test_output_that_is_no_game_breaks_format_deal_and_end(text):
    judged = judge(text)
    assert judged.broken() == ["format", "deal", "end"]
    assert judged.progress() == "the game never began"
    assert judged.first("end").said == "nothing more: it stops before the first round"
    assert judged.first("deal").text() == ("the rules require the deal listed: 26 cards for "
                                           "each player; the file says no listing of the deal")


def test_the_lines_around_a_finding_are_cut_as_its_line_is():
    """A finding's lines around it are quoted cut short too (issue 51): a debug line of
    several MiB beside a broken rule is shown by its first LINE characters, in the
    Finding, and so in the JSON, the page and the terminal that show its context."""
    from pywar.check.referee.quote import LINE
    plays = index_of(r"=+ Round 1 =+") + 1
    flood = "DEBUG " + "x" * (3 << 20)

    def beside(lines):
        lines[plays] = lines[plays].replace("plays", "shows")     # format breaks here
        lines[plays + 1] = flood                                   # the line after it
    first, _ = broken(changed(beside))["format"]
    assert first.line == plays + 1
    around = dict(first.context)
    assert list(around) == [plays, plays + 1, plays + 2]
    assert around[plays] == LINES[plays - 1]
    assert around[plays + 1] == LINES[plays].replace("plays", "shows")
    assert around[plays + 2] == flood[:LINE]
    judged = judge("\n".join(LINES[:plays + 1] + [flood]) + "\n", complete=False)
    assert judged.last_lines == [LINES[plays - 1], LINES[plays], flood[:LINE]]
