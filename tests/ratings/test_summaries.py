"""Summaries of big record files (`ratings.summaries`): taken only while the file is
unchanged, passed over when damaged, and never a reason for the command to fail."""

from __future__ import annotations

import os
import zipfile
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from referee.cache import CACHE_VARIABLE, OLD_VARIABLE, cache_folder
from referee.cli.app import app
from referee.ratings.errors import RatingsInputError
from referee.ratings.results import GameRows, _duplicated, read_games
from referee.ratings.summaries import MIN_BYTES, Summaries
from tests.archive.helpers import archives
from tests.ratings.helpers import record
from tests.records.helpers import write_jsonl

runner = CliRunner()


def _games(count: int, start: int = 0) -> list:
    names = ["ann", "bob", "cid"]
    return [
        record(
            names[i % 3],
            names[(i + 1) % 3],
            [0, 1, None][i % 3 if i % 7 else 1],
            tournament="club",
            pairing=i // 2,
            game_number=i,
        )
        for i in range(start, start + count)
    ]


def _frame(path: Path, summaries: Summaries | None) -> pd.DataFrame:
    return read_games([path], summaries=summaries).frame


def _summary(folder: Path) -> Path:
    (entry,) = folder.glob("*.npz")
    return entry


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(archives(min_size=1))
def test_a_summary_gives_the_games_the_file_gives(tmp_path_factory, games) -> None:
    """The games frame read through a fresh summary, and through a kept one, is the frame
    read from the file."""
    folder = tmp_path_factory.mktemp("summaries")
    path = folder / "games.jsonl"
    write_jsonl(path, games)
    summaries = Summaries(folder / "cache", min_bytes=0)
    read = _frame(path, None)
    pd.testing.assert_frame_equal(_frame(path, summaries), read)
    assert len(list((folder / "cache").glob("*.npz"))) == 1
    pd.testing.assert_frame_equal(_frame(path, summaries), read)


def test_a_kept_summary_is_read_instead_of_the_file(tmp_path, monkeypatch) -> None:
    path = tmp_path / "games.jsonl"
    write_jsonl(path, _games(30))
    summaries = Summaries(tmp_path / "cache", min_bytes=0)
    first = _frame(path, summaries)

    def unread(path: Path) -> GameRows:
        raise AssertionError("the file was read again")

    assert len(summaries.read(path, unread)) == 30
    pd.testing.assert_frame_equal(_frame(path, summaries), first)


@pytest.mark.parametrize("change", ["append", "same-size", "touch-back"])
def test_a_changed_file_is_read_again(tmp_path, change) -> None:
    """Any write to the file, even one that keeps its size and modification time, puts
    its summary aside."""
    path = tmp_path / "games.jsonl"
    write_jsonl(path, _games(30))
    summaries = Summaries(tmp_path / "cache", min_bytes=0)
    _frame(path, summaries)
    status = path.stat()
    text = path.read_bytes()
    if change == "append":
        write_jsonl(path, _games(31))
    else:  # the first game's winner changed in place, its length kept
        edited = text.replace(b'"winner": 0', b'"winner": 1', 1)
        assert edited != text and len(edited) == len(text)
        path.write_bytes(edited)
        if change == "touch-back":
            os.utime(path, ns=(status.st_atime_ns, status.st_mtime_ns))
            assert path.stat().st_mtime_ns == status.st_mtime_ns
    pd.testing.assert_frame_equal(_frame(path, summaries), _frame(path, None))


def _damages() -> list[str]:
    return ["truncated", "garbage", "empty", "flipped", "foreign", "out-of-range", "texts"]


