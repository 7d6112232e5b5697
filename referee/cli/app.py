"""The `referee` command: a thin layer that parses arguments and calls the library.

The command modules import the library inside their functions, so that `referee --help` and
the engine tools start without pandas, matplotlib, numpy or dask (benchmarks/startup.py). A
command given by name is built alone (`main`): typer turns every registered command into
click's objects at each start, which took a quarter of the start of every command when all
of them were built.
"""

from __future__ import annotations

import importlib
import io
import os
import sys
from collections.abc import Sequence
from typing import Annotated, Any, NoReturn

import typer
from typer.core import TyperGroup

from referee.cli.output import USAGE, fail, one_line_warnings, user_error
from referee.cli.usage import name_metavars, usage_message
from referee.errors import RefereeError


class RefereeGroup(TyperGroup):
    """The root command: plain help with clean metavars, and every error in one style
    (`referee: error: ...`, exit 2 for a command given wrong) instead of click's boxed ones.
    Every error about what the user gave derives from RefereeError and is caught here."""

    def main(  # type: ignore[override]
        self,
        args: Any = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> Any:
        name_metavars(self)
        try:
            with one_line_warnings():
                code = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        except typer.TyperException as error:
            if type(error).__name__ == "NoArgsIsHelpError":
                typer.echo(error.format_message(), err=True)  # the help, as click shows it
                sys.exit(USAGE)
            # click's usage errors (exit 2) and its other errors, vendored by typer
            fail(usage_message(error), error.exit_code)
        except typer.Abort:
            fail("aborted", 1)
        except BrokenPipeError:
            raise  # the reader went away (`| head`): main() ends quietly
        except (RefereeError, OSError) as error:
            user_error(error)
        sys.exit(code if isinstance(code, int) else 0)


def _version(value: bool) -> None:
    if value:
        from importlib.metadata import version  # costs start-up time: only for --version

        from referee.games import compiled_games

        compiled = compiled_games()
        built = f", engines compiled (mypyc): {', '.join(compiled)}" if compiled else ""
        typer.echo(f"referee {version('referee')}{built}")
        raise typer.Exit()


def _root(
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_version, is_eager=True, help="Print the version and exit."
        ),
    ] = False,
) -> None:
    pass


MODULES = ("records", "engine", "tournament", "ratings", "report", "openings", "archive", "analyse")
"""The modules of `referee.cli` that register commands, in the order the help lists them."""

COMMAND_MODULES = {
    "validate": "records",
    "schema": "records",
    "convert": "records",
    "moves": "engine",
    "perft": "engine",
    "bots": "engine",
    "tournament": "tournament",
    "demo": "tournament",
    "ratings": "ratings",
    "export": "ratings",
    "report": "report",
    "show": "report",
    "openings": "openings",
    "select": "archive",
    "stats": "archive",
    "analyse": "analyse",
}
"""The module that registers each command (a test holds it to what the modules register)."""


def build_app(modules: Sequence[str] = MODULES) -> typer.Typer:
    """The command line with the commands of `modules`."""
    built = typer.Typer(
        name="referee",
        cls=RefereeGroup,
        help="Game records, a validator, bot tournaments and rating tables for "
        "THAX, Takhteh, Trax and Thai checkers.",
        no_args_is_help=True,
        pretty_exceptions_enable=False,
        rich_markup_mode=None,
    )
    built.callback()(_root)
    for module in modules:
        importlib.import_module(f"referee.cli.{module}").register(built)
    return built


def wanted_modules(args: Sequence[str], environ: dict[str, str]) -> tuple[str, ...]:
    """The modules a command line needs: its command's alone, or every one for what lists or
    may suggest them all (the root's help and options, no command, a name that is no command,
    shell completion)."""
    completing = any(name.startswith("_") and name.endswith("_COMPLETE") for name in environ)
    if args and args[0] in COMMAND_MODULES and not completing:
        return (COMMAND_MODULES[args[0]],)
    return MODULES


def __getattr__(name: str) -> Any:
    # `app`, every command (what tests and programs that drive the command line import),
    # built on first use rather than at each start.
    if name == "app":
        globals()["app"] = made = build_app()
        return made
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def main() -> NoReturn:
    # referee uses no pydantic plugins; looking for them reads the metadata of every installed
    # package at the first model built, a cost each command would pay at start. A value the
    # user set is kept.
    os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")
    # An output encoding that lacks a character referee writes (PYTHONIOENCODING=ascii, a
    # Latin-1 locale: a table's ±, a player's name) shows it escaped, \xb1, not a traceback.
    for stream in (sys.stdout, sys.stderr):
        if isinstance(stream, io.TextIOWrapper):
            stream.reconfigure(errors="backslashreplace")
    try:
        build_app(wanted_modules(sys.argv[1:], dict(os.environ)))()
    except BrokenPipeError:
        # The reader of our output went away (`referee moves ... | head`): stop quietly, and
        # keep Python from complaining again while it flushes stdout on exit.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(1)
    sys.exit(0)
