"""The port as an exercise: a skeleton to fill in, and a check that names the first member
whose behaviour departs from the reference (pywar exercise new DIR, check DIR).

    >>> files = skeleton()
    >>> sorted(files)
    ['README.md', '__init__.py', 'card.py', 'pile.py', 'player.py', 'program4.py', 'tabletop.py']
    >>> 'raise NotImplementedError("TODO: Pile.shuffle")' in files["pile.py"]
    True

The skeleton is made from the port's own source (pywar/port/) each time: the bodies of
the members in MEMBERS, and the pieces of TableTop.do_battle in PIECES, are cut out and
replaced by a TODO that says what the member prints and tells the observer; the rest is
the port, as it is.  A piece is found in the port by the first line of its first
statement and its number of statements, so a change to the port that moves a piece is
an ExerciseDrift error (tests/test_exercise.py), not a skeleton that silently differs.

The check runs the student's port in a child process (check()): no stdin, a scratch
directory as its folder, limits on time, memory and output.  There it plays each seed
with the student's whole port against the reference's trace and transcript; if any
departs, it plays the reference again with one of the student's members in place of
the port's, member by member (a piece of do_battle is put in place of the port's piece),
and names the member whose game departs first: the seed, the event and what was
expected, in words.  A member still marked TODO is named as not written yet.
"""

import ast
import json
import os
import re
import resource
import signal
import subprocess
import sys
import tempfile
import textwrap
import traceback
from dataclasses import asdict, dataclass
from importlib import util

from ..port import pile as port_pile, program4, tabletop
from ..port.card import RANK, SUIT
from ..rules import MAX_CARDS

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
PIECE_HINTS = {
    "the face-up cards": "Each player takes the top card of their 'to play' pile, A first; "
                         "both go on the 'currently in play' pile, A's first.",
    "the battle": "The higher rank takes the whole 'currently in play' pile, one top card "
                  "at a time onto the winner's 'played' pile; equal ranks are a tie.",
    "the refill of player A": "If A's 'to play' pile is empty and A's 'played' pile is "
                              "not, move the 'played' cards one top card at a time onto "
                              "'to play', then shuffle it.",
    "the refill of player B": "The same for player B.",
    "who has run out": "A player whose 'to play' pile is still empty has lost: say so, "
                       "and remember that someone ran out.",
    "the war": "After a tie, if nobody has run out, the battle goes on: do_battle calls "
               "itself; otherwise it returns whether someone ran out.",
}
FILES = ("__init__.py", "card.py", "pile.py", "player.py", "program4.py", "tabletop.py")
SEEDS = (17455, 1553, 12)           # short; five ties in a row; a long one with refills
GAME_SECONDS = 5.0                  # one game of the student's, at most
CHECK_SECONDS = 120.0               # the whole check, at most
MEMORY_LIMIT = 2 * 2 ** 30          # bytes of address space for the student's process
OUTPUT_LIMIT = 64 * 2 ** 20         # bytes the student's process may write
TODO = "TODO: "
PORT_FOLDER = os.path.dirname(os.path.abspath(program4.__file__))


class NotEmpty(Exception):
    """A folder for the skeleton that already holds something."""


class ExerciseDrift(ValueError):
    """The port no longer has a member or piece the exercise cuts out."""


# ---- The skeleton

def port_source(name):
    """The text of a file of the port (pywar/port/)."""
    with open(os.path.join(PORT_FOLDER, name), encoding="utf-8") as file:
        return file.read()


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


def says(statements_text):
    """What a piece of the port prints and tells the observer, as comment lines."""
    tree = ast.parse(textwrap.dedent(statements_text))
    printed, told = [], []
    calls = [node for node in ast.walk(tree) if isinstance(node, ast.Call)]
    for node in sorted(calls, key=lambda call: (call.lineno, call.col_offset)):
        if isinstance(node, ast.Call):
            called = ast.unparse(node.func)
            if called == "text_printf" and len(node.args) == 2:
                printed.append(ast.unparse(node.args[1]))
            elif ".observer." in f".{called}":
                told.append(ast.unparse(node))
    notes = [f"It prints (text_printf): {line}" for line in printed]
    notes += [f"It tells the observer: {', '.join(dict.fromkeys(told))}"] if told else []
    return notes


