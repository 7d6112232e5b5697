"""The file formats referee reads and writes, and finding the format of a file."""

from __future__ import annotations

import functools
import importlib
import io
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

from referee.records.formats.base import FileFormat as FileFormat
from referee.records.io import RecordError

# In the order detection tries them. PDN before JSON: JSON's sniff takes any text that starts
# with '[', tag pairs included. Each format's module is imported when it is first reached: a
# game's text format imports that game's engine, which a JSONL file of another game does not
# need (see benchmarks/startup.py).
_FORMATS = (
    ("referee_json", "JsonlFormat"),
    ("thai_pdn", "PdnFormat"),
    ("referee_json", "JsonFormat"),
    ("trax_list", "TraxListFormat"),
    ("takhteh_mat", "MatFormat"),
)


@functools.cache
def _format(module: str, name: str) -> FileFormat:
    kind: type[FileFormat] = getattr(
        importlib.import_module(f"referee.records.formats.{module}"), name
    )
    return kind()


def formats() -> Iterator[FileFormat]:
    """Every format, in detection order, each imported as it is reached."""
    for module, name in _FORMATS:
        yield _format(module, name)


def __getattr__(name: str) -> Any:
    if name == "FORMATS":  # every format, all of them imported
        return tuple(formats())
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def format_named(name: str) -> FileFormat:
    for file_format in formats():
        if file_format.name == name:
            return file_format
    known = ", ".join(f.name for f in formats())
    raise RecordError(f"unknown format {name!r} (known: {known})", code="format")


def format_for_path(path: Path, name: str | None = None) -> FileFormat:
    """The format to write `path` in: `name` when given, else the one its extension names."""
    if name is not None:
        return format_named(name)
    for file_format in formats():
        if path.suffix.lower() in file_format.extensions:
            return file_format
    known = ", ".join(f.name for f in formats())
    raise RecordError(f"{path}: no format has this extension; use --to ({known})", code="format")


HEAD = 4096
"""Bytes a format's sniff sees at least: enough for PDN tags, a Trax list's first moves and a
`.mat` header. A JSON line is read whole, however long (see `_head`)."""


def detect_format(path: Path | None, head: bytes) -> FileFormat | None:
    """The format of a file: by its extension when it has a known one, else by its content."""
    if path is not None:
        for file_format in formats():
            if path.suffix.lower() in file_format.extensions:
                return file_format
    for file_format in formats():
        if file_format.sniff(head):
            return file_format
    return None


def detect_stream(path: Path | None, stream: IO[bytes]) -> tuple[FileFormat | None, IO[bytes]]:
    """The format of an open file (by `path`'s extension, else by content) and a stream that
    reads it from the start: `stream` itself, or when it cannot seek back (standard input, a
    pipe) a stream that reads again what detection read first."""
    if path is not None:
        for known in formats():
            if path.suffix.lower() in known.extensions:
                return known, stream
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
