"""THAX bots."""

from __future__ import annotations

from referee.games.base import State
from referee.games.bot import GreedyBot
from referee.games.thax.rules import ThaxState


def evaluate(state: State, seat: int) -> float:
    """Own covered spaces minus the opponent's.

    Weighting spaces by how rarely a roll covers them scored no better against random play
    (1,000 games each), so the plain count stays.
    """
    assert isinstance(state, ThaxState)
    return sum(state.sides[seat]) - sum(state.sides[1 - seat])


class ThaxGreedyBot(GreedyBot):
    description = "maximises own covered spaces minus the opponent's, one ply"

    def __init__(self) -> None:
        super().__init__(evaluate)


BOTS = {"greedy": ThaxGreedyBot}
