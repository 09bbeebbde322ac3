"""Checking: implementations against each other (agreement.py), and programs against the
reference."""
