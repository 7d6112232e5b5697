"""A game's analysis summed up per seat: decisions, errors, blunders, luck, and the result
with the luck taken out.

Scores are the ratings': 1 for a win, 0.5 for a draw, 0 for a loss (a Takhteh gammon too
scores 1). Errors and luck are in the same unit, chances of winning, so that they add up with
the result: a seat's luck-adjusted result is its result less its own rolls' luck plus its
opponent's (the luck of every roll of the game valued for that seat), an estimate of its
expected result with the dice's noise taken out; it may leave [0, 1].
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from referee.analysis.turns import OpeningLuck, TurnAnalysis
from referee.records.keys import GameKey
from referee.records.model import Result

BLUNDER = 0.08
"""An error of this many chances of winning or more (8 percentage points) is a blunder."""


@dataclass(frozen=True, slots=True)
class SeatSummary:
    """One seat's play and dice over a game."""

    decisions: int
    """Turns where the seat had a choice: two legal moves or more, not a book move."""
    error_total: float
    blunders: int
    luck: float
    """The luck of the seat's own rolls (the opening roll's for the seat that it made start)."""

    @property
    def error_rate(self) -> float | None:
        """The mean error per decision; None without a decision."""
        return self.error_total / self.decisions if self.decisions else None


class SeatFigures(Protocol):
    """A seat's figures over a game: a `SeatSummary`, or one read from an analysis file."""

    @property
    def decisions(self) -> int: ...
    @property
    def error_total(self) -> float: ...
    @property
    def blunders(self) -> int: ...
    @property
    def luck(self) -> float: ...


@dataclass
class PlayTotals:
    """A player's seats summed over its games: what the tables of analyse and the report's
    standings show per player."""

    games: int = 0
    decisions: int = 0
    error: float = 0.0
    blunders: int = 0
    luck: float = 0.0

    def add(self, seat: SeatFigures) -> None:
        self.games += 1
        self.decisions += seat.decisions
        self.error += seat.error_total
        self.blunders += seat.blunders
        self.luck += seat.luck


@dataclass(frozen=True, slots=True)
class GameAnalysis:
    """A game of a record file, analysed."""

    file: str
    game_number: int
    """1-based place of the game in its file; 0 where not known (a tournament's analysis,
    made where the game was played)."""
    line: int
    key: GameKey | None
    """The tournament game it is (tournament, pairing, game number, match game), if any."""
    game: str
    engine: str
    """The reference's spec."""
    players: tuple[str, str]
    result: tuple[float, float] | None
    """Each seat's score; None for a game without a result."""
    opening: OpeningLuck | None
    turns: list[TurnAnalysis] = field(repr=False)
    seats: tuple[SeatSummary, SeatSummary] = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "seats", (self._seat(0), self._seat(1)))

    def _seat(self, seat: int) -> SeatSummary:
        decisions = blunders = 0
        error = luck = 0.0
        for turn in self.turns:
            if turn.seat != seat:
                continue
            if turn.choices > 1:
                decisions += 1
                error += turn.error
                blunders += turn.error >= BLUNDER
            if turn.luck is not None:
                luck += turn.luck
        if self.opening is not None and self.opening.seat == seat:
            luck += self.opening.luck
        return SeatSummary(decisions, error, blunders, luck)

    @property
    def adjusted(self) -> tuple[float, float] | None:
        """Each seat's result less its own luck plus its opponent's; None without a result."""
        if self.result is None:
            return None
        first, second = self.seats
        net = first.luck - second.luck
        return self.result[0] - net, self.result[1] + net


def scores(result: Result | None) -> tuple[float, float] | None:
    """Each seat's score for a result: 1 a win, 0.5 a draw, 0 a loss."""
    if result is None:
        return None
    if result.winner is None:
        return 0.5, 0.5
    return (1.0, 0.0) if result.winner == 0 else (0.0, 1.0)
