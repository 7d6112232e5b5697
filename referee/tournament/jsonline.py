"""A record's line in games.jsonl, byte for byte as `json.dumps(data, ensure_ascii=False)`
writes it (records/io.py `record_to_json`), at a fraction of its cost: laid out as
records/layout.py says, which the header scan's fast path relies on.

The standard library's encoder costs a good part of a random game's moves again: a Python
call per turn's dict. msgspec encodes the whole record in one C call, the same way but
compactly (`{"a":1,"b":[1,2]}`, where json.dumps puts a space after each `,` and `:`), and
with floats written its own way (`1e16`, NaN as `null`). `msgspec.json.format` with indent 0
puts those spaces back, in C too: it reads the JSON it is given, so a `,` or `:` inside a
string is left as it is, and copies each string and number as it was written. It also
escapes every character of a string as json.dumps does. Any record with a float (a turn's
score) goes through json.dumps.
"""

from __future__ import annotations

import json
import re
from typing import Any

import msgspec

from referee.records.layout import SEPARATORS

_encode = msgspec.json.Encoder().encode
_format = msgspec.json.format

_SCORE = re.compile(rb'"score":[^\[]')
"""A turn's score: the one value of a record that may be a float (a match's score is a list
of counts). A string holding it would be caught too, and written by json.dumps as well."""


def json_line(data: dict[str, Any]) -> bytes:
    """The record `data` (JSON data, where a float can only be a turn's score) as one line of
    JSON, UTF-8, with its line break."""
    try:
        raw = _encode(data)
    except (msgspec.EncodeError, OverflowError, TypeError):
        raw = b'"score":0'  # what msgspec cannot write, json.dumps writes (or refuses) below
    # `in` first, a memory search: the pattern's search costs about a seventh of the line.
    if b'"score":' not in raw or _SCORE.search(raw) is None:
        return _format(raw, indent=0) + b"\n"
    return (json.dumps(data, ensure_ascii=False, separators=SEPARATORS) + "\n").encode("utf-8")
