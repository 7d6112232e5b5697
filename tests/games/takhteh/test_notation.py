"""Backgammon notation for Takhteh plays: what import accepts, and the one form export writes."""

from __future__ import annotations

import contextlib
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.games.base import IllegalMove, NotationError
from referee.games.dice import TURN_OUTCOMES
from referee.games.takhteh import GAME, notation
from referee.games.takhteh.notation import format_legs_plain
from referee.games.takhteh.rules import START, TakhtehState
from tests.games.takhteh.reference import make_board, random_board

RULESET = GAME.ruleset()


def on_roll(board: tuple[int, ...], roll: tuple[int, int]) -> TakhtehState:
    return TakhtehState(RULESET, board, 0, roll)


def canonical(state: TakhtehState, text: str) -> str:
    return GAME.format_move(state, GAME.parse_move(state, text))


def test_moves_in_any_order_are_the_same_move() -> None:
    state = on_roll(START, (3, 1))
    assert GAME.parse_move(state, "8/5 6/5") == GAME.parse_move(state, "6/5, 8/5")


def test_opening_31_plays_are_gnubgs_texts() -> None:
    """The 16 plays of 3-1 from the start, written as GNU Backgammon writes them."""
    state = on_roll(START, (3, 1))
    texts = {GAME.format_move(state, move) for move in state.legal_moves()}
    assert texts == {
        "8/5 6/5", "24/23 13/10", "24/20", "13/9", "24/23 24/21", "24/21 6/5", "13/10 6/5",
        "24/23 8/5", "24/21 8/7", "24/23 6/3", "13/10 8/7", "8/4", "6/2", "6/5 6/3",
        "8/7 6/3", "8/7 8/5",
    }  # fmt: skip


def test_roll_prefix_is_accepted_when_it_matches_the_dice() -> None:
    state = on_roll(START, (3, 1))
    assert GAME.parse_move(state, "31: 8/5 6/5") == GAME.parse_move(state, "8/5 6/5")
    assert GAME.parse_move(state, "13: 8/5 6/5") == GAME.parse_move(state, "8/5 6/5")
    with pytest.raises(NotationError):
        GAME.parse_move(state, "42: 8/5 6/5")


def test_doubles_with_counts_or_four_moves() -> None:
    state = on_roll(START, (6, 6))
    four = GAME.parse_move(state, "24/18 24/18 13/7 13/7")
    assert GAME.parse_move(state, "24/18(2) 13/7(2)") == four
    assert GAME.format_move(state, four) == "24/18(2) 13/7(2)"
    fours = on_roll(START, (4, 4))
    assert canonical(fours, "13/9 13/5 24/20") == "24/20 13/5 13/9"


def test_chained_and_joined_moves_of_one_checker() -> None:
    state = on_roll(START, (6, 5))
    assert canonical(state, "24/18/13") == "24/13"
    assert canonical(state, "24/18 18/13") == "24/13"
    assert canonical(state, "24/13") == "24/13"


def test_hits_may_be_marked_or_not_and_export_marks_them() -> None:
    board = make_board({13: 5, 8: 3, 6: 5, 24: 2}, {7: 1, 19: 5, 17: 3, 12: 5, 1: 1})
    state = on_roll(board, (6, 1))
    assert canonical(state, "13/7 8/7") == "13/7* 8/7"
    assert canonical(state, "13/7* 8/7") == "13/7* 8/7"


def test_a_hit_on_the_way_is_written_as_a_point() -> None:
    board = make_board({24: 2, 13: 5, 8: 3, 6: 5}, {18: 1, 20: 5, 17: 3, 12: 5, 2: 1})
    state = on_roll(board, (6, 5))
    assert canonical(state, "24/18*/13") == "24/18*/13"
    # Without the mark, the way through 19 (no blot) is taken.
    assert canonical(state, "24/13") == "24/13"


def test_a_hit_in_the_home_board_is_never_joined_to_a_later_move() -> None:
    """The hitter stays (no hit-and-run), so 7/5* and 5/3 are written apart."""
    board = make_board({7: 2, 13: 5, 6: 5, 8: 3}, {5: 1, 19: 5, 17: 3, 12: 5, 1: 1})
    state = on_roll(board, (2, 2))
    assert canonical(state, "13/11 7/5*/3 7/5") == "13/11 7/5*(2) 5/3"


