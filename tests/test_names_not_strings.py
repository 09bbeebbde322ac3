"""The referee and the grader ask an item, a line's kind and a Policy by the names the
tables give (RUBRIC.ties, KIND.plays, policy.follows(ROW.ace_low)), never by a string
that a misspelling would leave quietly false (issue 44)."""

import ast

from conftest import ROOT
from pywar.check.referee.lines import KIND, KINDS
from pywar.check.referee.mistakes import ROW, Policy
from pywar.check.referee.rubric import NAMES, RUBRIC

TABLES = {"rubric.py", "mistakes.py", "lines.py", "tables.py"}   # where the names are made
ASKED = {"miss", "note", "test", "charge"}                          # calls charged to an item
KEYED = {"tested", "findings", "tallies", "items"}                  # dicts keyed by an item
POLICY = {name for name in Policy.__dataclass_fields__}


def asked_by_string(path):
    """(line, what) of each place a file asks an item or a kind by a string, or a
    Policy's field by a phrase."""
    names = set(NAMES) | set(KINDS)
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            sides += [e for side in sides if isinstance(side, (ast.Tuple, ast.Set, ast.List))
                      for e in side.elts]
            strings = [s.value for s in sides if isinstance(s, ast.Constant)
                       and isinstance(s.value, str)]
            fields = [s.attr for s in sides if isinstance(s, ast.Attribute)
                      and isinstance(s.value, ast.Name) and s.value.id == "policy"]
            found += [(node.lineno, value) for value in strings if value in names]
            found += [(node.lineno, f"policy.{field}") for field in fields if field in POLICY
                      and strings]
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
                node.func.attr in ASKED and node.args and \
                isinstance(node.args[0], ast.Constant) and node.args[0].value in names:
            found.append((node.lineno, node.args[0].value))
        elif isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant) and \
                node.slice.value in names and (
                    isinstance(node.value, ast.Attribute) and node.value.attr in KEYED or
                    isinstance(node.value, ast.Name) and node.value.id in KEYED):
            found.append((node.lineno, node.slice.value))
    return found


def test_the_referee_and_the_grader_ask_by_name():
    places = [path for folder in ("referee", "grading")
              for path in sorted((ROOT / "pywar" / "check" / folder).glob("*.py"))
              if path.name not in TABLES]
    found = [f"{path.relative_to(ROOT)}:{line} {what!r}" for path in places
             for line, what in asked_by_string(path)]
    assert len(places) > 20 and found == []


def test_the_finder_finds_each_kind_of_string_planted(tmp_path):
    planted = tmp_path / "planted.py"
    planted.write_text('if e.kind == "plays" and policy.ace == "low":\n'
                       '    out.miss("ties", e)\n    out.tested["ranks"] += 1\n'
                       'x = e.kind in ("wins", "tie")\n')
    assert sorted(asked_by_string(planted)) == [
        (1, "plays"), (1, "policy.ace"), (2, "ties"), (3, "ranks"), (4, "tie"), (4, "wins")]


def test_the_names_are_the_strings_they_stand_for():
    """No value changed: a name by attribute is the string it replaced, and a Policy
    follows a row exactly where its fields hold the row's effects."""
    assert RUBRIC.ties == "ties" and KIND.plays == "plays"
    assert [getattr(RUBRIC, name) for name in NAMES] == list(NAMES)
    assert Policy.of(["ace_low"]).follows(ROW.ace_low) and not Policy().follows(ROW.ace_low)
    both = Policy.of(["pot_to_play"])
    assert both.follows(ROW.war_pot_to_play) and not Policy.of(["war_pot_to_play"]).follows(
        ROW.pot_to_play)
