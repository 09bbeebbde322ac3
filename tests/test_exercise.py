"""pywar exercise: the skeleton is the port with bodies cut out (filled with the port's own
bodies it is the port again, and passes the check), and the check names typical mistakes
at the member that makes them, with the seed and what was expected.  The student's code
runs in a child process, with limits: each limit is broken here by a port that breaks it."""

import ast
import json
import os
import re
import secrets
import subprocess
import sys
from pathlib import Path

import pytest

import pywar.check.exercise.portcheck as exercise
import pywar.check.exercise.portjudge as portjudge
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


@pytest.mark.parametrize("made", [True, False])
def test_new_stopped_half_way_leaves_the_folder_as_it_was(tmp_path, monkeypatch, made):
    """A Ctrl-C after the first file left a folder that the next `exercise new` refused
    (not empty): the files written are removed, and the folder too if new made it
    (docs/command-line.md, the table of outputs)."""
    written = []

    class Stopping(dict):
        def items(self):
            for name in ("pile.py", "card.py"):
                if written:
                    raise KeyboardInterrupt
                written.append(name)
                yield name, "# a file of the skeleton\n"
    monkeypatch.setattr(skeleton_of, "skeleton", Stopping)
    folder = tmp_path / "my-port"
    if not made:
        folder.mkdir()
    with pytest.raises(KeyboardInterrupt):
        skeleton_of.new(str(folder))
    assert written == ["pile.py"]
    assert os.listdir(tmp_path) == ([] if made else ["my-port"])
    assert made or os.listdir(folder) == []


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
    a, b = found["fresh"]                       # in English, for any count (issue 37)
    assert found["first"]["message"] == (
        f"your port plays seeds 17455, 1553 and 12, and 2 drawn fresh ({a} and {b}), exactly "
        "as the reference does, event for event and line for line")


def test_a_pass_on_one_seed_says_seed(skeleton, capsys):
    fill(skeleton)
    assert run(capsys, "exercise", "check", str(skeleton), "--seed", "5") == (
        0, "your port plays seed 5 exactly as the reference does, event for event and line "
           "for line\n", "")


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
    ("Pile.add_card_to_pile", "self.cards[self.num_cards] = card",   # not raised in it
     "self.cards[self.num_cards - 1] = card", "makes pywar's TableTop.read_pile raise "
     "AttributeError: 'NoneType' object has no attribute 'get_suit'"),
    ("TableTop.do_battle (the refill of player A)",
     "            text_printf(text, \"Shuffling player A cards...\\n\\n\")\n"
     "            player_a.get_to_play_pile().shuffle(self.rng)\n", "",
     "after player A's refill and shuffle the top card should be"),
    ("TableTop.do_battle (the battle)",                   # the wrong player's pile
     "player_b.get_played_pile().add_card_to_pile(won_card)",
     "player_a.get_played_pile().add_card_to_pile(won_card)", "raised IndexError"),
    ("TableTop.do_battle (the war)", "return self.do_battle()", "return False",
     "player A should play the six of spades; in yours round 8 begins (seed 17455, "
     "in round 7)"),
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


POT_SWAPPED = ("currently_in_play.add_card_to_pile(card_a)\n"
               "        currently_in_play.add_card_to_pile(card_b)",
               "currently_in_play.add_card_to_pile(card_b)\n"
               "        currently_in_play.add_card_to_pile(card_a)")
FACE_UP_READ = ("the check reads the face-up cards off the top of the 'currently in play' "
                "pile, A's under B's, when do_battle calls self.observer.face_up(), not off "
                "the lines you print")


def test_a_pot_put_down_in_the_other_order_is_said_of_the_pile(skeleton, capsys):
    """The port prints 'Player A plays three of spades', the pile says A's card is the
    four of hearts: the check says what the pile holds, not 'yours plays' (issue 37)."""
    fill(skeleton, *planted("TableTop.do_battle (the face-up cards)", *POT_SWAPPED))
    status, out, _ = run(capsys, "exercise", "check", str(skeleton))
    assert status == 1 and "yours plays" not in out
    assert out == ("TableTop.do_battle (the face-up cards): the face-up cards should go on the "
                   "'currently in play' pile A's first, then B's (the three of spades, then the "
                   "four of hearts); yours puts the four of hearts down first (seed 17455, in "
                   f"round 1); {FACE_UP_READ}\n")


def test_the_member_that_wrote_the_first_difference_is_named(skeleton, capsys):
    """The pot put down, B's card first, in the battle piece: the face-up piece (which tells
    the observer too soon) departs alone first, and the battle piece wrote the whole port's
    first difference (a battle where the face-up cards were expected): both are named."""
    bodies, pieces = reference_bodies(), reference_pieces()
    face_up, battle = "TableTop.do_battle (the face-up cards)", "TableTop.do_battle (the battle)"
    pieces[face_up] = [line for line in pieces[face_up]
                       if "currently_in_play.add_card_to_pile" not in line]
    pieces[battle] = POT_SWAPPED[1].replace("currently_in_play", "        currently_in_play",
                                            1).split("\n") + pieces[battle]
    fill(skeleton, bodies, pieces)
    status, out, _ = run(capsys, "exercise", "check", str(skeleton))
    assert status == 1
    assert out == (f"{face_up}: player A should play the three of spades; in yours player B "
                   f"wins the battle (seed 17455, in round 1); {FACE_UP_READ}\n"
                   f"Departing too, later: {battle}.\n"
                   f"In your whole port, the first difference is written by {battle}.\n")


