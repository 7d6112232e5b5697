"""Finding the games that pass through a position: the position read from the game's own
notation, every position of a game replayed, both compared in a form that forgets how the
position was reached."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any

from referee.escaping import quoted
from referee.games import game_names, get_game
from referee.games.base import GameError, State
from referee.records.model import Record
from referee.records.replay import ReplayError, game_of, replay, start_state

Key = Callable[[Any], Hashable]
"""What makes a position of one game, from a state of that game: the game's `position_key`
(the state's class is known only at run time)."""


@dataclass(frozen=True)
class PositionQuery:
    """A position to look for in games of `game`."""

    game: str
    target: Hashable
    key: Key

    def reached_by(self, record: Record) -> bool:
        """Whether the record's game passes through the position (before any turn, or after
        one); a record that stops replaying counts up to where it stops."""
        if record.game != self.game:
            return False
        key, target = self.key, self.target
        try:
            game = game_of(record)
            if key(start_state(record, game)) == target:
                return True
            for step in replay(record, game):
                if key(step.after) == target:
                    return True
        except ReplayError:
            return False
        return False


def position_query(
    text: str, game_name: str | None = None, variant: str = "standard", symmetric: bool = False
) -> PositionQuery:
    """The query for a position in a game's notation: a Thai PDN FEN, a Takhteh Position ID,
    Trax moves (`@0+ B1/`) or a THAX position (`11200/01000 1`). Without `game_name` the
    notation tells the game (GameError when it fits none, or more than one)."""
    names = [game_name] if game_name else list(game_names())
    found: list[tuple[str, State[Any]]] = []
    errors: list[str] = []
    for name in names:
        game = get_game(name)
        try:
            found.append((name, game.parse_position(game.ruleset(variant), text)))
        except GameError as error:
            errors.append(f"{name}: {error}")
    if len(found) != 1:
        if game_name:
            raise GameError(f"--position {quoted(text)}: {errors[0].partition(': ')[2]}")
        which = ", ".join(name for name, _ in found) or "no game"
        raise GameError(f"--position {quoted(text)} reads as a position of {which}: give --game")
    name, state = found[0]
    game = get_game(name)
    if symmetric and not game.symmetric_positions:
        titles = [get_game(n).title for n in game_names() if get_game(n).symmetric_positions]
        raise GameError(f"--symmetric is for {' and '.join(titles)} positions")

    def key(state: State[Any]) -> Hashable:
        return game.position_key(state, symmetric)

    return PositionQuery(name, key(state), key)
