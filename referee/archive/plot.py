"""The turn counts of `referee stats` as a PNG (matplotlib is imported only here)."""

from __future__ import annotations

from pathlib import Path

from referee.archive.stats import Summary
from referee.files import write_atomically


def plot_turns(summary: Summary, path: Path) -> None:
    """One histogram of game lengths per game and variant."""
    import matplotlib  # heavy: loaded only by `stats --plot`

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    keys = sorted(summary.groups)
    figure, axes = plt.subplots(len(keys), 1, figsize=(7, 2.6 * len(keys)), squeeze=False)
    for axis, key in zip(axes[:, 0], keys, strict=True):
        turns = summary.groups[key].turns
        axis.hist(list(turns), bins=min(40, len(turns)), weights=list(turns.values()))
        axis.set_title(f"{key[0]} {key[1]}: {summary.groups[key].games} games")
        axis.set_xlabel("turns")
        axis.set_ylabel("games")
    figure.tight_layout()
    with write_atomically(path, "wb") as file:
        figure.savefig(file, format="png", dpi=100)
    plt.close(figure)
