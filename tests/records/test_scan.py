"""The header scan reads what the record model reads and refuses what it refuses."""

from __future__ import annotations

import io
import json

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.records import scan
from referee.records.io import RecordError, parse_record, record_to_json
from referee.records.model import Record
from referee.records.scan import first_seat, scan_jsonl, scan_line, skim_jsonl
from tests.archive.helpers import records


@settings(max_examples=40, deadline=None)
@given(records(), st.booleans())
def test_the_scan_reads_what_the_model_reads(record: Record, with_turns: bool) -> None:
    raw = record_to_json(record).encode()
    header = scan_line(raw, with_turns)
    assert header.game == record.game and header.ruleset == record.ruleset
    assert [p.name for p in header.players] == [p.name for p in record.players]
    assert [p.kind for p in header.players] == [p.kind for p in record.players]
    assert header.event.event == record.event.event
    assert header.tags == record.tags
    if record.result is None:
        assert header.result is None
    else:
        assert (header.result.winner, header.result.points, header.result.reason) == (
            record.result.winner,
            record.result.points,
            record.result.reason,
        )
    if with_turns:
        assert [(t.seat, t.roll, t.move) for t in header.turns] == [
            (t.seat, t.roll, t.move) for t in record.turns
        ]


BROKEN = [
    ("/version", {"version": 2}),
    ("/game", {"game": "chess"}),
    ("/players/0/name", {"players": [{"name": ""}, {"name": "b"}]}),
    ("/result/points", {"result": {"winner": 0, "points": -1, "reason": "rules"}}),
    ("/result/reason", {"result": {"winner": 0, "points": 1, "reason": "boredom"}}),
    ("/event/pairing", {"event": {"pairing": "3"}}),
    ("/turns/0/seat", {"turns": [{"seat": 2, "move": "P3"}]}),
    ("/ruleset", {"ruleset": "thax/standard@01"}),
    ("/ruleset", {"ruleset": "thax/standard@1\n"}),
]


@pytest.mark.parametrize(("pointer", "change"), BROKEN)
def test_a_refused_line_names_the_field(pointer: str, change: dict) -> None:
    data = {
        "format": "referee",
        "version": 1,
        "game": "thax",
        "ruleset": "thax/standard@1",
        "players": [{"name": "a"}, {"name": "b"}],
        **change,
    }
    raw = json.dumps(data).encode()
    with pytest.raises(RecordError) as error:
        scan_line(raw, with_turns=True)
    assert error.value.pointer == pointer


def test_scan_skips_blank_lines_and_counts_lines() -> None:
    good = b'{"format": "referee", "version": 1, "game": "trax", "ruleset": "trax/standard@1", '
    good += b'"players": [{"name": "a"}, {"name": "b"}]}\n'
    stream = io.BytesIO(b"\n" + good + b"  \n" + b"{oops\n" + good.rstrip(b"\n"))
    scanned = list(scan_jsonl(stream))
    assert [(s.number, s.line) for s in scanned] == [(1, 2), (2, 4), (3, 5)]
    assert scanned[1].header is None and scanned[1].error is not None
    assert scanned[1].error.code == "json"
    passed = list(scan_jsonl(io.BytesIO(good * 2), keep=lambda line: False))
    assert [(s.header, s.error) for s in passed] == [(None, None), (None, None)]


@settings(max_examples=80, deadline=None)
@given(
    st.lists(
        st.tuples(st.sampled_from([0, 1]), st.booleans(), st.sampled_from(["", " ", "\n\t"])),
        max_size=4,
    )
)
def test_the_first_seat_is_read_whatever_the_layout(turns: list[tuple[int, bool, str]]) -> None:
    """Protects `first_seat`: the seat of the first turn (0 without turns), whether a turn
    names its seat first (as referee writes) or after its move, with any spacing."""
    written = []
    for seat, seat_first, space in turns:
        fields = [f'"seat"{space}:{space}{seat}', f'"move"{space}:{space}"P3 \\"seat\\": 1"']
        written.append("{" + space + f",{space}".join(fields if seat_first else fields[::-1]) + "}")
    raw = (
        '{"format": "referee", "version": 1, "game": "thax", "ruleset": "thax/standard@1", '
        '"players": [{"name": "a"}, {"name": "b"}], "turns": [' + ",".join(written) + "]}"
    ).encode()
    expected = json.loads(raw)["turns"][0]["seat"] if turns else 0
    assert first_seat(scan_line(raw), raw) == expected


def test_a_bad_seat_after_the_move_is_refused() -> None:
    raw = (
        b'{"format": "referee", "version": 1, "game": "thax", "ruleset": "thax/standard@1", '
        b'"players": [{"name": "a"}, {"name": "b"}], "turns": [{"move": "P3", "seat": 2}]}'
    )
    with pytest.raises(RecordError) as error:
        first_seat(scan_line(raw), raw)
    assert error.value.pointer == "/turns/0/seat"


