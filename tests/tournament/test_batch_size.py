"""Batches sized by time: whole pairs in schedule order, growing while batches come back fast,
small while they are slow, and shrinking towards the end of the schedule."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from referee.tournament.runner import (
    BATCH_SECONDS,
    MAX_PAIRS_PER_BATCH,
    PAIRS_PER_BATCH,
    TAIL_SHARES,
    BatchSize,
    batches,
)
from referee.tournament.schedule import GameJob


def _jobs(pairs: int) -> list[GameJob]:
    return [
        GameJob(2 * pair + side, pair, (side, 1 - side)) for pair in range(pairs) for side in (0, 1)
    ]


@settings(max_examples=100, deadline=None)
@given(
    pairs=st.integers(1, 400),
    workers=st.integers(1, 4),
    seconds_per_pair=st.floats(1e-5, 2.0),
)
def test_batches_are_whole_pairs_in_order_sized_by_time_and_what_is_left(
    pairs: int, workers: int, seconds_per_pair: float
) -> None:
    jobs = _jobs(pairs)
    size = BatchSize(len(jobs), workers)
    made: list[list[GameJob]] = []
    for batch in batches(jobs, size):
        made.append(batch)
        in_batch = len({job.pair for job in batch})
        assert in_batch == len(batch) // 2  # both games of each pair
        left_before = len(jobs) - sum(len(b) for b in made) + len(batch)
        # Never more than a share of what was left, for each worker.
        assert in_batch <= max(1, -(-left_before // (2 * TAIL_SHARES * workers)))
        seconds = in_batch * seconds_per_pair
        size.observe(in_batch, seconds)
        by_time = int(BATCH_SECONDS * in_batch / seconds)  # (BATCH_SECONDS / seconds_per_pair
        # could round to the other side of a whole number)
        expected = max(PAIRS_PER_BATCH, min(by_time, 2 * in_batch, MAX_PAIRS_PER_BATCH))
        assert size.timed == expected
    assert [job for batch in made for job in batch] == jobs
    assert size.left == 0


def test_fast_games_grow_to_the_largest_batches_and_slow_ones_stay_small() -> None:
    fast = BatchSize(10**6, 2)
    for _ in range(12):
        fast.observe(fast.pairs, fast.pairs * 1e-4)
    assert fast.pairs == MAX_PAIRS_PER_BATCH
    slow = BatchSize(10**6, 2)
    for _ in range(12):
        slow.observe(slow.pairs, slow.pairs * 3.0)
    assert slow.pairs == PAIRS_PER_BATCH
