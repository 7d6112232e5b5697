"""THAX position text; Trax shapes up to symmetry (what `referee select` and `referee stats`
read positions with)."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.games import get_game
from referee.games.base import NotationError
from referee.games.trax.symmetry import shape, symmetric_shape, transforms

SIDES = st.tuples(*(st.integers(0, n) for n in range(1, 6))).filter(lambda s: sum(s) < 15)


@given(SIDES, SIDES, st.sampled_from([0, 1]))
def test_thax_position_text_round_trips(own: tuple, other: tuple, seat: int) -> None:
    game = get_game("thax")
    text = f"{''.join(map(str, own))}/{''.join(map(str, other))} {seat}"
    state = game.parse_position(game.ruleset(), text)
    assert state.sides == (own, other) and state.to_move == seat and state.is_chance()
    assert game.format_position(state) == text


@pytest.mark.parametrize(
    "text", ["1200/00000", "13000/00000 0", "12345/12345 0", "x", "11200/01000 2"]
)
def test_thax_position_text_refused(text: str) -> None:
    game = get_game("thax")
    with pytest.raises(NotationError):
        game.parse_position(game.ruleset(), text)


def test_a_full_side_has_won() -> None:
    game = get_game("thax")
    state = game.parse_position(game.ruleset(), "12345/01000 1")
    assert state.outcome() is not None and state.outcome().winner == 0


TRAX_GAMES = st.sampled_from(["@0+ B1/ A2\\ B3+", "@0/ @1+ B0\\ C2/", "@0+ A0+ @1/ C1\\"])


@given(TRAX_GAMES)
def test_trax_shapes_under_the_eight_symmetries(moves: str) -> None:
    game = get_game("trax")
    state = game.parse_position(game.ruleset(), moves)
    cells = shape(state)
    images = transforms(cells)
    assert len(images) == 8 and images[0] == cells
    # Every image has the same tiles count and the same canonical form.
    for image in images:
        assert len(image) == len(cells)
        assert min(transforms(image)) == symmetric_shape(state)
    # A quarter turn (the third image) lays each north-south straight east-west.
    straight = Counter(tile for _, _, tile in cells)[0b0101]
    assert Counter(tile for _, _, tile in images[2])[0b1010] == straight
