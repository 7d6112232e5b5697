"""Every example of the published rules' sample game ("A Game of THAX") as a test: same
position, same roll, exactly the options the rules list (docs/rules/thax.md)."""

from __future__ import annotations

import pytest

from referee.games.thax import GAME, PASS, ThaxState
from referee.games.thax.rules import Side

RULESET = GAME.ruleset()


def position(seat: int, own: Side, opponent: Side, roll: tuple[int, int]) -> ThaxState:
    sides = (own, opponent) if seat == 0 else (opponent, own)
    return ThaxState(RULESET, sides, seat, roll)


def options(state: ThaxState) -> set[str]:
    return {GAME.format_move(state, move) for move in state.legal_moves()}


def test_3_5_place_both_or_take_either_way_and_no_sum_above_5() -> None:
    """A rolls 3-5: place 3 and 5, take B's 5 onto own 3, or take B's 3 onto own 5."""
    state = position(0, (0, 0, 0, 0, 0), (0, 0, 1, 0, 1), (3, 5))
    assert options(state) == {"P3 P5", "T5>3", "T3>5"}


def test_2_3_place_both_sum_or_take_only_what_the_opponent_has() -> None:
    """B rolls 2-3: place 2 and 3, sum to 5, or take A's 3 onto own 2 (A has no 2s)."""
    state = position(1, (0, 0, 0, 0, 0), (1, 0, 1, 0, 0), (2, 3))
    assert options(state) == {"P2 P3", "P5", "T3>2"}


def test_double_4_with_every_own_4_covered_has_no_move_but_rolls_again() -> None:
    """A rolls 4-4 with all four 4-spaces covered: no move, and doubles roll again."""
    state = position(0, (0, 0, 0, 4, 0), (0, 0, 0, 4, 0), (4, 4))
    assert state.legal_moves() == [PASS]
    after = state.play(PASS)
    assert after.is_chance() and after.to_move == 0


def test_half_thax_6_4_with_the_4s_covered_has_no_move() -> None:
    """A rolls 6-4: the 6 is dead and every own 4-space is covered."""
    state = position(0, (0, 0, 0, 4, 0), (0, 0, 0, 0, 0), (6, 4))
    assert state.legal_moves() == [PASS]
    assert state.play(PASS).to_move == 1


def test_double_5_take_a_5_or_place_two_5s_then_roll_again() -> None:
    """B rolls 5-5: take A's 5 onto own 5, or place on two 5-spaces; then rolls again."""
    state = position(1, (0, 0, 0, 0, 0), (0, 0, 0, 0, 1), (5, 5))
    assert options(state) == {"T5>5", "P5 P5"}
    for move in state.legal_moves():
        assert state.play(move).to_move == 1


def test_double_1_with_the_1_covered_only_sums_to_2() -> None:
    """A rolls 1-1 with his 1 covered: the only move is the sum, one piece on a 2-space."""
    state = position(0, (1, 0, 0, 0, 0), (1, 0, 0, 0, 0), (1, 1))
    assert options(state) == {"P2"}
    assert state.play(state.legal_moves()[0]).to_move == 0


def test_3_1_with_the_1_covered_places_only_the_3() -> None:
    """A rolls 3-1 with his 1 and 4s covered and B holding no 1: only the 3 is placed."""
    state = position(0, (1, 0, 0, 4, 0), (0, 0, 2, 0, 0), (3, 1))
    assert options(state) == {"P3"}


@pytest.mark.parametrize(
    ("own", "expected"),
    [((1, 2, 0, 0, 0), {"R1", "R2"}), ((0, 0, 0, 0, 0), {"-"})],
)
def test_double_6_thax_removes_an_own_piece_without_an_extra_turn(
    own: Side, expected: set[str]
) -> None:
    """A 6-6 must remove one own piece of the player's choice; an empty side does nothing."""
    state = position(0, own, (3, 3, 3, 3, 3), (6, 6))
    assert options(state) == expected
    assert state.play(state.legal_moves()[0]).to_move == 1
