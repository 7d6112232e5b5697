"""Messages and errors for the command line: one clear line, never a traceback."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, NoReturn

if TYPE_CHECKING:
    from rich.console import Console

USAGE = 2
"""Exit code of a command given wrong (bad option, unknown game or bot, missing file)."""

# The library's errors about what the user gave, as (module, class). They are looked up only
# among the modules already imported: an error of a module that was never imported cannot
# have been raised, and importing them all up front would cost every command the start-up
# time of the tournament and validator packages.
_USER_ERRORS = (
    ("referee.games.base", "GameError"),
    ("referee.records.io", "RecordError"),
    ("referee.tournament.config", "ConfigError"),
    ("referee.tournament.runner", "TournamentError"),
    ("referee.validator.run", "UsageError"),
    ("referee.ratings.errors", "RatingsError"),
)


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


def _is_user_error(error: BaseException) -> bool:
    for module, name in _USER_ERRORS:
        kind = getattr(sys.modules.get(module), name, None)
        if kind is not None and isinstance(error, kind):
            return True
    return False


@contextmanager
def user_errors() -> Iterator[None]:
    """Turn the library's errors about what the user gave into a message and exit code 2."""
    try:
        yield
    except BrokenPipeError:
        raise  # the reader went away (`| head`): main() ends quietly
    except OSError as error:
        where = f"{error.filename}: " if error.filename else ""
        fail(f"{where}{error.strerror or error}")
    except Exception as error:
        if not _is_user_error(error):
            raise
        fail(str(error))


def wide_console() -> Console:
    """A console for tables: the terminal's width, or a wide page when output is piped."""
    from rich.console import Console

    console = Console()
    return console if console.is_terminal else Console(width=160)
