"""How often the grader tells a table of recorded games from a program (issue 47):
tables of the reference's games for the fixed seeds 1 to 40 and 40, 400 or 4,000 extras
recorded on other seeds, answering a seed they hold no game for with an extra chosen by
the seed (seed mod the extras); gradings of -n 40 and the default fresh seeds, drawn as pywar grade draws
them.  A grading catches the table when a seed's deal is charged: by the repeated-deal
check alone (same_deals), and with the check of the reference's own deals beside it
(recorded_games).  Counts, not times: run as

    python bench/canned_rates.py [GRADINGS]

(docs/grading.md states its figures)."""

import json
import random
import sys

from pywar.check.grading.canned import reference_deal
from pywar.check.grading.grade import FRESH, SeedRun, recorded_games, same_deals
from pywar.check.referee.judge import Judgement
from pywar.check.seeds import draw_fresh

FIXED = tuple(range(1, 41))
EXTRAS = (40, 400, 4_000)       # the games of a table besides the fixed seeds'
EXTRA_SEEDS = 2 ** 31           # the extras are recorded on seeds below it, drawn once


def answer(seed, extras):
    """The seed whose recorded game the table prints on seed."""
    return seed if seed in FIXED else extras[seed % len(extras)]


def caught(extras, checks):
    """Whether one grading charges a deal of the table's, by the checks given."""
    seeds = list(FIXED) + list(draw_fresh(FRESH, FIXED))
    runs = [SeedRun(seed, None, "", Judgement(dealt=reference_deal(answer(seed, extras))))
            for seed in seeds]
    for check in checks:
        check(runs)
    return any(run.judged.mistakes for run in runs)


def main(gradings=1_000):
    """Each table's detection rate over gradings, by each check: JSON on stdout, by the
    table's extras."""
    rng = random.Random(47)
    rates = {}
    for size in EXTRAS:
        extras = [rng.randrange(len(FIXED) + 1, EXTRA_SEEDS) for _ in range(size)]
        alone = sum(caught(extras, [same_deals]) for _ in range(gradings))
        both = sum(caught(extras, [same_deals, recorded_games]) for _ in range(gradings))
        rates[size] = {"gradings": gradings, "same_deals": alone, "with_recorded_games": both}
    print(json.dumps(rates))


if __name__ == "__main__":
    main(*map(int, sys.argv[1:]))
