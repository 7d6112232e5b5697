"""Commands on record files: validate, schema, convert."""

from __future__ import annotations

import sys
from contextlib import AbstractContextManager, nullcontext
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from referee.cli.inputs import jobs_option
from referee.cli.output import echo, fail, piped, warn
from referee.records.formats import RECORD_FORMATS
from referee.wording import plural

if TYPE_CHECKING:
    from referee.cli.progress import FileProgress
    from referee.validator.diagnostics import GameReport


def validate(
    paths: Annotated[
        list[str],
        typer.Argument(metavar="PATH...", help="record files or folders; - for standard input"),
    ],
    json_output: Annotated[
        bool, typer.Option("--json", help="one JSON object per game, for other tools")
    ] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="only the summary")] = False,
    jobs: Annotated[
        int,
        jobs_option("files checked at once (no more processes than files)"),
    ] = 1,
) -> None:
    """Replay every game and report what is wrong, where. Exit 0 valid, 1 invalid, 2 usage."""
    from referee.cli.tables import print_summary
    from referee.validator.run import expand_paths, validate_files
    from referee.validator.summary import Summary

    summary = Summary()
    files = []
    for path in paths:
        found = expand_paths([path])
        if not found:
            fail(f"no record files in {path}")
        files.extend(found)
    with _file_progress(len(files), not (json_output or quiet)) as progress:
        for report in validate_files(files, jobs):
            summary.add(report)
            if progress is not None:
                progress.seen(report.file)
            if json_output:
                typer.echo(report.model_dump_json(exclude_none=True))
            elif not report.valid and not quiet:
                _print_report(report)
    if not json_output:
        print_summary(summary)
    raise typer.Exit(1 if summary.invalid else 0)


def _file_progress(files: int, wanted: bool) -> AbstractContextManager[FileProgress | None]:
    """A bar of files checked, on a terminal only (rich's progress is not even imported
    otherwise: a script calling validate file by file pays for no display), and not while
    the diagnostics go to a pipe, whose reader writes them to the terminal out of step."""
    if not (wanted and sys.stderr.isatty() and not piped(sys.stdout)):
        return nullcontext()
    from referee.cli.progress import FileProgress

    return FileProgress(files)


def _print_report(report: GameReport) -> None:
    for diagnostic in report.diagnostics:
        echo(diagnostic.one_line(), indent="  ")
        if diagnostic.position:
            echo("  " + diagnostic.position.replace("\n", "\n  "))
        if diagnostic.legal is not None:
            legal = ", ".join(diagnostic.legal) if diagnostic.legal else "(none)"
            echo(f"  legal moves: {legal}")


def schema(
    out: Annotated[
        Path, typer.Option(metavar="DIR", help="folder for the JSON Schema files")
    ] = Path("schemas"),
) -> None:
    """Write the JSON Schema of records (and of the other JSON referee writes)."""
    from referee.schemas import write_schemas

    for path in write_schemas(out):
        typer.echo(str(path))


_NAMES = RECORD_FORMATS.names()


def convert(
    source: Annotated[
        Path,
        typer.Argument(help="a record file in any format referee reads; - for standard input"),
    ],
    target: Annotated[
        Path, typer.Argument(help="the file to write, or a folder for a .mat file per match")
    ],
    to: Annotated[
        str | None,
        typer.Option(
            "--to",
            "--format",
            help=f"the format to write: {', '.join(_NAMES[:-1])} or {_NAMES[-1]}  "
            "[default: from TARGET's extension]",
        ),
    ] = None,
) -> None:
    """Convert records between formats, moves rewritten in canonical notation.

    Games that do not replay are left out and named; the exit code is then 1.
    """
    from referee.cli.inputs import spooled
    from referee.records.convert import convert as convert_file

    with spooled([source]) as (given,):
        result = convert_file(given, target, to)
        for message in result.skipped:
            warn(f"left out: {message}")
        for message in result.warnings:
            warn(message)
    files = f" ({plural(result.files, 'file')})" if result.files != 1 else ""
    echo(f"{plural(result.written, 'game')} written to {target}{files}")
    raise typer.Exit(1 if result.skipped else 0)


def register(app: typer.Typer) -> None:
    app.command()(validate)
    app.command()(schema)
    app.command()(convert)
