"""Messages and errors for the command line: one clear line, never a traceback."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import NoReturn

from rich.console import Console

from referee.games.base import GameError
from referee.records.io import RecordError
from referee.tournament.config import ConfigError
from referee.tournament.runner import TournamentError
from referee.validator.run import UsageError

USAGE = 2
"""Exit code of a command given wrong (bad option, unknown game or bot, missing file)."""


def fail(message: str, code: int = USAGE) -> NoReturn:
    print(f"referee: error: {message}", file=sys.stderr)
    raise SystemExit(code)


@contextmanager
def user_errors() -> Iterator[None]:
    """Turn the library's errors about what the user gave into a message and exit code 2."""
    try:
        yield
    except (GameError, RecordError, ConfigError, UsageError, TournamentError) as error:
        fail(str(error))
    except BrokenPipeError:
        raise  # the reader went away (`| head`): main() ends quietly
    except OSError as error:
        where = f"{error.filename}: " if error.filename else ""
        fail(f"{where}{error.strerror or error}")


def wide_console() -> Console:
    """A console for tables: the terminal's width, or a wide page when output is piped."""
    console = Console()
    return console if console.is_terminal else Console(width=160)
