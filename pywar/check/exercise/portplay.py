"""The child's side of pywar exercise check: it runs inside pywar's runner (sandbox.run,
its exercise profile), plays a student's port and records what the port printed and
traced, piece by piece, as JSON lines on a descriptor of its own.  It decides nothing:
pywar exercise check (pywar.check.exercise.portcheck) compares the records with the reference in
pywar's own process.  Standard library alone, with what the port's files import from
pywar (pywar.common, pywar.rules), which the check copies beside it; pywar.port is there
only for the members run, whose records can never make a port pass.

    python -I -S -c BOOT whole FOLDER STACK SECONDS BOUNDS SEEDS
    python -I -S -c BOOT members FOLDER STACK SECONDS BOUNDS SEEDS EXPECTED

whole: the student's port, seed by seed.  members: the reference's port with one of the
student's members in its place (a piece of do_battle in place of the port's piece),
member by member, each on the seeds until the first that departs (EXPECTED, the
reference's games, lets a departing game stop at once).  Records: {"game": [member or
null, seed]}, then {"t": text} and {"e": trace line} in the order written, then {"end":
finished | timeout | cut | unfilled | error | off, "words": ...}; {"load": words} when the
port cannot be loaded, {"drift": words} when its tabletop.py lost a piece's markers.
"""

import ast
import json
import os
import sys
import textwrap
import traceback
from importlib import util

from ...common.record import Cut, record_game

MEMBERS = (("pile.py", "Pile", "add_card_to_pile"), ("pile.py", "Pile", "remove_top_card"),
           ("pile.py", "Pile", "shuffle"), ("pile.py", "Pile", "print_cards"))
PIECES = (    # TableTop.do_battle: (name, first line of its first statement, statements)
    ("the face-up cards", "card_a = ", 7),
    ("the battle", "tie = False", 2),
    ("the refill of player A", "if (player_a.get_to_play_pile().get_num_cards() == 0", 1),
    ("the refill of player B", "if (player_b.get_to_play_pile().get_num_cards() == 0", 1),
    ("who has run out", "someone_ran_out_of_cards = False", 3),
    ("the war", "if not someone_ran_out_of_cards and tie:", 1),
)
TODO = "TODO: "
LINE_MAPS = {}      # a composed do_battle's file name: (its first student line, the file's)


class ExerciseDrift(ValueError):
    """The port no longer has a member or piece the exercise cuts out."""


def find_function(tree, class_name, name):
    """The def of a class's method in a module's syntax tree."""
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and node.name == class_name:
            for item in node.body:
                if isinstance(item, ast.FunctionDef) and item.name == name:
                    return item
    raise ExerciseDrift(f"the port has no {class_name}.{name}")


def piece_statements(function, lines):
    """The statements of each piece of do_battle: {name: (first line, last line)}."""
    body = function.body
    found = {}
    for name, first_line, count in PIECES:
        starts = [i for i, statement in enumerate(body)
                  if lines[statement.lineno - 1].strip().startswith(first_line)]
        if len(starts) != 1 or starts[0] + count > len(body):
            raise ExerciseDrift(f"TableTop.do_battle has no piece {name!r} starting "
                                f"{first_line!r}")
        statements = body[starts[0]:starts[0] + count]
        found[name] = (statements[0].lineno, statements[-1].end_lineno)
    return found


def piece_label(name):
    """A piece's name as the check says it: TableTop.do_battle (the battle)."""
    return f"TableTop.do_battle ({name})"


def student_pieces(folder):
    """The lines of each piece of the student's do_battle, between its markers."""
    with open(os.path.join(folder, "tabletop.py"), encoding="utf-8") as file:
        lines = file.read().splitlines()
    pieces = {}
    for number, (name, _, _) in enumerate(PIECES, 1):
        label = piece_label(name)
        start = next((i for i, line in enumerate(lines)
                      if line.strip() == f"# ---- {label}: TODO ----"), None)
        end = next((i for i, line in enumerate(lines)
                    if line.strip() == f"# ---- end of piece {number} ----"), None)
        if start is None or end is None or end < start:
            raise ExerciseDrift(f"tabletop.py has lost the comment lines around piece "
                                f"{number} ({name}): put back '# ---- {label}: TODO ----' "
                                f"and '# ---- end of piece {number} ----'")
        pieces[name] = (start + 2, lines[start + 1:end])     # its first line's number
    return pieces


def load_student(folder):
    """The student's port as a package (student_port), from its folder."""
    spec = util.spec_from_file_location("student_port", os.path.join(folder, "__init__.py"),
                                        submodule_search_locations=[folder])
    module = util.module_from_spec(spec)
    sys.modules["student_port"] = module
    spec.loader.exec_module(module)
    return module


def innermost_student_frame(error, folder):
    """Where in the student's files an error came from, as ' at pile.py line 80', with
    the function it came out of if that is not the student's; '' if none."""
    found, innermost = "", None
    for frame in traceback.extract_tb(error.__traceback__):
        innermost = frame
        if os.path.dirname(os.path.abspath(frame.filename)) == folder:
            found = f"{os.path.basename(frame.filename)} line {frame.lineno}"
        elif frame.filename in LINE_MAPS:
            composed, first = LINE_MAPS[frame.filename]
            found = f"tabletop.py line {frame.lineno - composed + first}"
    if not found:
        return ""
    inside = ""
    if innermost is not None and not innermost.filename.startswith("<your") and \
            os.path.dirname(os.path.abspath(innermost.filename)) != folder:
        inside = f", inside pywar's {innermost.name}"
    return f" at {found}{inside}"


