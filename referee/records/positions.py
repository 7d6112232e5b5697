"""Positions for the engine tools: from a game's own position text, or from a record's turn."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from referee.games import get_game
from referee.games.base import Game, NotationError, State, chance_children
from referee.wording import plural


def parse_roll(text: str) -> tuple[int, ...]:
    """`31`, `3-1` or `3,1`."""
    digits = re.sub(r"[\s,\-]", "", text)
    if not re.fullmatch(r"[1-6]{2}", digits):
        raise NotationError(f"a roll is two dice of 1..6 such as 31, not {text!r}")
    return tuple(int(d) for d in digits)


def roll_text(roll: tuple[int, ...]) -> str:
    """A roll as the tools print it: `31`."""
    return "".join(str(die) for die in roll)


def after_opening(state: State[Any]) -> State[Any]:
    """The first turn of a dice game: the opening roll decides who starts (and is not played),
    so the first player's turn is the same whoever wins it; it is shown as the first seat's."""
    if not state.is_opening_roll():
        return state
    return next(child for child in chance_children(state) if child.to_move == 0)


def _rolled(state: State[Any], roll: str | None) -> State[Any]:
    if roll is None:
        return state
    if not state.is_chance():
        raise NotationError("--roll given, but the position does not wait for dice")
    return state.apply_chance(parse_roll(roll))


def position_from_text(
    game_name: str, variant: str, text: str | None, roll: str | None
) -> tuple[Game[Any, Any], State[Any]]:
    """The start of the game, or the position `text` in the game's notation; then the roll.

    With a roll at the start of a dice game, the roll is the first player's first turn.
    """
    game = get_game(game_name)
    ruleset = game.ruleset(variant)
    state = game.initial_state(ruleset) if text is None else game.parse_position(ruleset, text)
    if roll is not None:
        state = after_opening(state)
    return game, _rolled(state, roll)


def position_from_record(
    path: Path,
    game_number: int,
    turn: int | None,
    roll: str | None,
    game_name: str | None = None,
    recorded_roll: bool = False,
) -> tuple[Game[Any, Any], State[Any]]:
    """The position after `turn` turns (None: all of them) of game `game_number` (1-based) of
    a record file, rolled with `roll` when given, or with `recorded_roll` with the roll the
    record holds for the next turn. `game_name`, when given, must be the record's game."""
    # Imported here: the engine tools on a position of their own need no record machinery.
    from referee.records.formats import detect_stream
    from referee.records.io import RecordError
    from referee.records.replay import ReplayError, game_of, replay, start_state

    with path.open("rb") as raw:
        file_format, stream = detect_stream(path, raw)
        if file_format is None:
            raise RecordError(f"{path}: not a record file referee reads", code="format")
        games = 0
        for loaded in file_format.read(stream):
            games = loaded.number
            if loaded.number != game_number:
                continue
            if loaded.record is None:
                assert loaded.error is not None
                raise RecordError(
                    f"{path}: game {game_number}: {loaded.error}", code=loaded.error.code
                )
            record = loaded.record
            if game_name is not None and record.game != game_name:
                raise RecordError(
                    f"{path}: game {game_number} is a {record.game} game, not {game_name}",
                    code="game",
                )
            if turn is None:
                turn = len(record.turns)
            if not 0 <= turn <= len(record.turns):
                turns = len(record.turns)
                raise RecordError(
                    f"{path}: game {game_number} has {turns} turn{'' if turns == 1 else 's'}, "
                    f"not {turn}",
                    code="turn",
                )
            try:
                game = game_of(record)
                state = start_state(record, game)
                for step in replay(record, game, state):
                    if step.turn == turn:
                        break
                    state = step.after
            except ReplayError as error:
                raise RecordError(f"{path}: game {game_number}: {error}", code=error.code) from None
            if recorded_roll and roll is None and state.is_chance() and turn < len(record.turns):
                recorded = record.turns[turn].roll
                roll = None if recorded is None else roll_text(tuple(recorded))
            return game, _rolled(state, roll)
    held = plural(games, "game")
    raise RecordError(f"{path}: game {game_number} not found: the file has {held}", code="game")
