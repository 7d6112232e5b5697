"""Engine tools for bot authors: legal moves of a position, move-sequence counts, the bots."""

from __future__ import annotations

import json
import time
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from referee.bounds import MAX_GAMES, MAX_PERFT_DEPTH, MAX_TURNS
from referee.cli.output import echo, fail
from referee.games import GAME_NAMES

if TYPE_CHECKING:
    from referee.games.base import Game, State

GAMES = ", ".join(GAME_NAMES)
"""The built-in games by name, for the help (which needs no engine imported)."""

GameOption = Annotated[str, typer.Option("--game", "-g", help=f"the game: one of {GAMES}")]
VariantOption = Annotated[str, typer.Option(help="the variant, e.g. 8x8 or looptrax")]
PositionOption = Annotated[
    str | None,
    typer.Option(
        "--position",
        "--fen",
        "--position-id",
        "--moves",
        metavar="TEXT",
        help="the position in the game's own notation (--position, --fen, --position-id or "
        "--moves): a Thai PDN FEN, a Takhteh Position ID, Trax moves such as '@0+ B1/'  "
        "[default: the start]",
    ),
]
RollOption = Annotated[
    str | None,
    typer.Option(
        help="the dice, e.g. 31, when a roll is due; at the start of THAX or Takhteh, the "
        "first player's first roll (the opening roll only decides who starts)"
    ),
]


class MoveFormat(StrEnum):
    notation = "notation"
    position = "position"
    position_id = "position-id"


def _position(
    game_name: str | None,
    variant: str,
    position: str | None,
    roll: str | None,
    record: Path | None,
    turn: int,
    game_number: int,
) -> tuple[Game[Any, Any], State[Any]]:
    from referee.records.positions import position_from_record, position_from_text

    if record is not None:
        if position is not None:
            fail("give either --record or a position, not both")
        return position_from_record(
            record, game_number, turn, roll, game_name=game_name, recorded_roll=True
        )
    return position_from_text(game_name or GAME_NAMES[0], variant, position, roll)


def moves(
    game: Annotated[
        str | None,
        typer.Option(
            "--game",
            "-g",
            help=f"the game: one of {GAMES}; with --record it must be the record's  "
            f"[default: {GAME_NAMES[0]}, or the record's game]",
        ),
    ] = None,
    variant: VariantOption = "standard",
    position: PositionOption = None,
    roll: RollOption = None,
    record: Annotated[
        Path | None,
        typer.Option("--record", help="take the position from a record file; - for stdin"),
    ] = None,
    turn: Annotated[
        int,
        typer.Option(
            min=0, max=MAX_TURNS, help="with --record: the position after this many turns"
        ),
    ] = 0,
    game_number: Annotated[
        int,
        typer.Option(
            "--game-number",
            min=1,
            max=MAX_GAMES,
            help="with --record: which game of the file, from 1",
        ),
    ] = 1,
    output_format: Annotated[
        MoveFormat,
        typer.Option("--format", help="print each move's notation, or the position it leads to"),
    ] = MoveFormat.notation,
) -> None:
    """Print every legal move of a position, one per line.

    Where dice are due (the start of THAX or Takhteh without --roll), each line is a roll and
    a move of it, for every roll.
    """
    from referee.cli.inputs import spooled
    from referee.records.positions import after_opening, roll_text

    with spooled([record] if record else []) as given:
        engine, state = _position(
            game, variant, position, roll, given[0] if given else None, turn, game_number
        )
        if state.is_chance():
            state = after_opening(state)
            for dice, _ in state.chance_outcomes():
                rolled = state.apply_chance(dice)
                for move in rolled.legal_moves():
                    text = _move_text(engine, rolled, move, output_format)
                    typer.echo(f"{roll_text(dice)}\t{text}")
            return
        for move in state.legal_moves():
            typer.echo(_move_text(engine, state, move, output_format))


def _move_text(
    engine: Game[Any, Any], state: State[Any], move: object, output_format: MoveFormat
) -> str:
    if output_format is MoveFormat.notation:
        return engine.format_move(state, move)
    return engine.format_position(state.play(move))


def perft(
    depth: Annotated[
        int, typer.Option(min=1, max=MAX_PERFT_DEPTH, help="number of moves to look ahead")
    ],
    game: GameOption = GAME_NAMES[0],
    variant: VariantOption = "standard",
    position: PositionOption = None,
    roll: RollOption = None,
) -> None:
    """Count the move sequences of each depth from the start or a given position.

    A roll is a chance event: each distinct roll is a branch and uses no depth.
    """
    from referee.games.base import perft_counts
    from referee.records.positions import position_from_text

    _, state = position_from_text(game, variant, position, roll)
    started = time.perf_counter()
    counts = perft_counts(state, depth)
    elapsed = time.perf_counter() - started
    for level, count in enumerate(counts, 1):
        typer.echo(f"{level}\t{count}")
    typer.echo(f"time\t{elapsed:.2f}s", err=True)


def bots(
    game: Annotated[
        str | None, typer.Option("--game", "-g", help="only this game  [default: every game]")
    ] = None,
    json_output: Annotated[
        bool, typer.Option("--json", help="one JSON object, for other tools (docs/bots.md)")
    ] = False,
) -> None:
    """List the built-in bots of each game with their options."""
    from referee.games import game_names, get_game
    from referee.players.registry import describe_bots

    names = [get_game(game).name] if game else list(game_names())
    if json_output:
        listing = [
            {
                "game": name,
                "bots": [
                    {"name": info.name, "description": info.description, "options": info.defaults}
                    for info in describe_bots(name)
                ],
            }
            for name in names
        ]
        typer.echo(json.dumps({"games": listing}, indent=2))
        return
    for name in names:
        echo(f"{name}:")
        for info in describe_bots(name):
            options = ", ".join(f"{key}={value}" for key, value in info.options.items())
            suffix = f"  [{options}]" if options else ""
            # Continued lines start under the description.
            echo(f"  {info.name:<12} {info.description}{suffix}", indent=" " * 15)


def register(app: typer.Typer) -> None:
    app.command()(moves)
    app.command()(perft)
    app.command()(bots)
