"""pywar exercise: the skeleton is the port with bodies cut out (filled with the port's own
bodies it is the port again, and passes the check), and the check names typical mistakes
at the member that makes them, with the seed and what was expected.  The student's code
runs in a child process, with limits: each limit is broken here by a port that breaks it."""

import ast
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import pywar.check.exercise.portcheck as exercise
import pywar.check.exercise.skeleton as skeleton_of
from conftest import needs_python_runs
from pywar.cli import main
from pywar.port import pile

pytestmark = needs_python_runs        # the check's runs start Python as the runner's user
PORT = Path(pile.__file__).parent


# ---- Filling the skeleton, as a student would, from the port's own text

def reference_bodies():
    """{'Pile.shuffle': the port's lines of its body, after the docstring}."""
    text = (PORT / "pile.py").read_text()
    lines = text.splitlines()
    bodies = {}
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.FunctionDef) and \
                node.name in ("add_card_to_pile", "remove_top_card", "shuffle", "print_cards"):
            body = node.body[1:]
            bodies[f"Pile.{node.name}"] = lines[body[0].lineno - 1:body[-1].end_lineno]
    return bodies


def reference_pieces():
    """{'TableTop.do_battle (the battle)': the port's lines of that piece}: the lines
    between two comment lines of the port, found here by the piece's first and last
    statement, which the test names (not pywar.check.exercise.portcheck)."""
    lines = (PORT / "tabletop.py").read_text().splitlines()
    bounds = {"the face-up cards": ("card_a = ", "text_printf(text, f\"Player B plays"),
              "the battle": ("tie = False", "tie = True"),
              "the refill of player A": ("if (player_a.get_to_play_pile", "refill(PLAYER_A)"),
              "the refill of player B": ("if (player_b.get_to_play_pile", "refill(PLAYER_B)"),
              "who has run out": ("someone_ran_out_of_cards = False", "run_out(PLAYER_B)"),
              "the war": ("if not someone_ran_out_of_cards and tie:", "return someone_ran_out")}
    pieces = {}
    for name, (start, end) in bounds.items():
        first = next(i for i, line in enumerate(lines) if line.strip().startswith(start))
        last = next(i for i in range(first, len(lines)) if end in lines[i])
        while sum(line.count("(") - line.count(")") for line in lines[first:last + 1]):
            last += 1                                    # to the end of its statement
        pieces[f"TableTop.do_battle ({name})"] = lines[first:last + 1]
    return pieces


def fill(folder, bodies=None, pieces=None):
    """Write bodies and pieces where the skeleton says TODO."""
    bodies = reference_bodies() if bodies is None else bodies
    pieces = reference_pieces() if pieces is None else pieces
    path = folder / "pile.py"
    text = path.read_text()
    for label, lines in bodies.items():
        block = (rf"        # ---- {re.escape(label)}: TODO ----\n(        #.*\n)*"
                 rf"        raise NotImplementedError\(\"TODO: {re.escape(label)}\"\)\n")
        text, found = re.subn(block, lambda match: "\n".join(lines) + "\n", text)
        assert found == 1, label
    path.write_text(text)
    path = folder / "tabletop.py"
    out, skipping = [], False
    for line in path.read_text().splitlines():
        opening = re.match(r"\s*# ---- (TableTop\.do_battle \(.*\)): TODO ----", line)
        if opening:
            out += [line, *pieces[opening[1]]]
            skipping = True
            continue
        if re.match(r"\s*# ---- end of piece \d ----", line):
            skipping = False
        if not skipping:
            out.append(line)
    path.write_text("\n".join(out) + "\n")


def planted(member, old, new):
    """The port's bodies and pieces, with one text replaced in one member."""
    bodies, pieces = reference_bodies(), reference_pieces()
    table = bodies if member in bodies else pieces
    text = "\n".join(table[member])
    assert old in text, (member, old)
    table[member] = text.replace(old, new, 1).split("\n")
    return bodies, pieces


@pytest.fixture
def skeleton(tmp_path):
    """A fresh skeleton, made by pywar exercise new."""
    folder = tmp_path / "my-port"
    assert main(["exercise", "new", str(folder)]) == 0
    return folder


