"""Game clocks: `BASE+INC` time controls (cutechess and fastchess syntax) and the two clocks of
a game, kept in whole milliseconds."""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from referee.escaping import quoted
from referee.games.agent import Clock

_SYNTAX = re.compile(r"^\s*(\d+(?:\.\d*)?|\.\d+)\s*(?:\+\s*(\d+(?:\.\d*)?|\.\d+)\s*)?$")


@dataclass(frozen=True)
class TimeControl:
    """Seconds for the whole game and seconds added after each move, in milliseconds."""

    base_ms: int
    increment_ms: int = 0
    text: str = field(default="", compare=False)
    """As it was written (tournament.json keeps it so); made from the milliseconds if not
    given. Two spellings of the same clock are the same time control."""

    def __post_init__(self) -> None:
        if not self.text:
            written = f"{self.base_ms / 1000:g}+{self.increment_ms / 1000:g}"
            object.__setattr__(self, "text", written)


def parse_time_control(text: str) -> TimeControl:
    """`10+0.1` (10 s a game, 0.1 s added per move) or `40` (no increment); ValueError else."""
    match = _SYNTAX.match(text)
    if match is None:
        raise ValueError(
            f"time control {quoted(text)} is not BASE+INC in seconds (e.g. '10+0.1', or '40')"
        )
    base, increment = (float(part) if part else 0.0 for part in match.groups())
    if not (math.isfinite(base) and math.isfinite(increment)):
        raise ValueError(f"time control {quoted(text)}: give finite seconds")
    control = TimeControl(round(base * 1000), round(increment * 1000), text)
    if control.base_ms <= 0:
        raise ValueError(f"time control {quoted(text)}: the game needs some time (BASE > 0)")
    return control


class OutOfTime(Exception):
    """A move took longer than what was left on its player's clock."""

    def __init__(self, *, used_ms: int, left_ms: int) -> None:
        super().__init__(f"out of time: the move took {used_ms} ms with {left_ms} ms left")
        self.used_ms = used_ms
        self.left_ms = left_ms

    @property
    def detail(self) -> str:
        over = self.used_ms - self.left_ms
        return f"{self.used_ms} ms used with {self.left_ms} ms on the clock: {over} ms over"


class GameClocks:
    """Both seats' clocks through a game (a seat without a time control has none).

    Whole milliseconds throughout: a clock after a move is exactly its base plus the
    increments so far minus the times the record keeps, so the record adds up to the unit.
    """

    def __init__(self, controls: Sequence[TimeControl | None]) -> None:
        self.controls = tuple(controls)
        self.left: list[int | None] = [
            None if control is None else control.base_ms for control in self.controls
        ]

    @property
    def running(self) -> bool:
        return any(control is not None for control in self.controls)

    def reading(self) -> Clock | None:
        """What the bots are told before a move; None when neither seat has a clock."""
        if not self.running:
            return None
        increments = tuple(0 if c is None else c.increment_ms for c in self.controls)
        return Clock((self.left[0], self.left[1]), (increments[0], increments[1]))

    def overrun(self, seat: int, used_ms: int) -> OutOfTime | None:
        """Whether `used_ms` is more than `seat` has left, and by how much."""
        left = self.left[seat]
        return (
            OutOfTime(used_ms=used_ms, left_ms=left)
            if left is not None and used_ms > left
            else None
        )

    def charge(self, seat: int, used_ms: int) -> int | None:
        """Take a move's time off `seat`'s clock and add the increment: the clock after the
        move, None without a clock. Raises OutOfTime when the move took more than was left."""
        control, left = self.controls[seat], self.left[seat]
        if control is None or left is None:
            return None
        out = self.overrun(seat, used_ms)
        if out is not None:
            raise out
        after = left - used_ms + control.increment_ms
        self.left[seat] = after
        return after
