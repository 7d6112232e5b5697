"""Counting verdicts per game and variant, and per diagnostic code."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from referee.validator.diagnostics import GameReport

UNREADABLE = ("(unreadable)", "")


@dataclass
class GroupTally:
    """The games of one (game, variant) group, or of the unreadable, counted."""

    games: int = 0
    valid: int = 0
    codes: Counter[str] = field(default_factory=Counter)

    @property
    def invalid(self) -> int:
        return self.games - self.valid


@dataclass
class Summary:
    groups: dict[tuple[str, str], GroupTally] = field(default_factory=dict)

    def add(self, report: GameReport) -> None:
        key = (report.game_name, report.variant or "") if report.game_name else UNREADABLE
        # Called for every game: a tally (and its Counter) made only for a new group, and the
        # Counter updated only with codes (an update costs half a microsecond, even of nothing).
        tally = self.groups.get(key)
        if tally is None:
            tally = self.groups[key] = GroupTally()
        tally.games += 1
        tally.valid += report.valid
        if report.diagnostics:
            tally.codes.update(diagnostic.code for diagnostic in report.diagnostics)

    @property
    def games(self) -> int:
        return sum(t.games for t in self.groups.values())

    @property
    def invalid(self) -> int:
        return sum(t.invalid for t in self.groups.values())
