"""The shared search scaffolding: scores, the time budget and iterative deepening, driven by
made-up roots whose scores a test chooses."""

from __future__ import annotations

import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.games.search import (
    MAX_PLY,
    WIN,
    Budget,
    OutOfTime,
    decided,
    deepen,
    lost_in,
    won_in,
)

SCORES = st.integers(min_value=-5, max_value=5)
TABLES = st.integers(min_value=2, max_value=6).flatmap(
    lambda moves: st.lists(st.lists(SCORES, min_size=moves, max_size=moves), min_size=1, max_size=5)
)
"""Per depth, the score of each of the moves 0..n-1."""


class Root:
    """A root that scores moves from a table, keeps the orders it searched them in and may
    run out of time after `stop_after` moves of iteration `stop_at`."""

    def __init__(self, table: list[list[int]], stop_at: int = 0, stop_after: int = 0) -> None:
        self.table = table
        self.stop_at = stop_at
        self.stop_after = stop_after
        self.orders: list[list[int]] = []

    def __call__(self, moves: list[int], depth: int, scores: dict[int, float]) -> None:
        self.orders.append(list(moves))
        for index, move in enumerate(moves):
            if depth == self.stop_at and index == self.stop_after:
                raise OutOfTime
            scores[move] = self.table[depth - 1][move]


@settings(max_examples=200, deadline=None)
@given(table=TABLES)
def test_every_iteration_runs_and_the_last_one_decides(table: list[list[int]]) -> None:
    moves = list(range(len(table[0])))
    root = Root(table)
    found = deepen(moves, range(1, len(table) + 1), lambda d, s: root(moves, d, s))
    assert found.depth == len(table)
    last, order = table[-1], root.orders[-1]
    assert found.score == max(last)
    # The first of the best in the order the last iteration searched.
    assert found.move == next(move for move in order if last[move] == max(last))
    for depth in range(1, len(table)):
        previous = table[depth - 1]
        best = next(m for m in root.orders[depth - 1] if previous[m] == max(previous))
        # The best move goes first, the others keep their order.
        assert root.orders[depth] == [best] + [m for m in root.orders[depth - 1] if m != best]


@settings(max_examples=200, deadline=None)
@given(table=TABLES)
def test_sort_all_orders_every_move_by_its_last_score(table: list[list[int]]) -> None:
    moves = list(range(len(table[0])))
    root = Root(table)
    deepen(moves, range(1, len(table) + 1), lambda d, s: root(moves, d, s), sort_all=True)
    for depth in range(1, len(table)):
        previous = table[depth - 1]
        assert root.orders[depth] == sorted(root.orders[depth - 1], key=lambda m: -previous[m])


@settings(max_examples=200, deadline=None)
@given(table=TABLES, data=st.data())
def test_a_cut_iteration_keeps_the_last_best_unless_a_finished_move_beats_it(
    table: list[list[int]], data: st.DataObject
) -> None:
    stop_at = data.draw(st.integers(min_value=1, max_value=len(table)))
    stop_after = data.draw(st.integers(min_value=0, max_value=len(table[0]) - 1))
    moves = list(range(len(table[0])))
    root = Root(table, stop_at, stop_after)
    found = deepen(moves, range(1, len(table) + 1), lambda d, s: root(moves, d, s))
    assert found.depth == stop_at - 1
    if stop_at == 1:
        # Nothing finished: the first move, unless a finished one of the cut iteration...
        order = root.orders[0]
        assert found.move == order[0] if not stop_after else found.move in order[:stop_after]
        return
    previous = table[stop_at - 2]
    order = root.orders[stop_at - 1]
    kept = order[0]  # the best of the last finished iteration goes first
    assert previous[kept] == max(previous)
    finished = {m: table[stop_at - 1][m] for m in order[:stop_after]}
    beaten = bool(finished) and max(finished.values()) > finished.get(kept, -WIN - 1)
    if beaten:
        assert found.score == max(finished.values())
        assert finished[found.move] == found.score
    else:
        assert (found.move, found.score) == (kept, previous[kept])


def test_a_final_score_stops_the_deepening() -> None:
    moves = [0, 1]
    table = [[1, 2], [won_in(3), 0], [5, 6]]
    root = Root(table)
    found = deepen(moves, range(1, 4), lambda d, s: root(moves, d, s))
    assert (found.move, found.score, found.depth) == (0, won_in(3), 2)
    root = Root(table)
    found = deepen(moves, range(1, 4), lambda d, s: root(moves, d, s), final=lambda s, d: False)
    assert (found.move, found.depth) == (1, 3)


def test_win_and_loss_scores() -> None:
    assert won_in(3) > won_in(5) > 10_000 > lost_in(5) > lost_in(3)
    assert won_in(4) == -lost_in(4) == WIN - 4
    assert decided(won_in(MAX_PLY)) and decided(lost_in(MAX_PLY))
    assert not decided(WIN - MAX_PLY - 1) and not decided(0.5)


def test_a_budget_runs_out_after_its_share_of_the_time() -> None:
    endless = Budget(0)
    assert not endless.passed() and not endless.soft_passed()
    endless.check()
    long = Budget(100, hard=0.8, soft=0.2)
    assert long.soft - long.deadline == pytest.approx(-60, abs=1e-3)
    assert not long.passed() and not long.soft_passed()
    long.check()
    short = Budget(0.01, hard=0.5)
    time.sleep(0.02)
    assert short.passed() and short.soft_passed()
    with pytest.raises(OutOfTime):
        short.check()


def test_the_soft_limit_stops_starting_iterations() -> None:
    moves = [0, 1]
    root = Root([[1, 2]] * 5)
    budget = Budget(1e-9)
    time.sleep(0.001)
    found = deepen(moves, range(1, 6), lambda d, s: root(moves, d, s), budget)
    assert found.depth == 1
