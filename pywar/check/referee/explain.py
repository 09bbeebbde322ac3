"""Explaining a battle by the rules plus the fewest deviations (docs/grading.md, "The
file's own story"): the search over pywar.check.referee.mistakes' candidates."""

from .battle import play_battle
from .mistakes import Policy, candidates, in_table_order

SEARCHES = 8                      # battles no deviation explains before the search stops:
                                  # past them the file's story is beyond the table, and
                                  # each battle costs one try, not 121 (mistakes.py)


class Explainer:
    """Plays a battle under the deviations adopted, or searches for the fewest more."""

    def __init__(self):
        self.failed = 0               # battles that no set of deviations explained

    def explain(self, story, battle, last):
        """(the BattleOutcome under the adopted deviations, or under the fewest more that
        explain the battle; the names added, () for none, or None if nothing explains)."""
        plain = tried(story, battle, story.policy, last)
        if not plain.mismatches:
            return plain, ()
        if self.failed >= SEARCHES:
            return plain, None
        for names, policy in candidates(story.adopted):
            found = tried(story, battle, policy, last)
            if not found.mismatches:
                return found, in_table_order(names - story.adopted)
        self.failed += 1
        return plain, None


def tried(story, battle, policy, last):
    """The battle under a policy; where part of the pot may be lost, each number of cards
    the winner may keep, the most first."""
    play = lambda kept=None: play_battle(story.table, battle, policy, last, story.known,   # noqa: E731
                                         story.near_stop, kept)
    if policy.pot_kept == "whole":
        return play()
    best = None
    most = len(story.table.pot) + 2 + story.table.stranded     # the pot, and what lay lost
    for kept in range(most, -1, -1):
        found = play(kept)
        if not found.mismatches:
            return found
        best = best or found
    return best


def policy_of(names):
    """The Policy the game goes on by once deviations are adopted: where two adopted on
    different battles set one field differently, the first's in the table's order."""
    return Policy.of(names, strict=False)
