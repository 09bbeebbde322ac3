"""An assignment is a file: its rules, its wording, how a submission is built and run,
and its rubric, in one versioned TOML file (docs/grading.md, section 8).  `file` reads
and checks one (FIELDS, the documented fields; load; AssignmentError, one line); SMU's,
the assignment pywar grades by default, ships beside it (smu.toml)."""
