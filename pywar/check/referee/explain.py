"""Explaining a battle by the rules plus the fewest deviations (docs/grading.md, "The
file's own story"): the search over pywar.check.referee.mistakes' candidates, in the
order of its data, SEARCH_ORDER (the likelier first; a row that refines another before it)."""

from .battle import down_counts, play_battle
from .mistakes import ROW, Policy, candidates, in_search_order
from .words import DECK

SEARCHES = 8                      # battles no deviation explains before the search stops:
                                  # past them the file's story is beyond the table, and
                                  # each battle costs one try, not 245 (mistakes.py)


LOOKAHEAD = 60                    # battles after one that two sets explain alike, played
                                  # to choose between them (the story the cards go on to tell)


class Explainer:
    """Plays a battle under the deviations adopted, or searches for the fewest more."""

    def __init__(self):
        self.failed = 0               # battles that no set of deviations explained

    def explain(self, story, battle, last, following=()):
        """(the BattleOutcome under the adopted deviations, or under the fewest more that
        explain the battle; the names added, () for none, or None if nothing explains).
        Where several sets of as many deviations explain it (a pot given to the loser and
        the counts printed on the other player's line look alike in one battle), the one
        that explains most of the following battles is taken, the earlier in SEARCH_ORDER
        on a tie."""
        plain = tried(story, battle, story.policy, last)
        if not plain.mismatches:
            return plain, ()
        if self.failed >= SEARCHES:
            return plain, None
        found = []
        for names, policy in candidates(story.adopted):
            if found and len(names - story.adopted) > len(found[0][0] - story.adopted):
                break
            outcome = tried(story, battle, policy, last)
            if not outcome.mismatches:
                found.append((names, policy, outcome))
        if not found:
            self.failed += 1
            return plain, None
        if len(found) > 1 and following:
            found.sort(key=lambda choice: -lasting(story, choice[1], choice[2], following))
        names, _, outcome = found[0]
        return outcome, in_search_order(names - story.adopted)


def lasting(story, policy, outcome, following):
    """How many of the following battles a policy explains in a row, from an outcome."""
    ahead = Ahead(outcome.table, policy, story.known, story.effort)
    for count, battle in enumerate(following[:LOOKAHEAD]):
        after = tried(ahead, battle, policy, False)
        if after.mismatches or after.losers:
            return count + (not after.mismatches)
        ahead.table = after.table
    return LOOKAHEAD


class Ahead:
    """The story as a policy would go on to tell it (a Judge's fields that tried() reads)."""

    def __init__(self, table, policy, known, effort):
        self.table, self.policy, self.known, self.near_stop = table, policy, known, False
        self.effort = effort


def tried(story, battle, policy, last):
    """The battle under a policy; where part of the pot may be lost, each number of cards
    the winner may keep, the most first; where cards may go face down unsaid, each number
    each player may put down, the likelier first."""
    variants = [{}]
    if policy.follows(ROW.face_down_war) and story.table.pot and not battle.downs:
        variants = [{"down": down} for down in down_counts(story.table, battle)]
    if policy.follows(ROW.pot_lost):
        most = min(DECK, len(story.table.pot) + 2 + story.table.stranded)   # the pot, and
                                                                    # what lay lost
        variants = [{**variant, "kept": kept} for variant in variants
                    for kept in range(most, -1, -1)]
    best = None
    for variant in variants:
        story.effort.step(battle_work(story.table, battle))
        found = play_battle(story.table, battle, policy, last, story.known, story.near_stop,
                            **variant)
        if not found.mismatches:
            return found
        best = best or found
    return best


def battle_work(table, battle):
    """The steps of playing a battle on a table: the events it walks, the pot it copies."""
    return 1 + len(battle.events) + len(table.pot)


def policy_of(names):
    """The Policy the game goes on by once deviations are adopted: where two adopted on
    different battles set one field differently, the first's in SEARCH_ORDER."""
    return Policy.of(names, strict=False)