def run(capsys, *argv):
    """main(argv): (exit status, stdout, stderr)."""
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


# ---- The skeleton

def test_the_skeleton_is_the_port_with_its_bodies_cut_out(skeleton, capsys):
    capsys.readouterr()
    text = (skeleton / "pile.py").read_text()
    for member in ("add_card_to_pile", "remove_top_card", "shuffle", "print_cards"):
        assert f'raise NotImplementedError("TODO: Pile.{member}")' in text
    assert "card_to_return = " not in text and "c1 = rng.rand()" not in text
    assert (skeleton / "tabletop.py").read_text().count("# ---- end of piece") == 6
    fill(skeleton)
    for name in ("card.py", "pile.py", "player.py", "program4.py", "tabletop.py"):
        filled = re.sub(r"^from pywar\.(\w)", r"from ..\1", (skeleton / name).read_text(),
                        flags=re.M)
        kept = [line for line in filled.splitlines()[2:]          # the header's two lines
                if not re.match(r"\s*# ---- (.*: TODO|end of piece \d) ----$", line)]
        assert kept == (PORT / name).read_text().splitlines(), name


@pytest.mark.parametrize("stack", ["pile", "adt"])
def test_a_student_plays_their_own_port_with_python_dir(skeleton, stack):
    """'python my-port 1553' prints the port's game as it goes (my-port is no module name,
    and program4.py alone fails on its relative imports: issue 37), the reference's
    transcript once filled; unfilled, the traceback names the member's TODO."""
    command = [sys.executable, str(skeleton), "1553", "--stack", stack]
    unfilled = subprocess.run(command, capture_output=True, text=True, cwd=skeleton.parent)
    assert unfilled.returncode == 1 and unfilled.stdout.startswith("Welcome")
    assert unfilled.stderr.rstrip().endswith('NotImplementedError: TODO: Pile.add_card_to_pile')
    fill(skeleton)
    filled = subprocess.run(command, capture_output=True, text=True, cwd=skeleton.parent)
    assert (filled.returncode, filled.stderr) == (0, "")
    assert filled.stdout == (Path(__file__).parent / "data" / "seed-1553.txt").read_text()


def test_a_port_that_moves_a_piece_is_refused(monkeypatch):
    real = skeleton_of.port_source
    monkeypatch.setattr(skeleton_of, "port_source", lambda name: real(name).replace(
        "        tie = False\n", "        tie = False  # \n        tie = False\n"))
    with pytest.raises(skeleton_of.ExerciseDrift, match="no piece 'the battle'"):
        skeleton_of.skeleton()


def test_new_overwrites_nothing(skeleton, capsys):
    capsys.readouterr()
    status, out, err = run(capsys, "exercise", "new", str(skeleton))
    assert status == 3 and out == ""
    assert err == (f"pywar exercise new: error: cannot write into {str(skeleton)!r}: it is not "
                   "empty (pywar exercise new writes into a new or empty folder, and "
                   "overwrites nothing)\n")


# ---- The check

@pytest.mark.parametrize("stack", ["pile", "adt"])
def test_the_port_s_own_bodies_pass(skeleton, capsys, stack):
    fill(skeleton)
    status, out, err = run(capsys, "exercise", "check", str(skeleton), "--stack", stack,
                           "--json")
    found = json.loads(out)
    assert (status, err, found["passed"], found["first"]["kind"]) == (0, "", True, "passed")
    assert found["seeds"][:3] == [17455, 1553, 12] and found["seeds"][3:] == found["fresh"]
    assert len(found["fresh"]) == 2


def test_an_unfilled_skeleton_names_what_is_not_written(skeleton, capsys):
    fill(skeleton, bodies={name: body for name, body in reference_bodies().items()
                           if name != "Pile.shuffle"})
    status, out, err = run(capsys, "exercise", "check", str(skeleton))
    assert status == 1 and err == ""
    assert out == "Pile.shuffle is not written yet: its body still raises its TODO\n"