def todo_block(indent, label, hint, notes, ending=None):
    """The lines that stand for a cut-out body or piece."""
    pad = " " * indent
    lines = [f"{pad}# ---- {label}: TODO ----"]
    lines += [f"{pad}# {line}" for line in textwrap.wrap(hint, 88 - indent - 2)] if hint else []
    lines += [f"{pad}# {note}" for note in notes]
    lines.append(f'{pad}raise NotImplementedError("{TODO}{label}")')
    if ending:
        lines.append(f"{pad}# ---- {ending} ----")
    return lines


def cut(text, cuts):
    """A file's text with line ranges replaced: cuts is [(first, last, new lines)]."""
    lines = text.splitlines()
    for first, last, new in sorted(cuts, reverse=True):
        lines[first - 1:last] = new
    return "\n".join(lines) + "\n"


def member_cuts(text, file_name):
    """The cuts of the members of MEMBERS in one file of the port."""
    tree = ast.parse(text)
    lines = text.splitlines()
    cuts = []
    for name_of_file, class_name, name in MEMBERS:
        if name_of_file != file_name:
            continue
        function = find_function(tree, class_name, name)
        body = function.body[1:]                       # after the docstring
        first, last = body[0].lineno, body[-1].end_lineno
        notes = says("\n".join(lines[first - 1:last]))
        hint = "Write it for both stacks: self.stack is None (Program 4's array) or a list."
        cuts.append((first, last, todo_block(body[0].col_offset, f"{class_name}.{name}",
                                             hint, notes)))
    return cuts


def piece_cuts(text):
    """The cuts of do_battle's pieces in tabletop.py."""
    lines = text.splitlines()
    function = find_function(ast.parse(text), "TableTop", "do_battle")
    cuts = []
    for number, (name, (first, last)) in enumerate(piece_statements(function, lines).items(), 1):
        label = piece_label(name)
        notes = says("\n".join(lines[first - 1:last]))
        indent = len(lines[first - 1]) - len(lines[first - 1].lstrip())
        cuts.append((first, last, todo_block(indent, label, PIECE_HINTS[name], notes,
                                             ending=f"end of piece {number}")))
    return cuts


def piece_label(name):
    """A piece's name as the check says it: TableTop.do_battle (the battle)."""
    return f"TableTop.do_battle ({name})"


HEADER = ("# A skeleton of the port's {name} (pywar/port/{name}), made by pywar exercise new:\n"
          "# write each body marked TODO, then run: pywar exercise check DIR\n")
README = """# The port of War, to write yourself

These files are pywar's port of the SMU CSE1342 reference program (pywar/port/), with
some bodies cut out: every `raise NotImplementedError("TODO: ...")` is yours to write.
The comments above it say what the member prints and what it tells the observer, which
counts and traces the game (do not change those calls: the check reads the trace).

- `pile.py`: Pile.add_card_to_pile, remove_top_card, shuffle and print_cards;
- `tabletop.py`: the pieces of TableTop.do_battle, between `---- ... TODO ----` and
  `---- end of piece N ----` (keep those two comment lines: the check finds a piece by them).

Check your work as often as you like:

    pywar exercise check DIR              # Program 4's Pile (an array)
    pywar exercise check DIR --stack adt  # Program 6's Pile (the stack ADT)

It names the first member whose behaviour departs from the reference's, with the seed,
the event and what was expected.  docs/exercises.md has more to try.
"""


def skeleton():
    """The skeleton's files: {file name: text}."""
    files = {"README.md": README}
    for name in FILES:
        text = port_source(name)
        cuts = member_cuts(text, name)
        if name == "tabletop.py":
            cuts += piece_cuts(text)
        text = cut(text, cuts) if cuts else text
        text = re.sub(r"^from \.\.(\w)", r"from pywar.\1", text, flags=re.M)   # pywar's own
        files[name] = HEADER.format(name=name) + text
    return files


