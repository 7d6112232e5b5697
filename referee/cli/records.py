"""Commands on record files: validate, schema."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from referee.cli.output import user_errors
from referee.cli.progress import FileProgress
from referee.cli.tables import print_summary
from referee.records.convert import convert as convert_file
from referee.schemas import write_schemas
from referee.validator.diagnostics import GameReport
from referee.validator.run import expand_paths, validate_files
from referee.validator.summary import Summary


def validate(
    paths: Annotated[list[str], typer.Argument(help="record files or folders; - for stdin")],
    json_output: Annotated[
        bool, typer.Option("--json", help="one JSON object per game, for other tools")
    ] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="only the summary")] = False,
    jobs: Annotated[int, typer.Option("--jobs", "-j", min=1, help="files checked at once")] = 1,
) -> None:
    """Replay every game and report what is wrong, where. Exit 0 valid, 1 invalid, 2 usage."""
    summary = Summary()
    with user_errors():
        files = expand_paths(paths)
        with FileProgress(len(files), enabled=not (json_output or quiet)) as progress:
            for report in validate_files(files, jobs):
                summary.add(report)
                progress.seen(report.file)
                if json_output:
                    typer.echo(report.model_dump_json(exclude_none=True))
                elif not report.valid and not quiet:
                    _print_report(report)
    if not json_output:
        print_summary(summary)
    raise typer.Exit(1 if summary.invalid else 0)


def _print_report(report: GameReport) -> None:
    for diagnostic in report.diagnostics:
        typer.echo(diagnostic.one_line())
        if diagnostic.position:
            typer.echo("  " + diagnostic.position.replace("\n", "\n  "))
        if diagnostic.legal is not None:
            legal = ", ".join(diagnostic.legal) if diagnostic.legal else "(none)"
            typer.echo(f"  legal moves: {legal}")


def schema(
    out: Annotated[Path, typer.Option(help="folder for the JSON Schema files")] = Path("schemas"),
) -> None:
    """Write the JSON Schema of records (and of the other JSON referee writes)."""
    with user_errors():
        for path in write_schemas(out):
            typer.echo(str(path))


def convert(
    source: Annotated[Path, typer.Argument(help="a record file in any format referee reads")],
    target: Annotated[
        Path, typer.Argument(help="the file to write, or a folder for a .mat file per match")
    ],
    to: Annotated[
        str | None,
        typer.Option(
            "--to", "--format", help="the format to write; by default from TARGET's extension"
        ),
    ] = None,
) -> None:
    """Convert records between formats, moves rewritten in canonical notation.

    Games that do not replay are left out and named; the exit code is then 1.
    """
    with user_errors():
        result = convert_file(source, target, to)
    for message in result.skipped:
        typer.echo(f"left out: {message}", err=True)
    for message in result.warnings:
        typer.echo(f"warning: {message}", err=True)
    files = f" ({result.files} files)" if result.files != 1 else ""
    typer.echo(f"{result.written} games written to {target}{files}")
    raise typer.Exit(1 if result.skipped else 0)


def register(app: typer.Typer) -> None:
    app.command()(validate)
    app.command()(schema)
    app.command()(convert)
