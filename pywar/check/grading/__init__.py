"""Grading a class of student programs (docs/grading.md): each built and run through the
runner, every run refereed, the rubric filled in (grade) and reported (report)."""