@pytest.mark.parametrize("damage", _damages())
def test_a_damaged_summary_is_passed_over_and_written_again(tmp_path, damage) -> None:
    path = tmp_path / "games.jsonl"
    write_jsonl(path, _games(40))
    folder = tmp_path / "cache"
    summaries = Summaries(folder, min_bytes=0)
    expected = _frame(path, summaries)
    entry = _summary(folder)
    data = entry.read_bytes()
    if damage == "truncated":
        entry.write_bytes(data[: len(data) // 2])
    elif damage == "garbage":
        entry.write_bytes(os.urandom(len(data)))
    elif damage == "empty":
        entry.write_bytes(b"")
    elif damage == "flipped":  # a byte of an array changed: the zip's checksum no longer holds
        with zipfile.ZipFile(entry) as summary:
            offset = summary.getinfo("line.npy").header_offset + 200
        entry.write_bytes(data[:offset] + bytes([data[offset] ^ 0xFF]) + data[offset + 1 :])
    else:
        with np.load(entry) as summary:
            arrays = dict(summary)
        if damage == "foreign":  # a summary of another file, under this one's name
            arrays["key"] = np.frombuffer(b"another key", dtype=np.uint8)
        elif damage == "out-of-range":
            arrays["seat0"] = arrays["seat0"] + 50
        else:
            arrays["texts"] = np.frombuffer(b'{"bots": ["ann", "ann"]}', dtype=np.uint8)
        with entry.open("wb") as file:
            np.savez(file, **arrays)
    pd.testing.assert_frame_equal(_frame(path, summaries), expected)

    def unread(path: Path) -> GameRows:
        raise AssertionError("the file was read again")

    assert len(summaries.read(path, unread)) == 40  # written again whole


def test_a_folder_that_cannot_be_written_keeps_no_summary_and_no_error(tmp_path) -> None:
    path = tmp_path / "games.jsonl"
    write_jsonl(path, _games(10))
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("a file where the folder would be")
    pd.testing.assert_frame_equal(_frame(path, Summaries(blocked, min_bytes=0)), _frame(path, None))


def test_a_bad_record_gives_its_error_and_no_summary(tmp_path) -> None:
    path = tmp_path / "games.jsonl"
    write_jsonl(path, _games(5))
    path.write_bytes(path.read_bytes() + b'{"format": "referee"}\n')
    folder = tmp_path / "cache"
    with pytest.raises(RatingsInputError, match="record 6"):
        read_games([path], summaries=Summaries(folder, min_bytes=0))
    assert not folder.exists() or not list(folder.glob("*.npz"))


def test_small_files_get_no_summary(tmp_path) -> None:
    path = tmp_path / "games.jsonl"
    write_jsonl(path, _games(5))
    folder = tmp_path / "cache"
    _frame(path, Summaries(folder))
    assert path.stat().st_size < MIN_BYTES and not folder.exists()


def test_the_command_keeps_a_summary_only_when_asked(tmp_path, monkeypatch) -> None:
    """`referee ratings` keeps summaries in $REFEREE_CACHE_DIR, not with --no-cache, and
    prints the same tables either way."""
    path = tmp_path / "games.jsonl"
    lines = _games_lines(3)
    path.write_bytes(b"".join(_games_lines(3 * (MIN_BYTES // sum(map(len, lines)) + 1))))
    folder = tmp_path / "cache"
    monkeypatch.setenv(CACHE_VARIABLE, str(folder))
    plain = runner.invoke(app, ["ratings", "--no-cache", str(path)])
    assert plain.exit_code == 0, plain.output
    assert not folder.exists()
    for _ in range(2):  # writes the summary, then reads it
        kept = runner.invoke(app, ["ratings", str(path)])
        assert kept.exit_code == 0, kept.output
        assert kept.output == plain.output
        assert len(list(folder.glob("*.npz"))) == 1


def _games_lines(count: int) -> list[bytes]:
    from referee.records.io import record_to_json

    return [(record_to_json(game) + "\n").encode() for game in _games(count)]


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.integers(-1, 3),
            st.one_of(st.integers(-1, 3), st.integers(-(2**62), 2**62)),
            st.integers(-1, 3),
            st.integers(0, 2),
        ),
        min_size=1,
        max_size=30,
    )
)
def test_repeated_rows_are_found_as_a_frame_finds_them(rows) -> None:
    """Protects `_duplicated` (the four key columns as one number when their ranges allow,
    a frame of four columns when not)."""
    columns = [np.array(column, dtype=np.int64) for column in zip(*rows, strict=True)]
    seen: set[tuple[int, ...]] = set()
    expected = []
    for row in rows:
        expected.append(row in seen)
        seen.add(row)
    assert _duplicated(columns).tolist() == expected


def test_what_a_stopped_run_left_is_removed_an_hour_later(tmp_path) -> None:
    folder = tmp_path / "cache"
    folder.mkdir()
    old, new = folder / "a.tmp", folder / "b.tmp"
    for left in (old, new):
        left.write_bytes(b"half a summary")
    os.utime(old, (0, 0))
    path = tmp_path / "games.jsonl"
    write_jsonl(path, _games(5))
    _frame(path, Summaries(folder, min_bytes=0))
    assert not old.exists() and new.exists()


def test_the_cache_folder_is_the_one_named_first() -> None:
    assert cache_folder({CACHE_VARIABLE: "/a", "XDG_CACHE_HOME": "/b"}) == Path("/a")
    assert cache_folder({CACHE_VARIABLE: "/a", OLD_VARIABLE: "/c"}) == Path("/a")
    # The old name of the THAX table's folder still counts: the folder that holds referee/.
    assert cache_folder({OLD_VARIABLE: "/c", "XDG_CACHE_HOME": "/b"}) == Path("/c/referee")
    assert cache_folder({"XDG_CACHE_HOME": "/b"}) == Path("/b/referee")
    assert cache_folder({}) == Path.home() / ".cache" / "referee"


def test_files_read_from_summaries_and_files_read_now_add_up(tmp_path) -> None:
    """Games from summaries and from files, in any mix, number their names as one."""
    first, second = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    write_jsonl(first, _games(20))
    write_jsonl(second, [record("dan", "ann", 0), *_games(9, start=40)])
    summaries = Summaries(tmp_path / "cache", min_bytes=0)
    plain = read_games([first, second]).frame
    read_games([second], summaries=summaries)  # only the second has a summary
    pd.testing.assert_frame_equal(read_games([first, second], summaries=summaries).frame, plain)
    pd.testing.assert_frame_equal(read_games([first, second], summaries=summaries).frame, plain)


class _Reads:
    """`read_file`, noting where each reading began and how many bytes it read."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        import referee.records.scan as scan

        self.reads: list[tuple[int, int]] = []
        skim = scan.skim_jsonl

        def counted(stream):
            start = stream.tell()
            yield from skim(stream)
            self.reads.append((start, stream.tell() - start))

        monkeypatch.setattr(scan, "skim_jsonl", counted)


def _append(path: Path, lines: list[bytes]) -> None:
    with path.open("ab") as file:  # as the tournament's store appends: the same file grows
        file.write(b"".join(lines))


def _lines_of(games: list) -> list[bytes]:
    from referee.records.io import record_to_json

    return [(record_to_json(game) + "\n").encode() for game in games]


def test_a_file_that_only_grew_is_read_from_where_its_summary_ended(tmp_path, monkeypatch) -> None:
    """A tournament appending to a folder being rated: each run reads only the lines
    appended since the last, and rates as a reading of the whole file does."""
    path = tmp_path / "games.jsonl"
    # A blank line among the first: the lines read later are numbered after it all the same.
    path.write_bytes(b"".join(_lines_of(_games(20))) + b"\n" + b"".join(_lines_of(_games(10, 20))))
    summaries = Summaries(tmp_path / "cache", min_bytes=0)
    reads = _Reads(monkeypatch)
    _frame(path, summaries)
    assert reads.reads == [(0, path.stat().st_size)]
    for start, count in [(30, 7), (37, 1), (38, 25)]:
        size = path.stat().st_size
        appended = _lines_of(_games(count, start))
        _append(path, appended)
        reads.reads.clear()
        frame = _frame(path, summaries)
        assert reads.reads == [(size, sum(map(len, appended)))]  # the new lines, no more
        pd.testing.assert_frame_equal(frame, _frame(path, None))
        # Game i (0-based; all are finished) on line i + 1, after the blank line 21 on i + 2.
        assert frame["line"].tolist() == [i + 1 + (i >= 20) for i in range(start + count)]
    assert len(list((tmp_path / "cache").glob("*.npz"))) == 1
    reads.reads.clear()
    _frame(path, summaries)
    assert reads.reads == []  # unchanged since: the summary alone


@settings(
    max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(archives(min_size=2), st.data())
def test_a_summary_extended_by_what_was_appended_rates_as_the_whole_file(
    tmp_path_factory, games, data
) -> None:
    folder = tmp_path_factory.mktemp("summaries")
    path = folder / "games.jsonl"
    split = data.draw(st.integers(1, len(games) - 1))
    lines = _lines_of(games)
    path.write_bytes(b"".join(lines[:split]))
    summaries = Summaries(folder / "cache", min_bytes=0)
    _frame(path, summaries)
    _append(path, lines[split:])
    pd.testing.assert_frame_equal(_frame(path, summaries), _frame(path, None))


@pytest.mark.parametrize("change", ["prefix-rewritten", "new-file", "line-not-ended"])
def test_a_file_that_did_not_only_grow_is_read_in_full(tmp_path, monkeypatch, change) -> None:
    """Larger, but not by an append to what was summarised: the whole file is read again."""
    path = tmp_path / "games.jsonl"
    first = b"".join(_lines_of(_games(30)))
    path.write_bytes(first[:-1] if change == "line-not-ended" else first)
    summaries = Summaries(tmp_path / "cache", min_bytes=0)
    _frame(path, summaries)
    more = b"".join(_lines_of(_games(5, 30)))
    if change == "prefix-rewritten":  # in place, the inode kept: a result changed, then more
        edited = first.replace(b'"winner": 0', b'"winner": 1', 1)
        assert edited != first
        with path.open("r+b") as file:
            file.write(edited + more)
    elif change == "new-file":  # another file under the name, holding the same games first
        (tmp_path / "new.jsonl").write_bytes(first + more)
        os.replace(tmp_path / "new.jsonl", path)
    else:  # the summarised part ended inside a line, which the append finishes
        _append(path, [b"\n" + more])
    reads = _Reads(monkeypatch)
    frame = _frame(path, summaries)
    assert reads.reads == [(0, path.stat().st_size)]
    pd.testing.assert_frame_equal(frame, _frame(path, None))


def test_a_bad_line_appended_is_named_as_a_full_reading_names_it(tmp_path) -> None:
    path = tmp_path / "games.jsonl"
    path.write_bytes(b"\n" + b"".join(_lines_of(_games(12))))
    summaries = Summaries(tmp_path / "cache", min_bytes=0)
    _frame(path, summaries)
    _append(path, [*_lines_of(_games(2, 12)), b'{"format": "referee"}\n'])
    with pytest.raises(RatingsInputError) as extended:
        _frame(path, summaries)
    with pytest.raises(RatingsInputError) as full:
        _frame(path, None)
    assert str(extended.value) == str(full.value)
    assert "record 15" in str(full.value) and ":16:" in str(full.value)
