"""The report and show commands: a tournament as an HTML page, a position as text or SVG."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from referee.bounds import MAX_GAMES, MAX_RATING, MAX_TURNS
from referee.cli.output import echo


def report(
    paths: Annotated[
        list[Path],
        typer.Argument(
            metavar="PATH...", help="tournament folders and record files; - for standard input"
        ),
    ],
    output: Annotated[
        Path | None,
        typer.Option(
            "--output",
            "-o",
            help="the HTML file to write  [default: DIR/report.html for a tournament folder, "
            "FILE.html beside a record file, else report.html]",
        ),
    ] = None,
    force: Annotated[
        bool,
        typer.Option(
            "--force", help="replace the output file even when it is not a report of these games"
        ),
    ] = False,
    rating: Annotated[
        float,
        typer.Option(
            min=-MAX_RATING,
            max=MAX_RATING,
            help="the average rating, or the anchor's (as in `ratings`)",
        ),
    ] = 0.0,
    anchor: Annotated[
        str | None,
        typer.Option(
            help="the bot that gets --rating: a strict ladder keeps finite bounds when rated "
            "from a bot in its middle  [default: none, the average is --rating]"
        ),
    ] = None,
    analysis: Annotated[
        list[Path] | None,
        typer.Option(
            "--analysis",
            metavar="FILE",
            help="an analysis file (`referee analyse --out`) whose errors and luck the report "
            "shows; repeat for more  [default: a tournament folder's analysis.jsonl]",
        ),
    ] = None,
) -> None:
    """One self-contained HTML page: standings, crosstable, rating plot, forfeits and every
    game in a viewer, with each move's error and each roll's luck when the games are
    analysed. It replaces an earlier report of the same paths, and no other file without
    --force."""
    from referee.cli.inputs import spooled
    from referee.files import write_atomically
    from referee.ratings.results import record_files
    from referee.ratings.table import RatingOptions
    from referee.report.page import build_report
    from referee.report.target import check_output, default_output, sources

    made_from = sources(paths)
    if output is None:
        output = default_output(paths)
    with spooled(paths) as given:
        # Before the work, so that a refusal costs nothing; a path that is not there first.
        record_files(given)
        if not force:
            check_output(output, made_from)
        options = RatingOptions(rating=rating, anchor=anchor)
        text = build_report(given, options, made_from, analysis or ())
        with write_atomically(output) as file:
            file.write(text)
    echo(f"wrote {output} ({len(text.encode('utf-8')) / 1e6:.1f} MB)")


def show(
    record: Annotated[
        Path, typer.Argument(help="a record file in any format referee reads; - for standard input")
    ],
    game_number: Annotated[
        int,
        typer.Option("--game-number", min=1, max=MAX_GAMES, help="which game of the file, from 1"),
    ] = 1,
    turn: Annotated[
        int | None,
        typer.Option(
            min=0, max=MAX_TURNS, help="the position after this many turns  [default: the last]"
        ),
    ] = None,
    svg: Annotated[Path | None, typer.Option(help="also write the position as an SVG")] = None,
) -> None:
    """Print a position of a recorded game as text, and write it as an SVG with --svg."""
    from referee.cli.inputs import spooled
    from referee.files import write_atomically
    from referee.records.positions import position_from_record

    with spooled([record]) as (given,):
        game, state = position_from_record(given, game_number, turn, None)
        typer.echo(game.render_text(state))
        if svg is not None:
            with write_atomically(svg) as file:
                file.write(game.render_svg(state))


def register(app: typer.Typer) -> None:
    app.command()(report)
    app.command()(show)
