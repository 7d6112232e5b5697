"""A tournament's dice: each seat's stream is `random.randint(1, 6)` twice a roll from a
generator seeded by the game's seed and the seat, whatever order the rolls are asked in."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from referee.tournament.play import DiceSource


@settings(max_examples=200, deadline=None)
@given(seed=st.text(max_size=12), asks=st.lists(st.sampled_from([None, 0, 1]), max_size=60))
def test_each_stream_is_randint_from_its_own_seed(seed: str, asks: list[int | None]) -> None:
    streams = {
        seat: random.Random(f"{seed}/{'opening' if seat is None else f'seat{seat}'}")
        for seat in (None, 0, 1)
    }
    dice = DiceSource(seed)
    for seat in asks:
        rng = streams[seat]
        assert dice.roll(seat) == (rng.randint(1, 6), rng.randint(1, 6))
