"""The port as an exercise, its skeleton: pywar exercise new DIR.

    >>> files = skeleton()
    >>> sorted(files)
    ['README.md', '__init__.py', '__main__.py', 'card.py', 'pile.py', 'player.py', 'program4.py', 'tabletop.py']
    >>> 'raise NotImplementedError("TODO: Pile.shuffle")' in files["pile.py"]
    True

The skeleton is made from the port's own source (pywar/port/) each time: the bodies of
the members in MEMBERS, and the pieces of TableTop.do_battle in PIECES, are cut out and
replaced by a TODO that says what the member prints and tells the observer; the rest is
the port, as it is.  A piece is found in the port by the first line of its first
statement and its number of statements, so a change to the port that moves a piece is
an ExerciseDrift error (tests/test_exercise.py), not a skeleton that silently differs.
"""

import ast
import os
import re
import textwrap
from contextlib import suppress

from .portplay import (MEMBERS, TODO, ExerciseDrift, find_function,  # noqa: F401 (drift)
                       piece_label, piece_statements)
from ...port import program4

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
PORT_FOLDER = os.path.dirname(os.path.abspath(program4.__file__))


class NotEmpty(Exception):
    """A folder for the skeleton that already holds something."""


# ---- The skeleton

def port_source(name):
    """The text of a file of the port (pywar/port/)."""
    with open(os.path.join(PORT_FOLDER, name), encoding="utf-8") as file:
        return file.read()


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
the event and what was expected; below that, which of your members wrote the first
difference, the last line of your files a crash ran, and the first lines your port
printed itself (a `print` is not the transcript: the check does not compare it).  Play
your own port, a game printed as it goes:

    python DIR 1553                       # your game of seed 1553 (pywar play --seed 1553
                                          # prints the reference's, to compare)

docs/exercises.md has more to try.
"""


MAIN = '''"""Play your port: python DIR [SEED] [--stack adt] prints its game as it goes, as
`pywar play --seed SEED` prints the reference's (made by pywar exercise new).  A member
not written yet stops it with its TODO, and any error shows its traceback in your code."""

import argparse
import importlib.util
import os
import sys

FOLDER = os.path.dirname(os.path.abspath(__file__))


def load():
    """This folder, imported as the package 'port' (my-port is no module name)."""
    spec = importlib.util.spec_from_file_location(
        "port", os.path.join(FOLDER, "__init__.py"), submodule_search_locations=[FOLDER])
    port = importlib.util.module_from_spec(spec)
    sys.modules["port"] = port
    spec.loader.exec_module(port)
    return port


def main():
    """Parse the command line and play one game of your port to stdout."""
    parser = argparse.ArgumentParser(prog=f"python {os.path.basename(FOLDER)}",
                                     description=__doc__.split("\\n\\n")[0])
    parser.add_argument("seed", type=int, nargs="?", default=1553,
                        help="the seed of the game (default: 1553, which has ties)")
    parser.add_argument("--stack", choices=("pile", "adt"), default="pile",
                        help="Program 4's Pile (an array, the default) or Program 6's ADT")
    args = parser.parse_args()
    load().play(args.seed, args.stack, transcript=sys.stdout)


if __name__ == "__main__":
    main()
'''


def marked_pieces(text):
    """The cuts that keep do_battle's pieces in tabletop.py as they are, each between the
    skeleton's two comment lines (by which the check finds a piece)."""
    lines = text.splitlines()
    function = find_function(ast.parse(text), "TableTop", "do_battle")
    cuts = []
    for number, (name, (first, last)) in enumerate(piece_statements(function, lines).items(), 1):
        pad = " " * (len(lines[first - 1]) - len(lines[first - 1].lstrip()))
        cuts.append((first, last, [f"{pad}# ---- {piece_label(name)}: TODO ----",
                                   *lines[first - 1:last],
                                   f"{pad}# ---- end of piece {number} ----"]))
    return cuts


FILLED_HEADER = ("# The port's {name} (pywar/port/{name}) with its own bodies, as pywar page "
                 "shows it:\n# change a member, then check it (keep do_battle's comment "
                 "lines: the check finds a piece by them)\n")


def skeleton(filled=False):
    """The skeleton's files: {file name: text}; filled: the same files with the port's
    own bodies in place of the TODOs (the page's exercise starts from either)."""
    files = {"README.md": README, "__main__.py": MAIN}
    for name in FILES:
        text = port_source(name)
        if filled:
            cuts = marked_pieces(text) if name == "tabletop.py" else []
        else:
            cuts = member_cuts(text, name) + (piece_cuts(text) if name == "tabletop.py" else [])
        text = cut(text, cuts) if cuts else text
        text = re.sub(r"^from \.\.(\w)", r"from pywar.\1", text, flags=re.M)   # pywar's own
        files[name] = (FILLED_HEADER if filled else HEADER).format(name=name) + text
    return files


def new(folder):
    """Write the skeleton into a new (or empty) folder: the files written.  A failure or
    a Ctrl-C removes the files written (and the folder, if made): the folder as it was."""
    made = not os.path.lexists(folder)
    os.makedirs(folder, exist_ok=True)
    if os.listdir(folder):
        raise NotEmpty("it is not empty (pywar exercise new writes into a new or empty "
                       "folder, and overwrites nothing)")
    written = []
    try:
        for name, text in skeleton().items():
            path = os.path.join(folder, name)
            with open(path, "x", encoding="utf-8") as file:
                written.append(path)
                file.write(text)
    except BaseException:
        for path in written:
            with suppress(OSError):
                os.remove(path)
        if made:
            with suppress(OSError):
                os.rmdir(folder)
        raise
    return written
