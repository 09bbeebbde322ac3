"""Make the disguised copies of class/original for tests/test_similar.py, as a student who
copied would: renamed/ has every name of its own changed, its comments gone and its layout
changed; reordered/ has its functions in another order.  The handout's files are copied as
they are.  Run from anywhere: python tests/data/similar/make_copies.py"""

import re
import shutil
from pathlib import Path

HERE = Path(__file__).parent
HANDOUT = ("pile.h", "pile.cpp")
NEW_NAMES = {                   # the original's own names (the handout's are kept)
    "shuffle": "mixUp", "printPile": "showHand", "cardValue": "worth", "refill": "reload",
    "printCounts": "tellSizes", "battle": "fight", "held": "tmp", "total": "n",
    "swapped": "t", "player": "who", "pile": "stack", "toPlay": "hand", "played": "taken",
    "cardA": "first", "cardB": "second", "pot": "middle", "aWins": "leftWins",
    "winner": "gets", "wonA": "gainA", "wonB": "gainB", "playA": "handA", "playB": "handB",
    "deck": "all", "face": "s", "kind": "r", "round": "turn", "over": "finished",
    "tie": "again", "card": "c", "i": "k", "j": "m",
}
LITERAL = re.compile(r'"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'|//[^\n]*|/\*.*?\*/', re.S)
NAME = re.compile(r"\b[A-Za-z_]\w*\b")


def renamed(text):
    """Every name of NEW_NAMES changed outside strings, comments and blank lines gone,
    tabs for spaces."""
    out, at = [], 0
    for literal in LITERAL.finditer(text):      # strings, chars and comments, in order
        code = text[at:literal.start()]
        out.append(NAME.sub(lambda name: NEW_NAMES.get(name.group(), name.group()), code))
        out.append("" if literal.group()[0] == "/" else literal.group())
        at = literal.end()
    out.append(NAME.sub(lambda name: NEW_NAMES.get(name.group(), name.group()), text[at:]))
    lines = [re.sub(r"^( {4})+", lambda m: "\t" * (len(m.group()) // 4), line.rstrip())
             for line in "".join(out).split("\n")]
    return "\n".join(line for line in lines if line.strip()) + "\n"


def reordered(text):
    """The function definitions (a line at the margin opening with a name, to the '}' at
    the margin that closes it) in the reverse order, all else where it was."""
    parts = re.split(r"(?m)^(?=(?://[^\n]*\n)*[A-Za-z][^;\n]*\)\s*\{\n)", text)
    head, functions = parts[0], parts[1:]
    return head + "".join(reversed([f.rstrip("\n") + "\n\n" for f in functions])).rstrip("\n") + "\n"


def write(folder, name, text):
    """A copy's folder with the handout and one file of the game."""
    target = HERE / "class" / folder
    target.mkdir(exist_ok=True)
    for handout in HANDOUT:
        shutil.copyfile(HERE / "handout" / handout, target / handout)
    (target / name).write_text(text)


def main():
    """Write both copies."""
    original = (HERE / "class" / "original" / "war.cpp").read_text()
    write("renamed", "game_of_war.cpp", renamed(original))
    write("reordered", "war.cpp", reordered(original))


if __name__ == "__main__":
    main()
