"""The games of record files in any format, one at a time, with a cheap view of each.

A game from a JSONL file comes as its scanned header (`referee.records.scan`) and its line as
read; the full record is built only when asked for. A game from any other format comes as
its record.
"""

from __future__ import annotations

import io
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from referee.errors import RefereeError
from referee.games.base import ruleset_variant
from referee.path_names import STDIN, STDIN_NAME
from referee.records.formats import detect_format, format_named
from referee.records.formats.base import FileFormat
from referee.records.formats.referee_json import JsonlFormat
from referee.records.io import RecordError, parse_record_json, record_to_json
from referee.records.model import Record
from referee.records.scan import scan_jsonl
from referee.validator.run import expand_paths


class ArchiveError(RefereeError, ValueError):
    """Input or output that the command cannot work with (a whole file, not one game)."""

    code = "archive"


@dataclass(slots=True)
class Entry:
    """One game of an input file."""

    file: str
    number: int
    """1-based position of the game in its file."""
    line: int
    view: Any
    """The header fields (a scanned header, or the record itself); the record model's names."""
    raw: bytes | None = None
    """The JSONL line as read (with its line break), for games from a JSONL file."""
    cached: Record | None = None

    def record(self) -> Record:
        """The full record (RecordError if a field the scan skipped is wrong)."""
        if self.cached is None:
            assert self.raw is not None
            self.cached = parse_record_json(self.raw)
        return self.cached

    @property
    def game(self) -> str:
        name: str = self.view.game
        return name

    @property
    def variant(self) -> str:
        """The variant of the ruleset id `game/variant@version?options`."""
        return ruleset_variant(self.view.ruleset)

    def json_line(self) -> bytes:
        """The game as one JSONL line: the line as read when there is one."""
        if self.raw is not None:
            return self.raw if self.raw.endswith(b"\n") else self.raw + b"\n"
        return (record_to_json(self.record()) + "\n").encode("utf-8")

    def where(self) -> str:
        return f"{self.file}:{self.line}: game {self.number}"


Unreadable = Callable[[str, int, int, RecordError], None]
"""Told of each game that cannot be read: file, game number, line, why."""


def _open(name: str) -> tuple[IO[bytes], bool]:
    if name == STDIN:
        stream: IO[bytes] = sys.stdin.buffer
        if not hasattr(stream, "peek"):
            stream = io.BufferedReader(stream)  # type: ignore[type-var]
        return stream, False
    return Path(name).open("rb"), True


def _format(name: str, stream: IO[bytes]) -> FileFormat:
    head = stream.peek(4096)[:4096]  # type: ignore[attr-defined]
    if not head.strip():
        return format_named("jsonl")  # an empty file (or pipe) holds no game: not an error here
    file_format = detect_format(None if name == STDIN else Path(name), head)
    if file_format is None:
        raise ArchiveError(f"{_label(name)}: not a game record file in any format referee reads")
    return file_format


def _label(name: str) -> str:
    return STDIN_NAME if name == STDIN else name


def read_entries(
    paths: list[str],
    unreadable: Unreadable,
    with_turns: bool = False,
    keep: Callable[[bytes], bool] | None = None,
    passed_over: Callable[[], None] | None = None,
) -> Iterator[Entry]:
    """Every game of the files and folders named (`-` for standard input), in order.

    A game that cannot be read is passed to `unreadable` and left out; a file in no known
    format, or one that cannot be opened, raises ArchiveError. A JSONL line that `keep`
    refuses is left out unread, and `passed_over` is called.
    """
    try:
        files = expand_paths(paths)
    except ValueError as error:
        raise ArchiveError(str(error)) from None
    for name in files:
        label = _label(name)
        try:
            stream, owned = _open(name)
        except OSError as error:
            raise ArchiveError(f"{label}: cannot read: {error.strerror or error}") from None
        try:
            file_format = _format(name, stream)
            if isinstance(file_format, JsonlFormat):
                for number, line, raw, header, problem in scan_jsonl(stream, with_turns, keep):
                    if header is not None:
                        yield Entry(label, number, line, header, raw)
                    elif problem is not None:
                        unreadable(label, number, line, problem)
                    elif passed_over is not None:
                        passed_over()
                continue
            for loaded in file_format.read(stream):
                if loaded.record is None:
                    assert loaded.error is not None
                    unreadable(label, loaded.number, loaded.line, loaded.error)
                    continue
                record = loaded.record
                yield Entry(label, loaded.number, loaded.line, record, cached=record)
        except OSError as error:
            raise ArchiveError(f"{label}: cannot read: {error.strerror or error}") from None
        finally:
            if owned:
                stream.close()
