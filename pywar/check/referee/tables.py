"""docs/grading.md's tables of the rubric and of the mistakes, made from the rows
(pywar.check.referee.rubric, pywar.check.referee.mistakes): tests/test_docs.py fails when
the page's tables differ, and `python -m pywar.check.referee.tables docs/grading.md`
writes them in again.  A table sits between `<!-- table: NAME -->` and `<!-- end -->`."""

import re
import sys

from .mistakes import MISTAKES, SEARCH_ORDER
from .rubric import ITEMS

FOUND_BY = {"rules": "the referee, by the rules plus the fewest deviations",
            "layout": "the format reader, at each kind of departure",
            "deal": "the deal's check", "end": "the end's check",
            "runner": "the runner, by how a run ended", "build": "the build",
            "refill": "the refill's check, by the order of its cards",
            "class": "the grader, across a submission's runs",
            "memcheck": "valgrind", "one-card": "the one-card referee, on a one-card "
            "game's transcript (section 8)", "none": "nobody: what a transcript cannot show"}


def rubric_table():
    """The rubric, an item a row."""
    rows = ["| item | what is checked | put to the test by |", "|---|---|---|"]
    rows += [f"| `{item.name}` | {item.checks} | {item.tested_by} |" for item in ITEMS]
    return "\n".join(rows)


def deviations_table():
    """The deviations the referee plays by, in the order it tries them (SEARCH_ORDER), a
    row that refines another saying so."""
    rows = ["| deviation | the step it changes | item | what the program did |",
            "|---|---|---|---|"]
    rows += [f"| `{m.name}` | {m.step} | `{m.item}` | {m.sentence}"
             f"{f' (a case of `{m.refines}`, tried before it)' if m.refines else ''} |"
             for m in sorted((m for m in MISTAKES if m.found_by == "rules"),
                             key=lambda m: SEARCH_ORDER.index(m.name))]
    return "\n".join(rows)


def mistakes_table():
    """Every other mistake, by who finds it."""
    rows = ["| mistake | found by | item | what the program did |", "|---|---|---|---|"]
    rows += [f"| `{m.name}` | {FOUND_BY[m.found_by]} | "
             f"{'not charged' if m.item is None else f'`{m.item}`'} | {m.sentence} |"
             for m in MISTAKES if m.found_by != "rules"]
    return "\n".join(rows)


TABLES = {"rubric": rubric_table, "deviations": deviations_table, "mistakes": mistakes_table}
BLOCK = re.compile(r"(<!-- table: (\w+) -->\n)(.*?)\n?<!-- end -->", re.S)


def tables_in(text):
    """{name: the table the page holds} of each marked table of a page."""
    return {match.group(2): match.group(3) for match in BLOCK.finditer(text)}


def written(text):
    """The page with each marked table made from the rows."""
    return BLOCK.sub(lambda m: m.group(1) + TABLES[m.group(2)]() + "\n<!-- end -->", text)


def rewrite(paths, write=written):
    """Write each page's marked tables in again (write: a page's text -> the new text)."""
    for path in paths:
        with open(path, encoding="utf-8") as file:
            page = file.read()
        with open(path, "w", encoding="utf-8") as file:
            file.write(write(page))


if __name__ == "__main__":
    rewrite(sys.argv[1:])
