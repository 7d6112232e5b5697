"""A record's turns played on one board (`Game.play_turns`): the validator's way through a
game, which needs its end, not a state a turn."""

from __future__ import annotations

from collections.abc import Sequence

from referee.games.base import GameError, TurnText
from referee.games.takhteh.notation import read_play
from referee.games.takhteh.rules import TakhtehState, build_state, play_on, turn_roll


def play_turns(state: TakhtehState, turns: Sequence[TurnText]) -> TakhtehState | None:
    """The state after `turns`, each its roll and its move read and played as the replay
    does (`apply_chance`, then `TakhtehGame.read_move`), on the board alone (`play_on`): the
    replay's two states a turn and its steps are left out. None at the first turn that does
    not simply play (out of turn, without its roll, after the end, refused), and from a
    state that does not wait for a turn's roll."""
    if state.to_move is None or not state.is_chance():
        return None
    board, seat = state.board, state.to_move
    last = len(turns) - 1
    try:
        for index, turn in enumerate(turns):
            dice = turn.roll
            if dice is None or turn.seat != seat:
                return None
            roll = turn_roll(dice)
            if roll is None:
                return None
            board, points = play_on(board, roll, read_play(board, roll, turn.move))
            if points:
                # The mover has borne off every checker: no turn may follow.
                if index != last:
                    return None
                return build_state(state.ruleset, board, 1 - seat, None, seat, points)
            seat = 1 - seat
    except GameError:
        return None
    return build_state(state.ruleset, board, seat)
