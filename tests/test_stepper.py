"""pywar step: the stepper's commands, scripted on stdin, at a terminal (pexpect), and
under pdb."""

import io
import json
import os
import re
import subprocess
import sys

import pytest

from conftest import ROOT, reference_transcript
from pywar.cli import main

pexpect = pytest.importorskip("pexpect", reason="pexpect is in the test extra")

PYWAR = [sys.executable, "-m", "pywar"]


def stepped(capsys, monkeypatch, commands, *argv):
    """`pywar step argv` with the commands on stdin (not a terminal): (status, out, err)."""
    monkeypatch.setattr(sys, "stdin", io.StringIO(commands))
    status = main(["step", *argv])
    out, err = capsys.readouterr()
    return status, out, err


def counts_line(transcript, round_):
    """The reference's pile counts for A and B, printed just before a round's header."""
    before = transcript[:transcript.index(f"======== Round {round_} ========")]
    found = re.findall(r"Player (\w) has (\d+) in their 'to play' pile and (\d+) in their "
                       r"'played' pile", before)[-2:]
    return {name: (int(to_play), int(kept)) for name, to_play, kept in found}


# ---- Scripted: commands on stdin, the narration alone on stdout

def test_continue_prints_the_transcript_byte_for_byte():
    run = subprocess.run([*PYWAR, "step", "--seed", "1553"], input=b"continue\nquit\n",
                         capture_output=True, cwd=ROOT)
    assert run.returncode == 0
    assert run.stdout == reference_transcript(1553).encode()
    assert run.stderr == b""


def test_next_after_next_prints_the_transcript(capsys, monkeypatch):
    events = 165                                   # seed 17455: its trace has 165 events
    status, out, err = stepped(capsys, monkeypatch, "n\n" * events, "--seed", "17455")
    assert (status, out, err) == (0, reference_transcript(17455), "")


def test_an_empty_line_repeats_the_last_command(capsys, monkeypatch):
    status, out, err = stepped(capsys, monkeypatch, "next\n" + "\n" * 200, "--seed", "17455")
    assert (status, out, err) == (0, reference_transcript(17455), "*** the game is over: "
                                  "back goes back, quit leaves\n" * 36)


def test_until_and_piles(capsys, monkeypatch):
    status, out, err = stepped(capsys, monkeypatch, "until 10\npiles\nquit\n",
                               "--seed", "17455")
    reference = reference_transcript(17455)
    header = "======== Round 10 ========\n"
    told = reference[:reference.index(header) + len(header)]
    assert status == 0 and err == "" and out.startswith(told)
    piles = out[len(told):].splitlines()
    assert piles[0] == "round 10, battle 11, after event 53 (round)"
    sizes = [int(re.search(r"\((\d+)\)", line)[1]) for line in piles[1:5]]
    counts = counts_line(reference, 10)
    assert sizes == [*counts["A"], *counts["B"]]
    assert [line.split(" (")[0] for line in piles[1:5]] == ["A to play", "A played ",
                                                           "B to play", "B played "]
    assert piles[5:] == ["pot (0): -", "ties 2, wars 2, refills 0"]


def test_until_past_the_end_says_the_round_never_comes(capsys, monkeypatch):
    """The reference's game of seed 17455 has as many rounds as round headers."""
    reference = reference_transcript(17455)
    last = reference.count("======== Round ")
    status, out, err = stepped(capsys, monkeypatch, "u 99999\nu 99999\nquit\n",
                               "--seed", "17455")
    assert (status, out) == (0, reference)
    assert err == (f"the game ended in round {last}: round 99999 never comes\n"
                   "*** the game is over: back goes back, quit leaves\n")


def test_state_is_one_line_of_json(capsys, monkeypatch):
    status, out, err = stepped(capsys, monkeypatch, "until 2\nstate\n", "--seed", "17455")
    state = json.loads(out.splitlines()[-1])
    counts = counts_line(reference_transcript(17455), 2)
    sizes = {name: (len(pile["to_play"]), len(pile["played"]))
             for name, pile in state["piles"].items()}
    assert sizes == counts and state["counters"]["rounds"] == 2 and state["kind"] == "round"


def test_battle_tie_war_round_and_where(capsys, monkeypatch):
    status, out, err = stepped(capsys, monkeypatch,
                               "b\nwhere\nt\nwhere\nw\nwhere\nr\nwhere\nback\nwhere\n",
                               "--seed", "1553")
    wheres = [line for line in out.splitlines() if line.startswith("event ")]
    assert wheres == [
        "event 5 of 11062, round 1, battle 1: B wins the battle",       # the reference, line 68
        "event 35 of 11062, round 7, battle 7: a tie between A and B",
        "event 38 of 11062, round 7, battle 8: B wins the battle",
        "event 40 of 11062, round 8, battle 8: round 8 begins",
        "event 39 of 11062, round 7, battle 8: B picks up 9H 8H AH AD",
    ]
    assert err == ""


