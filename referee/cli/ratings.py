"""The ratings command: standings, a joint Elo fit with intervals, crosstable, LOS."""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from referee.cli.output import fail, wide_console


class TableFormat(StrEnum):
    table = "table"
    csv = "csv"
    markdown = "markdown"
    json = "json"
    html = "html"


class IntervalMethod(StrEnum):
    bootstrap = "bootstrap"
    information = "information"


def ratings(
    paths: Annotated[
        list[Path],
        typer.Argument(
            metavar="PATH...", help="tournament folders and record files; - for standard input"
        ),
    ],
    game: Annotated[list[str] | None, typer.Option("--game", "-g", help="only this game")] = None,
    variant: Annotated[list[str] | None, typer.Option(help="only this variant")] = None,
    bot: Annotated[
        list[str] | None,
        typer.Option(help="only games between the named bots (give two or more)"),
    ] = None,
    format: Annotated[TableFormat, typer.Option(help="output format")] = TableFormat.table,
    output: Annotated[Path | None, typer.Option("--output", "-o", help="write to a file")] = None,
    plot: Annotated[Path | None, typer.Option(help="also draw the ratings as a PNG")] = None,
    rating: Annotated[float, typer.Option(help="the average rating, or the anchor's")] = 0.0,
    anchor: Annotated[str | None, typer.Option(help="the bot that gets --rating")] = None,
    interval: Annotated[
        IntervalMethod, typer.Option(help="95% intervals from a bootstrap or the information")
    ] = IntervalMethod.bootstrap,
    samples: Annotated[int, typer.Option(min=10, help="bootstrap samples")] = 1000,
    seed: Annotated[int, typer.Option(help="bootstrap seed")] = 0,
    pairs: Annotated[
        bool, typer.Option(help="resample colour-swapped pairs as units (pentanomial)")
    ] = True,
) -> None:
    """Rating tables per game and variant from any tournaments and record files."""
    from referee.cli.inputs import spooled
    from referee.ratings import RatingOptions, RatingsError, build_tables, read_games
    from referee.ratings.output import print_tables, render

    options = RatingOptions(
        rating=rating,
        anchor=anchor,
        interval=interval.value,
        samples=samples,
        seed=seed,
        pairs=pairs,
    )
    with spooled(paths) as given:
        try:
            games = read_games(given, game=game, variant=variant, bots=bot)
        except RatingsError as error:
            fail(str(error))
    try:
        tables = build_tables(games, options)
        if not tables:
            fail("no finished games match")
        if plot is not None:
            from referee.ratings.plot import plot_ratings

            plot_ratings(tables, plot)
    except RatingsError as error:
        fail(str(error))
    if format is TableFormat.table and output is None:
        print_tables(tables, wide_console())
        return
    text = render(tables, "markdown" if format is TableFormat.table else format.value)
    if output is None:
        typer.echo(text, nl=not text.endswith("\n"))
    else:
        output.write_text(text, encoding="utf-8")


def print_standings(folder: Path) -> None:
    """The standings of one tournament, as a tournament run ends."""
    from referee.ratings import RatingOptions, RatingsError, build_tables, read_games
    from referee.ratings.output import print_tables

    try:
        tables = build_tables(read_games([folder]), RatingOptions(interval="information"))
    except RatingsError as error:
        fail(str(error))
    print_tables(tables, wide_console(), details=False)


def register(app: typer.Typer) -> None:
    app.command()(ratings)
