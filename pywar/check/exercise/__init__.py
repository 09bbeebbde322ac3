"""pywar exercise: the port as an exercise, its skeleton (skeleton) and its check: the
judge (portjudge), pure, which the command and the page's Python both run; the port's
run in pywar's runner (portcheck), or in the browser's own Python (inprocess); and what
the port's run plays and records (portplay, the child's side)."""