def load_words(error, folder):
    """Why a port cannot be loaded, in a sentence."""
    if isinstance(error, SyntaxError):
        at = f" at {os.path.basename(error.filename or '?')} line {error.lineno}"
        return f"your port cannot be loaded: a SyntaxError, {error.msg}{at}"
    at = innermost_student_frame(error, folder)
    return f"your port cannot be loaded: {type(error).__name__}: {error}{at}"


# ---- Recording a game

class Tape:
    """The two streams of one game (text and trace, each with .append), written as
    records in the order written; bound: the characters it may write in all."""

    def __init__(self, out, bound, expected=None):
        self.out = out
        self.left = bound
        self.expected = expected          # (trace lines, transcript): stop where it departs
        self.events = 0
        self.printed = 0
        self.stopped = None
        self.text = Stream(lambda piece: self.put("t", piece))
        self.trace = Stream(lambda piece: self.put("e", piece))

    def put(self, kind, piece):
        """One piece of the game, recorded; Cut once past the bound or (members) off."""
        if self.stopped:
            raise Cut
        piece = str(piece)
        self.left -= len(piece)
        if self.left < 0:
            self.stopped = "cut"
            raise Cut
        self.out.write(json.dumps({kind: piece}) + "\n")
        if self.expected is not None and not self.follows(kind, piece):
            self.stopped = "off"
            raise Cut

    def follows(self, kind, piece):
        """Whether a piece is still the reference's (a shortcut only: pywar compares)."""
        trace, transcript = self.expected
        if kind == "e":
            self.events += 1
            return self.events <= len(trace) and json.loads(piece) == json.loads(
                trace[self.events - 1])
        start, self.printed = self.printed, self.printed + len(piece)
        return transcript[start:self.printed] == piece

    def finish(self):
        """Each piece is written as it comes: nothing is held back."""


class Stream:
    """A text stream: anything with .append."""

    def __init__(self, append):
        self.append = append


def port_error(error, folder):
    """An exception of the student's port as its game's end: (kind, words)."""
    if isinstance(error, NotImplementedError):
        if str(error).startswith(TODO):
            return "unfilled", str(error)[len(TODO):]
        return "error", f"raised NotImplementedError: {error}"
    return ("error", f"raised {type(error).__name__}: {error}"
                     f"{innermost_student_frame(error, folder)}")


def play_game(out, play, label, seed, stack, seconds, bound, folder, expected=None):
    """Play one game into records: True if it finished."""
    tape = Tape(out, bound, expected)
    return record_game(out, {"game": [label, seed]}, tape,
                       lambda: play(seed, stack, tape.text, tape.trace), seconds,
                       lambda error: port_error(error, folder)) == "finished"


# ---- The members run: the reference with one of the student's members

def do_battle_with(tabletop, name, student_piece):
    """The port's do_battle with one piece, the student's (its first line's number in
    tabletop.py, its lines), in place of its own."""
    student_first, student_lines = student_piece
    with open(tabletop.__file__, encoding="utf-8") as file:
        text = file.read()
    lines = text.splitlines()
    function = find_function(ast.parse(text), "TableTop", "do_battle")
    first, last = piece_statements(function, lines)[name]
    new = lines[function.lineno - 1:first - 1] + student_lines + lines[last:function.end_lineno]
    namespace = dict(vars(tabletop))
    file_name = f"<your {piece_label(name)}>"
    LINE_MAPS[file_name] = (first - function.lineno + 1, student_first)
    code = compile(textwrap.dedent("\n".join(new)), file_name, "exec")
    exec(code, namespace)
    return namespace["do_battle"]


def substitutions(student, folder):
    """For each member the student writes: (its name, the reference's owner, the
    attribute, the student's)."""
    from ...port import pile, tabletop
    for file_name, class_name, name in MEMBERS:
        module = getattr(student, file_name[:-3])
        ours = getattr({"pile.py": pile}[file_name], class_name)
        yield f"{class_name}.{name}", ours, name, getattr(getattr(module, class_name), name)
    pieces = student_pieces(folder)
    for name, _, _ in PIECES:
        yield (piece_label(name), tabletop.TableTop, "do_battle",
               do_battle_with(tabletop, name, pieces[name]))


def members(out, student, folder, stack, seconds, bounds, seeds, expected):
    """Each member of the student's in the reference's place, on the seeds until one
    departs."""
    from ...port import program4
    try:
        found = list(substitutions(student, folder))
    except (ExerciseDrift, SyntaxError, OSError) as error:
        out.write(json.dumps({"drift": str(error)}) + "\n")
        return
    for label, owner, attribute, theirs in found:
        own = owner.__dict__[attribute]
        setattr(owner, attribute, theirs)
        try:
            for seed, bound in zip(seeds, bounds):
                trace, transcript = expected[str(seed)]
                if not play_game(out, program4.main, label, seed, stack, seconds, bound,
                                 folder, (trace.splitlines(), transcript)):
                    break
        finally:
            setattr(owner, attribute, own)


def main(argv):
    """The child's main: the records on the descriptor that was stdout; the student's
    own prints go to stderr."""
    mode, folder, stack, seconds, bounds, seeds, *rest = argv
    records = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    bounds = [int(bound) for bound in bounds.split(",")]
    seeds = [int(seed) for seed in seeds.split(",")]
    try:
        student = load_student(folder)
    except Exception as error:                   # the student's code, at import
        records.write(json.dumps({"load": load_words(error, folder)}) + "\n")
        records.flush()
        return
    if mode == "whole":
        for seed, bound in zip(seeds, bounds):     # a game that did not end departs:
            if not play_game(records, student.program4.main, None, seed, stack,
                             float(seconds), bound, folder):
                break                              # the check needs no later seed

    else:
        with open(rest[0], encoding="utf-8") as file:
            expected = json.load(file)
        members(records, student, folder, stack, float(seconds), bounds, seeds, expected)
    records.flush()
