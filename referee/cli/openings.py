"""`referee openings`: write an opening suite for tournaments."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from referee.bounds import MAX_OPENING_PLIES
from referee.cli.output import echo, fail
from referee.wording import plural


def openings(
    game: Annotated[str | None, typer.Option("--game", "-g", help="trax or thai")] = None,
    plies: Annotated[
        int, typer.Option(min=1, max=MAX_OPENING_PLIES, help="moves from the start in each opening")
    ] = 2,
    variant: Annotated[str, typer.Option(help="the variant")] = "standard",
    symmetric: Annotated[
        bool,
        typer.Option(
            "--symmetric/--no-symmetric",
            help="Trax: keep one of the positions that are rotations or reflections of another",
        ),
    ] = True,
    out: Annotated[
        Path | None, typer.Option("--out", "-o", help="the suite file (default: standard output)")
    ] = None,
    list_shipped: Annotated[
        bool,
        typer.Option(
            "--list", help="list the suites shipped with referee, by the name --openings takes"
        ),
    ] = False,
) -> None:
    """List every distinct opening of N plies, one a line, for `tournament run --openings`;
    --list names the suites shipped with referee."""
    from referee.games import get_game
    from referee.tournament.openings import all_openings, shipped_suites, suite_lines

    if list_shipped:
        for name, suite in shipped_suites().items():
            typer.echo(f"{name}\t{len(suite_lines(suite))} openings")
        return
    if game is None:
        fail("give --game (or --list)")
    engine = get_game(game)
    ruleset = engine.ruleset(variant)
    found = all_openings(engine, ruleset, plies, symmetric)
    kind = ", up to rotation and reflection" if symmetric and engine.symmetric_positions else ""
    lines = [
        f"# {engine.title} ({ruleset.id}): every distinct position after "
        f"{plural(plies, 'ply', 'plies')} where the side to move cannot win at once{kind}; "
        f"{plural(len(found), 'opening')}",
        f"# made by: referee openings --game {game} --plies {plies}"
        + ("" if symmetric else " --no-symmetric"),
        *(opening.text() for opening in found),
    ]
    text = "\n".join(lines) + "\n"
    if out is None:
        typer.echo(text, nl=False)
        return
    from referee.files import write_atomically

    with write_atomically(out) as file:
        file.write(text)
    echo(f"{plural(len(found), 'opening')} written to {out}", err=True)


def register(app: typer.Typer) -> None:
    app.command()(openings)
