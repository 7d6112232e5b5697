"""Each rule of docs/rules/thai.md on a hand-built position that the common wrong reading
of the rule would get wrong. Squares: 1 is top left as Black sees the board, Black moves up."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.games.base import IllegalMove
from referee.games.thai import BLACK, WHITE, ThaiMove, ThaiState
from referee.games.thai.geometry import DIRECTION, DIRECTIONS, RAY
from tests.games.thai.helpers import GAME, RULESET, moves, play, position, positions


def rule_of(state: ThaiState, text: str) -> str:
    with pytest.raises(IllegalMove) as caught:
        play(state, text)
    return caught.value.rule


# -- flying kings land directly behind the captured piece --------------------------------------


def test_king_lands_directly_behind_the_piece_it_captures() -> None:
    """Wrong way: a king that may land on any empty square beyond (international draughts)."""
    state = position("B:W22,3:BK29")
    assert moves(state) == {"29x18"}
    assert rule_of(state, "29x15") == "thai.king-landing"
    assert rule_of(state, "29x11") == "thai.king-landing"


def test_king_captures_from_a_distance_and_still_lands_right_behind() -> None:
    state = position("B:W18,3:BK29")
    assert moves(state) == {"29x15"}
    assert GAME.format_position(play(state, "29x15")) == "W:W3:BK15"
    assert rule_of(state, "29x11") == "thai.king-landing"


def test_king_cannot_jump_two_pieces_in_a_row() -> None:
    state = position("B:W22,18,3:BK29")
    assert moves(state) == {"29-25"}


def test_king_cannot_jump_its_own_piece() -> None:
    state = position("B:W15:BK29,22")
    assert moves(state) == {"29-25", "22-17", "22-18"}


# -- captured pieces are removed at once ------------------------------------------------------


def test_king_reverses_over_squares_emptied_in_the_same_move() -> None:
    """Wrong way: pieces removed only at the end of the move block the way back."""
    state = position("B:W15,22,3:BK18")
    assert moves(state) == {"18x11x25", "18x25x11"}
    assert GAME.format_position(play(state, "18x11x25")) == "W:W3:BK25"
    assert GAME.format_position(play(state, "18x25x11")) == "W:W3:BK11"


def test_king_lands_on_the_square_of_a_piece_it_captured_earlier() -> None:
    """The line ends on 26, where the first captured piece stood."""
    state = position("B:W11,14,15,19,22,26:BK30")
    assert moves(state) == {"30x23x16x7x17x26", "30x23x9"}
    assert GAME.format_position(play(state, "30x23x16x7x17x26")) == "W:W15:BK26"


def test_a_piece_captured_earlier_cannot_be_captured_again() -> None:
    state = position("B:W15,22,3:BK18")
    # 18x11 takes 15; from 11 the king cannot take 15 again on the way back to 18's line.
    assert rule_of(state, "18x11x18") == "thai.capture-nothing"


# -- capture is compulsory, any piece and any line, no majority rule ------------------------


def test_capture_is_compulsory() -> None:
    state = position("B:W22,3:B26,30")
    assert moves(state) == {"26x17"}
    assert rule_of(state, "30-25") == "thai.capture-compulsory"


def test_no_majority_rule_between_pieces() -> None:
    """Wrong way: only the line that captures most (26x17x10, two pieces) allowed."""
    state = position("B:W22,14,27:B26,32")
    assert moves(state) == {"26x17x10", "32x23"}
    assert GAME.format_position(play(state, "32x23")) == "W:W14,22:B23,26"


def test_no_majority_rule_between_lines_of_one_piece() -> None:
    state = position("B:W23,14,24,2:B27")
    assert moves(state) == {"27x18x9", "27x20"}


def test_a_capture_line_may_not_stop_while_the_piece_can_capture() -> None:
    """Wrong way: accepting 26x17 although 26x17x10 goes on."""
    state = position("B:W22,14,27:B26,32")
    assert "26x17" not in moves(state)
    assert rule_of(state, "26x17") == "thai.capture-incomplete"


def test_a_king_line_may_not_stop_early_either() -> None:
    state = position("B:W15,22,3:BK18")
    with pytest.raises(IllegalMove) as caught:
        state.play(ThaiMove((18, 11), True))
    assert caught.value.rule == "thai.capture-incomplete"


# -- men move and capture forward only --------------------------------------------------------


def test_men_do_not_capture_backwards() -> None:
    """Wrong way: men capturing backwards as in international draughts."""
    state = position("B:W22,2:B18")
    assert moves(state) == {"18-14", "18-15"}
    assert rule_of(state, "18x25") == "thai.man-capture-backward"


def test_men_do_not_capture_backwards_within_a_line() -> None:
    state = position("B:W23,22,2:B27")
    assert moves(state) == {"27x18"}
    assert rule_of(state, "27x18x25") == "thai.man-capture-backward"


def test_men_move_forward_one_square() -> None:
    state = position("B:W3:B18")
    assert moves(state) == {"18-14", "18-15"}
    assert rule_of(state, "18-22") == "thai.man-backward"
    assert rule_of(state, "18-11") == "thai.man-step"


def test_white_men_move_down_the_board() -> None:
    state = position("W:W6:B30")
    assert moves(state) == {"6-9", "6-10"}


def test_kings_move_any_distance_along_a_diagonal() -> None:
    state = position("B:W3:BK29")
    assert moves(state) == {f"29-{n}" for n in (25, 22, 18, 15, 11, 8, 4)}
    assert rule_of(position("B:W18:BK29"), "29-11") == "thai.blocked"
    assert rule_of(position("B:W3:BK29,22"), "29-15") == "thai.blocked"


# -- promotion --------------------------------------------------------------------------------


def test_a_man_reaching_the_far_row_in_a_capture_stops_and_is_crowned_at_the_end() -> None:
    """Wrong way: crowned in the middle of the line and capturing on as a king (10x1x19)."""
    state = position("B:W6,15,3:B10")
    assert moves(state) == {"10x1"}
    assert GAME.format_position(play(state, "10x1")) == "W:W3,15:BK1"
    assert rule_of(state, "10x1x19") == "thai.promotion-stops"


def test_a_man_reaching_the_far_row_is_crowned() -> None:
    assert GAME.format_position(play(position("B:W27:B5"), "5-1")) == "W:W27:BK1"
    assert GAME.format_position(play(position("W:W28:B5"), "28-32")) == "B:WK32:B5"


# -- the start and the end --------------------------------------------------------------------


def test_black_moves_first_from_the_standard_start() -> None:
    state = GAME.initial_state(RULESET)
    assert state.to_move == BLACK
    assert GAME.format_position(state) == "B:W1,2,3,4,5,6,7,8:B25,26,27,28,29,30,31,32"
    assert moves(state) == {"25-21", "25-22", "26-22", "26-23", "27-23", "27-24", "28-24"}


def test_a_player_with_no_legal_move_loses() -> None:
    outcome = position("W:W28:B32").outcome()
    assert outcome is not None
    assert (outcome.winner, outcome.points) == (BLACK, 1)
    assert "no legal move" in outcome.detail


def test_a_player_with_no_pieces_loses() -> None:
    state = play(position("B:W22:B26"), "26x17")
    outcome = state.outcome()
    assert outcome is not None
    assert outcome.winner == BLACK
    assert "no pieces" in outcome.detail
    assert rule_of(state, "17-13") == "thai.game-over"


def test_a_piece_blocked_but_for_a_capture_is_not_blocked() -> None:
    state = position("W:W24:B27,28")
    assert state.outcome() is None
    assert moves(state) == {"24x31"}
    assert position("W:W24:B27,28,31").outcome() is not None


# -- what play refuses ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("fen", "move", "rule"),
    [
        ("B:W3:B18", ThaiMove((18, 14, 10)), "thai.quiet-path"),
        ("B:W3:B18", ThaiMove((18,)), "thai.incomplete"),
        ("B:W3:B18", ThaiMove((18, 33)), "thai.no-such-square"),
        ("B:W3:B18", ThaiMove((3, 7)), "thai.not-own-piece"),
        ("B:W3:B18", ThaiMove((17, 13)), "thai.no-piece"),
        ("B:W14:B18", ThaiMove((18, 14)), "thai.occupied"),
        ("B:W3:BK18", ThaiMove((18, 20)), "thai.not-diagonal"),
        ("B:W22:B26", ThaiMove((26, 18), True), "thai.capture-shape"),
        ("B:W22,3:B26", ThaiMove((26, 12), True), "thai.capture-shape"),
        ("B:W22:B26", ThaiMove((26, 19), True), "thai.capture-nothing"),
        ("B:W3:B26,22", ThaiMove((26, 17), True), "thai.capture-nothing"),
        ("B:W3:B26", ThaiMove((26, 17), True), "thai.capture-nothing"),
        ("B:W22,3:B26,17", ThaiMove((26, 17), True), "thai.occupied"),
        ("B:W3:B18", (18, 14), "thai.not-a-move"),
    ],
)
def test_play_names_the_rule_broken(fen: str, move: object, rule: str) -> None:
    with pytest.raises(IllegalMove) as caught:
        position(fen).play(move)  # type: ignore[arg-type]
    assert caught.value.rule == rule
    assert caught.value.message


def test_states_are_immutable_and_hashable() -> None:
    state = GAME.initial_state(RULESET)
    with pytest.raises(AttributeError):
        state.black = 0  # type: ignore[misc]
    after = play(state, "25-22")
    assert after != state
    assert after == play(GAME.initial_state(RULESET), "25-22")
    assert len({state, after, play(state, "25-22")}) == 2
    assert after.to_move == WHITE


@st.composite
def candidate_moves(draw: st.DrawFn, state: ThaiState) -> ThaiMove:
    """A legal move, a near miss of one (a line cut short or taken further, a landing square
    moved along its diagonal, the capture flag flipped), or a move along the diagonals."""
    legal = state.legal_moves()
    if legal and draw(st.booleans()):
        move = draw(st.sampled_from(legal))
        path, capture = list(move.path), move.capture
        change = draw(st.sampled_from(["none", "cut", "extend", "shift", "flip"]))
        if change == "cut" and len(path) > 2:
            path.pop()
        elif change == "extend":
            path.append(draw(st.sampled_from(_rays_from(path[-1]))) + 1)
        elif change == "shift":
            index = draw(st.integers(1, len(path) - 1))
            d = DIRECTION[path[index - 1] - 1][path[index] - 1]
            beyond = RAY[d][path[index] - 1]
            if beyond:
                path[index] = beyond[0] + 1
        elif change == "flip":
            capture = not capture
        return ThaiMove(tuple(path), capture)
    own = state.black if state.turn == BLACK else state.white
    squares = [i + 1 for i in range(32) if (own >> i) & 1] or [1]
    path = [draw(st.sampled_from(squares))]
    for _ in range(draw(st.integers(1, 4))):
        path.append(draw(st.sampled_from(_rays_from(path[-1]))) + 1)
    return ThaiMove(tuple(path), draw(st.booleans()) or len(path) > 2)


def _rays_from(square: int) -> list[int]:
    return [s for d in DIRECTIONS for s in RAY[d][square - 1]]


@settings(max_examples=300, deadline=None)
@given(st.data(), positions(max_pieces=16))
def test_play_accepts_exactly_the_legal_moves(data: st.DataObject, fen: str) -> None:
    """play checks a move by itself; it must agree with the generator on every move."""
    state = position(fen)
    legal = set(state.legal_moves())
    for _ in range(10):
        move = data.draw(candidate_moves(state))
        try:
            state.play(move)
        except IllegalMove:
            assert move not in legal
        else:
            assert move in legal
