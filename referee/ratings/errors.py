"""The errors of the ratings package: each carries a one-line message for the user."""

from __future__ import annotations

from pathlib import Path

from referee.errors import RefereeError


class RatingsError(RefereeError):
    """A rating table that cannot be made; `str(error)` is the message to show the user."""

    code = "ratings"


class RatingsInputError(RatingsError):
    """A path that is not a tournament folder or a readable record file, or a bad record.

    `path` is the file or folder, `line` the 1-based line of the bad record when known,
    `message` what is wrong. `str(error)` reads `path:line: message`.
    """

    code = "ratings-input"

    def __init__(self, message: str, *, path: str | Path, line: int | None = None) -> None:
        super().__init__(message, path=str(path), line=line)
