"""The port's shape: the reference's members, each with its C function and its Python
method, where docs/reading-guide.md says they are; the C's size; and clean C.

Run this file to print the reading guide's table with its line numbers worked out:
    python tests/test_port_shape.py
"""

import importlib
import inspect
import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PORT_C = ROOT / "csrc" / "port"
GUIDE = ROOT / "docs" / "reading-guide.md"
MAX_C_LINES = 570       # lines of code, not of comments: 1.5 times the reference's 380

# The members of the reference (Program6Reference/), as its headers declare them, with
# the C function and the Python method that mirror each: (C++ file, member, C file,
# C function, Python module, Python class or None, Python name).
MEMBERS = [
    ("card.cpp", "Card::Card", "card.c", "Card_New", "card", "Card", "__init__"),
    ("card.cpp", "Card::SetSuitAndRank", "card.c", "Card_SetSuitAndRank", "card", "Card",
     "set_suit_and_rank"),
    ("card.cpp", "Card::GetRankString", "card.c", "Card_GetRankString", "card", "Card",
     "get_rank_string"),
    ("card.cpp", "Card::GetRank", "card.c", "Card_GetRank", "card", "Card", "get_rank"),
    ("card.cpp", "Card::GetSuitString", "card.c", "Card_GetSuitString", "card", "Card",
     "get_suit_string"),
    ("card.cpp", "Card::GetSuit", "card.c", "Card_GetSuit", "card", "Card", "get_suit"),
    ("pile.cpp", "Pile::Pile", "pile.c", "Pile_Init", "pile", "Pile", "__init__"),
    ("pile.cpp", "Pile::AddCardToPile", "pile.c", "Pile_AddCardToPile", "pile", "Pile",
     "add_card_to_pile"),
    ("pile.cpp", "Pile::RemoveTopCard", "pile.c", "Pile_RemoveTopCard", "pile", "Pile",
     "remove_top_card"),
    ("pile.cpp", "Pile::GetNumCards", "pile.c", "Pile_GetNumCards", "pile", "Pile",
     "get_num_cards"),
    ("pile.cpp", "Pile::Shuffle", "pile.c", "Pile_Shuffle", "pile", "Pile", "shuffle"),
    ("pile.cpp", "Pile::PrintCards", "pile.c", "Pile_PrintCards", "pile", "Pile",
     "print_cards"),
    ("player.cpp", "Player::Player", "player.c", "Player_Init", "player", "Player",
     "__init__"),
    ("player.cpp", "Player::~Player", "player.c", "Player_Destroy", "player", "Player",
     "destroy"),
    ("player.cpp", "Player::GetToPlayPile", "player.c", "Player_GetToPlayPile", "player",
     "Player", "get_to_play_pile"),
    ("player.cpp", "Player::GetPlayedPile", "player.c", "Player_GetPlayedPile", "player",
     "Player", "get_played_pile"),
    ("tabletop.cpp", "TableTop::TableTop", "tabletop.c", "TableTop_Init", "tabletop",
     "TableTop", "__init__"),
    ("tabletop.cpp", "TableTop::~TableTop", "tabletop.c", "TableTop_Destroy", "tabletop",
     "TableTop", "destroy"),
    ("tabletop.cpp", "TableTop::DoBattle", "tabletop.c", "TableTop_DoBattle", "tabletop",
     "TableTop", "do_battle"),
    ("program4.cpp", "main", "program4.c", "pywar_port_play", "program4", None, "main"),
]


def c_definition_line(c_file, function):
    """The line number (from 1) where a function's definition starts in a port C file."""
    lines = (PORT_C / c_file).read_text().splitlines()
    pattern = re.compile(rf"^\w[\w\s\*]*\b{function}\(")
    found = [number for number, line in enumerate(lines, 1)
             if pattern.match(line) and not line.rstrip().endswith(";")]
    assert len(found) == 1, (c_file, function, found)
    return found[0]


def python_object(module, owner, name):
    """The Python method (or function) that mirrors a member."""
    namespace = importlib.import_module(f"pywar.port.{module}")
    if owner is not None:
        namespace = getattr(namespace, owner)
    return getattr(namespace, name)


def guide_rows():
    """The reading guide's table, one markdown row per member, line numbers worked out."""
    rows = []
    for cpp, member, c_file, function, module, owner, name in MEMBERS:
        c_line = c_definition_line(c_file, function)
        python_line = inspect.getsourcelines(python_object(module, owner, name))[1]
        method = name if owner is None else f"{owner}.{name}"
        rows.append(f"| {cpp} | `{member}` | `{function}` | csrc/port/{c_file}:{c_line} "
                    f"| `{method}` | pywar/port/{module}.py:{python_line} |")
    return rows


