"""The output formats of `referee analyse` (light: the command line offers them without
importing the analysis)."""

from __future__ import annotations

from enum import StrEnum


class AnalysisFormat(StrEnum):
    table = "table"
    json = "json"
    csv = "csv"
    markdown = "markdown"
