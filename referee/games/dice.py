"""Two six-sided dice, as the dice games (THAX, Takhteh) roll them: the chances of their
rolls and a roll's dice in a canonical order."""

from __future__ import annotations

from referee.games.base import Roll

OPENING_OUTCOMES: tuple[tuple[Roll, float], ...] = tuple(
    ((a, b), 1 / 30) for a in range(1, 7) for b in range(1, 7) if a != b
)
"""The opening roll (seat 0's die, seat 1's die); a tie is rolled again, so it is not listed."""

TURN_OUTCOMES: tuple[tuple[Roll, float], ...] = tuple(
    ((a, b), (1 if a == b else 2) / 36) for a in range(6, 0, -1) for b in range(a, 0, -1)
)
"""The 21 distinct rolls of two dice, larger die first."""

SORTED_ROLLS: dict[tuple[int, ...], tuple[int, int]] = {
    (a, b): (max(a, b), min(a, b)) for a in range(1, 7) for b in range(1, 7)
}
"""Every roll as rolled -> the same roll with the larger die first."""
