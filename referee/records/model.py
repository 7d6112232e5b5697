"""The game record: one JSON object per game, a versioned envelope around a move log."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    Strict,
    StrictFloat,
    StrictInt,
    TypeAdapter,
)

FORMAT = "referee"
VERSION = 1

LARGEST = 2**53 - 1
"""The largest integer a record holds: what every JSON reader (JavaScript's included, as in
the report's viewer) holds exactly."""

# Integers are strict: `true`, `"3"` and `3.0` are not integers, as the schema says.
Seat = Annotated[int, Strict(), Field(ge=0, le=1)]
Die = Annotated[int, Strict(), Field(ge=1, le=6)]
Dice = Annotated[list[Die], Field(min_length=2, max_length=2)]
Count = Annotated[int, Strict(), Field(ge=0, le=LARGEST)]


def _unicode(text: str) -> str:
    """A lone surrogate (JSON `\\ud800` with no pair) is no Unicode text: no file can hold it."""
    if text.isascii():
        return text
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as error:
        bad = ord(text[error.start])
        message = f"\\u{bad:04x} at offset {error.start} is half a UTF-16 pair, not text"
        raise ValueError(message) from None
    return text


Text = Annotated[str, AfterValidator(_unicode)]


def _exactly_int(value: object) -> object:
    if isinstance(value, bool | float):
        raise ValueError(f"{value!r} is not an integer")
    return value


RULESET_ID = r"^[a-z]+/[a-z0-9_-]+@[1-9][0-9]*(\?[^?#\s]*)?$"
"""`game/variant@N` with options after `?`: N written as a plain positive number (no `@01`)."""


class Reason(StrEnum):
    """Why a game ended."""

    RULES = "rules"
    """Won, lost or drawn by the rules of the game."""
    RESIGN = "resign"
    TIME = "time"
    CRASH = "crash"
    ILLEGAL_MOVE = "illegal_move"
    PROTOCOL_ERROR = "protocol_error"
    ADJUDICATED = "adjudicated"
    """Decided by the referee, e.g. a draw at the turn cap."""


FORFEITS = frozenset({Reason.TIME, Reason.CRASH, Reason.ILLEGAL_MOVE, Reason.PROTOCOL_ERROR})


def _fresh(default: list[Any] | dict[str, str], description: str | None = None) -> Any:
    """A mutable default made anew for each record by a factory. Pydantic deep-copies an
    unhashable default every time it fills one in (about a third of the cost of reading a
    record); a factory call costs next to nothing. The schema still shows the default."""
    return Field(
        default_factory=default.copy,
        description=description,
        json_schema_extra={"default": default.copy()},
    )


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Player(_Model):
    name: Text = Field(min_length=1)
    kind: Literal["human", "bot", "external"] = "human"
    spec: Text | None = Field(default=None, description="bot name with options, or its command")


class EventInfo(_Model):
    event: Text | None = None
    site: Text | None = None
    date: Text | None = None
    round: Text | None = None
    tournament: Text | None = Field(default=None, description="id of the tournament")
    pairing: Count | None = Field(default=None, description="index of the game pair")
    game_number: Count | None = Field(default=None, description="index of the game")


class Turn(_Model):
    seat: Seat
    roll: Dice | None = Field(default=None, description="the dice as rolled, in dice games")
    move: Text = Field(description="the move in the game's notation")
    time_ms: Count | None = Field(default=None, description="the time the move took")
    clock_ms: Count | None = Field(
        default=None, description="the mover's clock after the move, increment added"
    )
    score: Annotated[StrictInt | StrictFloat, Field(allow_inf_nan=False)] | None = Field(
        default=None, description="the mover's score, its own point of view and units"
    )
    depth: Count | None = Field(default=None, description="how deep the mover searched")
    nodes: Count | None = Field(default=None, description="positions the mover searched")
    pv: list[Text] | None = Field(default=None, description="the line the mover expects")
    book: Literal[True] | None = Field(
        default=None, description="true for a move of the opening book, not the mover's choice"
    )
    comment: Text | None = None


class Result(_Model):
    winner: Seat | None = Field(description="the winner's seat, or null for a draw")
    points: Count
    reason: Reason
    detail: Text | None = Field(default=None, description="e.g. 'loop', or what a bot did")


class _RecordBase(_Model):
    format: Literal["referee"] = FORMAT
    version: Annotated[Literal[1], BeforeValidator(_exactly_int)] = VERSION
    ruleset: str = Field(pattern=RULESET_ID, description="e.g. 'thax/standard@1'")
    players: Annotated[list[Player], Field(min_length=2, max_length=2)]
    event: EventInfo = EventInfo()
    start: Text | None = Field(default=None, description="start position in the game's notation")
    turns: list[Turn] = _fresh([])
    result: Result | None = Field(default=None, description="null while unfinished")
    tags: dict[Text, Text] = _fresh({}, "other header data, e.g. PDN tags")

    def first_seat(self) -> int | None:
        """The seat that starts when no opening roll decides it."""
        return None


class _DiceRecord(_RecordBase):
    opening_rolls: list[Dice] = _fresh(
        [], "the opening rolls [seat 0's die, seat 1's die], ties included"
    )


class ThaxRecord(_DiceRecord):
    game: Literal["thax"]


class MatchInfo(_Model):
    length: Count = Field(ge=1, description="points to win the match")
    game: Count = Field(ge=1, description="number of this game in the match")
    score: Annotated[list[Count], Field(min_length=2, max_length=2)] = _fresh([0, 0])
    first: Seat | None = Field(
        default=None, description="who starts, for games after the first (the last winner)"
    )


class TakhtehRecord(_DiceRecord):
    game: Literal["takhteh"]
    match: MatchInfo | None = None

    def first_seat(self) -> int | None:
        return self.match.first if self.match is not None else None


class TraxRecord(_RecordBase):
    game: Literal["trax"]


class ThaiRecord(_RecordBase):
    game: Literal["thai"]


Record = Annotated[
    ThaxRecord | TakhtehRecord | TraxRecord | ThaiRecord, Field(discriminator="game")
]
RECORD_ADAPTER: TypeAdapter[Record] = TypeAdapter(Record)
RECORD_TYPES = {
    "thax": ThaxRecord,
    "takhteh": TakhtehRecord,
    "trax": TraxRecord,
    "thai": ThaiRecord,
}