MISTAKES = [    # (the member, the port's text, the mistake, what the check must say)
    ("Pile.print_cards", "for i in range(num_cards):", "for i in range(num_cards - 1):",
     "line 34 of the transcript should be 'Card 26, "),
    ("Pile.print_cards", "Card {i + 1}", "Card {i}", "should be 'Card 1, "),
    ("Pile.shuffle", "c2 = rng.rand() % num_cards", "c2 = rng.rand() % (num_cards - 1)",
     "after the first shuffle "),
    ("Pile.remove_top_card", "card_to_return = self.cards[self.num_cards - 1]",
     "card_to_return = self.cards[0]\n"
     "            self.cards[0:self.num_cards - 1] = self.cards[1:self.num_cards]",
     # the reference's shuffle, dealt from the wrong end: said of the deal, not the shuffle
     # (player A's top card is the transcript's line 34, "Card 26, three of spades")
     "after the deal the top card of player A's 'to play' pile should be the three of "
     "spades; yours is "),
    ("Pile.add_card_to_pile", "self.cards[self.num_cards] = card",
     "self.cards[self.num_cards - 1] = card", "raised "),
    ("TableTop.do_battle (the refill of player A)",
     "            text_printf(text, \"Shuffling player A cards...\\n\\n\")\n"
     "            player_a.get_to_play_pile().shuffle(self.rng)\n", "",
     "after player A's refill and shuffle the top card should be"),
    ("TableTop.do_battle (the refill of player B)",       # shuffling before the refill
     "            while player_b.get_played_pile().get_num_cards() > 0:",
     "            player_b.get_to_play_pile().shuffle(self.rng)\n"
     "            while player_b.get_played_pile().get_num_cards() > 0:",
     "raised ZeroDivisionError: integer modulo by zero at tabletop.py line"),
    ("TableTop.do_battle (the battle)",                   # the wrong player's pile
     "player_b.get_played_pile().add_card_to_pile(won_card)",
     "player_a.get_played_pile().add_card_to_pile(won_card)", "raised IndexError"),
    ("TableTop.do_battle (the war)", "return self.do_battle()", "return False",
     "player A should play the six of spades; in yours round 8 begins (seed 17455, "
     "in round 7)"),
    ("TableTop.do_battle (the face-up cards)",
     "currently_in_play.add_card_to_pile(card_a)\n        currently_in_play.add_card_to_pile(card_b)",
     "currently_in_play.add_card_to_pile(card_b)\n        currently_in_play.add_card_to_pile(card_a)",
     "player A should play the three of spades; yours plays the four of hearts"),
    ("TableTop.do_battle (who has run out)",
     "if player_b.get_to_play_pile().get_num_cards() == 0:",
     "if player_b.get_played_pile().get_num_cards() == 0:", "should be '======== Round 23"),
]


@pytest.mark.parametrize("member, old, new, words", MISTAKES,
                         ids=[f"{m[0]}-{i}" for i, m in enumerate(MISTAKES)])
def test_a_mistake_is_named_at_its_member(skeleton, capsys, member, old, new, words):
    fill(skeleton, *planted(member, old, new))
    status, out, err = run(capsys, "exercise", "check", str(skeleton))
    assert status == 1 and err == ""
    assert out.startswith(f"{member}: "), out
    assert words in out and "(seed 17455" in out, out


def test_a_mistake_is_named_under_the_stack_adt(skeleton, capsys):
    fill(skeleton, *planted("Pile.remove_top_card", "card_to_return = self.stack.pop()",
                            "card_to_return = self.stack.pop(0)"))
    assert run(capsys, "exercise", "check", str(skeleton))[0] == 0     # the array is right
    status, out, _ = run(capsys, "exercise", "check", str(skeleton), "--stack", "adt")
    assert status == 1 and out.startswith("Pile.remove_top_card: after the deal the top "
                                          "card of player A's 'to play' pile should be")


