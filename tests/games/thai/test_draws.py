"""The project's draw rules: threefold repetition (same player to move) and 60 plies with no
capture and no man move; and which comes first when a ply also leaves a player without moves."""

from __future__ import annotations

from collections import Counter

import pytest

from referee.games.base import IllegalMove
from referee.games.thai import BLACK, ThaiState
from referee.games.thai.rules import QUIET_PLY_LIMIT
from tests.games.thai.helpers import GAME, RULESET, play, position


def test_threefold_repetition_with_the_same_player_to_move_draws() -> None:
    state = position("B:WK1:BK32")
    cycle = ("32-27", "1-6", "27-32", "6-1")
    for _ in range(2):
        for text in cycle:
            assert state.outcome() is None
            state = play(state, text)
    assert state.repetitions() == 3
    outcome = state.outcome()
    assert outcome is not None
    assert (outcome.winner, outcome.points, outcome.detail) == (None, 0, "threefold repetition")
    assert state.legal_moves() == []
    with pytest.raises(IllegalMove) as caught:
        play(state, "32-27")
    assert caught.value.rule == "thai.game-over"


def test_a_board_seen_with_the_other_player_to_move_is_not_a_repetition() -> None:
    """Black loses a tempo on the 32-27-23 diagonal; White shuffles 1-6-1."""
    state = position("B:WK1:BK32")
    texts = ["32-27", "1-6", "27-23", "6-1", "23-32", "1-6"]
    texts += ["32-27", "6-1", "27-23", "1-6", "23-32", "6-1"]
    boards: Counter[tuple[int, int, int]] = Counter()
    positions: Counter[str] = Counter()
    mixed = False
    for text in [*texts, None]:
        boards[(state.black, state.white, state.kings)] += 1
        positions[GAME.format_position(state)] += 1
        mixed = mixed or max(boards.values()) >= 3 > max(positions.values())
        assert state.outcome() is None
        if text is not None:
            state = play(state, text)
    assert mixed, "the sequence must show a board three times with mixed players to move"


def _walk_kings(state: ThaiState, plies: int) -> ThaiState:
    """Play `plies` quiet king moves that repeat no position, so only the ply count grows."""
    for _ in range(plies):
        for move in state.legal_moves():
            if not (state.kings >> (move.origin - 1)) & 1:
                continue
            child = state.play(move)
            if not move.capture and child.repetitions() == 1 and not child.has_capture():
                state = child
                break
        else:
            raise AssertionError(f"no fresh quiet king move in {state!r}")
    return state


def test_sixty_plies_without_capture_or_man_move_draw() -> None:
    state = _walk_kings(position("B:WK1,K4:BK29,K32"), QUIET_PLY_LIMIT - 1)
    assert state.quiet_plies == QUIET_PLY_LIMIT - 1
    assert state.outcome() is None
    state = _walk_kings(state, 1)
    outcome = state.outcome()
    assert outcome is not None
    assert outcome.winner is None
    assert outcome.detail == "60 plies without a capture or a man move"


def test_a_man_move_starts_the_count_again() -> None:
    state = _walk_kings(position("B:WK1,K4,5:BK29,K32,28"), QUIET_PLY_LIMIT - 2)
    assert state.quiet_plies == QUIET_PLY_LIMIT - 2
    man = next(m for m in state.legal_moves() if not (state.kings >> (m.origin - 1)) & 1)
    state = state.play(man)
    assert state.quiet_plies == 0
    assert state.history == ()


def test_a_capture_starts_the_count_again() -> None:
    state = position("B:WK18,3:BK29,K32")
    state = ThaiState(RULESET, state.black, state.white, state.kings, BLACK, tuple(range(50)))
    assert play(state, "29x15").quiet_plies == 0


def test_no_legal_move_wins_over_the_sixty_ply_draw() -> None:
    """The 60th quiet ply also leaves White's king on 4 without a move: White loses."""
    start = position("B:WK4:BK8,K15")
    state = ThaiState(
        RULESET, start.black, start.white, start.kings, BLACK, tuple(range(QUIET_PLY_LIMIT - 1))
    )
    blocked = play(state, "15-11")
    outcome = blocked.outcome()
    assert blocked.quiet_plies == QUIET_PLY_LIMIT
    assert outcome is not None
    assert outcome.winner == BLACK
    drawn = play(state, "15-10").outcome()
    assert drawn is not None
    assert drawn.winner is None
