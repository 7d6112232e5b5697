"""The file formats referee reads and writes (`RECORD_FORMATS`, the one place a format is
registered), and finding the format of a file."""

from __future__ import annotations

import functools
import io
from pathlib import Path
from typing import IO, TYPE_CHECKING

from referee.registry import OutputFormat, Registry

if TYPE_CHECKING:
    from referee.records.formats.base import FileFormat

RECORD_FORMATS: Registry[type[FileFormat]] = Registry(
    # Listed (`convert --help`) in this order. Detection tries JSONL before JSON, whose sniff
    # takes any text that starts with '{', and PDN before JSON too, which also takes any text
    # that starts with '[', tag pairs included. A format's module is imported when it is
    # first used: a game's text format imports that game's engine, which a JSONL file of
    # another game does not need (see benchmarks/startup.py), and this module imports none,
    # so that the command line lists the names without the record models.
    OutputFormat(
        # referee records, one JSON document (a record or an array of records)
        "json",
        "referee.records.formats.referee_json:JsonFormat",
        extensions=(".json",),
        detect=3,
    ),
    OutputFormat(
        # referee records, one JSON object a line
        "jsonl",
        "referee.records.formats.referee_json:JsonlFormat",
        extensions=(".jsonl",),
        detect=1,
    ),
    OutputFormat(
        # Portable Draughts Notation, Thai checkers (GameType 31)
        "pdn",
        "referee.records.formats.thai_pdn:PdnFormat",
        extensions=(".pdn",),
        detect=2,
    ),
    OutputFormat(
        # Trax game lists: official notation tokens, one blank-line separated game each
        "trax",
        "referee.records.formats.trax_list:TraxListFormat",
        extensions=(".trx", ".trax"),
        detect=4,
    ),
    OutputFormat(
        # Jellyfish .mat match text (Takhteh games, one record per game)
        "mat",
        "referee.records.formats.takhteh_mat:MatFormat",
        extensions=(".mat",),
        detect=5,
        folder=True,
    ),
)


@functools.cache
def format_of(entry: OutputFormat[type[FileFormat]]) -> FileFormat:
    """The format an entry registers, its module imported now."""
    return entry.load()(entry)


def known_formats() -> str:
    """The names, for a message, in the order detection tries them."""
    return ", ".join(entry.name for entry in RECORD_FORMATS.detection_order())


def format_named(name: str) -> FileFormat:
    entry = RECORD_FORMATS.get(name)
    if entry is None:
        # imported here: the command line lists the names without the record models
        from referee.records.io import RecordError

        raise RecordError(f"unknown format {name!r} (known: {known_formats()})", code="format")
    return format_of(entry)


def format_for_path(path: Path, name: str | None = None) -> FileFormat:
    """The format to write `path` in: `name` when given, else the one its extension names."""
    if name is not None:
        return format_named(name)
    entry = RECORD_FORMATS.for_suffix(path.suffix)
    if entry is None:
        from referee.records.io import RecordError

        raise RecordError(
            f"{path}: no format has this extension; use --to ({known_formats()})", code="format"
        )
    return format_of(entry)


HEAD = 4096
"""Bytes a format's sniff sees at least: enough for PDN tags, a Trax list's first moves and a
`.mat` header. A JSON line is read whole, however long (see `_head`)."""


def detect_format(path: Path | None, head: bytes) -> FileFormat | None:
    """The format of a file: by its extension when it has a known one, else by its content."""
    entry = None if path is None else RECORD_FORMATS.for_suffix(path.suffix)
    if entry is not None:
        return format_of(entry)
    for entry in RECORD_FORMATS.detection_order():
        if format_of(entry).sniff(head):
            return format_of(entry)
    return None


def detect_stream(path: Path | None, stream: IO[bytes]) -> tuple[FileFormat | None, IO[bytes]]:
    """The format of an open file (by `path`'s extension, else by content) and a stream that
    reads it from the start: `stream` itself, or when it cannot seek back (standard input, a
    pipe) a stream that reads again what detection read first."""
    entry = None if path is None else RECORD_FORMATS.for_suffix(path.suffix)
    if entry is not None:
        return format_of(entry), stream
    seekable = stream.seekable()
    start = stream.tell() if seekable else 0
    head = _head(stream)
    detected = detect_format(None, head)
    if seekable:
        stream.seek(start)
        return detected, stream
    return detected, io.BufferedReader(_Replayed(head, stream))


def _head(stream: IO[bytes]) -> bytes:
    """The first HEAD bytes, and on to the end of the first line when the text opens with `{`:
    one JSON line decides between JSONL and a JSON document, whatever its length."""
    head = bytearray(stream.read(HEAD))
    body = len(head) - len(head.lstrip())
    if head[body : body + 1] != b"{":
        return bytes(head)
    searched = body
    while head.find(b"\n", searched) < 0:
        searched = len(head)
        chunk = stream.read(1 << 16)
        if not chunk:
            break
        head += chunk
    return bytes(head)


class _Replayed(io.RawIOBase):
    """The bytes read already, then the rest of the stream."""

    def __init__(self, head: bytes, rest: IO[bytes]) -> None:
        self._head = memoryview(head)
        self._rest = rest

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: bytearray | memoryview) -> int:  # type: ignore[override]
        if self._head:
            size = min(len(buffer), len(self._head))
            buffer[:size] = self._head[:size]
            self._head = self._head[size:]
            return size
        read1 = getattr(self._rest, "read1", self._rest.read)
        data = read1(len(buffer))
        buffer[: len(data)] = data
        return len(data)
