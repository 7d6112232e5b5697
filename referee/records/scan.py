"""A fast scan of JSONL records: the header fields, checked, without building pydantic records.

Tools that read millions of records only to look at who played, how it ended and how long it
took (`referee select`, `referee stats`) decode each line with msgspec straight into the
small structs below. msgspec checks the type and range of every field it decodes, as the
record model does (no `true` or `"3"` for a seat, points >= 0, a known reason), and skips the
fields a struct does not name without building them: a line is read in a few microseconds,
against some fifty for the full model. The turns are skipped too unless the caller asks for
them (`with_turns`): then each turn's seat, roll and move are decoded, and nothing else.

What the scan does not read (times, comments, engine output in the turns) is not checked
here; it is when the full record is built from the line, or by `referee validate`.
A line the scan refuses is read again by the full reader, so that the error names the field
and the rule exactly as everywhere else in referee.

The structs keep the record model's field names, so code that reads `record.players[0].name`
or `record.result.reason` works on either.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Annotated, Literal, NamedTuple

import msgspec

from referee.games import GAME_NAMES
from referee.records.io import RecordError, load_json, parse_record
from referee.records.model import RULESET_ID, Reason

Seat = Literal[0, 1]
Count = Annotated[int, msgspec.Meta(ge=0)]
Positive = Annotated[int, msgspec.Meta(ge=1)]
Die = Annotated[int, msgspec.Meta(ge=1, le=6)]
Dice = Annotated[list[Die], msgspec.Meta(min_length=2, max_length=2)]


class ScanPlayer(msgspec.Struct, frozen=True):
    name: Annotated[str, msgspec.Meta(min_length=1)]
    kind: Literal["human", "bot", "external"] = "human"
    spec: str | None = None


class ScanEvent(msgspec.Struct, frozen=True):
    event: str | None = None
    site: str | None = None
    date: str | None = None
    round: str | None = None
    tournament: str | None = None
    pairing: Count | None = None
    game_number: Count | None = None


class ScanResult(msgspec.Struct, frozen=True):
    winner: Seat | None
    points: Count
    reason: Reason
    detail: str | None = None


class ScanMatch(msgspec.Struct, frozen=True):
    length: Positive
    game: Positive
    score: Annotated[list[int], msgspec.Meta(min_length=2, max_length=2)] = msgspec.field(
        default_factory=lambda: [0, 0]
    )
    first: Seat | None = None


class ScanTurn(msgspec.Struct, frozen=True):
    seat: Seat
    move: str
    roll: Dice | None = None


NO_EVENT = ScanEvent()


class _Header(msgspec.Struct, frozen=True):
    format: Literal["referee"]
    version: Literal[1]
    game: Literal["thax", "takhteh", "trax", "thai"]
    # As the model's pattern, but `\Z`: Python's `$` also matches before a final line break.
    ruleset: Annotated[str, msgspec.Meta(pattern=RULESET_ID.removesuffix("$") + r"\Z")]
    players: Annotated[list[ScanPlayer], msgspec.Meta(min_length=2, max_length=2)]
    event: ScanEvent = NO_EVENT
    start: str | None = None
    result: ScanResult | None = None
    tags: dict[str, str] = {}
    opening_rolls: list[Dice] = []
    match: ScanMatch | None = None

    # The typed accessors of the record models (records/model.py), so that what reads a game
    # takes a record or a header alike.
    def opening_dice(self) -> Sequence[list[int]]:
        return self.opening_rolls

    def match_info(self) -> ScanMatch | None:
        return self.match


class Header(_Header, frozen=True):
    """A record's header; its turns are left unread (`turns` is their raw JSON text)."""

    turns: msgspec.Raw = msgspec.Raw(b"[]")


class HeaderWithTurns(_Header, frozen=True):
    """A record's header with each turn's seat, roll and move."""

    turns: list[ScanTurn] = []


class PluginHeader(Header, frozen=True):
    """The header of a plug-in game's record: read once the full reader has taken the record
    (the fast decoders know only the built-in games, so that checking `game` costs nothing)."""

    game: str  # type: ignore[assignment]  # any registered name, not only the built-in ones


class PluginHeaderWithTurns(HeaderWithTurns, frozen=True):
    game: str  # type: ignore[assignment]  # as in PluginHeader


class _Seat(msgspec.Struct, frozen=True):
    seat: Seat