def new(folder):
    """Write the skeleton into a new (or empty) folder: the files written."""
    os.makedirs(folder, exist_ok=True)
    if os.listdir(folder):
        raise NotEmpty("it is not empty (pywar exercise new writes into a new or empty "
                       "folder, and overwrites nothing)")
    written = []
    for name, text in skeleton().items():
        path = os.path.join(folder, name)
        with open(path, "x", encoding="utf-8") as file:
            file.write(text)
        written.append(path)
    return written


# ---- A finding, in words

@dataclass
class Finding:
    """What the check found: the member to look at (None: the whole port), the seed, and
    what happened, in a sentence."""
    member: object
    seed: object
    message: str
    kind: str = "departs"          # departs, unfilled, error, timeout, import, passed

    def __str__(self):
        """As 'Pile.shuffle: after the first shuffle ...'."""
        if self.member is None:
            return self.message
        return f"{self.member}{' ' if self.kind == 'unfilled' else ': '}{self.message}"


def card_name(card_id):
    """A card id (suit * 13 + rank) in words: the king of spades."""
    suit, rank = divmod(card_id, 13)
    return f"the {RANK(rank).name.lower()} of {SUIT(suit).name.lower()}s"


def ordinal(n):
    """1st, 2nd, 3rd, 4th, ..."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def position_from_top(i):
    """The top card, the 2nd card from the top, ..."""
    return "the top card" if i == 0 else f"the {ordinal(i + 1)} card from the top"


def first_difference(expected, got):
    """The first index where two lists differ (or the shorter one's length)."""
    return next((i for i, (a, b) in enumerate(zip(expected, got)) if a != b),
                min(len(expected), len(got)))


def deck_of(deal):
    """The shuffled deck, top first, from a deal event: the cards were dealt from its
    top, A first, each onto the top of a hand."""
    bottoms = [hand[::-1] for hand in deal["hands"]]
    return [card for pair in zip(*bottoms) for card in pair]


def name_of(player):
    """Player A or B (None: nobody)."""
    return "nobody" if player is None else f"player {'AB'[player]}"


def event_words(event, should=False):
    """What an event is, in words: what yours did, or (should) what was expected."""
    kind = event["event"]
    who = name_of(event.get("player"))
    phrases = {
        "deal": ("the deal", "give", "gives", f"each player {len(event.get('hands', [[]])[0])} cards"),
        "round": (f"round {event['round']}", "begin", "begins", ""),
        "face_up": (who, "play", "plays", card_name(event["card"]) if "card" in event else ""),
        "pickup": (who, "pick up", "picks up", f"{len(event.get('cards', []))} cards"),
        "refill": (f"{who}'s 'played' pile", "refill", "refills", "their 'to play' pile"),
        "run_out": (who, "run out of cards", "runs out of cards", ""),
        "end": ("the game", "end", "ends", f"({event.get('outcome')}): "
                f"{name_of(event.get('winner'))} wins"),
    }
    if kind == "battle":
        if event["winner"] is None:
            return "it should be a tie" if should else "it is a tie"
        subject, base, does, rest = name_of(event["winner"]), "win", "wins", "the battle"
    else:
        subject, base, does, rest = phrases.get(kind, (kind, "happen", "happens", ""))
    verb = f"should {base}" if should else does
    return " ".join(word for word in (subject, verb, rest) if word)


def sizes_words(event):
    """The piles' sizes after an event, in words."""
    piles = "; ".join(f"{name_of(p)} {to_play} to play and {played} played"
                      for p, (to_play, played) in enumerate(event["piles"]))
    return f"{piles}; {event['pot']} in the 'currently in play' pile"


def same_kind_words(expected, got):
    """What differs between two events of the same kind, in a student's words."""
    kind = expected["event"]
    if kind == "deal":
        wanted, yours = deck_of(expected), deck_of(got)
        if wanted != yours and len(wanted) == len(yours) == MAX_CARDS:
            i = first_difference(wanted, yours)
            return (f"after the first shuffle {position_from_top(i)} should be "
                    f"{card_name(wanted[i])}; yours is {card_name(yours[i])}")
    if kind == "refill" and expected["cards"] != got["cards"]:
        wanted, yours = expected["cards"], got["cards"]
        i = first_difference(wanted, yours)
        if i < len(wanted) and i < len(yours):
            return (f"after {name_of(expected['player'])}'s refill and shuffle "
                    f"{position_from_top(i)} should be {card_name(wanted[i])}; yours is "
                    f"{card_name(yours[i])}")
    if kind == "pickup" and expected["cards"] != got["cards"]:
        wanted, yours = expected["cards"], got["cards"]
        if len(wanted) != len(yours):
            return (f"{name_of(expected['player'])} should pick up {len(wanted)} cards; "
                    f"yours picks up {len(yours)}")
        i = first_difference(wanted, yours)
        return (f"{name_of(expected['player'])} should pick up {card_name(wanted[i])} "
                f"as the {ordinal(i + 1)} card taken from the top of the 'currently in play' "
                f"pile; yours takes {card_name(yours[i])}")
    if {k: v for k, v in expected.items() if k not in ("piles", "pot")} == \
            {k: v for k, v in got.items() if k not in ("piles", "pot")}:
        return (f"after this ({event_words(expected)}), the piles should hold: "
                f"{sizes_words(expected)}; yours hold: {sizes_words(got)}")
    if kind == "face_up" and expected["player"] == got["player"]:
        return f"{event_words(expected, True)}; yours plays {card_name(got['card'])}"
    return f"{event_words(expected, True)}; in yours {event_words(got)}"


def where(event):
    """Where in the game an event is: at the deal, in round 12."""
    return "at the deal" if event["event"] == "deal" else f"in round {event['round']}"


# ---- Playing the student's port against the reference (in the child process)

class Departed(BaseException):
    """A game that has left the reference's: its words, and how many events came before
    (a BaseException, so that a student's 'except Exception' cannot swallow it)."""

    def __init__(self, words, clock):
        super().__init__(words)
        self.words = words
        self.clock = clock


class Streams:
    """The trace and the transcript of one game, checked against the reference's as they
    are written: the first difference raises Departed."""

    def __init__(self, seed, trace, transcript):
        """The reference's trace lines (no header) and transcript of a seed."""
        self.seed = seed
        self.expected = [json.loads(line) for line in trace.splitlines()]
        self.transcript = transcript
        self.events = 0
        self.printed = 0
        self.trace = Side(self.event)
        self.text = Side(self.line)
        self.departed = None             # once departed, always: a swallowed one comes back

    def depart(self, words):
        """Raise (and remember) the game's departure."""
        self.departed = Departed(words, self.events)
        raise self.departed

    def event(self, line):
        """One line of the student's trace."""
        if self.departed:
            raise self.departed
        got = json.loads(line)
        if self.events >= len(self.expected):
            self.depart(f"the game should be over ({event_words(self.expected[-1])}); "
                        f"yours goes on: {event_words(got)} (seed {self.seed})")
        wanted = self.expected[self.events]
        if got != wanted:
            words = (same_kind_words(wanted, got) if got["event"] == wanted["event"]
                     else f"{event_words(wanted, True)}; in yours {event_words(got)}")
            self.depart(f"{words} (seed {self.seed}, {where(wanted)})")
        self.events += 1

    def line(self, piece):
        """Some text the student's port printed."""
        if self.departed:
            raise self.departed
        end = self.printed + len(piece)
        if self.transcript[self.printed:end] != piece:
            at = self.printed + first_difference(self.transcript[self.printed:end], piece)
            start = self.transcript.rfind("\n", 0, at) + 1
            number = self.transcript.count("\n", 0, at) + 1
            wanted = self.transcript[start:].split("\n", 1)[0]
            yours = (self.transcript[:self.printed] + piece)[start:].split("\n", 1)[0]
            round_ = self.transcript.count("======== Round", 0, at)
            place = "in the opening" if round_ == 0 else f"in round {round_}"
            self.depart(f"line {number} of the transcript should be {quoted(wanted)}; "
                        f"yours is {quoted(yours)} (seed {self.seed}, {place})")
        self.printed = end

    def finish(self):
        """The game is over: both streams must be whole."""
        if self.departed:
            raise self.departed
        if self.events < len(self.expected):
            raise Departed(f"{event_words(self.expected[self.events], True)}; yours "
                           f"has ended the game (seed {self.seed}, "
                           f"{where(self.expected[self.events])})", self.events)
        if self.printed < len(self.transcript):
            missing = self.transcript[self.printed:].split("\n", 1)[0]
            raise Departed(f"the transcript should go on with {missing!r}; yours has ended "
                           f"(seed {self.seed})", self.events)


def quoted(line):
    """A line of the transcript, quoted, or 'an empty line'."""
    return repr(line) if line else "an empty line"


def now(streams):
    """Where a game stands after the events so far: before the deal, in round 12."""
    if streams.events == 0:
        return "before the deal"
    return where(streams.expected[min(streams.events, len(streams.expected) - 1)])


class Side:
    """A text stream (anything with .append) that hands each piece to a check."""

    def __init__(self, check):
        self.append = check


class Overtime(BaseException):
    """A game of the student's that ran past its time."""


def overtime(signum, frame):
    """The SIGALRM handler."""
    raise Overtime


def load_student(folder):
    """The student's port as a package (student_port), from its folder."""
    for name in [name for name in sys.modules if name.split(".")[0] == "student_port"]:
        del sys.modules[name]                   # a port loaded before, in this process
    spec = util.spec_from_file_location("student_port", os.path.join(folder, "__init__.py"),
                                        submodule_search_locations=[folder])
    module = util.module_from_spec(spec)
    sys.modules["student_port"] = module
    spec.loader.exec_module(module)
    return module


LINE_MAPS = {}      # a composed do_battle's file name: (its first student line, the file's)


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


def play_checked(play, seed, stack, streams, folder, seconds=GAME_SECONDS):
    """Play one game into the checked streams: None if it is the reference's, else a
    (clock, kind, words) saying how it departs."""
    signal.signal(signal.SIGALRM, overtime)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        play(seed, stack, streams.text, streams.trace)
        streams.finish()
        return None
    except Departed as departed:
        return departed.clock, "departs", departed.words
    except Overtime:
        return (streams.events, "timeout", f"seed {seed} did not finish within "
                f"{seconds:g} s ({now(streams)}): a loop that never ends?")
    except NotImplementedError as error:
        if str(error).startswith(TODO):
            return streams.events, "unfilled", str(error)[len(TODO):]
        return streams.events, "error", f"raised NotImplementedError: {error}"
    except Exception as error:                   # the student's code, whatever it raises
        at = innermost_student_frame(error, folder)
        return (streams.events, "error", f"raised {type(error).__name__}: {error}{at} "
                f"(seed {seed}, {now(streams)})")
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)


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


