"""docs/grading.md's table of an assignment file's fields, made from FIELDS
(pywar.check.assignment.file): tests/test_assignment.py fails when the page's table
differs, and `python -m pywar.check.assignment.tables docs/grading.md` writes it in
again.  The table sits between `<!-- assignment fields -->` and `<!-- end -->`."""

import re
import sys

from .file import FIELDS

BLOCK = re.compile(r"(<!-- assignment fields -->\n)(.*?)\n?<!-- end -->", re.S)


def fields_table():
    """Every field of an assignment file, a row each."""
    rows = ["| field | kind | must be given | what it holds |", "|---|---|---|---|"]
    rows += [f"| `{field.path}` | {field.kind} | {'yes' if field.required else 'no'} | "
             f"{field.meaning} |" for field in FIELDS]
    return "\n".join(rows)


def table_in(page):
    """The fields' table a page holds, or None."""
    match = BLOCK.search(page)
    return match.group(2) if match else None


def written(page):
    """The page with its fields' table made from FIELDS."""
    return BLOCK.sub(lambda match: match.group(1) + fields_table() + "\n<!-- end -->", page)


if __name__ == "__main__":
    for path in sys.argv[1:]:
        with open(path, encoding="utf-8") as file:
            page = file.read()
        with open(path, "w", encoding="utf-8") as file:
            file.write(written(page))
