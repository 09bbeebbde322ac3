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
port cannot be loaded, {"drift": words} when its tabletop.py lost a piece's markers.  The
whole run also records, before a piece, {"by": member} when the member of the student's
writing it is another than the last piece's (the innermost frame of the student's files,
text_printf passed through), and before the end of a game the student's code crashed,
{"crash": {file, line, text, member, exception, inside}}: the last frame of the
traceback in the student's files.  What the port prints itself (print, to stdout or
stderr) goes to the child's stderr, which pywar shows as the port's own output.
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
PASS_THROUGH = ("text_printf",)     # the port's cout: a line it prints is its caller's
SAID = 300          # characters of an exception's message or a line of code, at most
OWN = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # pywar


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


def bounded(text):
    """A text cut to SAID characters."""
    text = str(text)
    return text if len(text) <= SAID else text[:SAID - 3] + "..."


DEFS = {}           # a file's path: its functions, (first line, last line, label)


def defs_of(path):
    """The functions of a file, outer ones first: (first line, last line, label), the
    label as 'Pile.shuffle' for a method, 'program4.main' for a function."""
    if path not in DEFS:
        try:
            with open(path, encoding="utf-8") as file:
                tree = ast.parse(file.read())
        except (OSError, SyntaxError, ValueError):
            tree = ast.Module(body=[], type_ignores=[])
        module = os.path.splitext(os.path.basename(path))[0]
        found = []

        def visit(node, owner):
            """The functions under node, owner the label of what holds them."""
            for child in ast.iter_child_nodes(node):
                if isinstance(child, ast.ClassDef):
                    visit(child, child.name if owner is None else f"{owner}.{child.name}")
                elif isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    label = f"{owner or module}.{child.name}"
                    found.append((child.lineno, child.end_lineno, label))
                    visit(child, label)
        visit(tree, None)
        DEFS[path] = found
    return DEFS[path]


PIECE_LINES = {}    # the student's folder: {piece's name: (first line, last line)}


def piece_at(folder, line):
    """The piece of the student's do_battle that holds a line of tabletop.py, or None."""
    if folder not in PIECE_LINES:
        try:
            PIECE_LINES[folder] = {name: (first, first + len(lines) - 1)
                                   for name, (first, lines) in student_pieces(folder).items()}
        except (ExerciseDrift, OSError, UnicodeDecodeError):
            PIECE_LINES[folder] = {}
    return next((name for name, (first, last) in PIECE_LINES[folder].items()
                 if first <= line <= last), None)


MEMBER_AT = {}       # (path, line, folder): member_at's answer


def member_at(path, line, folder=None):
    """The member a line of a file is in: 'Pile.shuffle', 'TableTop.do_battle (the
    battle)' (a piece of the student's, or a composed one's), 'pile.py' (at import)."""
    if (path, line, folder) not in MEMBER_AT:
        MEMBER_AT[path, line, folder] = find_member(path, line, folder)
    return MEMBER_AT[path, line, folder]


def find_member(path, line, folder):
    """member_at, found."""
    if path in LINE_MAPS:
        return path[len("<your "):-1]
    label = next((label for first, last, label in reversed(defs_of(path))
                  if first <= line <= last), os.path.basename(path))
    if label == "TableTop.do_battle" and folder and path == os.path.join(folder, "tabletop.py"):
        piece = piece_at(folder, line)
        label = piece_label(piece) if piece else label
    return label


IN_FOLDER = {}       # (path, folder): in_folder's answer


def in_folder(path, folder):
    """Whether a file is one of the student's."""
    if (path, folder) not in IN_FOLDER:
        IN_FOLDER[path, folder] = os.path.dirname(os.path.abspath(path)) == folder
    return IN_FOLDER[path, folder]


def owner_words(path):
    """Whose code a file is, said of a function in it: pywar's or Python's."""
    return "pywar's" if os.path.abspath(path).startswith(OWN + os.sep) else "Python's"


def writer(folder):
    """The member of the student's writing a piece now: the innermost frame of the
    student's files outside PASS_THROUGH, or None."""
    frame = sys._getframe(1)
    while frame is not None:
        code = frame.f_code
        if code.co_name not in PASS_THROUGH and in_folder(code.co_filename, folder):
            return member_at(code.co_filename, frame.f_lineno, folder)
        frame = frame.f_back
    return None


def last_student_frame(error, folder):
    """The last frame of an error's traceback in the student's files (or a composed
    do_battle), and the innermost frame: (frame or None, innermost or None)."""
    frames = traceback.extract_tb(error.__traceback__)
    mine = [frame for frame in frames
            if in_folder(frame.filename, folder) or frame.filename in LINE_MAPS]
    return (mine[-1] if mine else None), (frames[-1] if frames else None)


def student_line(frame):
    """A student's frame's file name and line number (a composed piece's, in tabletop.py)."""
    if frame.filename in LINE_MAPS:
        composed, first = LINE_MAPS[frame.filename]
        return "tabletop.py", frame.lineno - composed + first
    return os.path.basename(frame.filename), frame.lineno


