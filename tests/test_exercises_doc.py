"""docs/exercises.md holds the exercises and no answers; docs/exercises-answers.md holds an
answer to each, and runs as it is shown."""

import doctest
import re

from conftest import ROOT

DOCS = ROOT / "docs"


def numbers(text, word):
    """The numbers of the '## Word N' headings of a text, in order."""
    return [int(n) for n in re.findall(rf"^## {word} (\d+)\b", text, re.M)]


def test_there_are_at_least_eight_exercises_each_with_its_answer_elsewhere():
    exercises = (DOCS / "exercises.md").read_text()
    answers = (DOCS / "exercises-answers.md").read_text()
    asked = numbers(exercises, "Exercise")
    assert len(asked) >= 8 and asked == list(range(1, len(asked) + 1))
    assert numbers(answers, "Answer") == asked
    assert ">>>" not in exercises                    # nothing worked out under a question
    titles = dict(re.findall(r"^## Exercise (\d+): (.*)$", exercises, re.M))
    for n, title in titles.items():
        assert re.search(rf"^## Answer {n}: {re.escape(title)}$", answers, re.M), title
    for topic in ("read the piles", "tie streak", "referee", "stack ADT", "Brent",
                  "exact counts"):
        assert topic in " ".join(titles.values()), topic


def test_the_answers_run():
    failures, tried = doctest.testfile(str(DOCS / "exercises-answers.md"),
                                       module_relative=False)
    assert tried >= 60 and failures == 0


def test_every_answer_is_worked_out_in_code():
    answers = (DOCS / "exercises-answers.md").read_text()
    sections = re.split(r"^## Answer \d+", answers, flags=re.M)[1:]
    assert all(">>> " in section for section in sections)
