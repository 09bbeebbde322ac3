"""pywar referee: a transcript in the SMU reference's format, refereed line by line.
The reference's own transcripts are legal games; each edit below breaks one rule, and
the referee names its line.  Lines are found by a plain search of the reference files."""

import pytest

import pywar
from conftest import DATA, needs_python_runs, reference_transcript
from pywar.cli import main
from pywar.check.referee.exact import NotATranscript, referee
from pywar.check.runner.pychild import python_for_runs

SEEDS = (1, 1553, 17455)


def run(capsys, *argv):
    """main(argv): (exit status, stdout, stderr)."""
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def lines_of(seed):
    """A reference transcript's lines, without their newlines."""
    return reference_transcript(seed).splitlines()


def number_of(lines, text, nth=0):
    """The number (1 is the first) of the nth line that is text."""
    return [i for i, line in enumerate(lines, start=1) if line == text][nth]


def fault_of(lines, seed=None):
    """The referee's fault in a transcript of these lines."""
    fault = referee("\n".join(lines) + "\n", seed).fault
    assert fault is not None
    return fault


def replaced(lines, number, line):
    """The lines with line number replaced."""
    return lines[:number - 1] + [line] + lines[number:]


@pytest.mark.parametrize("seed", SEEDS)
def test_the_reference_transcripts_are_legal_games(seed):
    verdict = referee(reference_transcript(seed))
    assert verdict.fault is None
    assert referee(reference_transcript(seed), seed=seed).fault is None
    assert verdict.rounds == {1: 450, 1553: 2087, 17455: 29}[seed]   # digests-0-100.tsv, README
    assert verdict.losers == {1: (1,), 1553: (1,), 17455: (0,)}[seed]


def test_a_wrong_winner():
    lines = lines_of(17455)
    number = number_of(lines, "Player B wins the 'currently in play' pile.")
    fault = fault_of(replaced(lines, number, "Player A wins the 'currently in play' pile."))
    assert (fault.line, fault.round) == (number, 1)
    assert fault.reason == ("the rules require \"Player B wins the 'currently in play' pile.\" "
                            "(the four of hearts beats the three of spades); the file says "
                            "\"Player A wins the 'currently in play' pile.\"")


def test_a_tie_goes_on():
    lines = lines_of(17455)
    number = number_of(lines, "There is a tie... Doing another battle.")
    fault = fault_of(replaced(lines, number, "Player A wins the 'currently in play' pile."))
    assert fault.line == number and "There is a tie" in fault.reason


def test_a_wrong_count():
    lines = lines_of(17455)
    number = number_of(lines, "Player A has 25 in their 'to play' pile and 0 in their "
                              "'played' pile.")
    fault = fault_of(replaced(lines, number, lines[number - 1].replace("25", "24")))
    assert (fault.line, fault.round) == (number, 1)
    assert "player A holds 25 cards to play and 0 played" in fault.reason


def test_a_card_played_twice():
    """In round 2 A plays again the three of spades it lost in round 1."""
    lines = lines_of(17455)
    number = number_of(lines, "Player A plays three of diamonds")
    assert lines[number - 2] == "======== Round 2 ========"
    fault = fault_of(replaced(lines, number, "Player A plays three of spades"))
    assert (fault.line, fault.round) == (number, 2)
    assert "the three of spades, which is in player B's 'played' pile" in fault.reason


def test_a_card_from_the_middle_of_the_dealt_pile():
    lines = lines_of(17455)
    number = number_of(lines, "Player A plays three of diamonds")
    fault = fault_of(replaced(lines, number, "Player A plays " + lines[8].split(", ")[1]))
    assert fault.line == number and "'three of diamonds', the top of the pile" in fault.reason


def test_a_missing_refill():
    lines = lines_of(17455)
    number = number_of(lines, "Player A ran out of cards in their 'to play' pile.  Getting "
                              "cards from the 'played' pile.")
    fault = fault_of(lines[:number - 1] + lines[number + 2:])
    assert fault.line == number
    assert "player A's 'to play' pile is empty and its 'played' pile holds" in fault.reason