def test_hit_mark_without_a_blot_is_refused() -> None:
    state = on_roll(START, (3, 1))
    with pytest.raises(IllegalMove) as caught:
        GAME.parse_move(state, "8/5* 6/5")
    assert caught.value.rule == "takhteh.hit-mark"


def test_bar_off_and_mat_numbers() -> None:
    board = make_board({25: 1, 3: 14}, {20: 15})
    state = on_roll(board, (3, 2))
    assert canonical(state, "bar/22 3/1") == canonical(state, "25/22 3/1") == "bar/22 3/1"
    home = on_roll(make_board({3: 2, 1: 13}, {20: 15}), (3, 1))
    assert canonical(home, "3/off 1/off") == canonical(home, "3/0 1/0") == "3/off 1/off"


def test_no_move_is_the_empty_text() -> None:
    board = make_board({25: 1, 6: 14}, {19: 2, 20: 2, 21: 2, 22: 2, 23: 2, 24: 2, 10: 3})
    state = on_roll(board, (6, 6))
    assert GAME.parse_move(state, "") == ()
    assert GAME.parse_move(state, "66:") == ()
    assert GAME.format_move(state, ()) == ""


@pytest.mark.parametrize(
    "text", ["13-7", "abc", "13/", "/7", "13/7(5)", "13/7(x)", "off/3", "13/bar", "13/7/off/2"]
)
def test_text_that_is_not_move_notation(text: str) -> None:
    with pytest.raises(NotationError):
        GAME.parse_move(on_roll(START, (6, 5)), text)


def test_mat_plain_form_writes_each_die_and_marks_each_hit_once() -> None:
    board = make_board({7: 2, 13: 5, 6: 5, 8: 3}, {5: 1, 19: 5, 17: 3, 12: 5, 1: 1})
    legs = ((13, 11), (7, 5), (7, 5), (5, 3))
    assert format_legs_plain(board, legs) == "13/11 7/5* 7/5 5/3"


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from([roll for roll, _ in TURN_OUTCOMES]))
def test_export_then_import_gives_the_same_position_and_text(
    seed: int, roll: tuple[int, int]
) -> None:
    """For every legal play: the canonical text reads back to the same position and text,
    and the plain `.mat` text reads back to the same position too."""
    rng = random.Random(seed)
    board = random_board(rng, rng.choice((0.0, 0.3, 0.7)))
    if max(board) <= 0 or min(board) >= 0:
        return
    state = on_roll(board, roll)
    for move in state.legal_moves():
        text = GAME.format_move(state, move)
        again = GAME.parse_move(state, text)
        assert state.play(again) == state.play(move)
        assert GAME.format_move(state, again) == text
        plain = GAME.parse_move(state, format_legs_plain(board, move))
        assert state.play(plain) == state.play(move)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="0123456789/*() :barofBARx-\t", max_size=30))
def test_any_text_is_notation_or_a_notation_error(text: str) -> None:
    state = on_roll(START, (3, 1))
    try:
        move = GAME.parse_move(state, text)
    except (NotationError, IllegalMove):
        return
    with contextlib.suppress(IllegalMove):
        state.play(move)


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from([roll for roll, _ in TURN_OUTCOMES]))
def test_the_two_leg_writer_writes_what_the_chain_writer_writes(
    seed: int, roll: tuple[int, int]
) -> None:
    """`_format_two` is a faster copy of `_format_chains` for plays of two legs: the same text
    for every two-leg play of a random position, its legs given in either order, and for
    pairs of legs drawn at random on that board (hits on one point, chains through a hit)."""
    rng = random.Random(seed)
    board = random_board(rng, rng.choice((0.0, 0.3, 0.7)))
    pairs = [move for move in on_roll(board, roll).legal_moves() if len(move) == 2]
    points = [point for point in range(1, 26) if board[point] > 0]
    for _ in range(10):
        if not points:
            break
        src = rng.choice(points)
        mid = rng.randrange(0, src)
        pairs.append(((src, mid), (mid, rng.randrange(0, mid)) if mid else (src, 0)))
    for first, second in pairs:
        expected = notation._format_chains(board, (first, second))
        assert notation._format_two(board, first, second) == expected
        assert notation._format_two(board, second, first) == expected
