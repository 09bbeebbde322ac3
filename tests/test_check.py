"""pywar check --engine X --against Y: where two implementations part.  Each planted
difference is found at the event and transcript line worked out independently: from
docs/trace.md's example of seed 17455's first round, and from the reference
transcripts.  A Ctrl-C reports the games compared, and no verdict on the others."""

import _thread
import hashlib
import json
import re
import struct

import pytest

import pywar
from conftest import (DATA, needs_c, needs_python_runs, needs_pywar_readable,
                      reference_transcript, runner_may_read_pywar, runner_may_run_python)
from pywar.cli import main
from pywar.port.pile import Pile
from pywar.port.tabletop import TableTop
from pywar.twin.narrator import Narrator

POT_FIRST_ROUND = '{"event":"pickup","round":1,"battle":1,"player":1,"cards":[2,27],' \
                  '"piles":[[25,0],[25,2]],"pot":0}'                # docs/trace.md


def run(capsys, *argv):
    """main(argv): (exit status, stdout, stderr)."""
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def verdict(capsys, *argv):
    """The JSON verdict of `pywar check argv --json`, and the exit status."""
    status, out, _ = run(capsys, "check", "--json", *argv)
    assert out.count("\n") == 1
    return status, json.loads(out)


def first_departure(text, reference):
    """The index of the first line of text that is not the reference's (a plain loop)."""
    lines, wanted = text.splitlines(), reference.splitlines()
    return next(i for i, (line, good) in enumerate(zip(lines, wanted)) if line != good)


@pytest.fixture
def port_takes_the_pot_from_the_bottom(monkeypatch):
    """A planted mistake in the port's pickup: the winner takes the pot bottom first."""
    real_init, real_remove = TableTop.__init__, Pile.remove_top_card

    def init(self, *args, **kwargs):
        real_init(self, *args, **kwargs)
        self.currently_in_play.is_pot = True          # after the deal, which uses it too

    def remove_top_card(self):
        if not getattr(self, "is_pot", False):
            return real_remove(self)
        if self.stack is not None:
            return self.stack.pop(0)
        card = self.cards[0]
        self.cards[:self.num_cards - 1] = self.cards[1:self.num_cards]
        self.num_cards -= 1
        return card

    monkeypatch.setattr(TableTop, "__init__", init)
    monkeypatch.setattr(Pile, "remove_top_card", remove_top_card)


@pytest.mark.parametrize("engine", ["c", "python"])
def test_a_planted_pickup_is_found_at_its_event(capsys, engine, port_takes_the_pot_from_the_bottom):
    if engine == "c" and not pywar._checked.available():
        pytest.skip("the C core is not built")
    status, found = verdict(capsys, "--engine", engine, "--against", "port-python",
                            "--seed", "17455", "-n", "3")
    assert status == 1 and not found["agree"]
    assert (found["first_seed"], found["games"], found["agreed"]) == (17455, 1, 0)
    difference = found["difference"]
    assert (difference["kind"], difference["event"], difference["trace_line"],
            difference["round"], difference["battle"]) == ("events", 5, 7, 1, 1)
    assert difference["sides"] == {engine: POT_FIRST_ROUND,
                                   "port-python": POT_FIRST_ROUND.replace("[2,27]", "[27,2]")}
    reference = reference_transcript(17455)
    planted = pywar.play(17455, engine="port-python", transcript=True).transcript
    first = first_departure(planted, reference)
    assert difference["transcript_line"] == first + 1
    diff = difference["diff"]
    assert diff[:2] == [f"--- {engine}", "+++ port-python"]
    assert diff[2].startswith(f"@@ -{first - 2},")
    removed = [line[1:] for line in diff if line.startswith("-") and not line.startswith("---")]
    added = [line[1:] for line in diff if line.startswith("+") and not line.startswith("+++")]
    assert removed == reference.splitlines()[first:first + len(removed)]
    assert added == planted.splitlines()[first:first + len(added)]


def test_a_planted_narrator_is_found_at_its_transcript_line(capsys, monkeypatch):
    """The twin's narrator names aces 'one': the traces agree, the transcripts part at
    the first ace of the reference transcript, in the deal (event 0)."""
    real_card = Narrator.card
    monkeypatch.setattr(Narrator, "card", lambda self, card: real_card(self, card)
                        .replace("ace of", "one of"))
    reference = reference_transcript(17455).splitlines()
    first = next(i for i, line in enumerate(reference) if " ace of " in line)
    status, out, _ = run(capsys, "check", "--engine", "port-python", "--against", "python",
                         "--seed", "17455", "-n", "2")
    assert status == 1
    report = out.splitlines()
    assert report[0] == (f"seed 17455: the transcripts part at line {first + 1}, in the "
                         "narration of event 0 (trace line 2), round 0, battle 0")
    assert report[1:4] == ["--- port-python", "+++ python", f"@@ -{first - 2},7 +{first - 2},7 @@"]
    assert report[4:9] == [" " + line for line in reference[first - 3:first]] + [
        "-" + reference[first], "+" + reference[first].replace(" ace ", " one ")]
    assert report[-1] == ("port-python and python differ at seed 17455 (smu rules); the 0 "
                          "games before it agree.")


