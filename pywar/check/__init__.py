"""Checking programs and implementations: against each other, and against the rules.
Its function is pywar.compare (agreement.check); pywar.check(...), the package called,
is kept for old code and warns (pywar.common.callable_package).

- agreement: two implementations played seed by seed (pywar.check);
- difference, replay, referee, implementations: where two games part, a trace checked
  against its rules, a transcript refereed, and the implementations outside pywar;
- the instructor's tools for grading a class of student programs (docs/grading.md):
  - sandbox: the one runner of untrusted code (bubblewrap where it works, else the
    limits alone), and the seed clock that makes an unchanged srand(time(NULL)) read
    the seed;
  - exercise, portplay: pywar exercise (the skeleton, and the check judged in pywar's
    process from what the port's sandboxed run recorded; portplay is that run's side);
  - lines: what a line of a student's transcript means, whatever its words;
  - judge: the referee that keeps going, every rule judged on the file's own story;
  - grade: the rubric of one submission, and of a class;
  - report: the terminal table, JSON, the HTML page and Gradescope's results.json.
"""

from ..common.callable_package import callable_as
from .agreement import Verdict, check

callable_as(__name__, check, "pywar.compare")