def test_a_refill_that_is_not_due():
    lines = lines_of(17455)
    number = number_of(lines, "Player A has 25 in their 'to play' pile and 0 in their "
                              "'played' pile.")
    refill = ["Player A ran out of cards in their 'to play' pile.  Getting cards from the "
              "'played' pile.", "Shuffling player A cards...", ""]
    fault = fault_of(lines[:number - 1] + refill + lines[number - 1:])
    assert fault.line == number and fault.reason.startswith("no refill is due")


@pytest.mark.parametrize("seed", [17455, 1])
def test_a_wrong_end(seed):
    lines = lines_of(seed)
    loser = lines[-1][7]
    other = "AB"[loser == "A"]
    fault = fault_of(replaced(lines, len(lines), lines[-1].replace(loser, other)))
    assert fault.line == len(lines) and f"player {loser} has no card left" in fault.reason
    fault = fault_of(lines[:-1])
    assert fault.line == len(lines) and "the file ends here" in fault.reason
    fault = fault_of(lines + ["Player A plays two of hearts"])
    assert fault.line == len(lines) + 1 and "after the end" in fault.reason


def test_a_round_numbered_wrong():
    lines = lines_of(17455)
    number = number_of(lines, "======== Round 2 ========")
    fault = fault_of(replaced(lines, number, "======== Round 3 ========"))
    assert fault.line == number and "'======== Round 2 ========'" in fault.reason


def test_a_deal_of_one_card_twice():
    lines = lines_of(17455)
    fault = fault_of(replaced(lines, 10, "Card 2, " + lines[8].split(", ")[1]))
    assert fault.line == 10 and "dealt twice" in fault.reason


def test_with_a_seed_the_deal_must_be_the_seeds():
    """Seed 1553's reference transcript is not seed 17455's game: line 9 is A's first
    card (after the six opening lines, 'Player A:' and the count)."""
    lines = lines_of(1553)
    fault = fault_of(lines, seed=17455)
    assert fault.line == 9
    assert fault.reason == (f"the reference's game of seed 17455 has {lines_of(17455)[8]!r} "
                            f"here; the file says {lines[8]!r}")


def test_with_a_seed_a_rule_fault_says_why():
    lines = lines_of(17455)
    number = number_of(lines, "Player B wins the 'currently in play' pile.")
    fault = fault_of(replaced(lines, number, "Player A wins the 'currently in play' pile."),
                     seed=17455)
    assert fault.line == number and "beats the three of spades" in fault.reason


def test_not_a_transcript():
    for text in ("", "hello\n", pywar.play(1, "lehigh", transcript=True).transcript):
        with pytest.raises(NotATranscript, match="not a transcript in the reference's format"):
            referee(text)


# ---- The command

def test_the_command_on_a_legal_game(capsys):
    path = str(DATA / "seed-17455.txt")
    assert run(capsys, "referee", path, "--seed", "17455") == (
        0, f"{path}: a legal game of smu, the reference's game of seed 17455: 29 rounds, "
           "player A ran out\n", "")


def test_the_command_on_a_fault(tmp_path, capsys):
    lines = lines_of(17455)
    path = tmp_path / "student.txt"
    path.write_text("\n".join(replaced(lines, 70, lines[69].replace("25", "24"))) + "\n")
    status, out, err = run(capsys, "referee", str(path))
    assert (status, err) == (1, "")
    assert out.startswith(f"{path}: line 70 (round 1): the rules require \"Player A has 25 in")


def test_the_command_referees_an_engine(capsys):
    status, out, _ = run(capsys, "referee", "--engine", "port-python", "--seed", "1553")
    assert status == 0 and out.startswith("port-python: a legal game of smu, the reference's")


@pytest.mark.parametrize("argv, status, words", [
    (["referee"], 2, "give a FILE or --engine"),
    (["referee", "--engine", "c"], 2, "--engine needs --seed"),
    (["referee", "x", "--engine", "c", "--seed", "1"], 2, "not both"),
    (["referee", "/nonexistent/file"], 3, "cannot read '/nonexistent/file': No such file"),
    (["referee", str(DATA / "digests-0-100.tsv")], 2, "not a transcript"),
])
def test_bad_input_is_one_line(capsys, argv, status, words):
    found, out, err = run(capsys, *argv)
    assert (found, out) == (status, "") and err.count("\n") == 1 and words in err


