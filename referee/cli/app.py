"""The `referee` command: a thin layer that parses arguments and calls the library."""

from __future__ import annotations

import os
import sys
from typing import NoReturn

import typer

from referee.cli import archive, engine, openings, ratings, records, report, tournament
from referee.cli.output import fail

app = typer.Typer(
    name="referee",
    help="Game records, a validator, bot tournaments and rating tables for "
    "THAX, Takhteh, Trax and Thai checkers.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)
records.register(app)
engine.register(app)
tournament.register(app)
ratings.register(app)
report.register(app)
openings.register(app)
archive.register(app)


def main() -> NoReturn:
    try:
        app()
    except KeyboardInterrupt:
        fail("interrupted", code=130)
    except BrokenPipeError:
        # The reader of our output went away (`referee moves ... | head`): stop quietly, and
        # keep Python from complaining again while it flushes stdout on exit.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(1)
    sys.exit(0)
