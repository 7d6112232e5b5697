"""Replaying a record through its game's engine, turn by turn."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any, Generic, NamedTuple, Protocol, overload

from referee.errors import RefereeError
from referee.games import get_game
from referee.games.base import (
    Game,
    GameError,
    IllegalMove,
    NotationError,
    Outcome,
    S,
    State,
    TurnText,
)
from referee.records.model import Result


class GameLog(Protocol):
    """What a replay reads of a record: a record of the model (`records.model.Record`), or one
    read whole without it (`records.scan.read_whole`)."""

    @property
    def game(self) -> str: ...
    @property
    def ruleset(self) -> str: ...
    @property
    def start(self) -> str | None: ...
    @property
    def turns(self) -> Sequence[TurnText]: ...
    def first_seat(self) -> int | None: ...
    def opening_dice(self) -> Sequence[Sequence[int]]: ...


class ReplayError(RefereeError):
    """Where and why a record stops replaying."""

    def __init__(
        self,
        message: str,
        *,
        code: str,
        pointer: str = "",
        turn: int | None = None,
        state: State[Any] | None = None,
    ) -> None:
        super().__init__(message, code=code)
        self.pointer = pointer
        self.turn = turn
        """0-based index of the turn in the record, None for the header."""
        self.state = state
        """The position before the bad turn."""


class Step(NamedTuple, Generic[S]):
    """One turn replayed (a named tuple: made for every move, it must be cheap to build; the
    replay builds it with `tuple.__new__`, which skips the Python `__new__` a named tuple's
    call runs, half of its cost)."""

    turn: int
    """The index of the turn in the record."""
    before: S
    """The position after the roll, when there is one, and before the move."""
    move: Any
    after: S


_new_tuple = tuple.__new__


def game_of(record: GameLog) -> Game[Any, Any]:
    try:
        return get_game(record.game)
    except GameError as error:
        raise ReplayError(str(error), code="ruleset", pointer="/game") from None


@overload
def start_state(record: GameLog) -> State[Any]: ...
@overload
def start_state(record: GameLog, game: Game[S, Any]) -> S: ...
def start_state(record: GameLog, game: Game[Any, Any] | None = None) -> State[Any]:
    """The position before the first turn, after the opening rolls."""
    game = game or game_of(record)
    try:
        ruleset = game.parse_ruleset(record.ruleset)
    except GameError as error:
        raise ReplayError(str(error), code="ruleset", pointer="/ruleset") from None
    try:
        state: State[Any] = game.initial_state(ruleset, record.start, record.first_seat())
    except GameError as error:
        raise ReplayError(f"start position: {error}", code="start", pointer="/start") from None
    for index, roll in enumerate(record.opening_dice()):
        pointer = f"/opening_rolls/{index}"
        if not state.is_opening_roll():
            raise ReplayError(
                "an opening roll after the first player was decided",
                code="opening",
                pointer=pointer,
            )
        state = state.apply_chance(tuple(roll))
    return state


@overload
def replay(record: GameLog) -> Iterator[Step[Any]]: ...
@overload
def replay(record: GameLog, game: Game[S, Any], start: S | None = None) -> Iterator[Step[S]]: ...
def replay(
    record: GameLog, game: Game[Any, Any] | None = None, start: State[Any] | None = None
) -> Iterator[Step[Any]]:
    """Each turn of the record played on the engine; raises ReplayError at a bad turn.
    Given the game, the steps hold its own state class; given `start`, the record's
    `start_state` (a caller that needs it before the first turn), it is not worked out again."""
    game = game or game_of(record)
    state = start_state(record, game) if start is None else start
    read, dice = game.read_move, game.has_dice
    # Whether the game has ended is asked before each turn, or, where the engine refuses
    # every move after the end itself (`Game.moves_refused_after_end`), only when a turn
    # fails: the same report either way, without working out each position's end (whether
    # the player to move has a move, in Thai checkers) when the next move shows it has not.
    end_first = not game.moves_refused_after_end
    for index, turn in enumerate(record.turns):
        if end_first and state.is_terminal():
            raise _after_end(index, state)
        before = state
        try:
            roll, seat = turn.roll, turn.seat
            if dice and state.is_chance():
                mover = state.to_move
                if mover is None:
                    message = "the opening rolls do not decide who starts"
                    raise _turn_error(index, state, message, code="opening")
                if seat != mover:
                    raise _seat_error(seat, state, index)
                if roll is None:
                    message = "a turn of a dice game needs its roll"
                    raise _turn_error(index, state, message, code="roll-missing")
                try:
                    state = state.apply_chance(tuple(roll))
                except IllegalMove as error:
                    raise _turn_error(
                        index, state, error.message, code=error.code, field="/roll"
                    ) from None
            elif roll is not None:
                why = "the player moves on without rolling" if dice else f"{game.title} has no dice"
                message = f"a roll where none belongs: {why}"
                raise _turn_error(index, state, message, code="roll-unexpected", field="/roll")
            if seat != state.to_move:
                raise _seat_error(seat, state, index)
            try:
                move, after = read(state, turn.move)
            except NotationError as error:
                raise _turn_error(
                    index, state, error.message, code="notation", field="/move"
                ) from None
            except IllegalMove as error:
                raise _turn_error(
                    index, state, error.message, code=error.code, field="/move"
                ) from None
        except ReplayError:
            if not end_first and before.is_terminal():
                raise _after_end(index, before) from None
            raise
        yield _new_tuple(Step, (index, state, move, after))
        state = after


def _turn_error(
    index: int, state: State[Any], message: str, *, code: str, field: str = ""
) -> ReplayError:
    return ReplayError(
        message, code=code, pointer=f"/turns/{index}{field}", turn=index, state=state
    )


def _after_end(index: int, state: State[Any]) -> ReplayError:
    return _turn_error(index, state, "a turn after the game ended by its rules", code="after-end")


def _seat_error(seat: int, state: State[Any], index: int) -> ReplayError:
    message = f"seat {seat} moves, but it is seat {state.to_move}'s turn"
    return _turn_error(index, state, message, code="seat", field="/seat")


def final_state(record: GameLog, game: Game[Any, Any] | None = None) -> State[Any]:
    """The position after the record's last turn; raises ReplayError at a bad turn, as
    `replay` does. The turns are played at once (`Game.play_turns`), and replayed step by
    step only when that stops, to say where and why."""
    game = game or game_of(record)
    state: State[Any] = start_state(record, game)
    played: State[Any] | None = game.play_turns(state, record.turns)
    if played is not None:
        return played
    for step in replay(record, game, state):
        state = step.after
    return state


def result_of(outcome: Outcome) -> Result:
    return Result(
        winner=outcome.winner,
        points=outcome.points,
        reason=outcome.reason,  # type: ignore[arg-type]
        detail=outcome.detail or None,
    )
