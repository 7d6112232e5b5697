"""THAX's reference for `referee analyse`: the solved game (solver.py), exact.

A position's value is the solved chance that its player to roll wins under perfect play; a
position with the dice rolled is worth the best of its options (as the solver's sweep has
it); a move is worth the value of the position it leads to, for the mover. So the error of a
move is exactly what it loses against the best option, and the luck of a roll exactly what
it gains against the average roll. The best option of every position and roll is worked out
once for all positions (`roll_table`), so that a turn costs table lookups, never a search.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

import numpy as np

from referee.games.base import Reference
from referee.games.dice import TURN_OUTCOMES
from referee.games.reference import Setting, read_spec
from referee.games.thax import solver
from referee.games.thax.rules import ThaxMove, ThaxState
from referee.games.thax.solver import FULL, POSITIONS, SIDES, STRIDE, side_index

REFERENCES: dict[str, dict[str, Setting]] = {"exact": {}}
"""The one reference, without options."""

ROLL_INDEX = {roll: index for index, (roll, _) in enumerate(TURN_OUTCOMES)}
"""A turn roll (larger die first) -> its row of `roll_table` and its place in the chance
node's outcomes."""


@cache
def roll_table() -> np.ndarray:
    """(rolls, positions): the chance that the player to roll wins with each roll, playing the
    best option: the solver's sweep without its sum over the rolls (about a second)."""
    values = solver.values()
    same = np.append(values, -1.0)  # one slot past the end: "no such option" loses to all
    flipped = np.append(1.0 - values, -1.0)
    table = np.empty((len(TURN_OUTCOMES), POSITIONS))
    for row, (_, again, rows) in enumerate(solver.successors()):
        table[row] = (same if again else flipped)[rows].max(axis=0)
    return table


class ExactReference(Reference[ThaxState, ThaxMove]):
    spec = "exact"

    def __init__(self) -> None:
        # Python floats read from a list: quicker one by one than numpy scalars.
        self.chances: list[float] = solver.values().tolist()
        self.rolls = roll_table()

    def values(self, states: Sequence[ThaxState], seat: int) -> list[float]:
        return [self._value(state, seat) for state in states]

    def _value(self, state: ThaxState, seat: int) -> float:
        if state.winner is not None:
            return 1.0 if state.winner == seat else 0.0
        roller = state.seat
        if roller is None:
            return 0.5  # before the opening roll, which makes either seat start alike
        position = solver.position_index(state.sides[roller], state.sides[1 - roller])
        if state.roll is None:
            chance = self.chances[position]
        else:
            chance = float(self.rolls[ROLL_INDEX[state.roll], position])
        return chance if seat == roller else 1.0 - chance

    def move_values(self, state: ThaxState, moves: Sequence[ThaxMove]) -> list[float]:
        """Each move's value from the indexes of the sides it leaves, without playing it."""
        roller, roll = state.seat, state.roll
        assert roller is not None and roll is not None
        own = side_index(state.sides[roller])
        other = side_index(state.sides[1 - roller])
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
        return found

    def roll_values(self, state: ThaxState, seat: int) -> list[float]:
        roller = state.seat
        if roller is None:
            return super().roll_values(state, seat)  # the opening roll: who starts
        position = solver.position_index(state.sides[roller], state.sides[1 - roller])
        column: list[float] = self.rolls[:, position].tolist()
        return column if seat == roller else [1.0 - chance for chance in column]


def reference(spec: str | None) -> ExactReference:
    read_spec(spec, REFERENCES, "THAX")
    return ExactReference()