def test_code_shows_the_ports_method(capsys, monkeypatch):
    status, out, err = stepped(capsys, monkeypatch, "b\ncode\n", "--seed", "17455")
    listing = out[out.index("pywar/port/tabletop.py:"):].splitlines()
    assert re.fullmatch(r"pywar/port/tabletop\.py:(\d+) in TableTop\.do_battle", listing[0])
    line = int(listing[0].split(":")[1].split()[0])
    marked = [text for text in listing if "->" in text[:8]]
    assert marked == [f"{line:4} ->             self.observer.battle(PLAYER_B)"]
    assert "    def do_battle(self):" in listing[1]


def test_bad_commands_are_one_line_on_stderr(capsys, monkeypatch):
    status, out, err = stepped(capsys, monkeypatch,
                               "p\ncode\nback\nbogus\nuntil x\nuntil 0\nhelp nope\n",
                               "--seed", "17455")
    assert status == 0 and out == ""
    assert err.splitlines() == [
        "*** no cards are dealt yet: n deals them",
        "*** no event yet: n steps to the deal",
        "*** at the start, before the deal: there is no step to go back to",
        "*** unknown command 'bogus': the commands are next, battle, round, until N, tie, "
        "war, continue, back, piles, state, where, code, help, quit (help lists them)",
        "*** until takes a round number from 1, as in: until 10 (not 'x')",
        "*** until takes a round number from 1, as in: until 10 (not '0')",
        "*** no command 'nope': the commands are next, battle, round, until N, tie, war, "
        "continue, back, piles, state, where, code, help, quit",
    ]


def test_help_lists_every_command(capsys, monkeypatch):
    status, out, err = stepped(capsys, monkeypatch, "help\nh until\n", "--seed", "1")
    names = re.findall(r"^  (\S.*?)  ", out, re.M)
    assert names[:14] == ["n, next", "b, battle", "r, round", "u N, until N", "t, tie",
                          "w, war", "c, continue", "back", "p, piles", "s, state", "where",
                          "code", "h, help", "q, quit"]
    assert out.splitlines()[-1].startswith("  u N, until N  until round N has begun")


def test_code_needs_the_port(capsys, monkeypatch):
    status, out, err = stepped(capsys, monkeypatch, "n\ncode\n", "--seed", "3",
                               "--rules", "lehigh")
    assert out == "Shuffling deck\nDealing deck into two piles\n"
    assert err.startswith("*** code shows the port's source") and err.count("\n") == 1


@pytest.mark.parametrize("argv, words", [
    (["--engine", "c"], "invalid choice: 'c'"),
    (["--engine", "port-python", "--rules", "lehigh"], "the port plays only the smu rules"),
    (["--engine", "python", "--stack", "adt"], "stack is for the port engines"),
    (["--seed", "-1"], "seed must be"),
])
def test_bad_options_are_usage_errors(capsys, monkeypatch, argv, words):
    status, out, err = stepped(capsys, monkeypatch, "c\n", *argv)
    assert status == 2 and out == ""
    assert err.startswith("pywar step: error: ") and err.count("\n") == 1 and words in err


# ---- At a terminal, as a person would

def spawn(*argv):
    """pywar in a pseudo-terminal."""
    env = dict(os.environ, PYTHONUNBUFFERED="1", TERM="dumb")
    return pexpect.spawn(sys.executable, ["-m", "pywar", *argv], cwd=str(ROOT), env=env,
                         encoding="utf-8", timeout=30, dimensions=(50, 200))


def test_the_prompt_at_a_terminal():
    child = spawn("step", "--seed", "17455")
    child.expect_exact("Type help for the commands.")
    child.expect_exact("(war) ")
    child.sendline("n")
    child.expect_exact("Welcome to the Game of War!")
    child.expect_exact("> event 1 of 165, round 0, battle 0: the deal: A 26 cards, B 26 cards")
    child.expect_exact("(war) ")
    child.sendline("b")
    child.expect_exact("Player B wins the 'currently in play' pile.")
    child.expect_exact("(war) ")
    child.sendline("p")
    child.expect_exact("pot (2): 4H(B) 3S(A)")
    child.expect_exact("(war) ")
    child.sendline("")                                 # repeats p
    child.expect_exact("pot (2): 4H(B) 3S(A)")
    child.expect_exact("(war) ")
    child.sendline("q")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_pdb_stops_in_do_battle():
    child = spawn("step", "--pdb", "--seed", "17455")
    child.expect_exact("(Pdb) ")
    assert "tabletop.py" in child.before and "do_battle()" in child.before
    child.sendline("p self.player_a")
    child.expect_exact("<Player: 26 to play, 0 played>")
    child.expect_exact("(Pdb) ")
    child.sendline("c")
    child.expect_exact("Player A ran out of cards.  Player A has lost.")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
