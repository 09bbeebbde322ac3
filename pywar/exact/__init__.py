"""Exact counts for small decks: every deal played (enumeration.py)."""
