"""Messages and errors for the command line: one clear line, never a traceback."""

from __future__ import annotations

import os
import stat
import sys
import textwrap
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, NoReturn, TextIO

from referee.escaping import escaped, printable

if TYPE_CHECKING:
    from rich.console import Console

USAGE = 2
"""Exit code of a command given wrong (bad option, unknown game or bot, missing file)."""

MACHINE = 4
"""Exit code when the machine fails the command: a file it cannot write (full disk, quota,
file size limit, read-only file system, no permission), whatever it was given."""

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


_live: Console | None = None
"""The console of the progress display on the terminal now, if one is shown."""


def showing(console: Console | None) -> None:
    """A progress display is drawn on `console` from now on (None: no longer): what is printed
    meanwhile goes through it, above the display."""
    global _live
    _live = console


def terminal_width(stream: TextIO) -> int | None:
    """The width of the terminal `stream` writes to ($COLUMNS when set), None for a pipe or a
    file."""
    if not stream.isatty():
        return None
    columns = os.environ.get("COLUMNS", "")
    if columns.isdigit() and int(columns) > 0:
        return int(columns)
    try:
        return os.get_terminal_size(stream.fileno()).columns or None
    except OSError:
        return None


def piped(stream: TextIO) -> bool:
    """Whether `stream` is a pipe or a socket, whose reader (less, head, cat) may write to the
    terminal at any moment, over a progress display."""
    try:
        mode = os.fstat(stream.fileno()).st_mode
    except (OSError, ValueError):
        return False
    return stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode)


def wrapped(message: str, width: int, indent: str | None = None) -> str:
    """Each line of `message` longer than `width` broken at spaces, never inside a word (a word
    longer than a line, such as a long path, gets a line of its own). Continued lines take
    `indent`, by default the line's own leading spaces."""
    lines = []
    for line in message.split("\n"):
        if len(line) <= width:
            lines.append(line)
            continue
        lead = line[: len(line) - len(line.lstrip(" "))]
        lines.extend(
            textwrap.wrap(
                line[len(lead) :],
                width,
                initial_indent=lead,
                subsequent_indent=lead if indent is None else indent,
                break_long_words=False,
                break_on_hyphens=False,
            )
        )
    return "\n".join(lines)


def echo(message: str = "", err: bool = False, indent: str | None = None) -> None:
    """Print prose: on a terminal, wrapped at word boundaries to its width, and above the
    progress display when one is shown; to a pipe or a file, as it is (one line stays one
    line for the tools that read it)."""
    stream = sys.stderr if err else sys.stdout
    message = escaped(message)  # a file name or an argument that is no UTF-8
    width = terminal_width(stream)
    if width is None:
        # The line and its end in one write: the worker processes of a tournament print
        # their warnings to the same stderr, and two lines must not run into each other.
        stream.write(message + "\n")
        stream.flush()
        return
    message = wrapped(message, width, indent)
    if _live is not None:
        # Through the display's console (on stderr), which clears the bar, prints and draws it
        # again below: stdout gets here only when it is a terminal too, the same in practice.
        _live.print(message, markup=False, highlight=False, emoji=False, soft_wrap=True)
    else:
        print(message, file=stream, flush=True)


def fail(message: str, code: int = USAGE) -> NoReturn:
    # A path or a name in the message may hold escape sequences or line breaks: shown, not
    # sent to the terminal, and the message stays one line.
    echo(f"referee: error: {printable(shown(message))}", err=True)
    raise SystemExit(code)


def warn(message: str) -> None:
    """A warning on stderr, one line that starts as every warning of referee does, so that a
    script tells it from the command's one error line."""
    echo(f"referee: warning: {printable(shown(message))}", err=True)


@contextmanager
def one_line_warnings() -> Iterator[None]:
    """While a command runs, a warning of a library (matplotlib's, numpy's) is told as referee
    tells its own: one line, `referee: warning: ...`, without the source file and line that
    Python shows, which are referee's or the library's, never the user's."""

    def show(
        message: Warning | str,
        category: type[Warning],
        filename: str,
        lineno: int,
        file: TextIO | None = None,
        line: str | None = None,
    ) -> None:
        warn(" ".join(str(message).split()))

    with warnings.catch_warnings():
        warnings.showwarning = show
        yield


def user_error(error: Exception) -> NoReturn:
    """Say what was wrong in one line and exit: 2 for what the user gave (a RefereeError, a
    file that cannot be read, an output path that is a folder), 4 (MACHINE) for a machine that
    can store no more or gives no permission to write. The one place the command line does so."""
    from referee.files import CannotWrite, machine_failure

    if isinstance(error, OSError):
        code = MACHINE if machine_failure(error) else USAGE
        if isinstance(error, CannotWrite):
            fail(str(error), code)
        where = f"{error.filename}: " if error.filename else ""
        fail(f"{where}{error.strerror or error}", code)
    fail(str(error))


def wide_console() -> Console:
    """A console for tables: the terminal's width, or a wide page when output is piped.

    No `:name:` emoji codes: a table shows its cells as given (and rich's table of emoji
    codes is then never imported, a cost of every command that prints a table)."""
    from rich.console import Console

    console = Console(emoji=False)
    return console if console.is_terminal else Console(width=160, emoji=False)
