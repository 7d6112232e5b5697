"""What the commands that read record files share: `-` for standard input where they read a
file more than once or by path, and the `--jobs` option of those that read files in worker
processes."""

from __future__ import annotations

import shutil
import sys
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import typer

from referee.bounds import MAX_JOBS
from referee.cli import output
from referee.files import cannot_write
from referee.path_names import STDIN, STDIN_NAME


def jobs_option(help: str) -> Any:
    """`--jobs/-j N`: how many files are worked through at once (`help` says on what)."""
    return typer.Option("--jobs", "-j", min=1, max=MAX_JOBS, help=help)


def names_stdin(paths: Sequence[str | Path]) -> bool:
    """Whether `-` (standard input) is among the paths."""
    return any(str(path) == STDIN for path in paths)


@contextmanager
def spooled(paths: Sequence[str | Path]) -> Iterator[list[Path]]:
    """The paths, with `-` replaced by a temporary file that holds standard input.

    `ratings`, `export`, `report`, `convert`, `show` and `moves --record` read files by path
    (the report reads its files twice), so standard input is copied to a file first; the file
    is gone when the block ends, and error messages name it `<stdin>`. (`validate`, `select`
    and `stats` stream standard input.)
    """
    if not names_stdin(paths):
        yield [Path(path) for path in paths]
        return
    with tempfile.TemporaryDirectory(prefix="referee-") as folder:
        # No extension: the format is found from the content, as for any unnamed input.
        spool = Path(folder) / "stdin"
        try:
            with spool.open("wb") as file:
                shutil.copyfileobj(sys.stdin.buffer, file, 1 << 20)
        except OSError as error:  # a full temporary folder: say which
            raise cannot_write(spool, error) from error
        output.rename(str(spool), STDIN_NAME)
        # An error keeps the name: it is shown once it has left this block (cli.app).
        yield [spool if str(path) == STDIN else Path(path) for path in paths]
        output.rename(str(spool), None)