CRASHES = [   # mistakes that crash: (the member, the port's text, the mistake, what the
              # member's game did, the crash's last line in the port: its file, member,
              # text, exception)
    ("Pile.shuffle", "c2 = rng.rand() % num_cards", "c2 = rng.rand() % MAXCARDS",
     # swaps in a slot past the pile's cards: read_pile, the observer's, meets None
     "makes pywar's TableTop.read_pile raise AttributeError: ",
     ("tabletop.py", "TableTop.read_pile", "ids = [cards[i].get_suit() * 13 + "
      "cards[i].get_rank() for i in range(num_cards)]",
      "AttributeError: 'NoneType' object has no attribute 'get_suit'")),
    ("TableTop.do_battle (the refill of player B)",       # shuffling before the refill
     "            while player_b.get_played_pile().get_num_cards() > 0:",
     "            player_b.get_to_play_pile().shuffle(self.rng)\n"
     "            while player_b.get_played_pile().get_num_cards() > 0:",
     "raised ZeroDivisionError: integer modulo by zero at tabletop.py line ",
     ("pile.py", "Pile.shuffle", "c1 = rng.rand() % num_cards",
      "ZeroDivisionError: integer modulo by zero")),
]


@pytest.mark.parametrize("member, old, new, did, crash", CRASHES, ids=[c[0] for c in CRASHES])
def test_a_crash_shows_its_last_line_in_the_port(skeleton, capsys, member, old, new, did,
                                                 crash):
    """The traceback's last frame in the student's files, and the member it is in, as
    Python prints them; the member named first says 'raised' only when a line of its own
    is in the traceback (issue 37)."""
    fill(skeleton, *planted(member, old, new))
    status, out, _ = run(capsys, "exercise", "check", str(skeleton))
    file_name, raised_in, text, exception = crash
    number = next(i for i, line in enumerate((skeleton / file_name).read_text().splitlines(), 1)
                  if line.strip() == text)
    lines = out.splitlines()
    assert status == 1 and lines[0].startswith(f"{member}: {did}"), out
    at = lines.index(next(line for line in lines if line.startswith("Your port crashed")))
    assert lines[at + 1:at + 4] == [f'  File "{file_name}", line {number}, in {raised_in}',
                                    f"    {text}", exception], out


def test_the_port_s_own_prints_are_shown(skeleton, capsys):
    """What the port prints itself is not its transcript, and not thrown away: its first
    lines are shown, labelled, their control characters as '?' (issue 37)."""
    fill(skeleton)
    path = skeleton / "__init__.py"
    path.write_text(path.read_text() + "print('\\x1b[2Jloaded')\n")
    path = skeleton / "pile.py"
    path.write_text(path.read_text().replace(
        "        num_cards = self.get_num_cards()\n        cards = self.get_array()\n"
        "        text_printf(text, f\"There are",
        "        num_cards = self.get_num_cards()\n        cards = self.get_array()\n"
        "        print('printing', num_cards, 'cards')\n        text_printf(text, f\"There are"))
    status, out, _ = run(capsys, "exercise", "check", str(skeleton), "--seed", "17455")
    assert status == 0
    assert out.splitlines() == [
        "your port plays seed 17455 exactly as the reference does, event for event and line "
        "for line",
        "Your port's own output (printed beside its game; the check does not read it), 3 "
        "lines:", "  | ?[2Jloaded", "  | printing 26 cards", "  | printing 26 cards"]
    path.write_text(path.read_text().replace(                 # a line a card: 1 + 2 * 26
        "print('printing', num_cards, 'cards')",
        "print(*(f'card {i}' for i in range(num_cards)), sep='\\n')"))
    status, out, _ = run(capsys, "exercise", "check", str(skeleton), "--seed", "17455", "--json")
    first = json.loads(out)["first"]
    assert (first["output_lines"], len(first["output"])) == (53, portjudge.OWN_LINES)
    assert first["output"][:3] == ["?[2Jloaded", "card 0", "card 1"]
    status, out, _ = run(capsys, "exercise", "check", str(skeleton), "--seed", "17455")
    assert "Your port's own output (printed beside its game; the check does not read it), " \
           "the first 20 of 53 lines:\n" in out and out.endswith("  | card 18\n")


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
                   "of player A): TODO ----' and '# ---- end of piece 3 ----'\n"
                   "In your whole port, the first difference is written by program4.main: "
                   "player A should play the six of spades; in yours round 8 begins (seed "
                   "17455, in round 7)\n")


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
    mark = f"77.{secrets.randbelow(10 ** 9):09d}"   # a sleep no other test or run starts
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