def test_implementations_that_agree(capsys):
    pairs = [("port-python", "python", []), ("port-python", "port-python", ["--stack", "adt"])]
    if runner_may_run_python() and runner_may_read_pywar():    # in a child of the runner
        pairs.append(("py:pywar.port.tabletop:TableTop", "python", []))
    if pywar._checked.available():
        pairs += [("port-c", "port-python", ["--stack", "adt", "--stack-against", "pile"]),
                  ("c", "python", ["--traces"])]
    for one, other, options in pairs:
        status, found = verdict(capsys, "--engine", one, "--against", other, "-n", "3",
                                "--seed", "17455", *options)
        assert (status, found["agree"], found["games"]) == (0, True, 3), (one, other)


@pytest.mark.parametrize("one, other", [("port-python", "python"),
                                        pytest.param("c", "python", marks=needs_c)])
def test_the_run_digest_is_the_same_64_digits_in_text_and_json(capsys, one, other):
    """docs/rules.md section 11: the sha256 of the games' 64-bit digests, little-endian."""
    digests = [pywar.play(seed, engine="python").digest for seed in range(1553, 1556)]
    expected = hashlib.sha256(struct.pack("<3Q", *digests)).hexdigest()
    argv = ("--engine", one, "--against", other, "-n", "3", "--seed", "1553")
    status, found = verdict(capsys, *argv)
    assert (status, found["digest"]) == (0, expected)
    status, out, _ = run(capsys, "check", *argv)
    assert status == 0 and out.endswith(f" (digest {expected}).\n")


@needs_c
def test_c_against_python_in_bulk_drills_into_the_first_differing_seed(capsys, monkeypatch):
    """A twin that takes smu pots in pot order from seed 103 on: the arrays differ there,
    and the traces part at its first pickup."""
    from pywar.twin.game import Game
    real = Game.pickup_order

    def pot_order(self, spec, winner):
        return list(self.pot) if self.seed >= 103 else real(self, spec, winner)

    monkeypatch.setattr(Game, "pickup_order", pot_order)
    status, found = verdict(capsys, "-n", "20", "--seed", "100")
    assert status == 1 and (found["first_seed"], found["agreed"]) == (103, 3)
    difference = found["difference"]
    assert (difference["kind"], difference["round"]) == ("events", 1)
    c_line = json.loads(difference["sides"]["c"])
    python_line = json.loads(difference["sides"]["python"])
    assert c_line["event"] == "pickup" and python_line["cards"] == c_line["cards"][::-1]


# ---- Ctrl-C

def interrupt_at(monkeypatch, module, name, call, engine=None):
    """Make the call-th call of module.name (for engine, if given) interrupt the main
    thread as a Ctrl-C would, then go on."""
    real = getattr(module, name)
    calls = []

    def interrupting(*args, **kwargs):
        if engine is None or kwargs.get("engine") == engine:
            calls.append(1)
            if len(calls) == call:
                _thread.interrupt_main()
        return real(*args, **kwargs)

    monkeypatch.setattr(module, name, interrupting)


@needs_c
@pytest.mark.parametrize("where", ["as it starts", "in a worker"])
def test_ctrl_c_in_the_c_pass_gives_no_verdict(capsys, monkeypatch, where):
    if where == "as it starts":
        interrupt_at(monkeypatch, pywar.sim.run, "simulate", 1, engine="c")
    else:
        interrupt_at(monkeypatch, pywar._checked, "play_batch", 3)
    status, out, err = run(capsys, "check", "-n", "3000")
    assert (status, err) == (130, "pywar check: interrupted\n")
    assert out == "Interrupted before c and python finished a game: nothing was compared.\n"


@needs_c
def test_ctrl_c_in_the_twin_pass_reports_the_games_compared(capsys, monkeypatch):
    """The twin plays in a worker thread, so a game or two may finish between the Ctrl-C
    and the stop: the report names the prefix that both engines finished, no more."""
    interrupt_at(monkeypatch, pywar.twin, "play", 28)
    status, out, err = run(capsys, "check", "-n", "300")
    assert (status, err) == (130, "pywar check: interrupted\n")
    compared = int(re.search(r"agree on the (\d+) games", out).group(1))
    assert 27 <= compared < 300
    assert out == (f"Interrupted: c and python agree on the {compared} games compared, of "
                   f"smu from seed 0 to {compared - 1}; the other {300 - compared} were not "
                   "compared.\n")
    interrupt_at(monkeypatch, pywar.twin, "play", 5)
    status, found = verdict(capsys, "-n", "300")
    assert status == 130 and found["interrupted"] and found["agree"]
    assert 4 <= found["games"] < 300 and found["agreed"] == found["games"]
    assert found["first_seed"] is None


