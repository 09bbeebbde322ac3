"""The engine in pure Python: the twin of csrc/engine/, file for file.

It takes the same steps and draws the same random numbers in the same order, so the
two engines give the same result, digest, transcript and trace for every seed.
Read it, or step through it:  pywar.twin.play(1553, pywar.rules.preset("smu")).
"""

from ..common.fields import text_target
from .game import Game


def play(seed, rules, transcript=False, deal=None, trace=False, stop=None):
    """Play one game: (counts, transcript or None, trace lines or None).

    transcript and trace are each False, True (the text is returned) or a text stream
    (written to as the game goes); deal, if given, is a hand of card ids per player, each
    top first; stop, if given, is called between rounds and ends the game when true.
    C: pywar_play."""
    text, lines = text_target(transcript), text_target(trace)
    game = Game(seed, rules, text, lines)
    game.stop = stop
    if deal is not None:
        game.set_deal(deal)
    counts = game.play()
    return (counts, "".join(text) if transcript is True else None,
            "".join(lines) if trace is True else None)
