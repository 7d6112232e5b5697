"""The formats rating tables and result exports are written in: each one entry of its
registry (referee/registry.py). Light: the command line offers the names without pandas."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import IO, TYPE_CHECKING

from referee.registry import OutputFormat, Registry

if TYPE_CHECKING:
    from referee.ratings.table import RatingTable
    from referee.records.model import Record

TableWriter = Callable[[Sequence["RatingTable"]], str]
"""The tables as the text of one format."""

RATING_OUTPUTS: Registry[TableWriter] = Registry(
    # `referee ratings --format` offers them in this order, after `table` (the terminal)
    OutputFormat("csv", "referee.ratings.output:to_csv"),
    OutputFormat("markdown", "referee.ratings.output:to_markdown"),
    OutputFormat("json", "referee.ratings.output:to_json"),
    OutputFormat("html", "referee.ratings.output:to_html"),
)

ResultWriter = Callable[[Iterable[tuple["Record", str, int]], IO[str]], int]
"""Writes each game (its record, file and line) to the stream; returns the number written."""

RESULT_EXPORTS: Registry[ResultWriter] = Registry(
    # `referee export --format` offers them in this order
    OutputFormat("pgn", "referee.ratings.export:write_pgn"),
    OutputFormat("csv", "referee.ratings.export:write_csv"),
)
