"""pywar grade's parts (pywar.check.grading) held against values worked out here, without
g++ or valgrind: the seeds past 2^32 - 1, valgrind's summary of a crash, the memory item
when valgrind says nothing, and the terminal report's rounds and control characters."""

import pytest

from conftest import needs_tools, reference_transcript
from pywar.check.grading import grade as grading, memcheck, report
from pywar.check.grading.grade import Settings, Submission
from pywar.check.referee.finding import Finding
from pywar.check.referee.rubric import NAMES
from pywar.check.runner import sandbox


def test_the_seeds_wrap_past_2_to_the_32_minus_1():
    """srand() takes an unsigned int: the seed after 4294967295 is 0."""
    assert Settings(seed=4294967294, games=4).seeds() == [4294967294, 4294967295, 0, 1]


# valgrind 3.19's log of `int main(void) { free(malloc(8)); abort(); }`, as it printed it.
CRASH_LOG = """\
==27428== Memcheck, a memory error detector
==27428== Command: ./crash
==27428== 
==27428== Process terminating with default action of signal 6 (SIGABRT)
==27428==    at 0x48E6EEC: __pthread_kill_implementation (pthread_kill.c:44)
==27428==    by 0x10919E: main (crash.c:3)
==27428== 
==27428== HEAP SUMMARY:
==27428==     in use at exit: 4,096 bytes in 1 blocks
==27428==   total heap usage: 2 allocs, 1 frees, 4,104 bytes allocated
==27428== 
==27428== LEAK SUMMARY:
==27428==    definitely lost: 0 bytes in 0 blocks
==27428==    indirectly lost: 0 bytes in 0 blocks
==27428==      possibly lost: 0 bytes in 0 blocks
==27428==    still reachable: 4,096 bytes in 1 blocks
==27428==         suppressed: 0 bytes in 0 blocks
==27428== 
==27428== ERROR SUMMARY: 0 errors from 0 contexts (suppressed: 0 from 0)
"""


def outcome(status):
    """A run's Outcome that ended with a status, having printed nothing."""
    return sandbox.Outcome(status, "", "", 0.1, sandbox.PROFILES["memcheck"])


def test_a_crash_s_summary_of_zeros_is_no_leak():
    """A crash that leaked nothing: valgrind lists 0 bytes lost of each kind, which is
    no leak; but a run that a signal ended gave no verdict of valgrind's (its exit
    status), so memory is not checked (issue 47: a program can forge such a log)."""
    mistake, said = memcheck.memcheck_said(outcome(-6), CRASH_LOG)
    assert mistake.name == "memcheck_unfinished"
    assert said.startswith("not checked: the program was killed by SIGABRT")
    leaked = CRASH_LOG.replace("definitely lost: 0 bytes in 0 blocks",
                               "definitely lost: 8 bytes in 1 blocks")
    assert memcheck.memcheck_said(outcome(99), leaked)[0].name == "leak"


@needs_tools("cc")
def test_memory_not_checked_earns_nothing(tmp_path, monkeypatch):
    """A valgrind that ends without a word (here a shell that exits 0 in its place): the
    memory item is not checked, of 0 seeds, and its weight is not in the score, whose
    every other item the reference's own transcript earns."""
    folder = tmp_path / "reference"
    folder.mkdir()
    (folder / "war.sh").write_text("#!/bin/sh\ncat <<'EOF'\n" + reference_transcript(17455)
                                   + "EOF\n")
    monkeypatch.setattr(memcheck, "VALGRIND", ("/bin/sh", "-c", "exit 0", "valgrind"))
    settings = Settings(build="cp war.sh {program} && chmod 755 {program}", games=1,
                        seed=17455)
    submission, = grading.grade([str(folder)], settings)
    memory = submission.items["memory"]
    assert (memory["ok"], memory["of"], memory["failed"]) == (False, 0, 0)
    assert memory["example"]["said"].startswith("not checked: valgrind ended without its "
                                                "summary")
    assert submission.mistakes == {"memcheck_unfinished": 1}
    earned = [item for item in NAMES if submission.items[item]["ok"]]
    assert earned == [item for item in NAMES if item != "memory"]
    assert submission.score == submission.max_score - settings.weights["memory"]


def submission_with(item, example):
    """A submission that earned every item but one, broken once with an example."""
    items = {name: {"ok": True, "failed": 0, "of": 1, "example": None} for name in NAMES}
    items[item] = {"ok": False, "failed": 1, "of": 1, "example": example}
    return Submission("ann", items, 1.0, 2.0)


@pytest.mark.parametrize("line, round_, where", [
    (12, 3, "seed 7, line 12 (round 3): "),
    (5, 0, "seed 7, line 5 (before round 1): "),
    (None, None, "seed 7: "),                       # a finding of the whole file
])
def test_an_example_says_its_round_or_before_round_1(line, round_, where):
    """A finding's place in the report: a round from 1, the deal before round 1, and
    none at all for a finding of no line (the same deal on two seeds, say)."""
    example = Finding(line=line, round=round_, required="a deal of its own on each seed",
                      said="the same deal", item="deal").to_json(7)
    assert report.example_text("deal", example) == (
        f"{where}the rules require a deal of its own on each seed; the file says the same "
        "deal")


def test_the_terminal_report_shows_no_control_character_of_a_file():
    """A file's line with an escape sequence, a carriage return and a bell, quoted in
    the lines around an example: the terminal gets them spelled out, never raw."""
    hostile = "Player A plays \x1b[2J\x1b[31mace\r of spades\x07"
    example = Finding(line=68, round=1, required="player A to win", said="'Player B wins'",
                      item="ranks", context=[[67, hostile], [68, "Player B wins"]]).to_json(1)
    text = report.terminal([submission_with("ranks", example)])
    assert not [c for c in text if not c.isprintable() and c != "\n"]
    assert "\\x1b[2J\\x1b[31mace\\r of spades\\x07" in text
