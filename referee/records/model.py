"""The game record: one JSON object per game, a versioned envelope around a move log."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Any, Final, Literal, Union

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    GetCoreSchemaHandler,
    GetPydanticSchema,
    JsonValue,
    Strict,
    StrictFloat,
    StrictInt,
    TypeAdapter,
    create_model,
)
from pydantic_core import core_schema

from referee.games import get_game, registered_names
from referee.records.reasons import FORFEITS as FORFEITS
from referee.records.reasons import Reason as Reason

FORMAT: Final = "referee"
VERSION: Final = 1

LARGEST = 2**53 - 1
"""The largest integer a record holds: what every JSON reader (JavaScript's included, as in
the report's viewer) holds exactly."""

# Integers are strict: `true`, `"3"` and `3.0` are not integers, as the schema says.
Seat = Annotated[int, Strict(), Field(ge=0, le=1)]
Die = Annotated[int, Strict(), Field(ge=1, le=6)]
Dice = Annotated[list[Die], Field(min_length=2, max_length=2)]
Count = Annotated[int, Strict(), Field(ge=0, le=LARGEST)]
# A bound given with `Field` beside the annotation comes before the annotation's own, which
# then wins: a stricter bound goes inside the annotation, after Count's.
Positive = Annotated[Count, Field(ge=1)]


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


def _unicode_schema(source: Any, handler: GetCoreSchemaHandler) -> core_schema.CoreSchema:
    text = handler(source)
    return core_schema.json_or_python_schema(
        json_schema=text,
        python_schema=core_schema.no_info_after_validator_function(_unicode, text),
    )


Unicode = GetPydanticSchema(_unicode_schema)
"""`_unicode` on Python data only. JSON read by pydantic (`validate_json`) holds no lone
surrogate: its parser refuses one, written as `\\ud800` or as bytes, so calling `_unicode` on
each string there would find nothing, at a Python call a move (2% of validating a file).
tests/records/test_model.py holds the two ways of reading a record to the same refusals."""

Text = Annotated[str, Unicode]

MAX_NAME = 256
"""The longest name (a player's, an event's, a tag's), in characters."""
MAX_TEXT = 4096
"""The longest other header text (a bot's spec, a tag's value, a result's detail)."""
# The cap before the check of the text: pydantic then words it as a string's.
Name = Annotated[str, Field(max_length=MAX_NAME), Unicode]
LongText = Annotated[str, Field(max_length=MAX_TEXT), Unicode]


def _exactly_int(value: object) -> object:
    if isinstance(value, bool | float):
        raise ValueError(f"{value!r} is not an integer")
    return value


RULESET_ID = r"^[a-z]+/[a-z0-9_-]+@[1-9][0-9]*(\?[^?#\s]*)?$"
"""`game/variant@N` with options after `?`: N written as a plain positive number (no `@01`)."""


def _fresh(default: list[JsonValue] | dict[str, JsonValue], description: str | None = None) -> Any:
    """A mutable default made anew for each record by a factory. Pydantic deep-copies an
    unhashable default every time it fills one in (about a third of the cost of reading a
    record); a factory call costs next to nothing. The schema still shows the default.

    The factory is a Python function, not the builtin `default.copy`: pydantic reads each
    factory's signature, and a builtin's is parsed from text with the tokenizer, which was
    a tenth of building the record model at every start."""

    def fresh() -> Any:
        return default.copy()

    return Field(
        default_factory=fresh,
        description=description,
        json_schema_extra={"default": default.copy()},
    )


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Player(_Model):
    name: Name = Field(min_length=1)
    kind: Literal["human", "bot", "external"] = "human"
    spec: LongText | None = Field(default=None, description="bot name with options, or its command")


class EventInfo(_Model):
    event: Name | None = None
    site: Name | None = None
    date: Name | None = None
    round: Name | None = None
    tournament: Name | None = Field(default=None, description="id of the tournament")
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
    detail: LongText | None = Field(default=None, description="e.g. 'loop', or what a bot did")


class _RecordBase(_Model):
    format: Literal["referee"] = FORMAT
    version: Annotated[Literal[1], BeforeValidator(_exactly_int)] = VERSION
    ruleset: str = Field(pattern=RULESET_ID, description="e.g. 'thax/standard@1'")
    players: Annotated[list[Player], Field(min_length=2, max_length=2)]
    event: EventInfo = EventInfo()
    start: Text | None = Field(default=None, description="start position in the game's notation")
    turns: list[Turn] = _fresh([])
    result: Result | None = Field(default=None, description="null while unfinished")
    tags: dict[Name, LongText] = _fresh({}, "other header data, e.g. PDN tags")

    def first_seat(self) -> int | None:
        """The seat that starts when no opening roll decides it."""
        return None

    def opening_dice(self) -> Sequence[Dice]:
        """The opening rolls that decided who starts (none in a game without dice)."""
        return ()

    def match_info(self) -> MatchInfo | None:
        """The match this game belongs to, for a game played in matches."""
        return None


class _DiceRecord(_RecordBase):
    opening_rolls: list[Dice] = _fresh(
        [], "the opening rolls [seat 0's die, seat 1's die], ties included"
    )

    def opening_dice(self) -> Sequence[Dice]:
        return self.opening_rolls


class ThaxRecord(_DiceRecord):
    game: Literal["thax"]


class MatchInfo(_Model):
    length: Positive = Field(description="points to win the match")
    game: Positive = Field(description="number of this game in the match")
    score: Annotated[list[Count], Field(min_length=2, max_length=2)] = _fresh([0, 0])
    first: Seat | None = Field(
        default=None, description="who starts, for games after the first (the last winner)"
    )


class TakhtehRecord(_DiceRecord):
    game: Literal["takhteh"]
    match: MatchInfo | None = None

    def first_seat(self) -> int | None:
        return self.match.first if self.match is not None else None

    def match_info(self) -> MatchInfo | None:
        return self.match


class TraxRecord(_RecordBase):
    game: Literal["trax"]


class ThaiRecord(_RecordBase):
    game: Literal["thai"]


Record = Annotated[
    ThaxRecord | TakhtehRecord | TraxRecord | ThaiRecord, Field(discriminator="game")
]
"""A record of a built-in game (what the code that names fields sees); a plug-in game's
records are of the class `record_type` makes for it."""
RECORD_TYPES: dict[str, type[_RecordBase]] = {
    "thax": ThaxRecord,
    "takhteh": TakhtehRecord,
    "trax": TraxRecord,
    "thai": ThaiRecord,
}
"""The record classes of the built-in games, written out for the formats that build them."""


class _PluginRecord:
    """A plug-in game's record class is made at run time, so pickle (a tournament's workers
    send records back) finds it by the game's name, not by a name in this module."""

    game: str

    def __reduce__(self) -> tuple[Any, ...]:
        return _plugin_record, (self.game, self.__getstate__())


def _plugin_record(name: str, state: Any) -> _RecordBase:
    kind = record_type(name)
    record = kind.__new__(kind)
    record.__setstate__(state)
    return record


_plugin_types: dict[str, type[_RecordBase]] = {}
_adapters: dict[tuple[str, ...], TypeAdapter[Any]] = {}


def record_type(name: str) -> type[_RecordBase]:
    """The record class of the game `name`: a built-in game's own, or, for a registered game,
    one made from what the game says of itself (dice games keep their opening rolls).
    RulesetError for a game nobody registered."""
    known = RECORD_TYPES.get(name) or _plugin_types.get(name)
    if known is not None:
        return known
    game = get_game(name)
    # A class made at run time: its bases and its `game` literal are values, which the type
    # checker cannot follow.
    made: type[_RecordBase] = create_model(
        f"{name.capitalize()}Record",
        __base__=(_PluginRecord, _DiceRecord if game.has_dice else _RecordBase),  # type: ignore[arg-type]
        __module__=__name__,
        game=(Literal[name], ...),  # type: ignore[arg-type]
    )
    _plugin_types[name] = made
    return made


def record_adapter() -> TypeAdapter[Any]:
    """The validator of a record of any game registered so far, built once for each set of
    games: a union told apart by `game`, as in the JSON Schema."""
    names = registered_names()
    adapter = _adapters.get(names)
    if adapter is None:
        # A union of the games registered now: a type made of values, which pydantic reads
        # and the type checker cannot.
        union = Union[tuple(record_type(name) for name in names)]  # type: ignore[valid-type]  # noqa: UP007
        adapter = _adapters[names] = TypeAdapter(
            Annotated[union, Field(discriminator="game")]  # type: ignore[arg-type]
        )
    return adapter
