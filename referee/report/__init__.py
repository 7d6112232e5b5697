"""The tournament report: one self-contained HTML page with the rating tables, the plot, the
forfeits and every game in a viewer that steps through the engine-drawn boards.

`build_report(paths)` gathers it (`build.collect`) and writes the page (`page.render_page`);
docs/report.md describes the page and how its boards are stored.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from referee.escaping import escaped
from referee.ratings import RatingOptions
from referee.report.build import Report, collect
from referee.report.page import render_page
from referee.report.target import sources

__all__ = ["Report", "build_report", "collect", "render_page"]


def build_report(
    paths: Sequence[str | Path],
    options: RatingOptions | None = None,
    made_from: Sequence[str] | None = None,
) -> str:
    """The report of tournament folders and record files (any mix) as HTML text, its ratings
    fitted with `options` (`referee ratings`' defaults when None); the page names
    `made_from` as its sources (`target.sources(paths)` when None)."""
    page = render_page(collect(paths, options), sources(paths) if made_from is None else made_from)
    return escaped(page)  # the names of files whose bytes are no UTF-8, which no page holds
