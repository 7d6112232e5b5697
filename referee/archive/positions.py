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
from referee.games.trax.rules import TraxState
from referee.games.trax.symmetry import shape, symmetric_shape
from referee.records.model import Record
from referee.records.replay import ReplayError, game_of, replay, start_state

Key = Callable[[Any], Hashable]
"""What makes a position of one game, from a state of that game (chosen by the game's name, so
the state's class is known only at run time)."""


def _trax_key(symmetric: bool) -> Key:
    """The seat to move, the number of tiles and their shape (the notation's move list depends
    on the order the tiles were laid in; the shape does not). The count comes first so that
    a position with another number of tiles is told apart without working out its shape."""
    of_shape = symmetric_shape if symmetric else shape

    def key(state: TraxState) -> Hashable:
        return state.seat, len(state.tiles), _Lazy(of_shape, state)

    return key


class _Lazy:
    """A shape computed only when compared with another (equal seats and tile counts)."""

    __slots__ = ("make", "state", "value")

    def __init__(self, make: Callable[[TraxState], Hashable], state: TraxState) -> None:
        self.make, self.state = make, state
        self.value: Hashable | None = None

    def get(self) -> Hashable:
        if self.value is None:
            self.value = self.make(self.state)
        return self.value

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Lazy) and self.get() == other.get()

    def __hash__(self) -> int:
        return hash(self.get())


KEYS: dict[str, Key] = {
    "thax": lambda state: (state.sides, state.seat),
    "takhteh": lambda state: state.board,
    "thai": lambda state: (state.turn, state.black, state.white, state.kings),
}
"""What makes a position in the other games, read from the state without writing its text:
the THAX sides and seat to roll, the Takhteh board seen from the player on roll (what its
Position ID encodes), the Thai pieces and player to move (its FEN). None of them says how the
position was reached, and none holds the dice already rolled. A plug-in game's key is its
position text."""


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
    if symmetric and name != "trax":
        raise GameError("--symmetric is for Trax positions")
    key = _trax_key(symmetric) if name == "trax" else KEYS.get(name, get_game(name).format_position)
    return PositionQuery(name, key(state), key)
