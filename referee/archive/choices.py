"""The choices of the archive commands' options (light: the command line offers them
without importing the readers)."""

from __future__ import annotations

from enum import StrEnum


class SplitBy(StrEnum):
    game = "game"
    variant = "variant"
    event = "event"
    player = "player"
    pairing = "pairing"


class StatsFormat(StrEnum):
    text = "text"
    markdown = "markdown"
    csv = "csv"
    json = "json"
