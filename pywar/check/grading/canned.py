"""A table of the reference's games (issue 47): a program with no game of its own that
prints the reference's games recorded for the seeds it expects (the fixed ones), and for
any other seed one of other recorded games.  Each game is legal and each seed's deal
differs, so no rule and no repeated deal tells it.  But the reference deals a seed's
deal on that seed alone: a program that deals the reference's own deal for their seed on
some seeds (a shuffle of its own does so with chance 1 in 52! a seed) and on others a deal
that is not theirs shuffles as the reference does on the first and not at all on the
others.  A table answers every seed it holds no game for so, the seeds drawn fresh first
(docs/grading.md measures the check: every table caught, no honest program charged)."""

from functools import lru_cache

from ...port.tabletop import TableTop
from ..referee.judge import judge

AT_LEAST = 2                    # seeds dealt the reference's own deal (distinct to glibc)
DEALS_KEPT = 4_096              # the reference's deals kept, a seed each: 11 ms to make one


@lru_cache(maxsize=DEALS_KEPT)
def reference_deal(seed):
    """The reference's deal of a seed (its port's), as the referee reads its listing."""
    text = []
    TableTop(seed, text=text)
    return judge("".join(text), complete=False).dealt


def not_the_reference_s(runs, glibc_seed):
    """(the runs whose deal is not the reference's for their seed, the seeds that deal
    the reference's own) where AT_LEAST seeds, distinct to glibc, deal the reference's
    own deal; ([], those seeds) where fewer do.  Runs with no deal read are neither."""
    dealt = [run for run in runs if run.judged and run.judged.dealt is not None]
    own = {run.seed for run in dealt
           if run.judged.dealt == reference_deal(glibc_seed(run.seed))}
    if len({glibc_seed(seed) for seed in own}) < AT_LEAST:
        return [], sorted(own)
    return [run for run in dealt if run.seed not in own], sorted(own)
