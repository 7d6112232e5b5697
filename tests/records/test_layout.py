"""The lines referee writes are laid out as the header scan's fast path reads them
(records/layout.py): a finished game's line is read there whole, never handed to the slower
reader of other layouts."""

from __future__ import annotations

import io
from typing import Any

import msgspec
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from referee.records import scan
from referee.records.io import record_to_dict, record_to_json
from referee.records.model import Record
from referee.records.scan import scan_line, skim_jsonl
from referee.tournament.jsonline import json_line
from tests.archive.helpers import records


def _not_the_fast_path(raw: bytes) -> Any:
    raise AssertionError(f"not read by the fast path: {raw[:200]!r}")


@settings(max_examples=60, deadline=None)
@given(records(), st.sampled_from([None, 0.5, 7]))
def test_every_line_referee_writes_takes_the_fast_path(record: Record, score: float | None) -> None:
    """Both writers, a turn's score an integer or a float (which `json_line` hands to the
    standard library's encoder); the header read is the scan's of the same line."""
    assume(record.turns and record.result is not None)
    data = record_to_dict(record)
    if score is not None:
        data["turns"][-1]["score"] = score
    lines = [json_line(data), record_to_json(record).encode() + b"\n"]
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(scan, "skim_line", _not_the_fast_path)
        skimmed = list(skim_jsonl(io.BytesIO(b"".join(lines))))
    for line, read in zip(lines, skimmed, strict=True):
        header = scan_line(line)
        assert read.error is None and read.header is not None
        assert msgspec.structs.asdict(read.header) | {"turns": None} == msgspec.structs.asdict(
            header
        ) | {"turns": None}
        assert read.first == record.turns[0].seat
