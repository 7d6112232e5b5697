"""Record files for the tests of every part: records written as `referee` writes them
(`record_to_json`), one a line or one a file."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from referee.records.io import record_to_json
from referee.records.model import Record


def write_jsonl(path: Path, records: Iterable[Record]) -> list[bytes]:
    """Write the records one a line; the lines written."""
    lines = [(record_to_json(record) + "\n").encode() for record in records]
    path.write_bytes(b"".join(lines))
    return lines


def write_record(path: Path, record: Record) -> None:
    """Write one record as a JSON document."""
    path.write_text(record_to_json(record, indent=2) + "\n", encoding="utf-8")
