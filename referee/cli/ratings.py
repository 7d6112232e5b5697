"""The ratings command: standings, a joint Elo fit with intervals, crosstable, LOS."""

from __future__ import annotations

import sys
from enum import StrEnum
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from referee.bounds import MAX_RATING, MAX_SAMPLES, MAX_SEED
from referee.cli.inputs import jobs_option
from referee.cli.output import echo, fail, wide_console
from referee.escaping import quoted
from referee.path_names import STDIN
from referee.ratings.formats import RATING_OUTPUTS, RESULT_EXPORTS
from referee.wording import plural

if TYPE_CHECKING:
    from referee.ratings.results import Games
    from referee.ratings.table import RatingOptions

# The choices are the registries' names (mypy sees no member of an enum made from them).
TableFormat = StrEnum(  # type: ignore[misc]
    "TableFormat", [(name, name) for name in ("table", *RATING_OUTPUTS.names())]
)
"""`table`, the terminal (Markdown when written to a file), then the formats written."""
ExportFormat = StrEnum(  # type: ignore[misc]
    "ExportFormat", [(name, name) for name in RESULT_EXPORTS.names()]
)


class IntervalMethod(StrEnum):
    robust = "robust"
    information = "information"
    bootstrap = "bootstrap"


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
    output_format: Annotated[
        TableFormat, typer.Option("--format", help="output format")
    ] = TableFormat["table"],
    output: Annotated[Path | None, typer.Option("--output", "-o", help="write to a file")] = None,
    plot: Annotated[Path | None, typer.Option(help="also draw the ratings as a PNG")] = None,
    rating: Annotated[
        float,
        typer.Option(
            min=-MAX_RATING,
            max=MAX_RATING,
            help="the average rating, or that of an --anchor given no value",
        ),
    ] = 0.0,
    anchor: Annotated[
        list[str] | None,
        typer.Option(
            help="NAME=RATING fixes a bot's rating (repeat for several); NAME alone gets --rating"
        ),
    ] = None,
    seat_advantage: Annotated[
        str,
        typer.Option(help="the first-move advantage: fit, 0, or a value in Elo"),
    ] = "fit",
    interval: Annotated[
        IntervalMethod,
        typer.Option(
            help="95% intervals: robust (sandwich) errors, the information, or a bootstrap"
        ),
    ] = IntervalMethod.robust,
    samples: Annotated[int, typer.Option(min=10, max=MAX_SAMPLES, help="bootstrap samples")] = 1000,
    seed: Annotated[int, typer.Option(min=0, max=MAX_SEED, help="bootstrap seed")] = 0,
    pairs: Annotated[
        bool, typer.Option(help="take colour-swapped game pairs as units in the intervals")
    ] = True,
    wide: Annotated[
        bool,
        typer.Option(help="every column and matrix, however wide the terminal (else what fits)"),
    ] = False,
    cache: Annotated[
        bool,
        typer.Option(
            help="keep a summary of each big file read, and read the summary instead while "
            "the file is unchanged (in $REFEREE_CACHE_DIR, else ~/.cache/referee)"
        ),
    ] = True,
    luck_adjusted: Annotated[
        bool,
        typer.Option(
            "--luck-adjusted",
            help="score each game by its luck-adjusted result (docs/ratings.md): from "
            "--analysis files and tournament folders' analysis.jsonl, else analysed now",
        ),
    ] = False,
    engine: Annotated[
        str | None,
        typer.Option(
            metavar="SPEC",
            help="with --luck-adjusted, the reference (as referee analyse takes it)  "
            "[default: each game's own]",
        ),
    ] = None,
    analysis: Annotated[
        list[Path] | None,
        typer.Option(
            metavar="FILE",
            help="with --luck-adjusted, an analysis file (referee analyse --out); repeat for "
            "several",
        ),
    ] = None,
    jobs: Annotated[
        int,
        jobs_option("with --luck-adjusted, files analysed at once"),
    ] = 1,
) -> None:
    """Rating tables per game and variant from any tournaments and record files."""
    from referee.cache import cache_folder
    from referee.cli.inputs import names_stdin, spooled
    from referee.ratings.output import print_tables, render
    from referee.ratings.results import read_games
    from referee.ratings.summaries import Summaries
    from referee.ratings.table import RatingOptions, build_tables

    options = RatingOptions(
        rating=rating,
        anchors=_anchors(anchor or [], rating),
        advantage=_advantage(seat_advantage),
        interval=interval.value,
        samples=samples,
        seed=seed,
        pairs=pairs,
        luck_adjusted=luck_adjusted,
    )
    if not luck_adjusted and (engine is not None or analysis or jobs != 1):
        fail("--engine, --analysis and --jobs are options of --luck-adjusted")
    options.check()  # before any game is read or analysed
    # Standard input is read once, so its copy gets no summary.
    folder = cache_folder() if cache and not names_stdin(paths) else None
    summaries = None if folder is None else Summaries(folder)
    with spooled(paths) as given:
        warn = partial(echo, err=True)
        games = read_games(
            given, game=game, variant=variant, bots=bot, summaries=summaries, warn=warn
        )
        if luck_adjusted:
            # Inside the block: standard input's copy is analysed by its path.
            games, options = _adjusted(games, options, given, engine, analysis or [], jobs)
    tables = build_tables(games, options)
    if not tables:
        fail("no finished games match")
    if plot is not None:
        from referee.ratings.plot import plot_ratings

        plot_ratings(tables, plot)
    if output_format == "table" and output is None:
        print_tables(tables, wide_console(), wide=True if wide else None)
        for line in _sprt_lines(paths):
            echo(line)
        return
    text = render(tables, "markdown" if output_format == "table" else output_format.value)
    if output is None:
        typer.echo(text, nl=not text.endswith("\n"))
    else:
        from referee.files import write_atomically

        with write_atomically(output) as file:
            file.write(text)


