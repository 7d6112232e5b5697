"""The root of every error referee shows its user.

It imports nothing, so that every package, the engines included, can derive from it while
imports keep pointing one way (`games` imports this module and nothing else of referee).
"""

from __future__ import annotations


class RefereeError(Exception):
    """Input, configuration or a command that referee cannot work with.

    `code` is stable (scripts and diagnostics key on it), `message` one line for the user,
    `path` and `line` the file and 1-based line when known. `str(error)` reads
    `path:line: message`, or just the message when no file is known. The command line
    catches this class in one place (`referee.cli.app`) and prints that line.
    """

    code = "error"
    """The code of a class's errors, unless one is given when raised."""
    path: str | None = None
    line: int | None = None

    def __init__(
        self,
        message: str,
        code: str | None = None,
        *,
        path: str | None = None,
        line: int | None = None,
    ) -> None:
        # Engines raise these while they search: only what is given is set.
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code
        if path is not None:
            self.path = path
        if line is not None:
            self.line = line

    def __str__(self) -> str:
        if self.path is None:
            return self.message
        where = self.path if self.line is None else f"{self.path}:{self.line}"
        return f"{where}: {self.message}"
