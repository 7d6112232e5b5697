"""referee's own record formats: JSON (one game, or an array) and JSONL (one game a line)."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from typing import IO

from referee.records.formats.base import FileFormat
from referee.records.io import (
    Loaded,
    iter_json_document,
    iter_jsonl,
    record_to_dict,
    record_to_json,
)
from referee.records.model import Record


class JsonlFormat(FileFormat):
    def sniff(self, head: bytes) -> bool:
        first = head.lstrip().split(b"\n", 1)[0].strip()
        if not (first.startswith(b"{") and first.endswith(b"}")):
            return False
        try:
            json.loads(first)
        except ValueError:
            return False
        except RecursionError:
            return True  # a line of JSON too deep to read: the reader says so, with its place
        return True

    def read(self, stream: IO[bytes]) -> Iterator[Loaded]:
        return iter_jsonl(stream)

    def write(self, records: Iterable[Record], stream: IO[str]) -> None:
        for record in records:
            stream.write(record_to_json(record) + "\n")


class JsonFormat(FileFormat):
    def sniff(self, head: bytes) -> bool:
        return head.lstrip()[:1] in (b"{", b"[")

    def read(self, stream: IO[bytes]) -> Iterator[Loaded]:
        return iter_json_document(stream.read())

    def write(self, records: Iterable[Record], stream: IO[str]) -> None:
        items = [record_to_dict(record) for record in records]
        data = items[0] if len(items) == 1 else items
        stream.write(json.dumps(data, indent=2, ensure_ascii=False) + "\n")