def test_ctrl_c_seed_by_seed(capsys, monkeypatch):
    interrupt_at(monkeypatch, pywar.one_game, "play", 7)   # the 4th game's first side
    status, out, err = run(capsys, "check", "--engine", "port-python", "--against", "python",
                           "-n", "50", "--seed", "17455")
    assert (status, err) == (130, "pywar check: interrupted\n")
    assert out.startswith("Interrupted: port-python and python agree on the 3 games compared")


# ---- Bad input and failing implementations

@pytest.mark.parametrize("argv, words", [
    (["-n", "1000000000000"], "from 1 to 4,294,967,296"),
    (["-n", str(2 ** 32 + 1)], "from 1 to 4,294,967,296"),
    (["--engine", "port-c", "--rules", "lehigh"], "the port plays only the smu rules"),
    (["--engine", "nope"], "unknown engine 'nope'"),
    (["--stack", "adt"], "--stack is for the port engines"),
    (["--engine", "port-c", "--stack-against", "adt"], "--stack-against is for a port"),
    (["--engine", "cmd:./no-such-program {seed}"], "cannot run './no-such-program'"),
    (["--engine", "cmd:echo"], "has no {seed}"),
    pytest.param(["--engine", "py:no_such_module:Game"], "cannot import no_such_module",
                 marks=needs_python_runs),
    pytest.param(["--engine", "py:pywar.port:Nothing"], "has no class Nothing",
                 marks=[needs_python_runs, needs_pywar_readable]),
    (["--timeout", "0"], "above 0"),
])
def test_bad_input_is_one_line_before_any_game(capsys, monkeypatch, argv, words):
    monkeypatch.setattr(pywar, "play", lambda *args, **kwargs: pytest.fail("played"))
    status, out, err = run(capsys, "check", *argv)
    assert (status, out) == (2, "") and err.count("\n") == 1 and words in err, err
    assert "Traceback" not in err


@pytest.mark.parametrize("command, words", [
    ("sh -c 'kill -SEGV $$' {seed}", "cmd:sh -c 'kill -SEGV $$' {seed} was killed by SIGSEGV "
                                     "on seed 5"),
    ("sh -c 'echo oops >&2; exit 3' {seed}", "exited with status 3 on seed 5: oops"),
    ("sleep 10 {seed}", "did not finish seed 5 within 0.3 s (--timeout)"),
    ("echo hello {seed}", "printed neither a pywar trace nor a transcript for seed 5: it "
                          "printed first the line 'hello 5'"),
    ("true {seed}", "it printed nothing"),
])
def test_a_failing_program_is_one_line(capsys, command, words):
    status, out, err = run(capsys, "check", "--engine", f"cmd:{command}", "--seed", "5",
                           "--timeout", "0.3", "--against", "python")
    assert (status, err) == (1, "")
    assert out.splitlines()[0].endswith(words) and out.count("\n") == 2
    assert out.splitlines()[1].endswith("the check stopped at seed 5 (smu rules); the 0 games "
                                        "before it agree.")


@needs_python_runs
def test_a_failing_class_is_one_line(capsys, open_path, monkeypatch):
    (open_path / "broken_war.py").write_text(
        "class Table:\n"
        "    def __init__(self, seed, text):\n"
        "        text.append('Welcome to the Game of War!\\n')\n"
        "    def do_battle(self):\n"
        "        return 1 / 0\n"
        "class Endless(Table):\n"
        "    def do_battle(self):\n"
        "        return False\n"
        "class Stuck(Table):\n"
        "    def do_battle(self):\n"
        "        while True:\n"
        "            try:\n"
        "                pass\n"
        "            except Exception:\n"
        "                pass\n")
    monkeypatch.syspath_prepend(str(open_path))
    status, out, _ = run(capsys, "check", "--engine", "py:broken_war:Table", "-n", "2")
    assert status == 1
    assert out.splitlines()[0] == ("py:broken_war:Table raised ZeroDivisionError on seed 0: "
                                   "division by zero")
    for name in ("Endless", "Stuck"):
        status, out, _ = run(capsys, "check", "--engine", f"py:broken_war:{name}",
                             "--timeout", "0.2")
        assert status == 1 and out.splitlines()[0] == (f"py:broken_war:{name} did not finish "
                                                       "seed 0 within 0.2 s (--timeout)")


