"""Gradescope's results.json for one submission (`pywar grade --gradescope FILE`, which
`pywar autograder`'s run_autograder writes), by gradescope/autograder_samples
docs/specs.md (docs/grading.md, section 5):

- a test per rubric item, its weight as max_score, status passed or failed, its
  output never empty for a test failed: the first example in words, and, of a build
  that failed, the compiler's error lines; of a run that crashed, what it said on
  stderr (the example's, grade.said_on_stderr: bounded, each character a person cannot
  read spelled as Python spells it);
- the top-level output: the score, the seeds, and the submission's notes (how it was
  built, what was left out), where students see them;
- visibility: the results' (when students see them), each test's where given (builds
  visible now, the rest after the due date), and stdout's (the table);
- execution_time, the grading's seconds; extra_data, the seeds and the files' sha256.

Every output is plain text (output_format "text"): a student's `<script>` or `**` in a
quoted line is shown as it is, never rendered.
"""

import json

from .report import example_text, not_graded, readable_submission
from ..referee.rubric import NAMES, RUBRIC
from ..submission.names import terminal_name

VISIBILITY = ("hidden", "after_due_date", "after_published", "visible")
FORMAT = "text"             # Gradescope shows each output as it is: no HTML, no Markdown


def test_visibility_type(text):
    """--gradescope-test-visibility ITEM=WHEN,...: the visibility of each item named
    (the others take the results')."""
    found = {}
    for part in filter(None, text.split(",")):
        name, _, when = part.partition("=")
        if name not in NAMES:
            raise ValueError(f"--gradescope-test-visibility: unknown item {name!r}: choose "
                             f"{', '.join(NAMES)}")
        if when not in VISIBILITY:
            raise ValueError(f"--gradescope-test-visibility: {name}={when!r}: choose "
                             f"{', '.join(VISIBILITY)}, as in builds=visible")
        found[name] = when
    return found


def printable_lines(text):
    """A text of lines, each printable (terminal_name), the lines kept."""
    return "\n".join(terminal_name(line) for line in text.split("\n"))


def own_words(name, example):
    """What an example quotes of the program's own output beyond the example's words
    (report.example_text, which says a run's stderr): a failed build's error lines."""
    example = example or {}
    if name == RUBRIC.builds and example.get("errors"):
        return "the compiler's errors:\n" + "\n".join(example["errors"])
    return ""


def test_output(name, item, unsaid):
    """A test's output: 'ok', or its first example, how many seeds broke it, the lines
    around it and its own words; never empty for a test failed."""
    if item["ok"]:
        return "ok"
    if unsaid and not item["of"]:
        return f"not checked: {unsaid}"
    text = example_text(name, item["example"]) or "not checked"
    context = (item["example"] or {}).get("context") or []
    if context:
        text += "\n" + "\n".join(f"{number:>5} | {line}" for number, line in context)
    if item["of"] > 1:
        text = f"broken on {item['failed']} of {item['of']} seeds; first: {text}"
    words = own_words(name, item["example"])
    return printable_lines(text + (f"\n{words}" if words else ""))


def results(submission, weights, visibility=None, stdout_visibility=None, tests=None,
            seconds=None):
    """Gradescope's results.json for one submission, as text: a test per item (tests:
    {item: visibility} of those given one), the score, the notes; its visibility and
    stdout_visibility where given (VISIBILITY); seconds, the grading's, as
    execution_time."""
    submission = readable_submission(submission)
    unsaid = not_graded(submission)
    found = []
    for name in NAMES:
        if name in submission.left_out:
            continue                        # left out (memory with --no-memory)
        item, weight = submission.items[name], weights[name]
        test = {"name": name, "score": weight if item["ok"] else 0.0, "max_score": weight,
                "status": "passed" if item["ok"] else "failed",
                "output": test_output(name, item, unsaid), "output_format": FORMAT}
        if (tests or {}).get(name):
            test["visibility"] = tests[name]
        found.append(test)
    lines = [f"pywar grade: {submission.score:g} of {submission.max_score:g}; run on "
             f"{submission.seeds_said()}" + (f"; not graded: {unsaid}" if unsaid else ""),
             *(f"note: {note}" for note in submission.notes)]
    made = {"score": submission.score, "tests": found,
            "output": printable_lines("\n".join(lines)), "output_format": FORMAT,
            "test_output_format": FORMAT,
            "extra_data": {"seeds": submission.seeds, "fresh": submission.fresh,
                           "sha256": submission.sha256}}
    if seconds is not None:
        made["execution_time"] = round(seconds, 1)
    for key, value in (("visibility", visibility), ("stdout_visibility", stdout_visibility)):
        if value is not None:
            made[key] = value
    return json.dumps(made, indent=1) + "\n"
