"""Implementations checked against each other and against the rules: agreement (two
implementations played seed by seed: pywar.compare), difference (where two games part),
replay (a trace checked against its rules) and outside (the implementations named on the
command line, cmd: and py:, run through the runner; pyclass is a py: class's child)."""