KEEP_GOING_PROGRAM = """\
import os, sys, time
seed = int(sys.argv[1])
sys.stdout.write(open(os.path.join(sys.argv[2], "seed-17455.txt")).read())
sys.stdout.flush()
if seed < 100 and seed % 4 == 1:
    os.kill(os.getpid(), 11)
if seed < 100 and seed % 4 == 2:
    sys.exit(3)
if seed < 100 and seed % 4 == 3:
    time.sleep(30)
"""


def a_python_program(folder, text, data=()):
    """cmd: words that run a Python program of text, written into folder with copies of
    the data files named (a folder its run's user may read): '{python} {program}'."""
    from pywar.check.runner.pychild import python_for_runs
    program = folder / "program.py"
    program.write_text(text)
    for name in data:
        (folder / name).write_text((DATA / name).read_text())
    return f"{python_for_runs()} {program}"


@needs_python_runs
def test_keep_going_tallies_every_seed_by_kind(capsys, open_path):
    """A program that prints the reference's game of seed 17455 whatever the seed, and
    of seeds 0 to 9 crashes on 1, 5, 9, exits with status 3 on 2, 6 and hangs on 3, 7:
    every seed is played and tallied, the first of each kind shown."""
    program = a_python_program(open_path, KEEP_GOING_PROGRAM, ["seed-17455.txt"])
    engine = f"cmd:{program} {{seed}} {open_path}"
    status, out, _ = run(capsys, "check", "--engine", engine, "--against", "port-python",
                         "--seed", "0", "-n", "10", "--keep-going", "--timeout", "1", "--json")
    assert status == 1
    found = json.loads(out)
    assert found["tally"] == {"agree": [], "differ": [0, 4, 8], "crashed": [1, 5, 9],
                              "exit status": [2, 6], "timed out": [3, 7], "failed": []}
    last = reference_transcript(17455).splitlines()[-3:]
    assert found["firsts"]["crashed"] == {
        "seed": 1, "report": f"{engine} was killed by SIGSEGV on seed 1 (the game ended in "
                             f"round {pywar.play(17455).rounds}: player A ran out; rules "
                             f"broken: none; its last lines: {' | '.join(map(repr, last))})"}
    assert found["firsts"]["differ"]["seed"] == 0
    status, out, _ = run(capsys, "check", "--engine", engine, "--against", "port-python",
                         "--seed", "17455", "-n", "2", "--keep-going", "--timeout", "1")
    assert status == 1
    lines = out.splitlines()
    assert lines[:7] == [f"{engine} and port-python on 2 seeds of smu from seed 17455:",
                         "  agree: 1 seed", "  differ: 1 seed (17456)", "  crashed: 0 seeds",
                         "  timed out: 0 seeds", "  exit status: 0 seeds", "  failed: 0 seeds"]
    assert lines[7].startswith("first differ, seed 17456: seed 17456: ")   # compare's report


TOP_FIRST_PROGRAM = """\
import os, re, sys
lines = open(os.path.join(sys.argv[2], "seed-17455.txt")).read().split("\\n")
for start in (8, 37):                     # each pile's 26 cards, listed top first
    names = [line.split(", ", 1)[1] for line in lines[start:start + 26]][::-1]
    lines[start:start + 26] = [f"Card {n + 1}, {name}" for n, name in enumerate(names)]
sys.stdout.write("\\n".join(lines))
"""


@needs_python_runs
def test_the_referee_names_a_top_first_listing_not_a_wrong_play(capsys, open_path):
    """The reference's game of seed 17455 with the piles listed top first: the check's
    referee says so (format), where the first-fault referee blamed the first play."""
    program = a_python_program(open_path, TOP_FIRST_PROGRAM, ["seed-17455.txt"])
    engine = f"cmd:{program} {{seed}} {open_path}"
    status, out, _ = run(capsys, "check", "--engine", engine, "--against", "port-python",
                         "--seed", "17455", "-n", "1")
    assert status == 1
    said = next(line for line in out.splitlines() if line.startswith("the referee: "))
    assert said == (f"the referee: {engine}: format: line 9 (before round 1): the reference's "
                    "format has the piles listed bottom card first (Card 1 is the bottom, "
                    "Card 26 the first played); the file says they are listed top card first")


def test_ctrl_c_with_keep_going_reports_the_seeds_tallied(capsys, monkeypatch):
    interrupt_at(monkeypatch, pywar.one_game, "play", 7)   # the 4th game's first side
    status, out, err = run(capsys, "check", "--engine", "port-python", "--against", "python",
                           "-n", "50", "--seed", "17455", "--keep-going", "--json")
    assert (status, err) == (130, "pywar check: interrupted\n")
    found = json.loads(out)
    assert found["interrupted"] and found["tally"]["agree"] == [17455, 17456, 17457]
    assert found["games"] == 3
