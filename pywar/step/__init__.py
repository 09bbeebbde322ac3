"""Stepping through one game: the model (model.py), the prompt (prompt.py), and the page
with the code beside the game (page.py, assets/)."""
