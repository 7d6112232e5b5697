"""Move-sequence counts from the empty board (docs/trax.md, move-sequence counts)."""

from __future__ import annotations

import pytest

from referee.games.base import perft, perft_counts
from referee.games.trax import GAME

KNOWN = [2, 24, 432, 9_568, 246_888]


@pytest.mark.parametrize("variant", GAME.variants)
def test_perft_depths_1_to_4_match_the_known_counts(variant: str) -> None:
    """First move @0+ or @0/ only; a finished position has no moves; transpositions count."""
    assert perft_counts(GAME.initial_state(GAME.ruleset(variant)), 4) == KNOWN[:4]


def test_perft_of_each_depth_alone_agrees_with_the_one_walk() -> None:
    state = GAME.initial_state(GAME.ruleset())
    assert [perft(state, depth) for depth in (1, 2, 3)] == KNOWN[:3]


@pytest.mark.slow
def test_perft_depth_5_is_246888() -> None:
    """The published depth-5 count (its time is measured by benchmarks/engines.py)."""
    assert perft_counts(GAME.initial_state(GAME.ruleset()), 5) == KNOWN
