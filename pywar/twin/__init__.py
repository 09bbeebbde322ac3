"""The pure-Python twin of pywar's C core, file for file beside csrc/.

It takes the same steps and draws the same random numbers in the same order, so
the two engines give the same transcript, result and digest for every seed.
Read it, or step through it:  pywar.twin.play(1553, pywar.rules.preset("smu")).
"""

from .tabletop import TableTop


def play(seed, rules, transcript=False, deal=None):
    """Play one game: (the table's counts, the transcript or None).
    C: pywar_play, or pywar_play_deal with a deal."""
    text = [] if transcript else None
    table = TableTop(seed, rules, text, deal)
    counts = table.play_game()
    return counts, ("".join(text) if transcript else None)
