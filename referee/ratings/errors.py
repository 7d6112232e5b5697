"""The errors of the ratings package: each carries a one-line message for the user."""

from __future__ import annotations

from pathlib import Path


class RatingsError(Exception):
    """A rating table that cannot be made; `str(error)` is the message to show the user."""


class RatingsInputError(RatingsError):
    """A path that is not a tournament folder or a readable record file, or a bad record.

    `path` is the file or folder, `line` the 1-based line of the bad record when known,
    `message` what is wrong. `str(error)` reads `path:line: message`.
    """

    def __init__(self, path: str | Path, message: str, line: int | None = None) -> None:
        self.path = str(path)
        self.line = line
        self.message = message
        where = self.path if line is None else f"{self.path}:{line}"
        super().__init__(f"{where}: {message}")
