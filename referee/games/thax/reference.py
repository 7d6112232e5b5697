"""THAX's reference for `referee analyse`: the solved game (solver.py), exact.

A position's value is the solved chance that its player to roll wins under perfect play; a
position with the dice rolled is worth the best of its options (as the solver's sweep has
it); a move is worth the value of the position it leads to, for the mover. So the error of a
move is exactly what it loses against the best option, and the luck of a roll exactly what
it gains against the average roll. The mean over the rolls of every position is worked out
once for all positions (`roll_means`), so that a turn costs table lookups, never a search.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import cast

import numpy as np

from referee.games.base import Reference
from referee.games.reference import Setting, read_spec
from referee.games.thax import solver
from referee.games.thax.rules import Side, ThaxMove, ThaxState
from referee.games.thax.solver import FULL, POSITIONS, RADIX, SIDES, STRIDE

REFERENCES: dict[str, dict[str, Setting]] = {"exact": {}}
"""The one reference, without options."""

MEANS_NAME = "thax-roll-means-v1.npy"
"""The cache folder's file of `roll_means`, beside the solved values."""


def roll_means() -> np.ndarray:
    """By position: the mean, over the rolls weighted by their chances, of the chance that the
    player to roll wins with the roll, playing the best option (the solver's sweep of the
    solved values); computed once (about a second) and kept in the cache folder."""
    return solver.kept(MEANS_NAME, _roll_means)


def _roll_means() -> np.ndarray:
    values = solver.values()
    same = np.append(values, -1.0)  # one slot past the end: "no such option" loses to all
    flipped = np.append(1.0 - values, -1.0)
    means = np.zeros(POSITIONS)
    for chance, again, rows in solver.successors():
        means += chance * (same if again else flipped)[rows].max(axis=0)
    return means


SIDE_INDEX = {
    side: solver.side_index(cast(Side, side))
    for side in itertools.product(*(range(radix) for radix in RADIX))
}
"""A side -> its index in the solver's tables, looked up (the sum is worked out once)."""


class ExactReference(Reference[ThaxState, ThaxMove]):
    spec = "exact"

    def __init__(self) -> None:
        # Python floats read from lists: quicker one by one than numpy scalars.
        self.chances: list[float] = solver.values().tolist()
        self.means: list[float] = roll_means().tolist()
        self._last: tuple[ThaxState | None, float] = (None, 0.0)
        """The decision `move_values` valued last and its best value: the analysis asks for
        the value of the position rolled right after valuing its moves."""

    def values(self, states: Sequence[ThaxState], seat: int) -> list[float]:
        return [self._value(state, seat) for state in states]

    def _value(self, state: ThaxState, seat: int) -> float:
        if state.winner is not None:
            return 1.0 if state.winner == seat else 0.0
        roller = state.seat
        if roller is None:
            return 0.5  # before the opening roll, which makes either seat start alike
        if state.roll is None:
            chance = self.chances[_position(state, roller)]
        elif self._last[0] is state:
            chance = self._last[1]
        else:
            chance = max(self.move_values(state, state.legal_moves()))
        return chance if seat == roller else 1.0 - chance

    def move_values(self, state: ThaxState, moves: Sequence[ThaxMove]) -> list[float]:
        """Each move's value from the indexes of the sides it leaves, without playing it."""
        roller, roll = state.seat, state.roll
        assert roller is not None and roll is not None
        own = SIDE_INDEX[state.sides[roller]]
        other = SIDE_INDEX[state.sides[1 - roller]]
        again = roll[0] == roll[1] != 6
        chances = self.chances
        found = []
        for move in moves:
            mine = own - (STRIDE[move.remove - 1] if move.remove else 0)
            for number in move.place:
                mine += STRIDE[number - 1]
            theirs = other - (STRIDE[move.take - 1] if move.take else 0)
            if mine == FULL:
                found.append(1.0)
            elif again:
                found.append(chances[mine * SIDES + theirs])
            else:
                found.append(1.0 - chances[theirs * SIDES + mine])
        self._last = (state, max(found))
        return found

    def roll_mean(self, state: ThaxState, seat: int) -> float:
        roller = state.seat
        if roller is None:
            return 0.5  # the opening roll makes either seat start, alike
        mean = self.means[_position(state, roller)]
        return mean if seat == roller else 1.0 - mean


def _position(state: ThaxState, roller: int) -> int:
    """The index of the position from the roller's side."""
    sides = state.sides
    return SIDE_INDEX[sides[roller]] * SIDES + SIDE_INDEX[sides[1 - roller]]


def reference(spec: str | None) -> ExactReference:
    read_spec(spec, REFERENCES, "THAX")
    return ExactReference()
