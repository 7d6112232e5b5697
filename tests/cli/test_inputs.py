"""Input from anywhere: format found from the content, `-` for standard input, the game checked."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from referee.cli.app import app
from referee.records.formats import detect_stream

runner = CliRunner()


class Pipe(io.RawIOBase):
    """A stream that cannot seek, handing out a few bytes a read, as a pipe does."""

    def __init__(self, data: bytes, step: int = 1000) -> None:
        self.data = data
        self.step = step

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: bytearray | memoryview) -> int:  # type: ignore[override]
        size = min(len(buffer), self.step, len(self.data))
        buffer[:size] = self.data[:size]
        self.data = self.data[size:]
        return size


@pytest.fixture(scope="module")
def games(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("t") / "t"
    run = ["tournament", "run", "--game", "thax", "--bots", "random,greedy", "--out", str(out)]
    assert runner.invoke(app, [*run, "--games-per-pair", "4", "-q"]).exit_code == 0
    return out / "games.jsonl"


def big_first_record(games: Path, size: int = 20_000) -> bytes:
    """The games with a comment making the first record's line `size` bytes or more."""
    lines = games.read_text().splitlines()
    first = json.loads(lines[0])
    first["turns"][0]["comment"] = "x" * size
    return ("\n".join([json.dumps(first), *lines[1:]]) + "\n").encode()


@settings(max_examples=30, deadline=None)
@given(length=st.integers(0, 300_000), step=st.sampled_from([1, 7, 4096, 70_000]))
def test_a_jsonl_line_of_any_length_is_jsonl_and_read_again_in_full(length: int, step: int) -> None:
    line = json.dumps({"format": "referee", "pad": "y" * length}).encode()
    data = line + b"\n" + b'{"format": "referee"}\n'
    file_format, stream = detect_stream(None, io.BufferedReader(Pipe(data, step)))
    assert file_format is not None and file_format.name == "jsonl"
    assert stream.read() == data


def test_a_pretty_printed_document_is_json() -> None:
    data = json.dumps({"format": "referee", "pad": "y" * 9000}, indent=2).encode()
    file_format, stream = detect_stream(None, io.BufferedReader(Pipe(data)))
    assert file_format is not None and file_format.name == "json"
    assert stream.read() == data


def referee_cli(args: list[str], stdin: bytes) -> subprocess.CompletedProcess[bytes]:
    code = (
        "import sys; sys.argv = ['referee', *sys.argv[1:]]; "
        "from referee.cli.app import main; main()"
    )
    return subprocess.run(
        [sys.executable, "-c", code, *args], input=stdin, capture_output=True, timeout=120
    )


def test_validate_reads_a_20_kb_first_record_from_stdin_and_without_extension(
    games: Path, tmp_path: Path
) -> None:
    data = big_first_record(games)
    assert len(data.split(b"\n", 1)[0]) > 20_000
    piped = referee_cli(["validate", "-"], data)
    assert piped.returncode == 0, piped.stderr
    assert b"4 games: 4 valid" in piped.stdout
    bare = tmp_path / "games"
    bare.write_bytes(data)
    named = runner.invoke(app, ["validate", str(bare)])
    assert named.exit_code == 0, named.output
    assert "4 games: 4 valid" in named.output


def test_ratings_report_convert_and_show_read_stdin(games: Path, tmp_path: Path) -> None:
    data = big_first_record(games)
    ratings = runner.invoke(app, ["ratings", "-", "--format", "csv"], input=data)
    assert ratings.exit_code == 0, ratings.output
    cells = {cell for row in ratings.output.splitlines()[1:] for cell in row.split(",")}
    assert {"random", "greedy"} <= cells
    report = tmp_path / "r.html"
    made = runner.invoke(app, ["report", "-", "-o", str(report)], input=data)
    assert made.exit_code == 0, made.output
    assert "random" in report.read_text()
    target = tmp_path / "out.jsonl"
    converted = runner.invoke(app, ["convert", "-", str(target)], input=data)
    assert converted.exit_code == 0, converted.output
    assert "4 games written" in converted.output and len(target.read_text().splitlines()) == 4
    shown = runner.invoke(app, ["show", "-", "--turn", "0"], input=data)
    assert shown.exit_code == 0, shown.output


def test_bad_stdin_is_named_stdin_not_a_temporary_file() -> None:
    result = runner.invoke(app, ["ratings", "-"], input=b"not a record\n")
    assert result.exit_code == 2
    assert "<stdin>" in result.output and "/tmp" not in result.output


def test_a_record_of_another_game_is_an_error(games: Path) -> None:
    result = runner.invoke(app, ["moves", "--game", "trax", "--record", str(games)])
    assert result.exit_code == 2
    assert "thax game, not trax" in result.output
    same = runner.invoke(app, ["moves", "--game", "thax", "--record", str(games), "--turn", "1"])
    assert same.exit_code == 0, same.output
