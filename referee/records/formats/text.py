"""Reading a game's text format line by line as UTF-8: a line that is not UTF-8 makes the game
it belongs to an `encoding` diagnostic, never text silently replaced."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from referee.records.io import Loaded, RecordError


@dataclass(frozen=True, slots=True)
class BadLine:
    line: int
    column: int
    byte: int


class Utf8Lines:
    """The lines of a byte stream as text (a first byte-order mark dropped). A line that is
    not UTF-8 is passed on with U+FFFD for its bad bytes, so the reader still finds where
    games start and end, and is remembered."""

    def __init__(self, stream: Iterable[bytes]) -> None:
        self.stream = stream
        self.bad: deque[BadLine] = deque()
        """Bad lines not yet given to a game, in order."""

    def __iter__(self) -> Iterator[str]:
        for number, raw in enumerate(self.stream, 1):
            if number == 1:
                raw = raw.removeprefix(b"\xef\xbb\xbf")
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError as error:
                column = len(raw[: error.start].decode("utf-8", "replace")) + 1
                self.bad.append(BadLine(number, column, raw[error.start]))
                text = raw.decode("utf-8", "replace")
            del raw  # not kept while the line is read: a line may be megabytes long
            yield text

    def error_between(self, first: int, end: int | None) -> Loaded | None:
        """The encoding error of the first bad line in lines [first, end), as a Loaded
        without its game number (set by the caller). Asked for ranges in file order: bad lines
        before `first` are forgotten, so memory stays flat on a long file of bad lines."""
        while self.bad and self.bad[0].line < first:
            self.bad.popleft()
        if self.bad and (end is None or self.bad[0].line < end):
            bad = self.bad[0]
            message = (
                f"line {bad.line}, column {bad.column}: byte 0x{bad.byte:02x} is not UTF-8 "
                "(the file must be UTF-8 text; convert it with iconv, say)"
            )
            return Loaded(0, bad.line, error=RecordError(message, code="encoding"))
        return None


def checked(games: Iterable[tuple[int, Loaded]], lines: Utf8Lines) -> Iterator[Loaded]:
    """Each game's Loaded (given with the line where the game starts, in file order), with a
    game that holds a bad line replaced by its encoding error. A game is held back until the
    next one starts, so that the lines between belong to it; bad lines before the first game
    belong to the first, and a file of bad lines and no game is one encoding error."""
    held: Loaded | None = None
    held_from = 1
    for start, item in games:
        if held is not None:
            yield _with_encoding(held, lines, held_from, start)
            held_from = start
        held = item
    if held is not None:
        yield _with_encoding(held, lines, held_from, None)
    elif lines.bad:
        found = lines.error_between(1, None)
        assert found is not None
        yield Loaded(1, found.line, error=found.error)


def _with_encoding(item: Loaded, lines: Utf8Lines, first: int, end: int | None) -> Loaded:
    found = lines.error_between(first, end)
    if found is None:
        return item
    return Loaded(item.number, found.line, error=found.error)
