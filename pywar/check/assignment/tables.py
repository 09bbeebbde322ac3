"""docs/grading.md's table of an assignment file's fields, made from FIELDS
(pywar.check.assignment.file): tests/test_assignment.py fails when the page's table
differs, and `python -m pywar.check.assignment.tables docs/grading.md` writes it in
again, with the table of the line kinds and SMU's templates.  A table sits between
`<!-- assignment NAME -->` and `<!-- end -->`."""

import re
import sys

from ..referee.tables import rewrite
from .file import FIELDS, LINES, ONE_CARD_LINES, builtin

BLOCK = re.compile(r"(<!-- assignment (\w+) -->\n)(.*?)\n?<!-- end -->", re.S)


def fields_table():
    """Every field of an assignment file, a row each."""
    rows = ["| field | kind | must be given | what it holds |", "|---|---|---|---|"]
    rows += [f"| `{field.path}`{'' if '.' in field.path else ' (at the top)'} | {field.kind} | "
             f"{'yes' if field.required else 'no'} | {field.meaning} |" for field in FIELDS]
    return "\n".join(rows)


def lines_table(name="smu", kinds=LINES, owner="SMU's"):
    """Each line kind of a game: the fields it may name, and a built-in file's template
    (a list kind's lines joined by ' / ', a blank one shown as such)."""
    rows = [f"| line | it may name | {owner} template |", "|---|---|---|"]
    for kind, template in builtin(name).wording.lines:
        shown = " / ".join(f"`{part}`" if part else "a blank line" for part in template) \
            if isinstance(template, tuple) else f"`{template}`"
        may = ", ".join(f"`{{{name}}}`" for name in kinds[kind][0]) or "nothing"
        rows.append(f"| `wording.lines.{kind}` | {may} | {shown} |")
    return "\n".join(rows)


TABLES = {"fields": fields_table, "lines": lines_table,
          "one_card_lines": lambda: lines_table("cecs325", ONE_CARD_LINES, "CECS 325's")}


def tables_in(page):
    """{name: the table the page holds} of each marked table of a page."""
    return {match.group(2): match.group(3) for match in BLOCK.finditer(page)}


def written(page):
    """The page with each marked table made from FIELDS and SMU's file."""
    return BLOCK.sub(lambda match: match.group(1) + TABLES[match.group(2)]() +
                     "\n<!-- end -->", page)


if __name__ == "__main__":
    rewrite(sys.argv[1:], written)
