"""The official Trax notation: bijective base-26 columns, labels before the move, symbols."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.games.base import NotationError
from referee.games.trax import GAME, TraxMove
from referee.games.trax.notation import column_number, split_token
from referee.games.trax.rules import column_label
from tests.games.trax.helpers import position


@pytest.mark.parametrize(
    ("number", "label"),
    [(0, "@"), (1, "A"), (26, "Z"), (27, "AA"), (52, "AZ"), (53, "BA"), (702, "ZZ"), (703, "AAA")],
)
def test_columns_are_bijective_base_26_after_at(number: int, label: str) -> None:
    assert column_label(number) == label
    assert column_number(label) == number


@given(st.integers(0, 100_000))
def test_column_labels_round_trip(number: int) -> None:
    assert column_number(column_label(number)) == number


@pytest.mark.parametrize(
    "text", ["", "A1", "1A/", "A1x", "@@1+", "A@1+", "@-1+", "A 1+", "Resign", "A1//"]
)
def test_text_that_is_no_token_is_a_notation_error(text: str) -> None:
    with pytest.raises(NotationError):
        GAME.parse_move(position("@0+"), text)


def test_tokens_are_read_in_either_case_and_written_in_capitals() -> None:
    row = " ".join(f"{column_label(col)}1+" for col in range(2, 27))
    state = position("@0+ " + row, "looptrax")  # lines do not end a LoopTrax game
    move = GAME.parse_move(state, "aa1+")
    assert move == TraxMove(27, 1, move.tile)
    assert GAME.format_move(state, move) == "AA1+"
    assert split_token(" b12\\ ") == (2, 12, "\\")


def test_labels_are_those_before_the_move() -> None:
    """After a tile goes left of column A, the old column A is labelled B."""
    state = position("@0+")
    first = next(iter(state.tiles))
    assert state.space_of(1, 1) == first  # A1
    state = state.play(GAME.parse_move(state, "@1+"))
    assert state.space_of(2, 1) == first  # B1
    state = state.play(GAME.parse_move(state, "A0/"))
    assert state.space_of(2, 2) == first  # B2


def test_a_symbol_names_two_tiles_that_differ_by_colours() -> None:
    """`/` is a curve pair in the top-left and bottom-right corners; the colours pick one."""
    right = GAME.parse_move(position("@0+"), "B1/")
    below = GAME.parse_move(position("@0+"), "A2/")
    assert {right.tile, below.tile} <= {0b1001, 0b0110}
    assert right.tile != below.tile  # black enters B1 from the west, white enters A2 from the north
