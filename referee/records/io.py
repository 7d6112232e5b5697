"""Reading and writing records as JSON (one game) and JSONL (one game a line)."""

from __future__ import annotations

import contextlib
import json
import re
from collections.abc import Iterable, Iterator
from typing import Any, NamedTuple

from pydantic import ValidationError

from referee.errors import RefereeError, plain_problem
from referee.games import get_game, registered_names
from referee.games.base import RulesetError
from referee.records.model import FORMAT, VERSION, Record, record_adapter
from referee.wording import did_you_mean

MAX_NESTING = 64
"""The deepest JSON a record file may nest: a record nests 4 levels, and deeper text would
only exhaust the stack of a reader."""
_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"')
_ONE_KIND = bytes.maketrans(b"{}", b"[]")
_OTHERS = bytes(byte for byte in range(256) if byte not in b'"[]{}')
_STRING_OR_BRACKET = re.compile(_STRING.pattern + rb"|[][{}]")


class RecordError(RefereeError, ValueError):
    """A record that cannot be read; `pointer` is a JSON pointer into the record, `line` the
    line within the text when the error is in the JSON text itself."""

    def __init__(
        self, message: str, *, code: str, pointer: str = "", line: int | None = None
    ) -> None:
        super().__init__(message, code=code, line=line)
        self.pointer = pointer


class Loaded(NamedTuple):
    """One record of a file, or why it could not be read (a named tuple: made for every game
    read, it is built in a quarter of a frozen dataclass's time)."""

    number: int
    """1-based position of the record in its file."""
    line: int
    """1-based line where the record starts."""
    record: Record | None = None
    error: RecordError | None = None
    turn_places: tuple[tuple[int, int], ...] = ()
    """(line, column) of each turn's move, for records read from a game's text notation."""
    turn_labels: tuple[str, ...] = ()
    """How the text numbers each turn, where that differs from the turn count (PDN `3...`)."""


def _pointer(loc: tuple[Any, ...]) -> str:
    # A key may hold what no output can print (a lone surrogate): escaped.
    text = "".join(f"/{part}" for part in loc)
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def schema_error(error: ValidationError, ruleset: object = None) -> RecordError:
    """The first problem of a record that failed validation, at its JSON pointer; a malformed
    ruleset id (`ruleset`, the id as given) has a code of its own."""
    first = error.errors()[0]
    loc = first["loc"]
    if loc and loc[0] in registered_names():
        loc = loc[1:]  # the union tag (the game)
    where = _pointer(loc) or "/"
    if loc == ("ruleset",) and isinstance(ruleset, str):
        return RecordError(
            f"ruleset id {ruleset!r} is not of the form game/variant@N (N a plain number)",
            code="ruleset",
            pointer=where,
        )
    return RecordError(f"{where}: {plain_problem(dict(first))}", code="schema", pointer=where)


def parse_record(data: Any) -> Record:
    """Check the envelope first, then the record itself."""
    if not isinstance(data, dict):
        raise RecordError(f"a record is a JSON object, not {type(data).__name__}", code="format")
    if data.get("format") != FORMAT:
        raise RecordError(
            f"not a referee record ('format' is {data.get('format')!r})",
            code="format",
            pointer="/format",
        )
    version = data.get("version")
    if type(version) is not int or version != VERSION:
        if isinstance(version, int) and not isinstance(version, bool) and version > VERSION:
            message = f"record version {version} is newer than this referee reads ({VERSION})"
        else:
            message = f"unknown record version {version!r} (this referee reads {VERSION})"
        raise RecordError(message, code="version", pointer="/version")
    game = data.get("game")
    if isinstance(game, str) and game not in registered_names():
        with contextlib.suppress(RulesetError):
            get_game(game)  # a plug-in game whose entry point was not read yet
    if game not in registered_names():
        known = registered_names()
        hint = did_you_mean(game, known) if isinstance(game, str) else ""
        raise RecordError(
            f"unknown game {game!r}{hint} (known: {', '.join(known)})", code="game", pointer="/game"
        )
    try:
        record: Record = record_adapter().validate_python(data)
        return record
    except ValidationError as error:
        raise schema_error(error, data.get("ruleset")) from None


def parse_record_json(text: str | bytes) -> Record:
    """A record from JSON text: the fast path validates in one pass; only a record that fails
    is parsed again to say which envelope check or field is wrong."""
    try:
        record: Record = record_adapter().validate_json(text)
        return record
    except ValidationError:
        pass
    return parse_record(load_json(text))