def do_battle_with(name, student_piece):
    """The port's do_battle with one piece, the student's (its first line's number in
    tabletop.py, its lines), in place of its own."""
    student_first, student_lines = student_piece
    text = port_source("tabletop.py")
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
    """For each member the student writes: (its name, a context manager that puts the
    student's in the port's place)."""
    for file_name, class_name, name in MEMBERS:
        module = getattr(student, file_name[:-3])
        ours = getattr({"pile.py": port_pile}[file_name], class_name)
        yield f"{class_name}.{name}", ours, name, getattr(getattr(module, class_name), name)
    pieces = student_pieces(folder)
    for name, _, _ in PIECES:
        yield piece_label(name), tabletop.TableTop, "do_battle", do_battle_with(name, pieces[name])


def reference_games(seeds, stack):
    """The reference's trace and transcript of each seed."""
    from ..port import play
    games = {}
    for seed in seeds:
        _, transcript, trace = play(seed, stack, transcript=True, trace=True)
        games[seed] = (trace, transcript)
    return games


def check_here(folder, stack="pile", seeds=SEEDS, game_seconds=GAME_SECONDS):
    """The check, in this process (the child): a list of Findings, the first the one to
    say; a Finding of kind passed when the student's port plays every seed exactly."""
    folder = os.path.abspath(folder)
    try:
        student = load_student(folder)
    except Exception as error:
        at = innermost_student_frame(error, folder)
        if isinstance(error, SyntaxError):
            at = f" at {os.path.basename(error.filename or '?')} line {error.lineno}"
            error = error.msg
        return [Finding(None, None, f"your port cannot be loaded: {type(error).__name__}"
                        f": {error}{at}" if not isinstance(error, str) else
                        f"your port cannot be loaded: a SyntaxError, {error}{at}", "import")]
    games = reference_games(seeds, stack)
    whole = {}
    for seed in seeds:
        found = play_checked(student.program4.main, seed, stack, Streams(seed, *games[seed]),
                             folder, game_seconds)
        if found is not None:
            whole = {"seed": seed, "found": found}
            break
    if not whole:
        return [Finding(None, None, f"your port plays seeds {', '.join(map(str, seeds))} "
                        "exactly as the reference does, event for event and line for line",
                        "passed")]
    findings = []
    try:
        members = list(substitutions(student, folder))
    except (ExerciseDrift, SyntaxError) as error:
        return [Finding("TableTop.do_battle", None, str(error), "error")]
    suspects = seeds[:seeds.index(whole["seed"]) + 1]     # the whole port passed the others
    for label, owner, attribute, theirs in members:
        own = owner.__dict__[attribute]
        setattr(owner, attribute, theirs)
        try:
            for order, seed in enumerate(suspects):
                found = play_checked(program4.main, seed, stack, Streams(seed, *games[seed]),
                                     folder, game_seconds)
                if found is not None:
                    findings.append(((order, found[0]), label, seed, found[1], found[2]))
                    break
        finally:
            setattr(owner, attribute, own)
    if not findings:
        clock, kind, words = whole["found"]
        return [Finding(None, whole["seed"], f"your port departs, though no one member does "
                        f"alone (look at what you changed outside the TODOs, or at two members "
                        f"together): {words}", kind)]
    findings.sort(key=lambda found: found[0])
    return [Finding(label, seed, words if kind != "unfilled" else
                    "is not written yet: its body still raises its TODO", kind)
            for _, label, seed, kind, words in findings]


