"""Messages and errors for the command line: one clear line, never a traceback."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, NoReturn

if TYPE_CHECKING:
    from rich.console import Console

USAGE = 2
"""Exit code of a command given wrong (bad option, unknown game or bot, missing file)."""

_names: dict[str, str] = {}
"""Paths that messages show by another name (the file that holds standard input: `<stdin>`)."""


def rename(path: str, name: str | None) -> None:
    """Show `path` as `name` in error messages from now on (None: as itself again)."""
    if name is None:
        _names.pop(path, None)
    else:
        _names[path] = name


def shown(message: str) -> str:
    """The message with each renamed path under its name."""
    for path, name in _names.items():
        message = message.replace(path, name)
    return message


def fail(message: str, code: int = USAGE) -> NoReturn:
    print(f"referee: error: {shown(message)}", file=sys.stderr)
    raise SystemExit(code)


def plural(count: int, noun: str, nouns: str | None = None) -> str:
    """`1 game`, `2 games`."""
    return f"{count} {noun if count == 1 else nouns or noun + 's'}"


def user_error(error: Exception) -> NoReturn:
    """Say what was wrong with what the user gave (a RefereeError, or a file that could not be
    read or written) in one line, and exit 2: the one place the command line does so."""
    if isinstance(error, OSError):
        where = f"{error.filename}: " if error.filename else ""
        fail(f"{where}{error.strerror or error}")
    fail(str(error))


def wide_console() -> Console:
    """A console for tables: the terminal's width, or a wide page when output is piped."""
    from rich.console import Console

    console = Console()
    return console if console.is_terminal else Console(width=160)
