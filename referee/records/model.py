"""The game record: one JSON object per game, a versioned envelope around a move log."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictFloat, StrictInt, TypeAdapter

FORMAT = "referee"
VERSION = 1

Seat = Literal[0, 1]
Die = Annotated[int, Field(ge=1, le=6)]
Dice = Annotated[list[Die], Field(min_length=2, max_length=2)]


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


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Player(_Model):
    name: str = Field(min_length=1)
    kind: Literal["human", "bot", "external"] = "human"
    spec: str | None = Field(default=None, description="bot name with options, or its command")


class EventInfo(_Model):
    event: str | None = None
    site: str | None = None
    date: str | None = None
    round: str | None = None
    tournament: str | None = Field(default=None, description="id of the tournament")
    pairing: int | None = Field(default=None, ge=0, description="index of the game pair")
    game_number: int | None = Field(default=None, ge=0, description="index of the game")


class Turn(_Model):
    seat: Seat
    roll: Dice | None = Field(default=None, description="the dice as rolled, in dice games")
    move: str = Field(description="the move in the game's notation")
    time_ms: int | None = Field(default=None, ge=0, description="the time the move took")
    clock_ms: int | None = Field(
        default=None, ge=0, description="the mover's clock after the move, increment added"
    )
    score: Annotated[StrictInt | StrictFloat, Field(allow_inf_nan=False)] | None = Field(
        default=None, description="the mover's score, its own point of view and units"
    )
    depth: int | None = Field(default=None, ge=0, description="how deep the mover searched")
    nodes: int | None = Field(default=None, ge=0, description="positions the mover searched")
    pv: list[str] | None = Field(default=None, description="the line the mover expects")
    book: Literal[True] | None = Field(
        default=None, description="true for a move of the opening book, not the mover's choice"
    )
    comment: str | None = None


class Result(_Model):
    winner: Seat | None = Field(description="the winner's seat, or null for a draw")
    points: int = Field(ge=0)
    reason: Reason
    detail: str | None = Field(default=None, description="e.g. 'loop', or what a bot did")


class _RecordBase(_Model):
    format: Literal["referee"] = FORMAT
    version: Literal[1] = VERSION
    ruleset: str = Field(description="e.g. 'thax/standard@1'")
    players: Annotated[list[Player], Field(min_length=2, max_length=2)]
    event: EventInfo = EventInfo()
    start: str | None = Field(default=None, description="start position in the game's notation")
    turns: list[Turn] = []
    result: Result | None = Field(default=None, description="null while unfinished")
    tags: dict[str, str] = Field(default={}, description="other header data, e.g. PDN tags")

    def first_seat(self) -> int | None:
        """The seat that starts when no opening roll decides it."""
        return None


class _DiceRecord(_RecordBase):
    opening_rolls: list[Dice] = Field(
        default=[], description="the opening rolls [seat 0's die, seat 1's die], ties included"
    )


class ThaxRecord(_DiceRecord):
    game: Literal["thax"]


class MatchInfo(_Model):
    length: int = Field(ge=1, description="points to win the match")
    game: int = Field(ge=1, description="number of this game in the match")
    score: Annotated[list[int], Field(min_length=2, max_length=2)] = [0, 0]
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
