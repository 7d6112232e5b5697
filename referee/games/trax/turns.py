"""A record's turns played on one board (`Game.play_turns`): the validator's way through a
game, which needs its end, not a state a turn."""

from __future__ import annotations

from collections.abc import Sequence

from referee.games.base import GameError, TurnText
from referee.games.trax.notation import read_token
from referee.games.trax.rules import TraxState, advance, build_state, placed


def play_turns(state: TraxState, turns: Sequence[TurnText]) -> TraxState | None:
    """The state after `turns`, their moves read and played as `TraxGame.read_move` does, on
    copies of the board of `state` that each turn changes (`advance`): a replay's three
    copies of the board a turn, its states and its steps are left out. None at the first
    turn that does not simply play (out of turn, with a roll, after the end, refused, or
    naming a space that takes no tile: `TraxState.read` finds it by `locate`, which the
    replay then reports)."""
    if state.box is None:
        # The first tile fixes the orientation of the notation (`locate`): read as any move.
        if not turns:
            return state
        first = turns[0]
        if first.seat != state.seat or first.roll is not None or state.winner is not None:
            return None
        try:
            state = state.read(read_token(first.move))[1]
        except GameError:
            return None
        turns = turns[1:]
    tiles, codes, ends = state.tiles.copy(), state.codes.copy(), state.ends.copy()
    box, seat, winner, detail = state.box, state.seat, state.winner, state.detail
    assert box is not None
    history, limit, lines = state.history, state.limit, state.lines
    try:
        for turn in turns:
            if winner is not None or turn.seat != seat or turn.roll is not None:
                return None
            found = placed(box, codes, read_token(turn.move))
            if found is None:
                return None
            move, key = found
            box, winner, detail = advance(tiles, codes, ends, box, seat, key, move[2], limit, lines)
            history = (move, history)
            seat = 1 - seat
    except GameError:
        return None
    return build_state(
        state.ruleset, tiles, codes, ends, box, seat, winner, detail, history, limit, lines
    )
