"""pywar page: a folder to serve over HTTP whose page plays, steps and checks games in the
browser's own Python (Pyodide, CPython compiled to WebAssembly), with no install.

- folder: writes the folder (the page, its scripts, pywar's pure-Python packages that
  the page needs in one zip, and Pyodide itself with --pyodide) and serves it;
- calls: what the page asks of its Python, each answer one JSON text: play a game and
  give what the front end shows (pywar.step.page.game_parts), the port's files to edit,
  and pywar exercise's check of them, run in that Python's process
  (pywar.check.exercise.inprocess);
- assets/: the page's own parts around the one front end of pywar/step/assets/ (the
  controls, the exercise, the worker that holds Python).

docs/page.md tells how it works and what it costs.
"""
