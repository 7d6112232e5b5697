"""Move notation (from-to, captures with every landing square) and PDN FEN positions."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.games.base import NotationError
from referee.games.thai import ThaiMove
from referee.games.thai.fen import format_fen, parse_fen
from tests.games.thai.helpers import GAME, RULESET, moves, play, position, positions


def test_moves_are_written_from_to_and_captures_with_every_landing_square() -> None:
    state = position("B:W22,14,27:B26,32")
    assert GAME.format_move(state, ThaiMove((26, 17, 10), True)) == "26x17x10"
    assert GAME.format_move(state, ThaiMove((22, 18))) == "22-18"
    # The same squares as a capture are written as one, not as the quiet move.
    assert GAME.format_move(state, ThaiMove((22, 18), True)) == "22x18"


@settings(max_examples=200, deadline=None)
@given(positions(max_pieces=20))
def test_a_move_s_text_is_its_squares_joined_by_dash_or_x(fen: str) -> None:
    state = position(fen)
    for move in state.legal_moves():
        numbers = [str(square) for square in move.path]
        expected = ("x" if move.capture else "-").join(numbers)
        assert GAME.format_move(state, move) == expected


@settings(max_examples=300, deadline=None)
@given(positions(max_pieces=20))
def test_every_legal_move_reads_back_as_itself(fen: str) -> None:
    """Also: no two legal moves share a text, so the notation tells every line apart."""
    state = position(fen)
    legal = state.legal_moves()
    texts = [GAME.format_move(state, move) for move in legal]
    assert len(set(texts)) == len(texts)
    for move, text in zip(legal, texts, strict=True):
        assert GAME.parse_move(state, text) == move


def test_captures_may_be_written_with_dashes_as_gametype_31_writes_them() -> None:
    state = position("B:W22,14,27:B26,32")
    assert GAME.parse_move(state, "26-17-10") == ThaiMove((26, 17, 10), True)
    assert GAME.parse_move(state, "32-23") == ThaiMove((32, 23), True)
    king = position("B:W18,3:BK29")
    assert GAME.parse_move(king, "29-15") == ThaiMove((29, 15), True)
    assert GAME.parse_move(position("B:W3:BK29"), "29-15") == ThaiMove((29, 15))


def test_other_separators_spaces_and_leading_zeros_are_read() -> None:
    state = position("B:W22,14,27:B26,32")
    for text in ("26X17X10", "26:17:10", " 26 x 17 x 10 ", "26x17-10"):
        assert GAME.parse_move(state, text) == ThaiMove((26, 17, 10), True), text
    assert GAME.parse_move(position("B:W3:B9"), "09-05") == ThaiMove((9, 5))


def test_a_capture_written_from_start_to_end_reads_as_the_line_it_abbreviates() -> None:
    assert GAME.parse_move(position("B:W22,14,27:B26,32"), "26x10") == ThaiMove((26, 17, 10), True)
    assert GAME.parse_move(position("B:W15,22,3:BK18"), "18x11") == ThaiMove((18, 25, 11), True)
    emptied = position("B:W11,14,15,19,22,26:BK30")
    assert GAME.parse_move(emptied, "30x26") == ThaiMove((30, 23, 16, 7, 17, 26), True)
    assert GAME.parse_move(emptied, "30x7x26") == ThaiMove((30, 23, 16, 7, 17, 26), True)


def test_an_abbreviation_that_fits_lines_to_different_positions_is_refused() -> None:
    state = position("B:W5,9,10,24,27:BK19")
    assert moves(state) == {"19x28x6x13", "19x6x13", "19x6x28"}
    with pytest.raises(NotationError, match="ambiguous"):
        GAME.parse_move(state, "19x13")
    assert GAME.parse_move(state, "19x28x13") == ThaiMove((19, 28, 6, 13), True)


def test_lines_with_the_same_landing_squares_in_another_order_are_two_moves() -> None:
    """They take the same pieces and end on the same square: both are listed, told apart by
    the order of their landing squares, and lead to the same position."""
    state = position("B:W6,11,12,15,24:BK10")
    assert moves(state) == {"10x19x1x28", "10x19x28x1", "10x1x19x28"}
    a, b = play(state, "10x19x1x28"), play(state, "10x1x19x28")
    assert a == b
    assert GAME.parse_move(state, "10x28") in state.legal_moves()


@pytest.mark.parametrize("text", ["", "22", "22-", "x", "ab-cd", "22-18-", "0-5", "22–18"])
def test_text_that_is_no_move_is_a_notation_error(text: str) -> None:
    with pytest.raises(NotationError):
        GAME.parse_move(GAME.initial_state(RULESET), text)


def test_a_square_beyond_32_is_named_in_the_error() -> None:
    with pytest.raises(NotationError, match="no square 33"):
        GAME.parse_move(GAME.initial_state(RULESET), "33-29")


# -- FEN ---------------------------------------------------------------------------------------


@settings(max_examples=300, deadline=None)
@given(positions(max_pieces=32))
def test_fen_round_trips(fen: str) -> None:
    state = position(fen)
    text = GAME.format_position(state)
    assert text == fen
    assert GAME.parse_position(RULESET, text) == state


@given(st.sampled_from([0, 1]), st.integers(0, 2**32 - 1), st.integers(0, 2**32 - 1))
def test_format_then_parse_gives_back_the_masks(turn: int, a: int, b: int) -> None:
    black, white = a & ~b & 0xFFFFFFF0, b & ~a & 0x0FFFFFFF
    kings = (a ^ b) & (black | white) & 0x0F0F0F0F
    assert parse_fen(format_fen(turn, black, white, kings)) == (turn, black, white, kings)


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("W:W1,2,K9:B25,26", "W:W1,2,K9:B25,26"),
        ("b:b25,26:w2,1", "B:W1,2:B25,26"),
        (" B : W 1 , 2 : B 25 . ", "B:W1,2:B25"),
        ('"W:W1-4,K9:BK29-30,31"', "W:W1,2,3,4,K9:BK29,K30,31"),
        ("B:W1:B", "B:W1:B"),
        ("B:B5", "B:W:B5"),
    ],
)
def test_fen_reading_is_lenient_and_writing_canonical(text: str, canonical: str) -> None:
    assert GAME.format_position(GAME.parse_position(RULESET, text)) == canonical


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("X:W1:B2", "player to move"),
        ("W:W1:B1", "given twice"),
        ("W:W1:W2", "two sections"),
        ("W:W33:B2", "no square 33"),
        ("W:W1:B2,K", "not a square"),
        ("W:W5-3:B30", "empty"),
        ("W:W1:B3", "far row"),
        ("W:W30:B9", "far row"),
        ("W:Q1:B9", "B or W"),
    ],
)
def test_bad_fen_says_why(text: str, why: str) -> None:
    with pytest.raises(NotationError, match=why):
        GAME.parse_position(RULESET, text)


def test_a_start_position_given_as_fen_is_used() -> None:
    state = GAME.initial_state(RULESET, "W:W10:B22")
    assert state.to_move == 1
    assert moves(state) == {"10-14", "10-15"}


@settings(max_examples=300, deadline=None)
@given(positions(), st.text(st.sampled_from(list("0123456789xX-: ")), max_size=12))
def test_any_text_is_a_move_or_a_notation_error(fen: str, text: str) -> None:
    state = position(fen)
    try:
        move = GAME.parse_move(state, text)
    except NotationError:
        return
    assert isinstance(move, ThaiMove)
    assert all(1 <= square <= 32 for square in move.path)
