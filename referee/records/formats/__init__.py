"""The file formats referee reads and writes, and finding the format of a file."""

from __future__ import annotations

from pathlib import Path

from referee.records.formats.base import FileFormat
from referee.records.formats.mat import MatFormat
from referee.records.formats.referee_json import JsonFormat, JsonlFormat

FORMATS: tuple[FileFormat, ...] = (JsonlFormat(), JsonFormat(), MatFormat())


def format_named(name: str) -> FileFormat:
    for file_format in FORMATS:
        if file_format.name == name:
            return file_format
    known = ", ".join(f.name for f in FORMATS)
    raise ValueError(f"unknown format {name!r} (known: {known})")


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
