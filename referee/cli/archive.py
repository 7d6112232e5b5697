"""Commands on archives of records: select (filter, deduplicate, sample, split) and stats."""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from referee.archive.choices import STATS_OUTPUTS, SplitBy
from referee.bounds import MAX_GAMES, MAX_TURNS
from referee.cli.output import echo, fail, warn
from referee.path_names import STDOUT
from referee.records.reasons import Reason
from referee.wording import plural

if TYPE_CHECKING:
    from referee.archive.positions import PositionQuery

Inputs = Annotated[
    list[str],
    typer.Argument(help="record files or folders, any format; - for stdin", metavar="IN..."),
]
Names = Annotated[list[str] | None, typer.Option()]
# The choices are the registry's names (mypy sees no member of an enum made from them).
StatsFormat = StrEnum(  # type: ignore[misc]
    "StatsFormat", [(name, name) for name in STATS_OUTPUTS.names()]
)


def _report(line: str) -> None:
    warn(f"left out: {line}")


def select(
    paths: Inputs,
    out: Annotated[
        str,
        typer.Option(
            "--output",
            "-o",
            metavar="OUT",
            help="the file to write (- for stdout), or the folder of --split-by",
        ),
    ] = STDOUT,
    format: Annotated[
        str | None,
        typer.Option(
            metavar="FORMAT",
            help="the format to write; by default from OUT's extension (stdout: jsonl)",
        ),
    ] = None,
    game: Annotated[
        list[str] | None, typer.Option("--game", "-g", metavar="GAME", help="only this game")
    ] = None,
    variant: Annotated[
        list[str] | None, typer.Option(metavar="VARIANT", help="only this variant")
    ] = None,
    player: Annotated[
        list[str] | None, typer.Option(metavar="NAME", help="games NAME played, either seat")
    ] = None,
    seat0: Annotated[
        str | None, typer.Option(metavar="NAME", help="games with NAME on seat 0")
    ] = None,
    seat1: Annotated[
        str | None, typer.Option(metavar="NAME", help="games with NAME on seat 1")
    ] = None,
    winner: Annotated[
        str | None, typer.Option(metavar="NAME|seat0|seat1|draw", help="who won")
    ] = None,
    reason: Annotated[list[Reason] | None, typer.Option(help="how the game ended")] = None,
    detail: Annotated[
        list[str] | None,
        typer.Option(metavar="TEXT", help="TEXT in the result's detail: line, loop, ..."),
    ] = None,
    turns: Annotated[
        str | None, typer.Option(metavar="MIN..MAX", help="turns (either end open)")
    ] = None,
    event: Annotated[
        list[str] | None,
        typer.Option(metavar="TEXT", help="TEXT in the event's name or tournament id"),
    ] = None,
    tag: Annotated[list[str] | None, typer.Option(metavar="KEY=VALUE", help="a tag")] = None,
    valid: Annotated[
        bool | None, typer.Option("--valid/--invalid", help="games that replay (or not)")
    ] = None,
    position: Annotated[
        str | None,
        typer.Option(
            metavar="POS",
            help="games through a position: Thai FEN, Takhteh Position ID, Trax moves, "
            "THAX 11200/01000 1",
        ),
    ] = None,
    symmetric: Annotated[
        bool, typer.Option("--symmetric", help="Trax --position up to rotation and reflection")
    ] = False,
    moves: Annotated[
        str | None,
        typer.Option(
            metavar="PREFIX",
            help="games opening with these moves: '25-21 5-9', or plies split by ; "
            "(THAX, Takhteh: 'P3 P5; T5>3')",
        ),
    ] = None,
    any_of: Annotated[bool, typer.Option("--any", help="keep games that pass any filter")] = False,
    dedupe: Annotated[
        bool,
        typer.Option(
            "--dedupe", help="drop games with the same game, ruleset, start, rolls and moves"
        ),
    ] = False,
    first: Annotated[
        int | None,
        typer.Option(min=1, max=MAX_GAMES, metavar="N", help="keep the first N games that pass"),
    ] = None,
    sample: Annotated[
        int | None,
        typer.Option(
            min=1,
            max=MAX_GAMES,
            metavar="N",
            help="keep N games drawn at random from those that pass",
        ),
    ] = None,
    seed: Annotated[str, typer.Option(metavar="S", help="the seed of --sample")] = "0",
    split_by: Annotated[
        SplitBy | None, typer.Option(help="write one file per value into the folder OUT")
    ] = None,
) -> None:
    """Select games from an archive by header, result, length, position or opening.

    Counts of games read, kept and dropped go to stderr. Exit 0, or 1 when some games could
    not be read, 2 when the command is given wrong.
    """
    from referee.archive.filters import Criteria, TurnRange, moves_query, parse_tag
    from referee.archive.select import (
        Counts,
        Plan,
        Seen,
        output_format,
        selected,
        split_selected,
        unknown_names,
        write_selected,
    )

    counts = Counts()
    if first is not None and sample is not None:
        fail("give --first or --sample, not both")
    criteria = Criteria(
        games=frozenset(game or ()),
        variants=frozenset(variant or ()),
        players=tuple(player or ()),
        seat0=seat0,
        seat1=seat1,
        winner=winner,
        reasons=frozenset(r.value for r in reason or ()),
        details=tuple(detail or ()),
        turns=TurnRange.parse(turns) if turns is not None else None,
        events=tuple(event or ()),
        tags=tuple(parse_tag(text) for text in tag or ()),
        valid=valid,
        position=_position(position, game, variant, symmetric),
        moves=moves_query(moves, game or (), variant or ()) if moves is not None else None,
        any_of=any_of,
    )
    file_format = output_format(out, format, split_by is not None)
    plan = Plan(criteria, dedupe, first, sample, seed, file_format)
    # The names of the games read are gathered only for a filter that names a player or event.
    seen = Seen() if criteria.player_names() or criteria.events else None
    entries = selected(paths, plan, counts, _report, seen)
    if split_by is not None:
        split_selected(entries, out, split_by, file_format, counts, _report)
    else:
        write_selected(entries, out, file_format, counts, _report)
    for note in unknown_names(paths, criteria, seen) if seen is not None else ():
        echo(f"note: {note}", err=True)
    echo(counts.summary(), err=True)
    raise typer.Exit(1 if counts.unreadable else 0)


