"""The referee: what a transcript of the SMU reference's format means, and which rules
it breaks.  It stands on the rows of pywar.check.referee.mistakes (every student mistake
pywar knows) and pywar.check.referee.rubric (every item of the rubric), and imports no
runner and no simulation: the grader, the comparisons and the exercise stand on it.

- words: the reference program's vocabulary, its cards, players and lines;
- lines: what a line of a student's transcript says, whatever its words (typed events);
- mistakes, rubric: the two tables; policy: the rules plus the adopted mistakes;
- judge (with table, battle, explain, deal, layout): the referee that keeps going;
- exact: the referee that stops at the first line that departs from the reference.
"""
