"""The ratings with their 95% intervals, one panel per table (matplotlib, Agg): a PNG file for
`referee ratings --plot`, SVG text for the HTML report."""

from __future__ import annotations

import io
from collections.abc import Sequence
from pathlib import Path

import matplotlib
import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from referee.escaping import printable
from referee.files import write_atomically
from referee.ratings.errors import RatingsError
from referee.ratings.table import RatingTable
from referee.wording import plural

_ROW_INCHES = 0.32
_PANEL_INCHES = 1.2
_MARKS = {"": "", "lower": " (≥)", "upper": " (≤)", "both": " (~)"}


def _literal(text: str) -> str:
    # matplotlib reads text between two dollar signs as mathematics; a name is just a name
    return text.replace("$", r"\$")


def ratings_figure(tables: Sequence[RatingTable]) -> Figure:
    """Each table's ratings as points with interval bars, best at the top. Bounds are drawn
    hollow, with the bound's direction in the label.

    The figure is drawn on the Agg canvas directly, not through pyplot, so that no display
    or global state is touched. Raises `RatingsError` when there is no table.
    """
    if not tables:
        raise RatingsError("no rating table to plot")
    heights = [len(table.standings) * _ROW_INCHES + _PANEL_INCHES for table in tables]
    figure = Figure(figsize=(8, sum(heights)), layout="constrained")
    FigureCanvasAgg(figure)
    axes_list = figure.subplots(len(tables), 1, squeeze=False, height_ratios=heights)[:, 0]
    for axes, table in zip(axes_list, tables, strict=True):
        frame = table.standings.iloc[::-1]
        position = np.arange(len(frame))
        elo = frame["elo"].to_numpy()
        bounded = (frame["bound"] != "").to_numpy()
        low, high = frame["elo_low"].to_numpy(), frame["elo_high"].to_numpy()
        # An open end (a bound) is drawn as a bar to past the data, ending in an arrowhead.
        finite = np.concatenate([elo, low[np.isfinite(low)], high[np.isfinite(high)]])
        reach = max(float(np.ptp(finite)), 100.0) * 0.25
        open_low, open_high = np.isinf(low), np.isinf(high)
        low = np.where(open_low, elo - reach, low)
        high = np.where(open_high, elo + reach, high)
        # The bar runs from one end of the interval to the other, wherever the estimate is: a
        # bootstrap's percentile interval need not hold its estimate (a bar of matplotlib's
        # errorbar, measured from the estimate, would then be negative).
        axes.hlines(position, low, high, color="tab:blue")
        axes.plot(low[~open_low], position[~open_low], "|", color="tab:blue")
        axes.plot(high[~open_high], position[~open_high], "|", color="tab:blue")
        axes.plot(low[open_low], position[open_low], "<", color="tab:blue")
        axes.plot(high[open_high], position[open_high], ">", color="tab:blue")
        axes.plot(elo[~bounded], position[~bounded], "o", color="tab:blue")
        axes.plot(elo[bounded], position[bounded], "o", color="tab:blue", markerfacecolor="white")
        labels = [
            _literal(f"{printable(bot)}{_MARKS[bound]}")
            for bot, bound in zip(frame["bot"], frame["bound"], strict=True)
        ]
        axes.set_yticks(position, labels)
        title = f"{table.title}: {plural(table.games, 'game')}, {table.anchor}"
        axes.set_title(_literal(title), loc="left")
        axes.set_xlabel("Elo (95% interval)")
        axes.grid(axis="x", alpha=0.3)
    return figure


def plot_ratings(tables: Sequence[RatingTable], path: str | Path) -> None:
    """Save the figure of `ratings_figure` as a PNG at `path`, whole or not at all. Raises
    `RatingsError` when there is no table, `CannotWrite` when the file cannot be written."""
    figure = ratings_figure(tables)
    with write_atomically(path, "wb") as file:
        figure.savefig(file, format="png", dpi=100)


def ratings_svg(tables: Sequence[RatingTable]) -> str:
    """The figure of `ratings_figure` as SVG text. Text stays text (not glyph outlines), which
    keeps it a few times smaller and searchable; no date and fixed ids, so that the same
    tables give the same SVG."""
    figure = ratings_figure(tables)
    buffer = io.StringIO()
    with matplotlib.rc_context({"svg.fonttype": "none", "svg.hashsalt": "referee"}):
        figure.savefig(buffer, format="svg", metadata={"Date": None})
    return buffer.getvalue()