def _position(
    text: str | None, games: list[str] | None, variants: list[str] | None, symmetric: bool
) -> PositionQuery | None:
    from referee.archive.filters import FilterError
    from referee.archive.positions import position_query

    if text is None:
        if symmetric:
            raise FilterError("--symmetric goes with --position")
        return None
    game = games[0] if games and len(games) == 1 else None
    variant = variants[0] if variants and len(variants) == 1 else "standard"
    return position_query(text, game, variant, symmetric)


def stats(
    paths: Inputs,
    output_format: Annotated[
        StatsFormat, typer.Option("--format", help="output format")
    ] = StatsFormat["text"],
    plies: Annotated[
        int, typer.Option(min=1, max=MAX_TURNS, help="length of the openings counted")
    ] = 2,
    openings: Annotated[
        int, typer.Option(min=0, max=MAX_GAMES, help="most common openings shown")
    ] = 10,
    plot: Annotated[Path | None, typer.Option(help="draw the turn counts as a PNG")] = None,
    output: Annotated[Path | None, typer.Option("--output", "-o", help="write to a file")] = None,
) -> None:
    """Per game and variant: results by seat, the first mover's score with its 95% interval,
    reasons, game lengths, the common openings and each player's score."""
    from referee.archive.stats import collect_stats, render_stats

    errors: list[str] = []
    summary = collect_stats(paths, plies, lambda line: errors.append(line))
    if not summary.groups:
        # Nothing to show: the error is one line, with the first game's reason.
        more = max(len(errors) - 1, 0)
        others = f"; {plural(more, 'other game')} too (referee validate lists them)"
        fail("no game read" + (f": {errors[0]}" if errors else "") + (others if more else ""))
    for line in errors:
        warn(f"left out: {line}")
    text = render_stats(summary, output_format, openings)
    if plot is not None:
        from referee.archive.plot import plot_turns

        plot_turns(summary, plot)
    if output is None:
        typer.echo(text, nl=not text.endswith("\n"))
    else:
        from referee.files import write_atomically

        with write_atomically(output) as file:
            file.write(text)
    raise typer.Exit(1 if errors else 0)


def register(app: typer.Typer) -> None:
    app.command()(select)
    app.command()(stats)
