"""THAX notation [project rule]: moves `P3 P5`, `P5`, `T5>3`, `R4`, `-`; positions such as
`11200/01000 1`."""

from __future__ import annotations

import re
from functools import lru_cache

from referee.escaping import quoted
from referee.games.base import NotationError
from referee.games.thax.rules import NUMBERS, PASS, Side, ThaxMove

_TOKEN = re.compile(r"([PRT])([1-5])(?:>([1-5]))?$")


@lru_cache(maxsize=4096)
def parse_move(text: str) -> ThaxMove:
    """Read one turn's move; the tokens may come in any order and in either case."""
    tokens = text.split()
    if tokens == ["-"]:
        return PASS
    if not tokens:
        raise NotationError("an empty move (write '-' for no move)")
    place: list[int] = []
    take = remove = 0
    for token in tokens:
        match = _TOKEN.match(token.upper())
        if match is None:
            raise NotationError(
                f"{quoted(token)} is not a THAX move token (P3, T5>3, R4 or -; spaces 1 to 5)"
            )
        kind, first, second = match.group(1), int(match.group(2)), match.group(3)
        if (kind == "T") != (second is not None):
            raise NotationError(f"{quoted(token)}: only a take is written with '>' (T5>3)")
        if kind == "P":
            place.append(first)
        elif kind == "T":
            if take:
                raise NotationError(f"{quoted(text)}: a turn has at most one take")
            take = first
            place.append(int(second))
        else:
            if remove:
                raise NotationError(f"{quoted(text)}: a turn removes at most one piece")
            remove = first
    if (take or remove) and len(tokens) > 1:
        raise NotationError(f"{quoted(text)}: a take or a removal is the whole turn")
    if len(place) > 2:
        raise NotationError(f"{quoted(text)}: a turn places at most two pieces")
    return ThaxMove(tuple(sorted(place)), take, remove)


def format_move(move: ThaxMove) -> str:
    if move.remove:
        return f"R{move.remove}"
    if move.take:
        return f"T{move.take}>{move.place[0]}"
    if not move.place:
        return "-"
    return " ".join(f"P{n}" for n in sorted(move.place))


_POSITION = re.compile(r"([0-5]{5})\s*/\s*([0-5]{5})(?:\s+([01-]))?")


def parse_position(text: str) -> tuple[tuple[Side, Side], int | None]:
    """Both sides and the seat on roll from a position text [project rule] such as
    `11200/01000 1`: seat 0's covered spaces of each number 1..5, a slash, seat 1's, then
    the seat to roll (0 when left out; `-` before the opening roll)."""
    match = _POSITION.fullmatch(text.strip())
    if match is None:
        raise NotationError(
            f"{quoted(text)} is not a THAX position: write each side's covered spaces of 1..5 and "
            "the seat to roll, e.g. 11200/01000 1"
        )
    sides = []
    for seat in (0, 1):
        side = tuple(int(digit) for digit in match.group(seat + 1))
        for n, covered in zip(NUMBERS, side, strict=True):
            if covered > n:
                raise NotationError(
                    f"{quoted(text)}: seat {seat} has {covered} covered {n}-spaces (at most {n})"
                )
        sides.append(side)
    roller = match.group(3) or "0"
    return (sides[0], sides[1]), None if roller == "-" else int(roller)  # type: ignore[return-value]


def format_position(sides: tuple[Side, Side], seat: int | None) -> str:
    digits = ("".join(map(str, side)) for side in sides)
    return "/".join(digits) + (" -" if seat is None else f" {seat}")