def test_a_port_that_does_not_compile_is_named_so(skeleton, capsys):
    fill(skeleton)
    path = skeleton / "pile.py"
    lines = path.read_text().splitlines()
    broken = next(i for i, line in enumerate(lines) if "def shuffle" in line) + 3
    lines[broken] = lines[broken] + " ((("
    path.write_text("\n".join(lines) + "\n")
    status, out, _ = run(capsys, "exercise", "check", str(skeleton))
    assert status == 1
    assert out.startswith("your port cannot be loaded: a SyntaxError, ")
    assert f"at pile.py line {broken + 1}" in out


# ---- The child's limits, each broken by a port

def broken_member(skeleton, code):
    """The port's bodies, with Pile.add_card_to_pile doing code first."""
    bodies = reference_bodies()
    bodies["Pile.add_card_to_pile"] = [f"        {code}"] + bodies["Pile.add_card_to_pile"]
    fill(skeleton, bodies)


def test_a_game_that_never_ends_is_stopped(skeleton):
    broken_member(skeleton, "while True: pass")
    found = exercise.check(skeleton, game_seconds=0.3)
    assert (found[0].member, found[0].kind) == ("Pile.add_card_to_pile", "timeout")
    assert "did not finish within 0.3 s (before the deal)" in found[0].message


def test_the_whole_check_has_a_time_limit(skeleton):
    broken_member(skeleton, "while True: pass")
    found = exercise.check(skeleton, timeout=1, game_seconds=60)
    assert (found[0].member, found[0].kind) == (None, "timeout")
    assert found[0].message == "the check did not finish within 1 s"


def test_memory_is_limited(skeleton):
    broken_member(skeleton, "hoard = bytearray(8 * 2 ** 30)")
    found = exercise.check(skeleton)
    assert (found[0].member, found[0].kind) == ("Pile.add_card_to_pile", "error")
    assert found[0].message.startswith("raised MemoryError")


def test_output_is_limited(skeleton):
    broken_member(skeleton, "print('x' * 2 ** 20 * 100)")
    found = exercise.check(skeleton)
    assert (found[0].member, found[0].kind) == ("Pile.add_card_to_pile", "error")
    assert found[0].message.startswith("raised OSError: [Errno 27] File too large")


def test_the_student_s_port_has_no_stdin_and_its_own_folder(skeleton):
    broken_member(skeleton, "import os, sys; assert sys.stdin.read() == '' and "
                  "'pywar-run-' in os.getcwd(), os.getcwd()")
    assert exercise.check(skeleton)[0].kind == "passed"


def test_the_module_examples_run():
    import doctest
    failures, tried = doctest.testmod(skeleton_of)
    assert tried > 0 and failures == 0


def test_a_change_outside_the_todos_is_named_as_the_whole_port(skeleton, capsys):
    fill(skeleton)
    path = skeleton / "card.py"
    path.write_text(path.read_text().replace(                 # ranks with a capital
        'RANK_STRINGS = {rank: rank.name.lower() for rank in RANK}',
        'RANK_STRINGS = {rank: rank.name.title() for rank in RANK}'))
    status, out, _ = run(capsys, "exercise", "check", str(skeleton))
    assert status == 1
    assert out.startswith("your port departs, though no one member does alone")
    assert "line 9 of the transcript should be 'Card 1, three of clubs'; yours is " \
           "'Card 1, Three of clubs'" in out


def test_a_piece_whose_comment_lines_are_lost_is_named(skeleton, capsys):
    fill(skeleton, *planted("TableTop.do_battle (the war)", "return self.do_battle()",
                            "return False"))
    path = skeleton / "tabletop.py"
    path.write_text(path.read_text().replace("        # ---- end of piece 3 ----\n", ""))
    status, out, _ = run(capsys, "exercise", "check", str(skeleton))
    assert status == 1
    assert out == ("TableTop.do_battle: tabletop.py has lost the comment lines around piece 3 "
                   "(the refill of player A): put back '# ---- TableTop.do_battle (the refill "
                   "of player A): TODO ----' and '# ---- end of piece 3 ----'\n")