def where_words(error, folder, member=None):
    """Where an error was raised, for its words: ' in Pile.shuffle at pile.py line 80'
    (not 'in' the member the game is about), with the function it came out of if that
    is not the student's ('inside pywar's Observer.take'); '' if no line of the
    student's ran it."""
    mine, innermost = last_student_frame(error, folder)
    if mine is None:
        return ""
    name, line = student_line(mine)
    raised_in = member_at(mine.filename, mine.lineno, folder)
    in_member = "" if raised_in in (member, name) else f" in {raised_in}"
    inside = ""
    if innermost is not mine and innermost is not None:
        inside = (f", inside {owner_words(innermost.filename)} "
                  f"{member_at(innermost.filename, innermost.lineno)}")
    return f"{in_member} at {name} line {line}{inside}"


def crash_of(error, folder):
    """The crash record of an error of the student's code: the traceback's last frame in
    the student's files (file, line, text, member), the exception, and the function it
    came out of if that is not the student's; None if no line of the student's ran."""
    mine, innermost = last_student_frame(error, folder)
    if mine is None:
        return None
    name, line = student_line(mine)
    inside = None
    if innermost is not mine:
        inside = (f"{owner_words(innermost.filename)} "
                  f"{member_at(innermost.filename, innermost.lineno)}")
    return {"file": name, "line": line, "text": bounded((mine.line or "").strip()),
            "member": member_at(mine.filename, mine.lineno, folder),
            "exception": bounded(f"{type(error).__name__}: {error}"), "inside": inside}


def load_words(error, folder):
    """Why a port cannot be loaded, in a sentence."""
    if isinstance(error, SyntaxError):
        at = f" at {os.path.basename(error.filename or '?')} line {error.lineno}"
        return f"your port cannot be loaded: a SyntaxError, {error.msg}{at}"
    at = where_words(error, folder)
    return f"your port cannot be loaded: {type(error).__name__}: {bounded(error)}{at}"


# ---- Recording a game

class Tape:
    """The two streams of one game (text and trace, each with .append), written as
    records in the order written; bound: the characters it may write in all."""

    def __init__(self, out, bound, expected=None, folder=None):
        self.out = out
        self.left = bound
        self.expected = expected          # (trace lines, transcript): stop where it departs
        self.folder = folder              # the student's (the whole run): say who writes
        self.by = None
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
        if self.folder is not None:
            by = writer(self.folder)
            if by != self.by:
                self.by = by
                self.out.write(json.dumps({"by": by}) + "\n")
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


def port_error(error, folder, member=None):
    """An exception of the student's port as its game's end: (kind, words); member: the
    student's member the game is about (None: the whole port).  An error that no line
    of the student's raised is said of the function that raised it, as the member's
    doing: 'makes pywar's TableTop.read_pile raise ...'."""
    if isinstance(error, NotImplementedError):
        if str(error).startswith(TODO):
            return "unfilled", str(error)[len(TODO):]
        return "error", f"raised NotImplementedError: {bounded(error)}"
    said = f"{type(error).__name__}: {bounded(error)}"
    at = where_words(error, folder, member)
    if at or error.__traceback__ is None:
        return "error", f"raised {said}{at}"
    innermost = traceback.extract_tb(error.__traceback__)[-1]
    return "error", (f"makes {owner_words(innermost.filename)} "
                     f"{member_at(innermost.filename, innermost.lineno)} raise {said}")


def failed_game(out, folder, member, whole):
    """What record_game calls with an exception of the student's: the crash recorded
    (the whole run), then the game's end, (kind, words)."""
    def failed(error):
        """The end of a game that raised error."""
        kind, words = port_error(error, folder, member)
        crash = crash_of(error, folder) if whole and kind != "unfilled" else None
        if crash is not None:
            out.write(json.dumps({"crash": crash}) + "\n")
        return kind, words
    return failed


def play_game(out, play, label, seed, stack, seconds, bound, folder, expected=None):
    """Play one game into records: True if it finished.  The whole port's (expected
    None) says who writes each piece, and where it crashed."""
    whole = expected is None
    tape = Tape(out, bound, expected, folder if whole else None)
    return record_game(out, {"game": [label, seed]}, tape,
                       lambda: play(seed, stack, tape.text, tape.trace), seconds,
                       failed_game(out, folder, label, whole)) == "finished"


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


def play_records(records, mode, folder, stack, seconds, bounds, seeds, expected=None):
    """Play a run (whole: the student's port; members: the reference with each of the
    student's members in turn, expected the reference's games by seed) and write its
    records to a text stream.  The child's main calls it, and so does the page's Python
    in the browser (pywar.check.exercise.inprocess), in its own process."""
    try:
        student = load_student(folder)
    except Exception as error:                   # the student's code, at import
        records.write(json.dumps({"load": load_words(error, folder)}) + "\n")
        return
    if mode == "whole":
        for seed, bound in zip(seeds, bounds):     # a game that did not end departs:
            if not play_game(records, student.program4.main, None, seed, stack,
                             seconds, bound, folder):
                break                              # the check needs no later seed
    else:
        members(records, student, folder, stack, seconds, bounds, seeds, expected)


def main(argv):
    """The child's main: the records on the descriptor that was stdout; the student's
    own prints go to stderr."""
    mode, folder, stack, seconds, bounds, seeds, *rest = argv
    records = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    expected = None
    if mode != "whole":
        with open(rest[0], encoding="utf-8") as file:
            expected = json.load(file)
    play_records(records, mode, folder, stack, float(seconds),
                 [int(bound) for bound in bounds.split(",")],
                 [int(seed) for seed in seeds.split(",")], expected)
    records.flush()
