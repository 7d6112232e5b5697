"""What every search bot shares: win and loss scores, a move's time budget, the out-of-time
signal and iterative deepening.

A search scores positions for the side to move. A won position scores `WIN` less the plies
to the win, so that a quicker win scores higher and a slower loss less badly; evaluations of
positions that are not won stay well inside (-WIN + MAX_PLY, WIN - MAX_PLY).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Generic, TypeVar

WIN = 1_000_000
"""The score of a won position, less the plies to the win; a lost one scores the negation."""

MAX_PLY = 200
"""More plies than any line of a search can have."""

DECIDED = WIN - MAX_PLY
"""Scores from here on are wins found by the search (and, negated, losses)."""


def won_in(ply: int) -> int:
    """The score of a position where the side to move has won `ply` plies from the root."""
    return WIN - ply


def lost_in(ply: int) -> int:
    """The score of a position where the side to move has lost `ply` plies from the root."""
    return ply - WIN


def decided(score: float) -> bool:
    """Whether a score is a win or a loss the search found, not an evaluation."""
    return abs(score) >= DECIDED


class OutOfTime(Exception):
    """The move's time ran out in the middle of a search: the search in progress is dropped."""


class Budget:
    """A move's time, from now: `deadline` stops a search in progress (a search compares the
    clock with it and raises OutOfTime), `soft` stops starting new iterations.

    `seconds` 0 means no limit. `hard` and `soft` are the shares of the time after which
    each applies; a search that is stopped still has to unwind and answer, so a bot keeps
    some of its time back with `hard` below 1.
    """

    __slots__ = ("deadline", "soft")

    def __init__(self, seconds: float, hard: float = 1.0, soft: float = 1.0) -> None:
        now = time.perf_counter()
        self.deadline = now + seconds * hard if seconds else float("inf")
        self.soft = now + seconds * soft if seconds else float("inf")

    def check(self) -> None:
        """Raise OutOfTime once the deadline has passed."""
        if time.perf_counter() > self.deadline:
            raise OutOfTime

    def passed(self) -> bool:
        """Whether the deadline has passed."""
        return time.perf_counter() > self.deadline

    def soft_passed(self) -> bool:
        """Whether a new iteration should not start any more."""
        return time.perf_counter() > self.soft


UNLIMITED = Budget(0)
"""A budget that never runs out."""

M = TypeVar("M", bound=Hashable)


@dataclass(frozen=True)
class Deepened(Generic[M]):
    """The outcome of iterative deepening."""

    move: M
    """The best move of the deepest iteration finished, or a better one of the iteration the
    time cut short."""
    score: float | None
    """Its score (None when not even the first iteration finished)."""
    depth: int
    """The depth of the deepest iteration finished (0: none)."""


def deepen(
    moves: list[M],
    depths: range,
    root: Callable[[int, dict[M, float]], None],
    budget: Budget = UNLIMITED,
    *,
    sort_all: bool = False,
    final: Callable[[float, int], bool] | None = None,
) -> Deepened[M]:
    """Iterative deepening: `root(depth, scores)` searches `moves` in their order to `depth`,
    writing each move's score into `scores` as it finishes (a score may be a bound for all but
    the best move), and may raise OutOfTime.

    After each finished iteration the best move (the first of the highest score) goes first
    for the next one; with `sort_all` every move goes by its score (a stable sort). It stops
    after the last depth, when the time ran out, after `budget`'s soft limit, or when the
    score is final: `final(score, depth)`, by default `decided(score)`.
    """
    best = moves[0]
    score: float | None = None
    reached = 0
    for depth in depths:
        scores: dict[M, float] = {}
        try:
            root(depth, scores)
        except OutOfTime:
            # Moves are searched best first: a finished one that beats the previous best is
            # better than it even though the iteration did not finish.
            if scores:
                top = max(scores, key=scores.__getitem__)
                if scores[top] > scores.get(best, -WIN - 1):
                    best, score = top, scores[top]
            break
        best = max(scores, key=scores.__getitem__)
        score, reached = scores[best], depth
        if sort_all:
            moves.sort(key=lambda move: -scores[move])
        else:
            moves.sort(key=lambda move: move != best)
        if final(score, depth) if final is not None else decided(score):
            break
        if budget.soft_passed():
            break
    return Deepened(best, score, reached)
