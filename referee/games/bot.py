"""Built-in bots: the interface the game loop drives, and the two every game has."""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from typing import Any, ClassVar

from referee.games.base import Ruleset, State

WIN_SCORE = 1e9


class Forfeit(Exception):
    """A bot lost the game by what it did; `reason` is a record reason such as `time`."""

    def __init__(self, reason: str, detail: str) -> None:
        super().__init__(detail)
        self.reason = reason
        self.detail = detail


class Bot(ABC):
    """Given a state, return a move; seeded per game, so a game can be played again exactly."""

    name: ClassVar[str]
    description: ClassVar[str] = ""

    def __init__(self) -> None:
        self.rng = random.Random(0)
        self.seat = 0

    def start_game(self, ruleset: Ruleset, seat: int, seed: str) -> None:
        """Called before each game; may raise Forfeit (a bot that cannot start loses)."""
        self.seat = seat
        self.rng = random.Random(seed)

    @abstractmethod
    def choose(self, state: State, history: Sequence[Any] = ()) -> Any:
        """The move to play in `state`; `history` holds the record's turns so far.

        May raise Forfeit (time, crash, protocol error, a move that is not notation).
        """

    def end_game(self, winner: int | None, reason: str) -> None:
        """Called after each game."""

    def close(self) -> None:
        """Release what the bot holds (a process, a file)."""


class RandomBot(Bot):
    name = "random"
    description = "a uniformly random legal move"

    def choose(self, state: State, history: Sequence[Any] = ()) -> Any:
        return self.rng.choice(state.legal_moves())


Evaluation = Callable[[State, int], float]
"""How good a position is for a seat (higher is better)."""


class GreedyBot(Bot):
    """One ply: the move whose resulting position evaluates best, ties broken at random."""

    name = "greedy"
    description = "the move whose resulting position scores best (one ply)"

    def __init__(self, evaluate: Evaluation) -> None:
        super().__init__()
        self.evaluate = evaluate

    def choose(self, state: State, history: Sequence[Any] = ()) -> Any:
        seat = state.to_move
        assert seat is not None
        best: list[Any] = []
        best_score = -float("inf")
        for move in state.legal_moves():
            after = state.play(move)
            outcome = after.outcome()
            if outcome is not None:
                score = WIN_SCORE if outcome.winner == seat else -WIN_SCORE
                if outcome.winner is None:
                    score = 0.0
            else:
                score = self.evaluate(after, seat)
            if score > best_score:
                best, best_score = [move], score
            elif score == best_score:
                best.append(move)
        return self.rng.choice(best)