def check_nesting(text: str | bytes) -> None:
    """A RecordError, with its line and column, when JSON text nests deeper than MAX_NESTING
    (a bracket inside a string is no nesting)."""
    data = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text
    if data.count(b"[") + data.count(b"{") <= MAX_NESTING:
        return
    # The brackets outside strings alone (escapes dropped, then every other byte, then what
    # lies between quotes), all of one kind, each pass taking away the innermost pairs, one
    # level: all in C, some 50 times as fast as a walk; only text left after MAX_NESTING
    # passes is walked bracket by bracket.
    quotes_and_brackets = data.replace(b"\\\\", b"").replace(b'\\"', b"").translate(None, _OTHERS)
    brackets = b"".join(quotes_and_brackets.split(b'"')[::2]).translate(_ONE_KIND)
    for _ in range(MAX_NESTING):
        if not brackets:
            return
        brackets = brackets.replace(b"[]", b"")
    if not brackets:
        return
    depth = 0
    for found in _STRING_OR_BRACKET.finditer(data):
        token = found.group()
        if token in (b"[", b"{"):
            depth += 1
            if depth > MAX_NESTING:
                where = found.start()
                line = data.count(b"\n", 0, where) + 1
                column = where - data.rfind(b"\n", 0, where)
                message = (
                    f"JSON nested deeper than {MAX_NESTING} levels (line {line}, column {column})"
                )
                raise RecordError(message, code="json", line=line)
        elif token in (b"]", b"}"):
            depth -= 1


def load_json(text: str | bytes) -> Any:
    """JSON data, or a RecordError that says what is wrong with the text."""
    check_nesting(text)
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        if error.pos >= len(error.doc.rstrip()):
            message = "the JSON ends too early: the file is cut short"
        else:
            message = f"not JSON: {error.msg} (line {error.lineno}, column {error.colno})"
        raise RecordError(message, code="json", line=error.lineno) from None
    except UnicodeDecodeError as error:
        bad = error.object[error.start : error.start + 1].hex()
        message = f"not UTF-8 text: byte 0x{bad} at offset {error.start}"
        raise RecordError(message, code="encoding") from None
    except RecursionError:
        raise RecordError("JSON nested too deeply to be a record", code="json") from None
    except ValueError as error:
        raise RecordError(f"not JSON: {error}", code="json") from None


def record_to_dict(record: Record) -> dict[str, Any]:
    """The record as JSON data: the envelope and `game` first, fields at their default left out."""
    body = record.model_dump(mode="json", exclude_defaults=True)
    return {"format": FORMAT, "version": VERSION, "game": record.game, **body}


def record_to_json(record: Record, indent: int | None = None) -> str:
    return json.dumps(record_to_dict(record), indent=indent, ensure_ascii=False)


def iter_jsonl(stream: Iterable[str | bytes]) -> Iterator[Loaded]:
    """The records of a JSONL stream, read one line at a time; blank lines are skipped."""
    for number, line_number, line in jsonl_lines(stream):
        yield load_line(number, line_number, line)


def jsonl_lines(stream: Iterable[str | bytes]) -> Iterator[tuple[int, int, str | bytes]]:
    """(record number, line number, line) of each line of a JSONL stream that holds a record:
    the lines that are not blank, as `iter_jsonl` numbers them."""
    number = 0
    for line_number, line in enumerate(stream, 1):
        if not line.strip():
            continue
        number += 1
        yield number, line_number, line


def load_line(number: int, line_number: int, line: str | bytes) -> Loaded:
    """The record of one line of a JSONL stream, or why it could not be read."""
    try:
        return Loaded(number, line_number, parse_record_json(line))
    except RecordError as error:
        return Loaded(number, line_number, error=error)


def iter_json_document(text: str | bytes) -> Iterator[Loaded]:
    """The records of a JSON document: one record, or an array of records."""
    try:
        data = load_json(text)
    except RecordError as error:
        yield Loaded(1, error.line or 1, error=error)
        return
    items = data if isinstance(data, list) else [data]
    for number, item in enumerate(items, 1):
        try:
            yield Loaded(number, 1, parse_record(item))
        except RecordError as error:
            yield Loaded(number, 1, error=error)
