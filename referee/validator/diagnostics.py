"""Structured findings of the validator, one per problem, with where it is and why."""

from __future__ import annotations

from typing import Annotated

from pydantic import AfterValidator, BaseModel

from referee.escaping import escaped


class Diagnostic(BaseModel):
    code: str
    """A stable name of the rule or check that failed, e.g. `thax.space-covered`."""
    message: str
    file: Annotated[str, AfterValidator(escaped)]
    game: int | None = None
    """1-based number of the game in its file."""
    line: int | None = None
    column: int | None = None
    pointer: str | None = None
    """JSON pointer into the record, for JSON input."""
    turn: int | None = None
    """1-based number of the turn in the record."""
    move_number: str | None = None
    """The move number as the game's text writes it (PDN `3...`), where it has its own."""
    seat: int | None = None
    move: str | None = None
    position: str | None = None
    legal: list[str] | None = None

    def one_line(self) -> str:
        place = [self.file]
        if self.line is not None:
            place.append(str(self.line) + (f":{self.column}" if self.column else ""))
        where = ":".join(place)
        parts = [where]
        if self.game is not None:
            parts.append(f"game {self.game}")
        if self.turn is not None:
            parts.append(f"turn {self.turn}")
        if self.move_number is not None:
            parts.append(f"move {self.move_number}")
        if self.move is not None:
            parts.append(repr(self.move))
        return f"{', '.join(parts)}: [{self.code}] {self.message}"


class GameReport(BaseModel):
    """The verdict on one game of a file."""

    file: Annotated[str, AfterValidator(escaped)]
    """The file's name, its bytes that are no UTF-8 shown as `\\xff` (JSON holds no other)."""
    game: int | None
    """1-based number of the game in its file; None for a file that could not be read."""
    line: int | None = None
    game_name: str | None = None
    variant: str | None = None
    turns: int = 0
    valid: bool
    diagnostics: list[Diagnostic] = []
