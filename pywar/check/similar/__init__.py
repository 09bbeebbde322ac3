"""pywar similar: how alike a class's implementations are, pair by pair, as evidence for a
person to weigh (docs/instructors.md), in three rooms:

- source: each submission's code tokenized and fingerprinted by copydetect, the starter
  code handed out left out of every match;
- behaviour: what a grading saw the programs do (pywar grade --json and --keep): the
  lines of their own and the mistakes (each one trait, whatever its seeds) that two share
  and few others do, less one rare trait's worth that any two may share by chance;
- pairs: every pair ranked by one score from 0 to 1, with its evidence, and the reports.
"""