def export(
    paths: Annotated[
        list[Path],
        typer.Argument(help="tournament folders and record files; - for standard input"),
    ],
    output_format: Annotated[
        ExportFormat,
        typer.Option("--format", help="pgn (for Ordo, BayesElo) or csv, one row per game"),
    ] = ExportFormat["pgn"],
    output: Annotated[
        Path | None, typer.Option("--output", "-o", help="the file to write (default: stdout)")
    ] = None,
) -> None:
    """Every game's players and result, for other rating programs (seat 0 is White)."""
    from referee.cli.inputs import spooled
    from referee.files import write_atomically
    from referee.ratings.export import export_results

    with spooled(paths) as given:
        if output is None:
            count = export_results(given, output_format.value, sys.stdout)
        else:
            # Whole or not at all: bad input or a full disk never leaves a partial export.
            with write_atomically(output, newline="") as stream:
                count = export_results(given, output_format.value, stream)
    if output is not None:
        echo(f"{plural(count, 'game')} written to {output}")


def _adjusted(
    games: Games,
    options: RatingOptions,
    given: list[Path],
    engine: str | None,
    analysis: list[Path],
    jobs: int,
) -> tuple[Games, RatingOptions]:
    """The games with their luck-adjusted results, and the options naming the references."""
    from dataclasses import replace

    from referee.analysis.adjusted import LuckAdjustment
    from referee.cli.progress import FileProgress
    from referee.path_names import ANALYSIS_FILE

    folders = [path / ANALYSIS_FILE for path in given if path.is_dir()]
    stored = [*analysis, *(path for path in folders if path.is_file())]
    luck = LuckAdjustment(games, engine, stored)
    if luck.files:
        with FileProgress(len(luck.files), games=True) as progress:
            luck.analyse(jobs, progress.seen)
    return luck.games(), replace(options, references=tuple(luck.references.items()))


def _sprt_lines(paths: list[Path]) -> list[str]:
    """The SPRT result of each tournament folder among `paths` that ran one."""
    from referee.games.base import GameError
    from referee.tournament.config import ConfigError
    from referee.tournament.sequential import sprt_status
    from referee.tournament.store import TournamentStore

    lines = []
    for path in paths:
        store = TournamentStore(path)
        if str(path) == STDIN or not store.exists():
            continue
        try:
            info = store.load()
            state = (
                sprt_status(info, store.tally(results=True).results, store.directory)
                if info.config.sprt
                else None
            )
        except (ConfigError, GameError):  # the table above is made; the test is extra
            continue
        if state is not None:
            lines.append(f"{path}: {state.text()}")
    return lines


def _anchors(given: list[str], rating: float) -> tuple[tuple[str, float], ...]:
    anchors = []
    for item in given:
        name, equals, value = item.rpartition("=") if "=" in item else (item, "", "")
        if not equals:
            anchors.append((item, rating))
            continue
        try:
            anchors.append((name, float(value)))
        except ValueError:
            fail(f"--anchor {quoted(item)}: the rating after '=' must be a number")
    return tuple(anchors)


def _advantage(text: str) -> float | None:
    if text == "fit":
        return None
    try:
        return float(text)
    except ValueError:
        fail(f"--seat-advantage {quoted(text)}: give fit, 0, or a number of Elo points")


def print_standings(folder: Path) -> None:
    """The standings of one tournament, as a tournament run ends (the defaults of
    `referee ratings`, so that both show the same intervals)."""
    from referee.ratings.output import print_tables
    from referee.ratings.results import read_games
    from referee.ratings.table import RatingOptions, build_tables

    tables = build_tables(read_games([folder]), RatingOptions())
    print_tables(tables, wide_console(), details=False)


def register(app: typer.Typer) -> None:
    app.command()(ratings)
    app.command()(export)
