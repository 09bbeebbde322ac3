"""Pictures of a simulation, drawn with matplotlib (the extra pywar[plot]).

figure_of() builds the figure, a matplotlib Figure made without pyplot (so nothing is
left open, and a test can read it); plot_simulation() writes it to a file."""

import os

import numpy as np

from ..common.fields import OUTCOMES
from ..installed import install_hint

OUTCOME_LOOKS = {            # outcome: (its words in the legend, its colour)
    "win": ("won", "#4c72b0"),
    "both-lose": ("both lost", "#8172b2"),
    "cycle": ("ended in a cycle", "#dd8452"),
    "capped": ("capped at max rounds", "#c44e52"),
    "draw": ("drawn (one-card)", "#937860"),
}
THOUSANDS = "{x:,.0f}"       # a linear axis's labels: 1,000 and 10,000


def require_matplotlib():
    """Import matplotlib, or raise ImportError saying how to install it; its Figure."""
    try:
        import matplotlib.figure        # matplotlib itself first: it may be missing
    except ImportError:
        raise ImportError(f"plots need matplotlib: {install_hint('plot')}") from None
    return matplotlib.figure.Figure


def plot_format(path):
    """The format of a plot file, its ending ('png'), or a ValueError unless matplotlib
    writes it."""
    formats = require_matplotlib()().canvas.get_supported_filetypes()
    ending = os.path.splitext(path)[1].lstrip(".").lower()
    if ending not in formats:
        raise ValueError(f"--plot {path!r}: matplotlib writes no format "
                         f"{ending or 'without an ending'!r}: name a file ending in one of "
                         f"{', '.join(sorted(formats))}")
    return ending


def games_text(count):
    """'1 game', '2,000 games'."""
    return f"{count:,} game{'' if count == 1 else 's'}"


def plot_simulation(simulation, path, format=None):
    """Write figure_of(simulation) to path, or to a binary file in format (a PNG, or any
    format matplotlib knows, by default by the file's ending)."""
    figure_of(simulation).savefig(path, format=format)


def figure_of(simulation):
    """One figure of two panels: the histogram of game lengths (rounds) on the left, its
    games stacked by how they ended, and the distribution of war depths (rounds with 1,
    2, 3 ... wars) on the right.  Both come from the run's exact histograms, so they
    need no kept games."""
    Figure = require_matplotlib()
    totals = simulation.statistics()
    figure = Figure(figsize=(13, 5), dpi=120)
    lengths, depths = figure.subplots(1, 2, gridspec_kw={"width_ratios": [2, 1]})
    draw_lengths(lengths, totals, simulation.summary())
    draw_war_depths(depths, totals.war_depths)
    figure.suptitle(f"pywar: {games_text(simulation.games)} ({simulation.rules} rules, "
                    f"seeds from {simulation.first_seed:,})")
    figure.tight_layout()
    return figure


def counted(axis):
    """Label a linear axis of counts at whole numbers (never 0.5 games), with thousands
    separators (1,000)."""
    from matplotlib.ticker import MaxNLocator, StrMethodFormatter
    axis.set_major_locator(MaxNLocator(integer=True))
    axis.set_major_formatter(StrMethodFormatter(THOUSANDS))


def counted_log(axis):
    """Label a log axis where matplotlib would, but as plain numbers with thousands
    separators (10,000, not 10^4)."""
    from matplotlib.ticker import LogFormatterSciNotation

    class Plain(LogFormatterSciNotation):
        """matplotlib's choice of labels, written plainly."""

        def __call__(self, x, pos=None):
            return f"{x:,.12g}" if super().__call__(x, pos) else ""

    axis.set_major_formatter(Plain())
    axis.set_minor_formatter(Plain(labelOnlyBase=False))


def draw_lengths(axes, totals, summary):
    """The histogram of game lengths up to the 99.5th percentile, a colour for each way
    the games ended (stacked), with the mean, the median and the 90th percentile
    marked."""
    from .accumulator import percentile
    histogram = totals.histograms["rounds"]
    shown_up_to = percentile(histogram, totals.games, 99.5) + 1 if totals.games else 1
    bins = np.linspace(0, shown_up_to, min(150, shown_up_to) + 1)
    ended = [(outcome, lengths) for outcome, lengths in zip(OUTCOMES, totals.rounds_by_outcome)
             if lengths.total]
    if ended:
        axes.hist([lengths.values for _, lengths in ended], bins=bins, stacked=True,
                  weights=[lengths.counts for _, lengths in ended],
                  color=[OUTCOME_LOOKS[outcome][1] for outcome, _ in ended],
                  label=[f"{OUTCOME_LOOKS[outcome][0]} ({games_text(lengths.total)})"
                         for outcome, lengths in ended],
                  edgecolor="white", linewidth=0.3)
    for key, label, style in (("mean_rounds", "mean", "-"), ("median_rounds", "median", "--"),
                              ("p90_rounds", "90th percentile", ":")):
        if key in summary:
            axes.axvline(summary[key], color="#333333", linestyle=style,
                         label=f"{label} {summary[key]:,.0f}")
    beyond = int(histogram.counts[histogram.values > shown_up_to].sum())
    if beyond:
        axes.text(0.99, 0.45, f"{games_text(beyond)} longer not shown\n"
                  f"(longest {int(histogram.values[-1]):,} rounds)",
                  transform=axes.transAxes, ha="right", fontsize=9, color="#555555")
    axes.set_xlabel("rounds in a game")
    axes.set_ylabel("games")
    axes.set_title("game lengths, by how the games ended")
    counted(axes.xaxis)
    counted(axes.yaxis)
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
    counted_log(axes.yaxis)
    axes.grid(axis="y", alpha=0.3)
