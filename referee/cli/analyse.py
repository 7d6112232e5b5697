"""The analyse command: every game's moves and rolls measured against a reference engine."""

from __future__ import annotations

import sys
from contextlib import ExitStack
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from referee.analysis.formats import ANALYSIS_OUTPUTS
from referee.cli.inputs import jobs_option
from referee.cli.output import echo, fail

if TYPE_CHECKING:
    from referee.cli.progress import FileProgress

# The choices are the registry's names (mypy sees no member of an enum made from them).
AnalysisFormat = StrEnum(  # type: ignore[misc]
    "AnalysisFormat", [(name, name) for name in ANALYSIS_OUTPUTS.names()]
)


def analyse(
    paths: Annotated[
        list[str],
        typer.Argument(metavar="FILE...", help="record files or folders; - for standard input"),
    ],
    engine: Annotated[
        str | None,
        typer.Option(
            metavar="SPEC",
            help="the reference: exact (THAX), tdnet:depth=0|1 (Takhteh), "
            "search:depth=N,scale=X (Trax, Thai)  [default: each game's own]",
        ),
    ] = None,
    output_format: Annotated[
        AnalysisFormat, typer.Option("--format", help="output format")
    ] = AnalysisFormat["table"],
    jobs: Annotated[
        int,
        jobs_option("files analysed at once (no more processes than files)"),
    ] = 1,
    out: Annotated[
        Path | None,
        typer.Option(
            "--out",
            "-o",
            metavar="FILE",
            help="also write the analysis file: a JSON line per game, with every turn's",
        ),
    ] = None,
) -> None:
    """Measure every move and roll against a reference engine (docs/analysis.md).

    Per game and seat: decisions, error per decision (chances of winning lost against the
    best move), blunders, the luck of the seat's rolls and the luck-adjusted result. Records
    are read, never written. Exit 0, or 2 at the first game that cannot be analysed.
    """
    from referee.analysis.output import json_line
    from referee.analysis.run import analyse_files
    from referee.files import write_atomically
    from referee.path_names import STDIN
    from referee.validator.run import expand_paths

    files = []
    for path in paths:
        found = expand_paths([path])
        if not found:
            fail(f"no record files in {path}")
        files.extend(found)
    if out is not None and any(
        file != STDIN and Path(file).resolve() == out.resolve() for file in files
    ):
        fail(f"--out {out} is a record file read: records are never written")
    writer = ANALYSIS_OUTPUTS.named(output_format).load()()
    show = echo if writer.prose else typer.echo
    with ExitStack() as stack:
        analysis_file = None if out is None else stack.enter_context(write_atomically(out))
        progress = _progress(len(files), writer.prose, stack)
        for line in writer.head():
            show(line)
        for analysis in analyse_files(files, engine, jobs):
            if analysis_file is not None:
                analysis_file.write(json_line(analysis) + "\n")
            if progress is not None:
                progress.seen(analysis.file)
            for line in writer.game(analysis):
                show(line)
        for line in writer.tail():
            show(line)


def _progress(files: int, prose: bool, stack: ExitStack) -> FileProgress | None:
    """A display of the games analysed, on a terminal only, and not while the output goes to a
    pipe (whose reader writes it to the terminal out of step) or lines for other tools go to
    the terminal (printed as they are, not above the display)."""
    from referee.cli.output import piped

    if not sys.stderr.isatty() or piped(sys.stdout) or not (prose or not sys.stdout.isatty()):
        return None
    from referee.cli.progress import FileProgress

    return stack.enter_context(FileProgress(files, games=True))


def register(app: typer.Typer) -> None:
    app.command()(analyse)