_SEATS = msgspec.json.Decoder(list[_Seat])
_FIRST_SEAT = re.compile(rb'\[\s*\{\s*"seat"\s*:\s*([01])\s*[,}]')
"""A turn list that opens with the first turn's seat, as referee writes it."""


def first_seat(header: Header, raw: bytes) -> int:
    """The seat of the first turn of a header's unread turns (`raw` the line it was read
    from), 0 when there are none; RecordError says what is wrong.

    The turns as referee writes them name the seat first, and that is read from the text
    alone; turns written otherwise are decoded down to their seats (each checked)."""
    turns = memoryview(header.turns)
    found = _FIRST_SEAT.match(turns)
    if found is not None:
        return found[1][0] - ord("0")
    try:
        seats = _SEATS.decode(turns)
    except msgspec.DecodeError as error:
        _refused(raw, error, False)  # the full reader's RecordError, when it finds one
        raise RecordError("schema", _message(error), _pointer(str(error))) from None
    return seats[0].seat if seats else 0


_DECODERS: dict[bool, msgspec.json.Decoder[Header] | msgspec.json.Decoder[HeaderWithTurns]] = {
    False: msgspec.json.Decoder(Header),
    True: msgspec.json.Decoder(HeaderWithTurns),
}
_PLUGIN_DECODERS: dict[
    bool, msgspec.json.Decoder[PluginHeader] | msgspec.json.Decoder[PluginHeaderWithTurns]
] = {
    False: msgspec.json.Decoder(PluginHeader),
    True: msgspec.json.Decoder(PluginHeaderWithTurns),
}


class Scanned(NamedTuple):
    """One line of a JSONL stream: its header, or why it could not be read, or neither when
    the caller's `keep` passed it over unread (a named tuple: one is made per line)."""

    number: int
    """1-based position of the record in its stream."""
    line: int
    """1-based line of the record."""
    raw: bytes
    """The line as read, with its line break (a JSON reader ignores it)."""
    header: Header | HeaderWithTurns | None
    error: RecordError | None


def scan_line(raw: bytes, with_turns: bool = False) -> Header | HeaderWithTurns:
    """The header of one JSON record; RecordError says what is wrong."""
    try:
        return _DECODERS[with_turns].decode(raw)
    except msgspec.DecodeError as error:
        return _refused(raw, error, with_turns)


def _refused(raw: bytes, error: msgspec.DecodeError, with_turns: bool) -> Header | HeaderWithTurns:
    """A line the scan refused, read again with the full reader (rare): its RecordError with
    code, pointer and message; a plug-in game's record, its header; otherwise what the scan
    found wrong."""
    record = parse_record(load_json(raw))
    if record.game not in GAME_NAMES:
        return _PLUGIN_DECODERS[with_turns].decode(raw)
    raise RecordError("schema", _message(error), _pointer(str(error))) from None


def _message(error: msgspec.DecodeError) -> str:
    text = str(error)
    what, _, where = text.partition(" - at `")
    return f"{_pointer(text) or '/'}: {what}" if where else text


def _pointer(text: str) -> str:
    """A JSON pointer from msgspec's path: `$.turns[3].seat` -> `/turns/3/seat`."""
    _, _, where = text.partition(" - at `$")
    path = where.rstrip("`")
    return path.replace("[", ".").replace("]", "").replace(".", "/")


def scan_jsonl(
    stream: Iterable[bytes], with_turns: bool = False, keep: Callable[[bytes], bool] | None = None
) -> Iterator[Scanned]:
    """The header of every record of a JSONL stream, one line at a time; blank lines skipped.

    `keep` sees each line first: a line it refuses is passed over unread (header and error
    None). It lets a caller drop lines by a quick byte search before any decoding.
    """
    number = 0
    decode = _DECODERS[with_turns].decode
    for line_number, raw in enumerate(stream, 1):
        if raw.isspace() or not raw:
            continue
        number += 1
        if keep is not None and not keep(raw):
            yield Scanned(number, line_number, raw, None, None)
            continue
        try:
            header = decode(raw)
        except msgspec.DecodeError as error:
            try:
                header = _refused(raw, error, with_turns)
            except RecordError as refused:
                yield Scanned(number, line_number, raw, None, refused)
                continue
        yield Scanned(number, line_number, raw, header, None)