def test_a_member_that_swallows_every_exception_is_still_named(skeleton, capsys):
    """A departure comes back at the next line and at the end, and is no Exception."""
    bodies = reference_bodies()
    body = [line.replace("Card {i + 1}", "Card {i}") for line in bodies["Pile.print_cards"]]
    bodies["Pile.print_cards"] = (["        try:"] + ["    " + line for line in body]
                                  + ["        except Exception:", "            pass"])
    fill(skeleton, bodies)
    status, out, _ = run(capsys, "exercise", "check", str(skeleton))
    assert status == 1 and out.startswith("Pile.print_cards: line 9 of the transcript")


# ---- Hostile ports (issue 29): each does what a port did to pass or to escape

TODO_CHEATS = {   # a port whose every member is still TODO, and a line that makes it pass
    "writes the checker's result file": (
        "program4.py", "import os, json\n"
        "json.dump([{'member': None, 'seed': None, 'message': 'fine', 'kind': 'passed'}],\n"
        "          open(os.path.join(os.getcwd(), 'result.json'), 'w'))\n"
        "os._exit(0)\n"),
    "replaces play_checked in __main__": (
        "__init__.py", "import __main__\n__main__.play_checked = lambda *args, **kwargs: None\n"),
    "delegates to pywar.port": ("program4.py", "from pywar.port.program4 import main  # noqa\n"),
}


@pytest.mark.parametrize("cheat", sorted(TODO_CHEATS))
def test_a_port_whose_members_are_todo_passes_whatever_it_does_at_import(skeleton, cheat):
    name, code = TODO_CHEATS[cheat]
    path = skeleton / name
    path.write_text(path.read_text() + code)
    found = exercise.check(skeleton)
    assert found[0].kind != "passed", found[0]


def test_the_port_sees_no_secret_of_the_caller_s(skeleton, monkeypatch, tmp_path):
    """Neither the caller's environment nor a file only root (the caller) may read."""
    monkeypatch.setenv("SECRET_TOKEN", "the-token-of-the-grader")
    secret = tmp_path / "secret"
    secret.write_text("a text only the caller may read")
    secret.chmod(0o600)
    broken_member(skeleton, f"import os; raise RuntimeError(os.environ.get('SECRET_TOKEN', "
                            f"'') + ' ' + open({str(secret)!r}).read())")
    said = str(exercise.check(skeleton)[0])
    assert "the-token-of-the-grader" not in said and "only the caller" not in said, said


def test_the_port_leaves_no_process_behind(skeleton):
    mark = "77.4321"                        # a sleep no other test starts
    path = skeleton / "__init__.py"
    path.write_text(path.read_text() + "import subprocess\nsubprocess.Popen(['sleep', "
                    f"'{mark}'], start_new_session=True)\n")
    exercise.check(skeleton)
    left = []
    for entry in Path("/proc").iterdir():
        try:
            if entry.name.isdigit() and mark.encode() in (entry / "cmdline").read_bytes():
                left.append(int(entry.name))
        except OSError:
            pass
    for pid in left:                        # started by this test: ended here, by id
        os.kill(pid, 9)
    assert left == []


def test_a_port_whose_transcript_is_whole_but_trace_short_fails(skeleton, capsys):
    """The game's end is never told the observer: the transcript is the reference's to
    its last line, its trace lacks the end event.  All of the trace is required."""
    fill(skeleton)
    path = skeleton / "program4.py"
    text = path.read_text()
    assert "    table_top.observer.end()\n" in text
    path.write_text(text.replace("    table_top.observer.end()\n", ""))
    status, out, _ = run(capsys, "exercise", "check", str(skeleton))
    assert status == 1
    assert out.startswith("your port departs, though no one member does alone")
    assert "the game should end" in out and "yours has ended the game" in out


def test_a_python_the_port_s_run_cannot_start_is_exit_3(skeleton, capsys, monkeypatch,
                                                         tmp_path):
    """The machine's fault, not the port's: a Python its run may not execute."""
    python = tmp_path / "python"
    python.write_text("not a program\n")
    python.chmod(0o644)
    monkeypatch.setattr(exercise, "python_for_runs", lambda *_: str(python))
    fill(skeleton)
    status, out, _ = run(capsys, "exercise", "check", str(skeleton))
    assert status == 3
    assert out.startswith("the check could not start Python for your port: ")
