"""Pictures of a simulation, drawn with matplotlib (the extra pywar[plot])."""

import os

import numpy as np


def require_matplotlib():
    """Import matplotlib with a file-only backend, or raise ImportError saying how."""
    try:
        import matplotlib
    except ImportError:
        raise ImportError("plots need matplotlib: pip install 'pywar[plot]'") from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as pyplot
    return pyplot


def plot_format(path):
    """The format of a plot file, its ending ('png'), or a ValueError unless matplotlib
    writes it."""
    pyplot = require_matplotlib()
    formats = pyplot.figure().canvas.get_supported_filetypes()
    pyplot.close("all")
    ending = os.path.splitext(path)[1].lstrip(".").lower()
    if ending not in formats:
        raise ValueError(f"--plot {path!r}: matplotlib writes no format "
                         f"{ending or 'without an ending'!r}: name a file ending in one of "
                         f"{', '.join(sorted(formats))}")
    return ending


def plot_simulation(simulation, path, format=None):
    """Draw one figure of two panels to path, or to a binary file in format (a PNG, or
    any format matplotlib knows, by default by the file's ending): the histogram of game lengths (rounds) on the left, and the
    distribution of war depths (rounds with 1, 2, 3 ... wars) on the right.  Both come
    from the run's exact histograms, so they need no kept games."""
    pyplot = require_matplotlib()
    summary = simulation.summary()
    figure, (lengths, depths) = pyplot.subplots(1, 2, figsize=(13, 5), dpi=120,
                                                gridspec_kw={"width_ratios": [2, 1]})
    draw_lengths(lengths, simulation.statistics(), summary)
    draw_war_depths(depths, simulation.statistics().war_depths)
    figure.suptitle(f"pywar: {simulation.games:,} games ({simulation.rules} rules, "
                    f"seeds from {simulation.first_seed})")
    figure.tight_layout()
    figure.savefig(path, format=format)
    pyplot.close(figure)


def draw_lengths(axes, totals, summary):
    """The histogram of game lengths, up to the 99.5th percentile, with the mean, the
    median and the 90th percentile marked."""
    from .stats import percentile
    histogram = totals.histograms["rounds"]
    shown_up_to = percentile(histogram, totals.games, 99.5) + 1 if totals.games else 1
    bins = np.linspace(0, shown_up_to, min(150, shown_up_to) + 1)
    axes.hist(histogram.values, bins=bins, weights=histogram.counts, color="#4c72b0",
              edgecolor="white", linewidth=0.3)
    for key, label, style in (("mean_rounds", "mean", "-"), ("median_rounds", "median", "--"),
                              ("p90_rounds", "90th percentile", ":")):
        if key in summary:
            axes.axvline(summary[key], color="#c44e52", linestyle=style,
                         label=f"{label} {summary[key]:,.0f}")
    beyond = int(histogram.counts[histogram.values > shown_up_to].sum())
    if beyond:
        axes.text(0.99, 0.55, f"{beyond:,} longer games not shown\n"
                  f"(longest {int(histogram.values[-1]):,})",
                  transform=axes.transAxes, ha="right", fontsize=9, color="#555555")
    axes.set_xlabel("rounds in a game")
    axes.set_ylabel("games")
    axes.set_title("game lengths")
    if totals.games:
        axes.legend()
    axes.grid(axis="y", alpha=0.3)


def draw_war_depths(axes, war_depths):
    """Bars of how many rounds had 1, 2, 3 ... wars, on a log scale."""
    depths = np.flatnonzero(war_depths[1:]) + 1
    if len(depths):
        axes.bar(depths, war_depths[depths], color="#55a868", edgecolor="white")
        axes.set_yscale("log")
        axes.set_xticks(depths)
    else:
        axes.text(0.5, 0.5, "no wars", transform=axes.transAxes, ha="center")
    axes.set_xlabel("wars in one round")
    axes.set_ylabel("rounds (log scale)")
    axes.set_title("war depths")
    axes.grid(axis="y", alpha=0.3)