def guide_table():
    """The rows of docs/reading-guide.md's table of members, as they are written there."""
    text = GUIDE.read_text() if GUIDE.exists() else ""
    return re.findall(r"^\| \w+\.cpp \| `.*\|$", text, re.M)


def parse(row):
    """(member, C function, C file, C line, Python name, Python file, Python line)."""
    cells = [cell.strip().strip("`") for cell in row.strip("|").split("|")]
    _, member, function, c_place, method, python_place = cells
    c_file, c_line = c_place.split(":")
    python_file, python_line = python_place.split(":")
    return member, function, c_file, int(c_line), method, python_file, int(python_line)


def code_lines(text):
    """The lines of C that hold code: not blank, and not comment alone."""
    without = re.sub(r"/\*.*?\*/", lambda comment: "\n" * comment.group(0).count("\n"), text,
                     flags=re.S)
    return [line for line in without.splitlines() if line.strip()]


def test_the_port_c_is_at_most_570_lines():
    files = sorted(PORT_C.glob("*.[ch]"))
    lines = sum(len(code_lines(path.read_text())) for path in files)
    assert {path.name for path in files} >= {"card.c", "card.h", "pile.c", "pile.h",
                                            "player.c", "player.h", "tabletop.c",
                                            "tabletop.h", "program4.c", "stack.c", "stack.h"}
    assert lines <= MAX_C_LINES


def test_the_guide_lists_every_member_of_the_reference():
    listed = [parse(row)[0] for row in guide_table()]
    assert listed == [member for _, member, *_ in MEMBERS]


@pytest.mark.parametrize("row", guide_table(), ids=lambda row: parse(row)[0])
def test_each_member_has_its_c_function_and_python_method(row):
    member, function, c_file, c_line, method, python_file, python_line = parse(row)
    c_lines = (ROOT / c_file).read_text().splitlines()
    assert re.match(rf"^\w[\w\s\*]*\b{function}\(", c_lines[c_line - 1]), (member, c_line)
    assert not c_lines[c_line - 1].rstrip().endswith(";")
    comment = " ".join(c_lines[max(0, c_line - 4):c_line - 1])       # the lines above
    assert re.search(rf"/\*.*{re.escape(member)}\b", comment), (member, comment)
    module = importlib.import_module(python_file.removesuffix(".py").replace("/", "."))
    owner, _, name = method.rpartition(".")
    python = getattr(getattr(module, owner), name) if owner else getattr(module, name)
    python_lines = (ROOT / python_file).read_text().splitlines()
    assert python_lines[python_line - 1].strip().startswith(f"def {name}("), (member, python_line)
    assert member in python.__doc__ and f"C: {function}" in python.__doc__, python.__doc__


def test_every_python_method_of_the_port_names_its_c_function():
    c_text = "\n".join(path.read_text() for path in sorted(PORT_C.glob("*.c")))
    for module_name in ("card", "pile", "player", "tabletop", "program4"):
        module = importlib.import_module(f"pywar.port.{module_name}")
        functions = [value for value in vars(module).values() if inspect.isfunction(value)]
        for owner in (value for value in vars(module).values() if inspect.isclass(value)):
            functions += [value for key, value in vars(owner).items()
                          if inspect.isfunction(value) and not key.startswith("__r")
                          and key != "__str__"]
        for function in functions:
            if function.__module__ != module.__name__:
                continue
            named = re.search(r"C: (\w+)", function.__doc__ or "")
            assert named, function.__qualname__
            assert re.search(rf"\b{named[1]}\b", c_text) or named[1] == "Text_Printf", named[1]


def test_the_python_port_is_about_as_long_as_the_c():
    python = sum(len(path.read_text().splitlines())
                 for path in (ROOT / "pywar" / "port").glob("*.py"))
    c = sum(len(path.read_text().splitlines()) for path in PORT_C.glob("*.[ch]"))
    assert 0.6 * c <= python <= 1.2 * c


@pytest.mark.skipif(shutil.which("cc") is None, reason="needs a C compiler")
def test_the_port_c_compiles_without_a_warning():
    for path in sorted(PORT_C.glob("*.[ch]")):
        run = subprocess.run(["cc", "-std=c11", "-Wall", "-Wextra", "-Wshadow", "-fsyntax-only",
                              "-Icsrc", "-Icsrc/common", str(path.relative_to(ROOT))],
                             cwd=ROOT, capture_output=True, text=True)
        assert run.returncode == 0 and run.stderr == "", run.stderr


if __name__ == "__main__":
    print("| C++ file | member | C function | where | Python | where |")
    print("|---|---|---|---|---|---|")
    print("\n".join(guide_rows()))
