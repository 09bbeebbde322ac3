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


def check_plot_path(path):
    """Raise ValueError unless path's folder exists and matplotlib writes its format."""
    pyplot = require_matplotlib()
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise ValueError(f"--plot: no folder {folder!r}")
    formats = pyplot.figure().canvas.get_supported_filetypes()
    pyplot.close("all")
    ending = os.path.splitext(path)[1].lstrip(".").lower()
    if ending not in formats:
        raise ValueError(f"--plot: cannot write {ending or 'a file without an ending'!r}: "
                         f"name a file ending in one of {', '.join(sorted(formats))}")


def plot_lengths(simulation, path):
    """Draw the histogram of game lengths (rounds) to path, a PNG or any format
    matplotlib knows by the file's ending."""
    pyplot = require_matplotlib()
    rounds = simulation.arrays["rounds"]
    summary = simulation.summary()
    figure, axes = pyplot.subplots(figsize=(9, 5), dpi=120)
    shown_up_to = int(np.percentile(rounds, 99.5)) + 1 if len(rounds) else 1
    bins = np.linspace(0, shown_up_to, min(150, shown_up_to) + 1)
    axes.hist(rounds, bins=bins, color="#4c72b0", edgecolor="white", linewidth=0.3)
    for key, label, style in (("mean_rounds", "mean", "-"), ("median_rounds", "median", "--"),
                              ("p90_rounds", "90th percentile", ":")):
        if key in summary:
            axes.axvline(summary[key], color="#c44e52", linestyle=style,
                         label=f"{label} {summary[key]:,.0f}")
    beyond = int(np.count_nonzero(rounds > shown_up_to))
    if beyond:
        axes.text(0.99, 0.55, f"{beyond:,} longer games not shown\n(longest {rounds.max():,})",
                  transform=axes.transAxes, ha="right", fontsize=9, color="#555555")
    axes.set_xlabel("rounds in a game")
    axes.set_ylabel("games")
    axes.set_title(f"pywar: lengths of {simulation.games:,} games ({simulation.rules} rules, "
                   f"seeds from {simulation.first_seed})")
    if len(rounds):
        axes.legend()
    axes.grid(axis="y", alpha=0.3)
    figure.tight_layout()
    figure.savefig(path)
    pyplot.close(figure)
