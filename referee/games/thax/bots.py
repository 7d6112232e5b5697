"""THAX bots."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from referee.games.agent import Bot, GreedyBot, MoveInfo
from referee.games.thax import solver
from referee.games.thax.rules import ThaxMove, ThaxState


def evaluate(state: ThaxState, seat: int) -> float:
    """Own covered spaces minus the opponent's.

    Weighting spaces by how rarely a roll covers them scored no better against random play
    (1,000 games each), so the plain count stays.
    """
    return sum(state.sides[seat]) - sum(state.sides[1 - seat])


class ThaxGreedyBot(GreedyBot[ThaxState, ThaxMove]):
    description = "maximises own covered spaces minus the opponent's, one ply"

    def __init__(self) -> None:
        super().__init__(evaluate)


class PerfectBot(Bot[ThaxState, ThaxMove]):
    """Plays the option with the highest probability of winning under perfect play."""

    name = "thax-perfect"
    description = "perfect play from the solved game (table computed once, then cached)"

    def __init__(self) -> None:
        super().__init__()
        self.values = solver.values()

    def win_chance(self, state: ThaxState, move: ThaxMove) -> float:
        """The mover's chance of winning after `move`."""
        seat = state.seat
        assert seat is not None
        after = state.play(move)
        if after.winner is not None:
            return 1.0
        own, other = after.sides[seat], after.sides[1 - seat]
        if after.seat == seat:
            return float(self.values[solver.position_index(own, other)])
        return 1.0 - float(self.values[solver.position_index(other, own)])

    def choose(self, state: ThaxState, history: Sequence[Any] = ()) -> ThaxMove:
        """The move, and as `info` its expected points for the mover: 2 x its chance of
        winning - 1, from -1 (lost) to +1 (won); `nodes` counts the options weighed."""
        scored = [(self.win_chance(state, move), move) for move in state.legal_moves()]
        best = max(score for score, _ in scored)
        self.info = MoveInfo(2 * best - 1, nodes=len(scored))
        return self.rng.choice([move for score, move in scored if score >= best - 1e-12])


BOTS: dict[str, type[Bot[ThaxState, ThaxMove]]] = {
    "greedy": ThaxGreedyBot,
    "thax-perfect": PerfectBot,
}