# ---- Running the check in a child process

def limit_child():
    """In the child: limits on memory and on what it may write."""
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))
    resource.setrlimit(resource.RLIMIT_FSIZE, (OUTPUT_LIMIT, OUTPUT_LIMIT))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


def check(folder, stack="pile", seeds=SEEDS, timeout=CHECK_SECONDS, game_seconds=GAME_SECONDS):
    """Check a student's port (a folder made by new and filled in): a list of Findings,
    from a child process with no stdin, in a scratch folder, with limits."""
    folder = os.path.abspath(folder)
    with tempfile.TemporaryDirectory(prefix="pywar-exercise-") as scratch:
        result = os.path.join(scratch, "result.json")
        argv = [sys.executable, "-m", "pywar.check.exercise", folder, stack, result,
                str(game_seconds), *map(str, seeds)]
        env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
        with open(os.path.join(scratch, "stderr"), "w+b") as err:
            try:
                process = subprocess.run(argv, cwd=scratch, stdin=subprocess.DEVNULL,
                                         stdout=subprocess.DEVNULL, stderr=err,
                                         timeout=timeout, preexec_fn=limit_child, env=env,
                                         start_new_session=True)
            except subprocess.TimeoutExpired:
                return [Finding(None, None, f"the check did not finish within {timeout:g} s",
                                "timeout")]
            err.seek(0)
            said = err.read().decode("utf-8", "replace").strip().splitlines()
        if process.returncode != 0 or not os.path.exists(result):
            how = (f"killed by {signal.Signals(-process.returncode).name}"
                   if process.returncode < 0 else f"exit status {process.returncode}")
            if process.returncode == -signal.SIGXFSZ:
                how = f"it wrote more than {OUTPUT_LIMIT // 2 ** 20} MiB"
            last = f": {said[-1]}" if said else ""
            return [Finding(None, None, f"your port stopped the check ({how}){last}", "error")]
        with open(result, encoding="utf-8") as file:
            return [Finding(**found) for found in json.load(file)]


def child(argv):
    """The child's main: check_here, its findings written as JSON to a file."""
    folder, stack, result, seconds, *seeds = argv
    sys.stdout = sys.stderr                      # a student's print() goes nowhere harmful
    findings = check_here(folder, stack, [int(seed) for seed in seeds], float(seconds))
    with open(result, "w", encoding="utf-8") as file:
        json.dump([asdict(found) for found in findings], file)


if __name__ == "__main__":
    child(sys.argv[1:])
