"""Adjudication from the bots' scores: `resign=SCORE:MOVES` and `draw=SCORE:MOVES:AFTER`.

Each bot's score is from its own point of view. The resign rule gives the game to a bot when
its opponent's last MOVES moves all scored at most -SCORE and its own last MOVES moves at
least +SCORE (SCORE is a magnitude, given with or without its minus sign). The draw rule
calls a draw when the last MOVES moves of each bot, all played after turn AFTER, scored
within -SCORE..+SCORE. A move without a score breaks its bot's runs. The resign rule is
checked first.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

from referee.escaping import quoted
from referee.records.model import Reason, Result


def _text(value: float) -> str:
    """A threshold as the user would write it: 500, not 500.0; exact, so it reads back."""
    return str(int(value)) if value == int(value) else repr(value)


@dataclass(frozen=True)
class ResignRule:
    score: float
    """The magnitude: the loser at or below -score, the winner at or above +score."""
    moves: int

    def __str__(self) -> str:
        return f"resign={_text(self.score)}:{self.moves}"


@dataclass(frozen=True)
class DrawRule:
    score: float
    moves: int
    after: int
    """Only moves after this turn (1-based count of the record's turns) count."""

    def __str__(self) -> str:
        return f"draw={_text(self.score)}:{self.moves}:{self.after}"


@dataclass(frozen=True)
class Adjudication:
    resign: ResignRule | None = None
    draw: DrawRule | None = None
    texts: tuple[str, ...] = field(default=(), compare=False)
    """The rules as they were written (tournament.json keeps them so)."""

    def written(self) -> list[str]:
        """The rules as written, or as `parse_rule` reads them when made from rules."""
        if self.texts:
            return list(self.texts)
        return [str(rule) for rule in (self.resign, self.draw) if rule is not None]


def _number(text: str, rule: str, what: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not math.isfinite(value):
        raise ValueError(f"adjudication {quoted(rule)}: {what} {quoted(text)} is not a number")
    return value


def _count(text: str, rule: str, what: str, least: int) -> int:
    if not text.strip().isdigit() or int(text) < least:
        raise ValueError(
            f"adjudication {quoted(rule)}: {what} {quoted(text)} is not a whole number >= {least}"
        )
    return int(text)


def parse_rule(text: str) -> ResignRule | DrawRule:
    """`resign=SCORE:MOVES` or `draw=SCORE:MOVES:AFTER`; ValueError with the reason."""
    name, eq, rest = text.partition("=")
    name = name.strip()
    parts = rest.split(":")
    if name == "resign" and eq and len(parts) == 2:
        score = abs(_number(parts[0], text, "SCORE"))
        if score == 0:
            raise ValueError(f"adjudication {quoted(text)}: a resign SCORE must not be 0")
        return ResignRule(score, _count(parts[1], text, "MOVES", 1))
    if name == "draw" and eq and len(parts) == 3:
        score = _number(parts[0], text, "SCORE")
        if score < 0:
            raise ValueError(
                f"adjudication {quoted(text)}: a draw SCORE is a bound on |score|, >= 0"
            )
        return DrawRule(
            score, _count(parts[1], text, "MOVES", 1), _count(parts[2], text, "AFTER", 0)
        )
    raise ValueError(
        f"adjudication {quoted(text)} is not resign=SCORE:MOVES or draw=SCORE:MOVES:AFTER"
    )


def parse_adjudication(items: Sequence[str]) -> Adjudication:
    rules: dict[str, ResignRule | DrawRule] = {}
    for item in items:
        rule = parse_rule(item)
        kind = "resign" if isinstance(rule, ResignRule) else "draw"
        if kind in rules:
            raise ValueError(f"adjudication: the {kind} rule is given twice")
        rules[kind] = rule
    return Adjudication(**rules, texts=tuple(items))  # type: ignore[arg-type]


class Adjudicator:
    """Follows the scores of a game turn by turn and says when a rule fires."""

    def __init__(self, rules: Adjudication) -> None:
        self.rules = rules
        self.losing = [0, 0]
        """Per seat, its last moves in a row that scored <= -resign score."""
        self.winning = [0, 0]
        self.level = [0, 0]
        """Per seat, its last moves in a row after turn AFTER within the draw score."""

    @property
    def active(self) -> bool:
        return self.rules.resign is not None or self.rules.draw is not None

    def after_turn(self, turns: int, seat: int, score: float | None) -> Result | None:
        """Take the score of the move `seat` just made (the `turns`-th of the game); the
        adjudicated result if a rule fires now."""
        resign, draw = self.rules.resign, self.rules.draw
        if resign is not None:
            losing = score is not None and score <= -resign.score
            winning = score is not None and score >= resign.score
            self.losing[seat] = self.losing[seat] + 1 if losing else 0
            self.winning[seat] = self.winning[seat] + 1 if winning else 0
            for loser in (seat, 1 - seat):
                if self.losing[loser] >= resign.moves and self.winning[1 - loser] >= resign.moves:
                    detail = (
                        f"{resign}: seat {loser} scored <= -{_text(resign.score)} and seat "
                        f"{1 - loser} >= {_text(resign.score)} for {resign.moves} moves each"
                    )
                    return Result(
                        winner=1 - loser, points=1, reason=Reason.ADJUDICATED, detail=detail
                    )
        if draw is not None:
            level = score is not None and turns > draw.after and abs(score) <= draw.score
            self.level[seat] = self.level[seat] + 1 if level else 0
            if min(self.level) >= draw.moves:
                detail = (
                    f"{draw}: both scored within ±{_text(draw.score)} for {draw.moves} moves each "
                    f"after turn {draw.after}"
                )
                return Result(winner=None, points=0, reason=Reason.ADJUDICATED, detail=detail)
        return None
