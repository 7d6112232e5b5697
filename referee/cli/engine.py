"""Engine tools for bot authors: legal moves of a position, move-sequence counts, the bots."""

from __future__ import annotations

import time
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from referee.bots.registry import describe_bots
from referee.cli.output import fail, user_errors
from referee.games import GAME_NAMES, get_game
from referee.games.base import perft_counts
from referee.records.positions import position_from_record, position_from_text

GameOption = Annotated[str, typer.Option("--game", "-g", help=f"one of {', '.join(GAME_NAMES)}")]
VariantOption = Annotated[str, typer.Option(help="the variant, e.g. 8x8 or looptrax")]
PositionOption = Annotated[
    str | None,
    typer.Option(
        "--position",
        "--fen",
        "--position-id",
        "--moves",
        help="the position in the game's own notation: a Thai PDN FEN, a Takhteh Position ID, "
        "Trax moves such as '@0+ B1/'",
    ),
]
RollOption = Annotated[str | None, typer.Option(help="the dice, e.g. 31, when a roll is due")]
RecordOption = Annotated[
    Path | None, typer.Option("--record", help="take the position from a record file")
]
TurnOption = Annotated[int, typer.Option(help="with --record: the position after this turn")]
GameNumberOption = Annotated[
    int, typer.Option("--game-number", help="with --record: which game of the file")
]


class MoveFormat(StrEnum):
    notation = "notation"
    position = "position"
    position_id = "position-id"


def _position(
    game_name: str,
    variant: str,
    position: str | None,
    roll: str | None,
    record: Path | None,
    turn: int,
    game_number: int,
):
    if record is not None:
        if position is not None:
            fail("give either --record or a position, not both")
        return position_from_record(record, game_number, turn, roll)
    return position_from_text(game_name, variant, position, roll)


def moves(
    game: GameOption = "thax",
    variant: VariantOption = "standard",
    position: PositionOption = None,
    roll: RollOption = None,
    record: RecordOption = None,
    turn: TurnOption = 0,
    game_number: GameNumberOption = 1,
    format: Annotated[
        MoveFormat,
        typer.Option(help="print each move's notation, or the position it leads to"),
    ] = MoveFormat.notation,
) -> None:
    """Print every legal move of a position, one per line."""
    with user_errors():
        engine, state = _position(game, variant, position, roll, record, turn, game_number)
        if state.is_chance():
            fail("the position waits for a dice roll: give --roll")
        for move in state.legal_moves():
            if format is MoveFormat.notation:
                typer.echo(engine.format_move(state, move))
            else:
                typer.echo(engine.format_position(state.play(move)))


def perft(
    depth: Annotated[int, typer.Option(min=1, help="number of moves to look ahead")],
    game: GameOption = "thax",
    variant: VariantOption = "standard",
    position: PositionOption = None,
    roll: RollOption = None,
) -> None:
    """Count the move sequences of each depth from the start or a given position.

    A roll is a chance event: each distinct roll is a branch and uses no depth.
    """
    with user_errors():
        _, state = position_from_text(game, variant, position, roll)
        started = time.perf_counter()
        counts = perft_counts(state, depth)
        elapsed = time.perf_counter() - started
    for level, count in enumerate(counts, 1):
        typer.echo(f"{level}\t{count}")
    typer.echo(f"time\t{elapsed:.2f}s", err=True)


def bots(
    game: Annotated[str | None, typer.Option("--game", "-g", help="only this game")] = None,
) -> None:
    """List the built-in bots of each game with their options."""
    with user_errors():
        names = [get_game(game).name] if game else list(GAME_NAMES)
        for name in names:
            typer.echo(f"{name}:")
            for info in describe_bots(name):
                options = ", ".join(f"{key}={value}" for key, value in info.options.items())
                suffix = f"  [{options}]" if options else ""
                typer.echo(f"  {info.name:<12} {info.description}{suffix}")


def register(app: typer.Typer) -> None:
    app.command()(moves)
    app.command()(perft)
    app.command()(bots)
