"""The words of a simulation's summary that the table of fields gives: each spread
statistic's mean and most, and each notable game (pywar.common.fields)."""

from ..common.fields import BY_NAME, NOTABLE, NOTABLE_LINES, SPREADS


def spread_phrases(summary):
    """The mean and the most of each count the summary spreads."""
    return [f"{BY_NAME[name].spread} {summary[f'mean_{name}']:.2f} "
            f"(most {summary[f'max_{name}']:,})" for name in SPREADS]


def notable_phrases(summary):
    """A phrase for each notable game: what it is, its seed, and its count."""
    notable = summary["notable_games"]
    return [line.format(seed=notable[key]["seed"], value=notable[key][NOTABLE[key][1]])
            for key, line in NOTABLE_LINES.items()]
