"""THAX notation [project rule]: P/T/R tokens and '-', one move per effect."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.games.base import NotationError
from referee.games.thax import GAME, ThaxMove
from referee.games.thax.notation import format_move, parse_move
from referee.games.thax.rules import options


def test_placements_in_any_order_are_the_same_move() -> None:
    assert parse_move("P5 P3") == parse_move("P3 P5") == ThaxMove(place=(3, 5))
    assert parse_move("p3  p5") == ThaxMove(place=(3, 5))


@pytest.mark.parametrize(
    ("text", "move"),
    [("T5>3", ThaxMove(place=(3,), take=5)), ("R4", ThaxMove(remove=4)), ("-", ThaxMove())],
)
def test_take_remove_and_pass_tokens(text: str, move: ThaxMove) -> None:
    assert parse_move(text) == move
    assert format_move(move) == text


@pytest.mark.parametrize(
    "text", ["", "P", "X3", "P3 P4 P5", "T5", "R4 P3", "T5>3 P2", "P3>4", "R1 R2"]
)
def test_text_that_is_not_a_move_is_refused(text: str) -> None:
    with pytest.raises(NotationError):
        parse_move(text)


side = st.tuples(*(st.integers(0, n) for n in range(1, 6)))


@given(side, side, st.integers(1, 6), st.integers(1, 6))
def test_every_legal_move_round_trips_through_its_notation(own, opponent, a, b) -> None:
    state = None
    for move in options(own, opponent, (a, b)):
        text = GAME.format_move(state, move)  # type: ignore[arg-type]
        assert GAME.parse_move(state, text) == move  # type: ignore[arg-type]
