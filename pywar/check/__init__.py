"""Checking programs and implementations, against each other and against the rules, in
rooms by concern, each standing on the one below it:

- submission: a submission as every instructor's tool takes it, untrusted: a regular
  file opened with no link followed, the copy and the list of its files within their
  bounds, its names made readable; it imports no other room;
- referee: what a transcript means and which rules it breaks, by the two tables of
  mistakes and rubric items; it imports no runner and no simulation;
- runner: the one runner of untrusted code (bubblewrap where it works, else the limits
  alone), and the seed clock that makes an unchanged srand(time(NULL)) read the seed;
- grading: the rubric of one submission and of a class, and its reports;
- similar: how alike a class's submissions are, by their code and by what they did;
- implementations: two implementations played seed by seed (pywar.compare), where two
  games part, a trace checked against its rules, and the implementations outside pywar;
- exercise: pywar exercise, the port as an exercise and its check.

pywar.check(...), the package called, is kept for old code and warns
(pywar.common.callable_package); importing the package loads none of its rooms.
"""

from ..common.callable_package import callable_as

callable_as(__name__, "pywar.check.implementations.agreement:check", "pywar.compare")
