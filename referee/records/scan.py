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

import io
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import IO, Annotated, ClassVar, Literal, NamedTuple, NoReturn, TypeVar, cast, overload

import msgspec

from referee.games import registered_names
from referee.records.io import RecordError, load_json, parse_record
from referee.records.layout import BEFORE_TURNS, FIRST_SEAT, RESULT_KEY, TURNS_END, TURNS_KEY
from referee.records.model import LARGEST, MAX_NAME, MAX_TEXT, RULESET_ID, Reason

# The types of the record model (records/model.py), field for field:
# tests/records/test_scan_fields.py holds the two equal.
Seat = Annotated[int, msgspec.Meta(ge=0, le=1)]
Count = Annotated[int, msgspec.Meta(ge=0, le=LARGEST)]
Positive = Annotated[int, msgspec.Meta(ge=1, le=LARGEST)]
Die = Annotated[int, msgspec.Meta(ge=1, le=6)]
Dice = Annotated[list[Die], msgspec.Meta(min_length=2, max_length=2)]
Name = Annotated[str, msgspec.Meta(max_length=MAX_NAME)]
LongText = Annotated[str, msgspec.Meta(max_length=MAX_TEXT)]


class ScanPlayer(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    name: Annotated[str, msgspec.Meta(min_length=1, max_length=MAX_NAME)]
    kind: Literal["human", "bot", "external"] = "human"
    spec: LongText | None = None


class ScanEvent(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    event: Name | None = None
    site: Name | None = None
    date: Name | None = None
    round: Name | None = None
    tournament: Name | None = None
    pairing: Count | None = None
    game_number: Count | None = None


class ScanResult(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    winner: Seat | None
    points: Count
    reason: Reason
    detail: LongText | None = None


class ScanMatch(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    length: Positive
    game: Positive
    score: Annotated[list[Count], msgspec.Meta(min_length=2, max_length=2)] = msgspec.field(
        default_factory=lambda: [0, 0]
    )
    first: Seat | None = None


class ScanTurn(msgspec.Struct, frozen=True):
    seat: Seat
    move: str
    roll: Dice | None = None


NO_EVENT = ScanEvent()


class _Header(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    format: Literal["referee"]
    version: Literal[1]
    # Checked by `_checked`: `game` is any game registered (a set msgspec's literal cannot
    # follow), `ruleset` matches the model's pattern (once per text).
    game: str
    ruleset: str
    players: Annotated[list[ScanPlayer], msgspec.Meta(min_length=2, max_length=2)]
    event: ScanEvent = NO_EVENT
    start: str | None = None
    result: ScanResult | None = None
    tags: dict[Name, LongText] = {}
    opening_rolls: list[Dice] = []
    match: ScanMatch | None = None

    # The typed accessors of the record models (records/model.py), so that what reads a game
    # takes a record or a header alike.
    def opening_dice(self) -> Sequence[list[int]]:
        return self.opening_rolls

    def match_info(self) -> ScanMatch | None:
        return self.match


_H = TypeVar("_H", bound=_Header)


class Header(_Header, frozen=True):
    """A record's header; its turns are left unread (`turns` is their raw JSON text)."""

    turns: msgspec.Raw = msgspec.Raw(b"[]")


class HeaderWithTurns(_Header, frozen=True):
    """A record's header with each turn's seat, roll and move."""

    turns: list[ScanTurn] = []


class _Seat(msgspec.Struct, frozen=True):
    seat: Seat


_SEATS = msgspec.json.Decoder(list[_Seat])


def first_seat(header: Header, raw: bytes) -> int:
    """The seat of the first turn of a header's unread turns (`raw` the line it was read
    from), 0 when there are none; RecordError says what is wrong.

    The turns as referee writes them name the seat first, and that is read from the text
    alone; turns written otherwise are decoded down to their seats (each checked)."""
    turns = memoryview(header.turns)
    found = FIRST_SEAT.match(turns)
    if found is not None:
        return found[1][0] - ord("0")
    try:
        seats = _SEATS.decode(turns)
    except msgspec.DecodeError as error:
        _refused(raw, error)  # the full reader's RecordError, when it finds one
        raise RecordError(_message(error), code="schema", pointer=_pointer(str(error))) from None
    return seats[0].seat if seats else 0


_HEADER = msgspec.json.Decoder(Header)
_DECODERS: dict[bool, msgspec.json.Decoder[Header] | msgspec.json.Decoder[HeaderWithTurns]] = {
    False: _HEADER,
    True: msgspec.json.Decoder(HeaderWithTurns),
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


@overload
def scan_line(raw: bytes, with_turns: Literal[False] = False) -> Header: ...
@overload
def scan_line(raw: bytes, with_turns: bool) -> Header | HeaderWithTurns: ...
def scan_line(raw: bytes, with_turns: bool = False) -> Header | HeaderWithTurns:
    """The header of one JSON record; RecordError says what is wrong."""
    try:
        return _checked(_DECODERS[with_turns].decode(raw), raw)
    except msgspec.DecodeError as error:
        _refused(raw, error)


_RULESET = re.compile(RULESET_ID.removesuffix("$") + r"\Z")
"""The model's ruleset pattern, but `\\Z`: Python's `$` also matches before a final line break."""

_CHECKED: dict[str, str] = {}
"""Ruleset ids that matched `_RULESET`, each with the registered game of the line it was last
checked on (a few hundred at most: a file names few rulesets, so the pattern and the registry
are consulted once per text, not once per line; the pattern was a fifth of a line's
decoding). A game once registered stays so: the registry only grows."""


def _checked(header: _H, raw: bytes) -> _H:
    """`header`, once its ruleset id is one the record model takes and its game one that is
    registered; else the full reader's RecordError."""
    ruleset, game = header.ruleset, header.game
    if _CHECKED.get(ruleset) != game:
        if _RULESET.match(ruleset) is None:
            _refused(raw, None)
        if game not in registered_names():
            parse_record(load_json(raw))  # reads the games of entry points, or says what is wrong
        if len(_CHECKED) < 512:
            _CHECKED[ruleset] = game
    return header


def _refused(raw: bytes, error: msgspec.DecodeError | None) -> NoReturn:
    """A line the scan refused, read again with the full reader (rare): its RecordError with
    code, pointer and message, or else what the scan found wrong (`error`, or the ruleset id
    when `error` is None)."""
    parse_record(load_json(raw))
    if error is None:
        raise RecordError("/ruleset: not a ruleset id", code="schema", pointer="/ruleset")
    raise RecordError(_message(error), code="schema", pointer=_pointer(str(error))) from None


def _message(error: msgspec.DecodeError) -> str:
    text = str(error)
    what, _, where = text.partition(" - at `")
    return f"{_pointer(text) or '/'}: {what}" if where else text


def _pointer(text: str) -> str:
    """A JSON pointer from msgspec's path: `$.turns[3].seat` -> `/turns/3/seat`."""
    _, _, where = text.partition(" - at `$")
    path = where.rstrip("`")
    return path.replace("[", ".").replace("]", "").replace(".", "/")


class WholeTurn(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A turn as a tournament of built-in bots writes it: seat, roll, move and time. A turn
    with any other field (a clock, engine output, a comment, a book move) is not read whole
    here: `read_whole` leaves its record to the record model."""

    seat: Seat
    move: str
    roll: Dice | None = None
    time_ms: Count | None = None


class _Whole(msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag_field="game"):
    """A whole record of a built-in game, each field checked as the record model checks it
    (records/model.py), the envelope (`format`, `version`) required where the model has its
    defaults: what this reads, the model reads alike; some of what the model reads, this
    does not. tests/records/test_scan_fields.py holds the two so."""

    game: ClassVar[str]
    format: Literal["referee"]
    version: Literal[1]
    ruleset: str
    players: Annotated[list[ScanPlayer], msgspec.Meta(min_length=2, max_length=2)]
    event: ScanEvent = NO_EVENT
    start: str | None = None
    turns: list[WholeTurn] = []
    result: ScanResult | None = None
    tags: dict[Name, LongText] = {}

    # The typed accessors of the record models.
    def first_seat(self) -> int | None:
        return None

    def opening_dice(self) -> Sequence[list[int]]:
        return ()

    def match_info(self) -> ScanMatch | None:
        return None


class _WholeDice(_Whole, frozen=True):
    opening_rolls: list[Dice] = []

    def opening_dice(self) -> Sequence[list[int]]:
        return self.opening_rolls


class WholeThax(_WholeDice, frozen=True, tag="thax"):
    game: ClassVar[str] = "thax"


class WholeTakhteh(_WholeDice, frozen=True, tag="takhteh"):
    game: ClassVar[str] = "takhteh"
    match: ScanMatch | None = None

    def first_seat(self) -> int | None:
        return self.match.first if self.match is not None else None

    def match_info(self) -> ScanMatch | None:
        return self.match


class WholeTrax(_Whole, frozen=True, tag="trax"):
    game: ClassVar[str] = "trax"


class WholeThai(_Whole, frozen=True, tag="thai"):
    game: ClassVar[str] = "thai"


WholeRecord = WholeThax | WholeTakhteh | WholeTrax | WholeThai
_WHOLE = msgspec.json.Decoder(WholeRecord)


def read_whole(raw: bytes | str) -> WholeRecord | None:
    """One JSON record of a built-in game read whole without the record model, 4 to 8 times as
    fast (`referee validate` reads each line so first); None when this does not read it
    (a plug-in's game, a field it leaves to the model, or anything wrong), which the record
    model then reads, or says what is wrong, as everywhere else."""
    try:
        whole = _WHOLE.decode(raw)
    except (msgspec.DecodeError, ValueError, RecursionError):
        # RecursionError: JSON nested too deep for the decoder, which the model words.
        return None
    ruleset = whole.ruleset
    if _CHECKED.get(ruleset) != whole.game:
        if _RULESET.match(ruleset) is None:
            return None
        if len(_CHECKED) < 512:
            _CHECKED[ruleset] = whole.game
    return whole


def scan_jsonl(
    stream: Iterable[bytes], with_turns: bool = False, keep: Callable[[bytes], bool] | None = None
) -> Iterator[Scanned]:
    """The header of every record of a JSONL stream, one line at a time; blank lines skipped.

    `keep` sees each line first: a line it refuses is passed over unread (header and error
    None). It lets a caller drop lines by a quick byte search before any decoding.
    """
    number = 0
    for line_number, raw in enumerate(stream, 1):
        if raw.isspace() or not raw:
            continue
        number += 1
        if keep is not None and not keep(raw):
            yield Scanned(number, line_number, raw, None, None)
            continue
        try:
            header = scan_line(raw, with_turns)
        except RecordError as refused:
            yield Scanned(number, line_number, raw, None, refused)
            continue
        yield Scanned(number, line_number, raw, header, None)


class Skimmed(NamedTuple):
    """One line of a JSONL stream read for its header and first seat (`skim_jsonl`)."""

    number: int
    """1-based position of the record in its stream."""
    line: int
    """1-based line of the record."""
    header: Header | None
    """The header (its `turns` not read), or None with `error`."""
    first: int
    """The seat of the first turn, 0 when there are none."""
    error: RecordError | None


_CUT = re.compile(rb'\s*\[\s*(?:\{\s*"seat"\s*:\s*([01])\s*[,}].*\}\s*)?\]\s*,\s*\Z', re.DOTALL)
"""What `skim_line` cuts out: a turn list that opens with the first turn's seat and closes
after an object, or an empty list, then the comma before `"result"`."""


def skim_line(raw: bytes) -> tuple[Header, int]:
    """The header of one JSON record and the seat of its first turn, without reading the
    turns when the line is laid out as referee writes it; RecordError says what is wrong.

    A referee line is `{header..., "turns": [...], "result": ..., tail}`: the header and tail
    are decoded together with the turn list cut out, found by byte search (`"turns":` first,
    `"result":` last), and the seat read from the list's first bytes. Skipping the list's
    two or three kilobytes is most of a line's cost. The cut is the record's own turns
    member: a key cannot be found inside a string (its quote would be escaped); the cut
    starts after a comma and ends before a comma with `}]` or `[]`, which no other member
    of a record between the two keys ends with; a cut at another depth leaves brackets
    unbalanced or puts `result` into an object that refuses unknown keys, so the decoding
    fails and the line is read whole. What lies inside the cut is not read: a line broken
    inside its turns passes here, and so does a key the model does not know placed between
    the turns and the result (`referee validate` reads them all)."""
    start = raw.find(TURNS_KEY)
    end = raw.rfind(RESULT_KEY, start) if start > 0 else -1
    if end > start and raw[:start].rstrip().endswith(b","):
        cut = _CUT.match(raw, start + len(TURNS_KEY), end)
        if cut is not None:
            try:
                header = _HEADER.decode(raw[:start] + raw[end:])
            except msgspec.DecodeError:
                pass
            else:
                first = 0 if cut[1] is None else cut[1][0] - ord("0")
                return _checked(header, raw), first
    header = scan_line(raw)
    return header, first_seat(header, raw)


_CHUNK = 1 << 22


def skim_jsonl(stream: IO[bytes]) -> Iterator[Skimmed]:
    """The header and first seat of every record of a JSONL stream (`skim_line`), one line
    at a time; blank lines skipped.

    The stream is read in large blocks and each line cut by byte search within its block:
    a line laid out exactly as referee writes it (`, "turns": [{"seat": 0, ...}], "result":`)
    is decoded here at once, as `skim_line` would (a copy for speed, narrowed to that
    layout, records/layout.py; tests/records/test_scan.py holds the two equal), any other by
    `skim_line`."""
    decode, match, checked = _HEADER.decode, FIRST_SEAT.match, _CHECKED.get
    readinto = cast("io.BufferedIOBase", stream).readinto
    before, after = len(BEFORE_TURNS), len(TURNS_END)
    number = line_number = 0
    # One buffer read into again and again: a fresh block for each read cost more than the
    # decoding (the pages of each new block are mapped and zeroed).
    data = bytearray(_CHUNK)
    kept = 0  # the start of a line not ended yet, moved to the front of the buffer
    find, rfind = data.find, data.rfind
    while True:
        if kept == len(data):  # a line longer than the buffer
            data.extend(bytes(len(data)))
        with memoryview(data) as whole, whole[kept:] as free:
            got = readinto(free) or 0
        size = kept + got
        end = rfind(b"\n", 0, size) + 1 if got else size
        position = 0
        while position < end:
            stop = find(b"\n", position, end)
            if stop < 0:
                stop = end
            line_number += 1
            start = find(TURNS_KEY, position, stop)
            tail = rfind(RESULT_KEY, start, stop) if start > position else -1
            first = match(data, start + len(TURNS_KEY), tail) if tail > start else None
            if (
                first is not None
                and data[start - before : start] == BEFORE_TURNS
                and data[tail - after : tail] == TURNS_END
            ):
                try:
                    header = decode(data[position:start] + data[tail:stop])
                    if checked(header.ruleset) != header.game:
                        header = _checked(header, bytes(data[position:stop]))
                except (msgspec.DecodeError, RecordError):
                    pass
                else:
                    number += 1
                    yield Skimmed(number, line_number, header, first[1][0] - 48, None)
                    position = stop + 1
                    continue
            raw = bytes(data[position:stop])
            position = stop + 1
            if raw.isspace() or not raw:
                continue
            number += 1
            try:
                header, seat = skim_line(raw)
            except RecordError as refused:
                yield Skimmed(number, line_number, None, 0, refused)
                continue
            yield Skimmed(number, line_number, header, seat, None)
        if not got:
            return
        data[: size - end] = data[end:size]
        kept = size - end
