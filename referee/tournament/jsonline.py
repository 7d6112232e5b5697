"""A record's line in games.jsonl, byte for byte as `json.dumps(data, ensure_ascii=False)`
writes it (records/io.py `record_to_json`), at a fraction of its cost.

The standard library's encoder costs a good part of a random game's moves again: a Python
call per turn's dict. msgspec encodes the whole record in one C call, the same way but
compactly (`{"a":1,"b":[1,2]}`, where json.dumps puts a space after each `,` and `:`), and
with floats written its own way (`1e16`, NaN as `null`). Adding the spaces everywhere is exact
when no string holds a `,`, a `:` or an escaped quote (then every `,` and `:` is a separator):
that is checked on the encoded bytes. Any other record (a spec with options, a forfeit's
detail, a turn with an engine's score) goes through json.dumps.
"""

from __future__ import annotations

import json
import re
from typing import Any

import msgspec

_encode = msgspec.json.Encoder().encode

_SCORE = re.compile(rb'"score":[^\[]')
"""A turn's score: the one value of a record that may be a float (a match's score is a list
of counts). Without an escaped quote in the line, no string can hold this."""

_NOT_QUOTE_OR_SEPARATOR = bytes(byte for byte in range(256) if byte not in b'",:')


def json_line(data: dict[str, Any]) -> bytes:
    """The record `data` (JSON data, where a float can only be a turn's score) as one line of
    JSON, UTF-8, with its line break."""
    try:
        raw = _encode(data)
    except (msgspec.EncodeError, OverflowError, TypeError):
        raw = b'\\"'  # what msgspec cannot write, json.dumps writes (or refuses) below
    # Without an escaped quote, every `"` starts or ends a string (msgspec escapes every
    # other character as json.dumps does). Escapes read left to right in pairs, so an escaped
    # backslash before a closing quote (Trax's `A1\\`) is told apart by taking the escaped
    # backslashes out first. Kept to its quotes and separators, a string without a `,` or `:`
    # is `""`, and two strings always have a separator between them: once the `""` are gone,
    # a quote left is a string holding one.
    if (
        b'\\"' not in raw.replace(b"\\\\", b"")
        and _SCORE.search(raw) is None
        and b'"' not in raw.translate(None, _NOT_QUOTE_OR_SEPARATOR).replace(b'""', b"")
    ):
        return raw.replace(b",", b", ").replace(b":", b": ") + b"\n"
    return (json.dumps(data, ensure_ascii=False) + "\n").encode("utf-8")
