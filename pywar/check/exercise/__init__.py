"""pywar exercise: the port as an exercise, its skeleton and its check (portcheck),
judged in pywar's process from what the port's sandboxed run recorded (portplay, the
child's side)."""
