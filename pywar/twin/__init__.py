"""The pure-Python twin of pywar's C core, file for file beside csrc/.

It takes the same steps and draws the same random numbers in the same order, so
the two engines give the same transcript, result and digest for every seed.
Read it, or step through it:  pywar.twin.play(1553, pywar.rules.preset("smu")).
"""

from .tabletop import TableTop


class StreamText:
    """A transcript that is written to a text stream as it is said. C: a PywarText
    with a sink."""

    def __init__(self, stream):
        self.stream = stream

    def append(self, line):
        """Write one piece of the transcript."""
        self.stream.write(line)


def play(seed, rules, transcript=False, deal=None):
    """Play one game: (the table's counts, the transcript or None).

    transcript is False, True (the text is returned) or a text stream (the text is
    written to it as the game goes). C: pywar_play, or pywar_play_deal with a deal."""
    if transcript is True:
        text = []
    elif transcript is False:
        text = None
    else:
        text = StreamText(transcript)
    table = TableTop(seed, rules, text, deal)
    counts = table.play_game()
    return counts, ("".join(text) if transcript is True else None)
