"""The record formats' registry (records/formats/__init__.py): detection tries the sniffs in
the order the registry gives, every registered format writes what it reads back, and a
format registered from outside is found by extension, by content and by name."""

from __future__ import annotations

import io
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import IO

import pytest

import referee.records.formats as formats
from referee.records.convert import convert
from referee.records.formats import (
    RECORD_FORMATS,
    detect_format,
    detect_stream,
    format_for_path,
    format_named,
    format_of,
)
from referee.records.formats.base import FileFormat
from referee.records.io import Loaded, iter_jsonl, record_to_json
from referee.records.model import Record
from referee.registry import OutputFormat, Registry

SAMPLES = Path(__file__).parents[1] / "validator" / "samples"


def samples_of(entry: OutputFormat[type[FileFormat]]) -> list[Path]:
    return sorted(p for p in SAMPLES.iterdir() if RECORD_FORMATS.for_suffix(p.suffix) is entry)


def claimed_by(head: bytes) -> list[str]:
    """Every format whose sniff takes `head`, in detection order."""
    return [e.name for e in RECORD_FORMATS.detection_order() if format_of(e).sniff(head)]


@pytest.mark.parametrize("entry", list(RECORD_FORMATS), ids=lambda entry: entry.name)
def test_each_format_is_found_by_its_content(entry: OutputFormat[type[FileFormat]]) -> None:
    """A sample of every format, read without its name, is taken for that format: the first
    of the sniffs that claim it, in the registry's order, is its own."""
    assert samples_of(entry), f"no sample of {entry.name} in {SAMPLES}"
    for sample in samples_of(entry):
        head = sample.read_bytes()[: formats.HEAD]
        assert claimed_by(head)[0] == entry.name
        assert detect_format(None, head) is format_of(entry)


@pytest.mark.parametrize(("first", "later"), [("jsonl", "json"), ("pdn", "json")])
def test_detection_order_decides_between_sniffs_that_agree(
    first: str, later: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """JSON's sniff also takes a JSONL line and PDN's tag pairs: the registry's detection
    places decide, and swapping them hands the file to the other format."""
    entry = RECORD_FORMATS.get(first)
    assert entry is not None
    head = samples_of(entry)[0].read_bytes()[: formats.HEAD]
    assert claimed_by(head)[:2] == [first, later]
    assert detect_format(None, head) is format_named(first)

    places = {first: RECORD_FORMATS.get(later).detect, later: entry.detect}
    swapped = Registry(
        *(
            OutputFormat(e.name, e.code, e.extensions, places.get(e.name, e.detect), e.folder)
            for e in RECORD_FORMATS
        )
    )
    monkeypatch.setattr(formats, "RECORD_FORMATS", swapped)
    assert detect_format(None, head).name == later


def test_detection_order_is_the_places_not_the_listing() -> None:
    """The listing (`convert --help`) and the detection order are both the registry's data,
    and they differ: detection does not follow the order the formats were listed in."""
    assert RECORD_FORMATS.names() == ("json", "jsonl", "pdn", "trax", "mat")
    order = [entry.name for entry in RECORD_FORMATS.detection_order()]
    assert order == ["jsonl", "pdn", "json", "trax", "mat"]


@pytest.mark.parametrize("entry", list(RECORD_FORMATS), ids=lambda entry: entry.name)
def test_every_format_writes_what_it_reads(entry: OutputFormat[type[FileFormat]]) -> None:
    """What a format writes, read back, is written again byte for byte, game for game."""
    file_format = format_of(entry)
    for sample in samples_of(entry):
        with sample.open("rb") as stream:
            records = [loaded.record for loaded in file_format.read(stream) if loaded.record]
        assert records, sample
        first = io.StringIO()
        file_format.write(records, first)
        again = [
            loaded.record for loaded in file_format.read(io.BytesIO(first.getvalue().encode()))
        ]
        assert len(again) == len(records) and None not in again
        second = io.StringIO()
        file_format.write(again, second)
        assert second.getvalue() == first.getvalue()


def test_folder_formats_write_folders() -> None:
    """`folder` in the registry says which formats write a file per match; they are the
    formats with a `write_folder`, the others are written to one file."""
    for entry in RECORD_FORMATS:
        overrides = type(format_of(entry)).write_folder is not FileFormat.write_folder
        assert overrides == entry.folder, entry.name
    assert [entry.name for entry in RECORD_FORMATS if entry.folder] == ["mat"]


class LinesFormat(FileFormat):
    """A format of this test alone: a `LINES` line, then a referee record a line."""

    def sniff(self, head: bytes) -> bool:
        return head.startswith(b"LINES\n")

    def read(self, stream: IO[bytes]) -> Iterator[Loaded]:
        stream.readline()
        return iter_jsonl(stream)

    def write(self, records: Iterable[Record], stream: IO[str]) -> None:
        stream.write("LINES\n")
        for record in records:
            stream.write(record_to_json(record) + "\n")


LINES = OutputFormat[type[FileFormat]](
    "lines", f"{__name__}:LinesFormat", extensions=(".lines",), detect=0
)


@pytest.fixture
def lines_registered(monkeypatch: pytest.MonkeyPatch) -> None:
    """LINES added to the registry for one test (the registry's own dict, copied)."""
    monkeypatch.setattr(RECORD_FORMATS, "_formats", dict(RECORD_FORMATS._formats))
    RECORD_FORMATS.add(LINES)


@pytest.mark.usefixtures("lines_registered")
def test_a_registered_format_is_read_and_written(tmp_path: Path) -> None:
    """One entry is all a format needs: it is named, found by extension and by content (first,
    by its detection place), and `convert` writes it and reads it back."""
    assert format_named("lines").name == "lines"
    assert format_for_path(Path("games.LINES")).name == "lines"
    assert detect_format(None, b'LINES\n{"format": "referee"}\n').name == "lines"

    sample = SAMPLES / "thax.jsonl"
    target = tmp_path / "games.lines"
    written = convert(sample, target)
    assert written.written == len(sample.read_text().splitlines()) and not written.skipped
    assert target.read_text().startswith("LINES\n")
    with target.open("rb") as raw:
        found, stream = detect_stream(None, raw)
        assert found is not None and found.name == "lines"
        assert [loaded.record for loaded in found.read(stream)] == [
            loaded.record for loaded in iter_jsonl(sample.open("rb"))
        ]


def test_unknown_names_and_extensions_list_the_formats() -> None:
    from referee.records.io import RecordError

    with pytest.raises(RecordError, match=r"unknown format 'xml' \(known: jsonl, pdn, json,"):
        format_named("xml")
    with pytest.raises(RecordError, match=r"no format has this extension; use --to \(jsonl,"):
        format_for_path(Path("games.xyz"))
