"""The file formats referee reads and writes, and finding the format of a file."""

from __future__ import annotations

from pathlib import Path

from referee.records.formats.base import FileFormat
from referee.records.formats.mat import MatFormat
from referee.records.formats.pdn import PdnFormat
from referee.records.formats.referee_json import JsonFormat, JsonlFormat
from referee.records.formats.trax_list import TraxListFormat
from referee.records.io import RecordError

# PDN before JSON: JSON's sniff takes any text that starts with '[', tag pairs included.
FORMATS: tuple[FileFormat, ...] = (
    JsonlFormat(),
    PdnFormat(),
    JsonFormat(),
    TraxListFormat(),
    MatFormat(),
)


def format_named(name: str) -> FileFormat:
    for file_format in FORMATS:
        if file_format.name == name:
            return file_format
    known = ", ".join(f.name for f in FORMATS)
    raise RecordError("format", f"unknown format {name!r} (known: {known})")


def format_for_path(path: Path, name: str | None = None) -> FileFormat:
    """The format to write `path` in: `name` when given, else the one its extension names."""
    if name is not None:
        return format_named(name)
    for file_format in FORMATS:
        if path.suffix.lower() in file_format.extensions:
            return file_format
    known = ", ".join(f.name for f in FORMATS)
    raise RecordError("format", f"{path}: no format has this extension; use --to ({known})")


def detect_format(path: Path | None, head: bytes) -> FileFormat | None:
    """The format of a file: by its extension when it has a known one, else by its content."""
    if path is not None:
        for file_format in FORMATS:
            if path.suffix.lower() in file_format.extensions:
                return file_format
    for file_format in FORMATS:
        if file_format.sniff(head):
            return file_format
    return None
