"""A record's line in games.jsonl, byte for byte as `json.dumps(data, ensure_ascii=False)`
writes it (records/io.py `record_to_json`), at a fraction of its cost.

The standard library's encoder costs a random game's moves again: a Python call per turn's
dict. msgspec encodes the whole record in one C call, but compactly (`{"a":1,"b":[1,2]}`),
where json.dumps puts a space after each `,` and `:`. Adding those spaces everywhere is exact
when no string holds a `,`, `:` or an escape (then every `,` and `:` is a separator): that is
checked on the encoded bytes, and any other record (a spec with options, a forfeit's detail)
goes through json.dumps.
"""

from __future__ import annotations

import json
from typing import Any

import msgspec

_encode = msgspec.json.Encoder().encode


def json_line(data: dict[str, Any], floats: bool = False) -> bytes:
    """`data` as one line of JSON, UTF-8, with its line break; `floats`: whether any value
    may be a float (msgspec writes floats, NaN and infinities its own way)."""
    if not floats:
        try:
            raw = _encode(data)
        except (msgspec.EncodeError, OverflowError, TypeError):
            raw = b"\\"  # what msgspec cannot write, json.dumps writes (or refuses) below
        # Without a backslash, every `"` starts or ends a string: the odd pieces are the
        # strings' contents.
        if b"\\" not in raw:
            inside = b"".join(raw.split(b'"')[1::2])
            if b"," not in inside and b":" not in inside:
                return raw.replace(b",", b", ").replace(b":", b": ") + b"\n"
    return (json.dumps(data, ensure_ascii=False) + "\n").encode("utf-8")
