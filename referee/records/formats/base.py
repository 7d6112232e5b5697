"""A file format that holds game records: referee's own JSON, or a game's established text."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Iterator
from typing import IO, ClassVar

from referee.records.io import Loaded
from referee.records.model import Record


class FileFormat(ABC):
    name: ClassVar[str]
    description: ClassVar[str]
    extensions: ClassVar[tuple[str, ...]]
    game: ClassVar[str | None] = None
    """The only game the format holds, or None for referee's own formats."""

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