def _layouts(record: Record, draw: st.DrawFn) -> bytes:
    """The record as one JSON line, as referee writes it or otherwise: keys in another
    order, compact separators, tags named like the cut's keys, a broken or cut line."""
    data = json.loads(record_to_json(record))
    if draw(st.booleans()):
        data["tags"] = {**data.get("tags", {}), "result": "1-0", "turns": "[]"}
    keys = list(data)
    if draw(st.booleans()):
        keys = draw(st.permutations(keys))
    compact = draw(st.booleans())
    text = json.dumps(
        {key: data[key] for key in keys}, separators=(",", ":") if compact else (", ", ": ")
    )
    damage = draw(st.sampled_from(["none"] * 6 + ["cut", "unknown", "turns-key"]))
    if damage == "cut":
        text = text[: draw(st.integers(1, len(text) - 1))]
    elif damage == "unknown":
        text = text[:-1] + ', "extra": {"result": 1}}'
    elif damage == "turns-key":  # a `turns` key where none belongs: the event
        text = text.replace('"event": {', '"event": {"turns": [], ', 1)
    return text.encode()


@st.composite
def _jsonl(draw: st.DrawFn) -> bytes:
    lines = [_layouts(record, draw) for record in draw(st.lists(records(), max_size=5))]
    gaps = [draw(st.sampled_from([b"\n", b"\r\n", b"\n  \n", b"\n\n"])) for _ in lines]
    return b"".join(line + gap for line, gap in zip(lines, gaps, strict=True))


@settings(max_examples=150, deadline=None)
@given(_jsonl(), st.sampled_from([7, 64, 1 << 22]))
def test_skimming_reads_what_the_scan_reads(text: bytes, chunk: int) -> None:
    """Protects `skim_jsonl` (its turns cut out by byte search, its lines cut from blocks):
    the same header, first seat, numbering and errors as the scan of each line, whatever
    the layout, the block size and the damage."""
    expected = []
    number = 0
    for line_number, raw in enumerate(io.BytesIO(text), 1):
        if raw.isspace():
            continue
        number += 1
        try:
            header = scan_line(raw)
            expected.append((number, line_number, _fields(header), first_seat(header, raw)))
        except RecordError as error:
            expected.append((number, line_number, None, error.pointer))
    saved, scan._CHUNK = scan._CHUNK, chunk
    try:
        got = [
            (s.number, s.line, _fields(s.header), s.first)
            if s.header is not None
            else (s.number, s.line, None, s.error.pointer if s.error else "?")
            for s in skim_jsonl(io.BytesIO(text))
        ]
    finally:
        scan._CHUNK = saved
    assert got == expected


def _fields(header: scan.Header | scan.HeaderWithTurns | None) -> dict[str, object] | None:
    """What a header holds apart from its turns."""
    if header is None:
        return None
    fields = msgspec.structs.asdict(header)
    del fields["turns"]
    return fields


def test_an_unknown_field_is_refused_as_the_model_refuses_it() -> None:
    """The scan no longer passes over a field the record model does not have."""
    raw = (
        b'{"format": "referee", "version": 1, "game": "thax", "ruleset": "thax/standard@1", '
        b'"players": [{"name": "a"}, {"name": "b"}], "event": {"pairng": 3}}'
    )
    with pytest.raises(RecordError) as error:
        scan_line(raw)
    assert error.value.pointer == "/event/pairng"


def test_a_ruleset_id_is_checked_on_every_line_it_is_new_on() -> None:
    head = b'{"format": "referee", "version": 1, "game": "thax", "ruleset": '
    tail = b', "players": [{"name": "a"}, {"name": "b"}]}\n'
    text = head + b'"thax/standard@1"' + tail + head + b'"thax/standard@0"' + tail
    skimmed = list(skim_jsonl(io.BytesIO(text * 2)))
    assert [s.error is None for s in skimmed] == [True, False, True, False]
    assert skimmed[1].error is not None and skimmed[1].error.pointer == "/ruleset"


@pytest.mark.parametrize(
    ("pointer", "change"),
    [
        ("/match/length", {"match": {"length": 0, "game": 1}}),
        ("/match/game", {"match": {"length": 1, "game": 0}}),
        ("/result/points", {"result": {"winner": 0, "points": 2**53, "reason": "rules"}}),
        ("/event/pairing", {"event": {"pairing": 2**53}}),
        ("/match/score/1", {"match": {"length": 1, "game": 1, "score": [0, 2**53]}}),
    ],
)
def test_the_scan_and_the_model_refuse_the_same_bounds(pointer: str, change: dict) -> None:
    """A count past what JSON readers hold exactly, a match of no points or no games: the
    record model and the scan refuse them alike (the scan took the large counts, the model
    the match of length 0)."""
    data = {
        "format": "referee",
        "version": 1,
        "game": "takhteh",
        "ruleset": "takhteh/standard@1",
        "players": [{"name": "a"}, {"name": "b"}],
        **change,
    }
    with pytest.raises(RecordError) as model:
        parse_record(data)
    with pytest.raises(RecordError) as scanned:
        scan_line(json.dumps(data).encode())
    assert model.value.pointer == scanned.value.pointer == pointer
