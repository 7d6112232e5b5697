"""The choices of the archive commands' options (light: the command line offers them
without importing the readers)."""

from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum
from typing import Any

from referee.registry import OutputFormat, Registry


class SplitBy(StrEnum):
    game = "game"
    variant = "variant"
    event = "event"
    player = "player"
    pairing = "pairing"


StatsWriter = Callable[[list[dict[str, Any]]], str]
"""The statistics of each game and variant (`GroupStats.as_dict`) as the text of a format."""

STATS_OUTPUTS: Registry[StatsWriter] = Registry(
    # `referee stats --format` offers them in this order
    OutputFormat("text", "referee.archive.stats:stats_text"),
    OutputFormat("markdown", "referee.archive.stats:stats_markdown"),
    OutputFormat("csv", "referee.archive.stats:stats_csv"),
    OutputFormat("json", "referee.archive.stats:stats_json"),
)
