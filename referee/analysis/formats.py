"""The output formats of `referee analyse`, a registry (light: the command line offers their
names without importing the analysis)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from referee.registry import OutputFormat, Registry

if TYPE_CHECKING:
    from referee.analysis.output import Writer

ANALYSIS_OUTPUTS: Registry[Callable[[], Writer]] = Registry(
    # `referee analyse --format` offers them in this order; the code makes a writer
    OutputFormat("table", "referee.analysis.output:TableWriter"),
    OutputFormat("json", "referee.analysis.output:JsonWriter"),
    OutputFormat("csv", "referee.analysis.output:CsvWriter"),
    OutputFormat("markdown", "referee.analysis.output:MarkdownWriter"),
)
