"""A file format that holds game records: referee's own JSON, or a game's established text."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import IO, ClassVar

from referee.records.io import Loaded
from referee.records.model import Record
from referee.registry import OutputFormat


class FileFormat(ABC):
    """What a format does; its name, extensions and place in detection are its entry in
    `RECORD_FORMATS` (records/formats/__init__.py), which makes it (`format_of`)."""

    game: ClassVar[str | None] = None
    """The only game the format holds, or None for referee's own formats."""

    def __init__(self, entry: OutputFormat[type[FileFormat]]) -> None:
        self.entry = entry

    @property
    def name(self) -> str:
        return self.entry.name

    @property
    def extensions(self) -> tuple[str, ...]:
        return self.entry.extensions

    @abstractmethod
    def sniff(self, head: bytes) -> bool:
        """Whether the first bytes of a file look like this format."""

    @abstractmethod
    def read(self, stream: IO[bytes]) -> Iterator[Loaded]:
        """Every game of the stream, read one at a time so memory stays flat."""

    @abstractmethod
    def write(self, records: Iterable[Record], stream: IO[str]) -> list[str] | None:
        """The records in this format's canonical form; returns warnings about what was
        written differently (a name the format cannot hold), if any."""

    def cannot_hold(self, record: Record) -> str | None:
        """Why this format cannot hold the record (a tag name PDN cannot write, say), or None;
        `convert` leaves such a game out and says why."""
        return None

    def write_folder(self, records: Iterable[Record], folder: Path) -> tuple[list[str], int]:
        """A file per match in `folder`, for a format registered with `folder=True`; returns
        the warnings and the number of files."""
        raise NotImplementedError(f"{self.name} is written to one file")
