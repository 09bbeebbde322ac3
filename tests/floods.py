"""Transcripts that say one line (or one round) again and again, for the referee's time:
tests/test_referee_time.py counts its work on them, bench/test_grading.py measures its
rate on 15 MiB of them."""

import pywar

GAME = pywar.play(1553, transcript=True).transcript      # 18,375 lines, 2,087 rounds
DEAL = GAME[:GAME.index("======== Round 1 ")]
ROUND = GAME[GAME.index("======== Round 1 "):GAME.index("======== Round 2 ")]
PLAYS = "Player A plays jack of hearts\nPlayer B plays queen of clubs\n"
TIE = "Player A plays jack of hearts\nPlayer B plays jack of clubs\n"
REPEATED = {                        # a deal, then one line (or round) said again and again
    "battle line": lambda n: DEAL + "Player A plays jack of hearts\n" * n,
    "round": lambda n: DEAL + ROUND * (n // ROUND.count("\n")),
    "junk line": lambda n: DEAL + "hello from a student's debugging\n" * n,
    "face down": lambda n: DEAL + TIE + "Player A puts a card face down\n" * n,
    "verdict": lambda n: DEAL + PLAYS + "Player B wins the 'currently in play' pile.\n" * n,
    "counts": lambda n: DEAL + PLAYS + "Player A has 25 in their 'to play' pile and 0 in "
                                       "their 'played' pile.\n" * n,
    "battle": lambda n: DEAL + (PLAYS + "Player B wins the 'currently in play' pile.\n")
    * (n // 3),
}


def of_size(kind, size):
    """A transcript of a kind, of about size bytes."""
    if kind == "game":                  # seed 1553's game told again and again
        return GAME * max(1, size // len(GAME))
    per_line = len(REPEATED[kind](2000)) / 2000
    return REPEATED[kind](int(size / per_line))