def test_all_reports_every_rule_broken_with_its_first_example(tmp_path, capsys):
    """A winner misnamed in round 1 (a ranks fault: the counts show the pot went to the
    higher card, so that is one mistake, not a pickup too) and one listing line in other
    words (format): two items, each with its line, where the first-fault referee stops at
    the first."""
    text = reference_transcript(1)
    text = text.replace("Player B plays seven of diamonds\nPlayer A wins",
                        "Player B plays seven of diamonds\nPlayer B wins", 1)
    text = text.replace("Card 3,", "card 3:", 1)
    path = tmp_path / "student.txt"
    path.write_text(text)
    status = main(["referee", str(path), "--all"])
    out = capsys.readouterr().out.splitlines()
    assert status == 1
    assert out[0] == (f"{path}: 2 rules broken (format, ranks); the game ended in "
                      "round 450: player B ran out")
    assert out[1].startswith("  format: line 11 (before round 1): the reference's format "
                             "has 'Card 3, ace of spades'; the file says 'card 3: ace of "
                             "spades'")
    assert out[2].startswith("  ranks: line 68 (round 1): the rules require player A to win: "
                             "the ace of diamonds beats the seven of diamonds (ace high)")
    assert out[2].endswith("the wrong winner named: the pot went to the player with the "
                           "higher card")
    assert len(out) == 3
    status = main(["referee", str(DATA / "seed-1.txt"), "--all"])
    assert status == 0 and capsys.readouterr().out.endswith(
        ": no rule broken, the format included; the game ended in round 450: player B ran "
        "out\n")


def test_a_missing_blank_line_and_a_tie_of_eights_in_plain_words():
    lines = reference_transcript(1).split("\n")
    at = lines.index("Shuffling initial deck...") + 1
    no_blank = "\n".join(lines[:at] + lines[at + 1:])
    assert str(referee(no_blank).fault) == ("line 4: the rules require a blank line (the "
                                            "reference's opening); the file says "
                                            "\"Initial 'to play' piles:\"")
    tie = next(i for i, line in enumerate(lines) if line.startswith("There is a tie")
               and lines[i - 1].endswith(("eight of hearts", "eight of diamonds",
                                          "eight of spades", "eight of clubs")))
    changed = "\n".join(lines[:tie] + ["Player A wins the 'currently in play' pile."]
                        + lines[tie + 1:])
    assert "(both play an eight)" in str(referee(changed).fault)


@needs_python_runs
def test_all_referees_what_a_crashed_program_printed(open_path, capsys):
    """A program that prints the first 500 lines of the reference's game of seed 1, then
    crashes: the crash is one line, and what it printed is refereed, with how far it got."""
    program = open_path / "crash.py"        # a folder the runner's user may read
    (open_path / "seed-1.txt").write_text(reference_transcript(1))
    program.write_text("import os, sys\n"                     # the data, named on its line
                       "lines = open(sys.argv[2]).read().split('\\n')\n"
                       "sys.stdout.write('\\n'.join(lines[:500]) + '\\n')\n"
                       "sys.stdout.flush()\n"
                       "os.kill(os.getpid(), 11)\n")
    engine = f"cmd:{python_for_runs()} {program} {{seed}} {open_path / 'seed-1.txt'}"
    status = main(["referee", "--engine", engine, "--seed", "1", "--all"])
    out = capsys.readouterr().out.splitlines()
    rounds = sum(line.startswith("======== Round ") for line in
                 reference_transcript(1).splitlines()[:500])
    assert status == 1
    assert out == [f"{engine} was killed by SIGSEGV on seed 1",
                   f"what it printed: no rule broken, the format included; the game got to "
                   f"round {rounds}"]


def test_a_top_first_listing_is_named_as_the_likely_cause():
    lines = reference_transcript(1).split("\n")
    for start in (8, 37):
        names = [line.split(", ", 1)[1] for line in lines[start:start + 26]][::-1]
        lines[start:start + 26] = [f"Card {n + 1}, {name}" for n, name in enumerate(names)]
    fault = referee("\n".join(lines)).fault
    assert fault.line == 66 and str(fault).endswith(
        "the file plays the ace of diamonds; the deal lists it as Card 1: the piles look "
        "listed top first, which pywar referee --all reads as a format departure")
