"""The forced-play walk (`rules.forced_play`) against the slow reading of the rules, and the
places held to it: `legal_turns` (which follows the simple turns itself, for speed), `walk_turn`
(which repeats the walk on the board itself, for speed) and the bots' probes."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.games.base import IllegalMove
from referee.games.trax import GAME
from referee.games.trax.rules import (
    COORD_MASK,
    GONE,
    SHIFT,
    count_legal_turns,
    forced_play,
    legal_turns,
    walk_turn,
)
from referee.games.trax.threats import BROKEN, probe
from tests.games.trax.helpers import board_of, naive_turn, random_state

CHOICES = st.lists(st.integers(min_value=0, max_value=10_000), min_size=1, max_size=40)


def _edges(tile: int) -> tuple[str, str, str, str]:
    return tuple("w" if tile >> d & 1 else "b" for d in range(4))  # type: ignore[return-value]


def _xy(key: int) -> tuple[int, int]:
    return key & COORD_MASK, key >> SHIFT


@pytest.mark.parametrize("variant", GAME.variants)
@settings(max_examples=25, deadline=None)
@given(choices=CHOICES)
def test_the_walk_places_the_tiles_the_rules_force(variant: str, choices: list[int]) -> None:
    state = random_state(variant, choices)
    if state.is_terminal():
        return
    board = board_of(state)
    legal = set(legal_turns(state.codes, [key for key, _ in state.candidates()]))
    for key, tile in state.candidates():
        turn, changed = forced_play(state.codes, key, tile)
        expected = naive_turn(board, _xy(key), _edges(tile), 0)
        assert (turn is None) == (expected is None)
        assert ((key, tile) in legal) == (turn is not None)
        assert (probe(state, key, tile).result == BROKEN) == (turn is None)
        assert key in changed and key in state.codes
        if turn is None or expected is None:
            continue
        assert turn[0][:2] == (key, tile)
        placed = {_xy(space): _edges(put) for space, put, _ in turn}
        assert {**board, **placed} == expected
        # walk_turn on copies places exactly these tiles and leaves the codes of the others.
        tiles, codes, ends = dict(state.tiles), dict(state.codes), dict(state.ends)
        assert state.box is not None
        walk_turn(tiles, codes, ends, key, tile)
        assert {_xy(space): _edges(put) for space, put in tiles.items()} == expected
        # ... and leaves the codes the walk's overlay says.
        overlaid = {**state.codes, **changed}
        assert codes == {space: code for space, code in overlaid.items() if code != GONE}


def test_an_illegal_turn_is_refused_and_the_walk_leaves_the_codes_alone() -> None:
    # Illegal turns are rare among the candidates (about 1 in 200): look through a few games.
    illegal = 0
    for seed in range(30):
        rng = random.Random(seed)
        state = random_state("standard", [rng.randrange(10_000) for _ in range(30)])
        assert state.box is not None
        spaces = sorted(state.codes)
        turns = legal_turns(state.codes, spaces)
        assert count_legal_turns(state.codes, spaces) == len(turns)
        legal = set(turns)
        for key, tile in state.candidates():
            before = dict(state.codes)
            if forced_play(state.codes, key, tile)[0] is not None:
                assert (key, tile) in legal
                continue
            assert (key, tile) not in legal
            assert state.codes == before
            illegal += 1
            tiles, codes, ends = dict(state.tiles), dict(state.codes), dict(state.ends)
            with pytest.raises(IllegalMove, match="three edges"):
                walk_turn(tiles, codes, ends, key, tile)
    assert illegal
