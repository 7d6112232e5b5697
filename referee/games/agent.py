"""Built-in bots: the interface the game loop drives, and the two every game has."""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Generic

from referee.games.base import M, Ruleset, S, State
from referee.games.search import WIN


class Forfeit(Exception):
    """A bot lost the game by what it did; `reason` is a record reason such as `time`."""

    def __init__(self, detail: str, *, reason: str) -> None:
        super().__init__(detail)
        self.reason = reason
        self.detail = detail


@dataclass(frozen=True)
class Clock:
    """The game clocks as a move is asked for, by seat (None: that seat plays without one)."""

    remaining_ms: tuple[int | None, int | None]
    increment_ms: tuple[int, int]


@dataclass(frozen=True)
class MoveInfo:
    """What a bot says about the move it chose, kept in the record's turn.

    `score` is from the bot's own point of view in its own units (higher is better for it),
    `depth` how deep it searched, `nodes` how many positions it visited, `pv` the line it
    expects (moves in the game's notation). Any of them may be missing.
    """

    score: int | float | None = None
    depth: int | None = None
    nodes: int | None = None
    pv: tuple[str, ...] | None = None


NO_INFO = MoveInfo()

CLOCK_SHARE = 20
"""A bot on a clock thinks about 1/CLOCK_SHARE of what is left plus INCREMENT_SHARE of the
increment: games of these four run to a few dozen moves a side. Keeping half the increment
lets the clock settle at about ten increments, a reserve against a busy machine."""
INCREMENT_SHARE = 0.5
MOVE_OVERHEAD = 0.02
"""Seconds kept back from every move's budget for what the bot does not time: stopping a
search, the referee's own work, a moment the machine gives to other work."""


class Bot(ABC, Generic[S, M]):
    """Given a state, return a move; seeded per game, so a game can be played again exactly.
    `S` and `M` are the game's state and move classes (`Any` for a bot of every game).

    The game loop calls `think`, which hands the bot the clocks (`self.clock`) and collects
    what the bot reports about its move (`self.info`, which `choose` may set); a bot that
    reports nothing need not know either.
    """

    name: ClassVar[str]
    description: ClassVar[str] = ""
    clock: Clock | None = None
    """The clocks as the current move was asked for; None in a game without clocks."""
    info: MoveInfo = NO_INFO
    """What the bot reports about its current move; `think` clears it before `choose`."""

    def __init__(self) -> None:
        self.rng = random.Random(0)
        self.seat = 0

    def think(
        self, state: S, history: Sequence[Any] = (), clock: Clock | None = None
    ) -> tuple[M, MoveInfo]:
        """The move `choose` picks with the clocks as given, and what the bot says about it."""
        self.clock = clock
        self.info = NO_INFO
        move = self.choose(state, history)
        return move, self.info

    def clock_seconds(self) -> float | None:
        """What is left on this bot's clock, in seconds; None when it plays without one."""
        if self.clock is None:
            return None
        left = self.clock.remaining_ms[self.seat]
        return None if left is None else left / 1000

    def seconds_for_move(self, limit: float) -> float:
        """The time to think on this move: `limit` (the bot's own `time` option; 0 is none)
        without a clock, else a share of the clock (never more than half of what is left),
        less MOVE_OVERHEAD."""
        left = self.clock_seconds()
        if left is None:
            return limit
        assert self.clock is not None
        increment = self.clock.increment_ms[self.seat] / 1000
        share = min(left / 2, left / CLOCK_SHARE + increment * INCREMENT_SHARE)
        return max(0.001, share - MOVE_OVERHEAD)

    def start_game(self, ruleset: Ruleset, seat: int, seed: str) -> None:
        """Called before each game; may raise Forfeit (a bot that cannot start loses)."""
        self.seat = seat
        self.rng = random.Random(seed)

    @abstractmethod
    def choose(self, state: S, history: Sequence[Any] = ()) -> M:
        """The move to play in `state`; `history` holds the record's turns so far.

        May raise Forfeit (time, crash, protocol error, a move that is not notation).
        """

    def end_game(self, winner: int | None, reason: str) -> None:
        """Called after each game."""

    def reset(self) -> bool:
        """Forget every game played, so that the next game plays as with a new bot; whether
        the bot could. A tournament worker keeps a bot that can for its next game, and builds
        a new one for a bot that cannot (the default: a bot may keep tables, killer moves or
        statistics from game to game). A bot whose only state is what `start_game` sets
        (its seat and its seeded generator) returns True."""
        return False

    def close(self) -> None:
        """Release what the bot holds (a process, a file)."""


class RandomBot(Bot[State[Any], Any]):
    name = "random"
    description = "a uniformly random legal move"

    def reset(self) -> bool:
        return True

    def think(
        self, state: State[Any], history: Sequence[Any] = (), clock: Clock | None = None
    ) -> tuple[Any, MoveInfo]:
        # `Bot.think` with `choose` written in: a random bot reports nothing, and a call less
        # a move is a few per cent of a random-bot tournament.
        self.clock = clock
        return self.rng.choice(state.legal_moves()), NO_INFO

    def choose(self, state: State[Any], history: Sequence[Any] = ()) -> Any:
        return self.rng.choice(state.legal_moves())


class GreedyBot(Bot[S, M]):
    """One ply: the move whose resulting position evaluates best, ties broken at random."""

    name = "greedy"
    description = "the move whose resulting position scores best (one ply)"

    def __init__(self, evaluate: Callable[[S, int], float]) -> None:
        """`evaluate` says how good a position is for a seat (higher is better)."""
        super().__init__()
        self.evaluate = evaluate

    def reset(self) -> bool:
        # Its evaluation is a pure function: a subclass that keeps more says so here.
        return True

    def choose(self, state: S, history: Sequence[Any] = ()) -> M:
        seat = state.to_move
        assert seat is not None
        best: list[M] = []
        best_score = -float("inf")
        for move in state.legal_moves():
            after = state.play(move)
            outcome = after.outcome()
            if outcome is not None:
                score: float = WIN if outcome.winner == seat else -WIN
                if outcome.winner is None:
                    score = 0.0
            else:
                score = self.evaluate(after, seat)
            if score > best_score:
                best, best_score = [move], score
            elif score == best_score:
                best.append(move)
        return self.rng.choice(best)
