"""`referee select`: the games of an archive that pass the filters, without duplicates, the
first N or a random sample, written to one file or one file per value.

Everything streams: games are read, judged and written one at a time; memory holds only a
digest per game with `dedupe`, the sample with `sample`, and with `split_by` into a format
other than JSONL each file's games until the end. JSONL read and written as JSONL is copied
line for line, byte for byte.
"""

from __future__ import annotations

import hashlib
import io
import itertools
import os
import random
import re
import sys
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, TypeVar

import msgspec

from referee.archive.choices import STDOUT, SplitBy
from referee.archive.entries import ArchiveError, Entry, read_entries
from referee.archive.filters import Criteria
from referee.records.formats import FileFormat, format_named, formats
from referee.records.formats.referee_json import JsonlFormat
from referee.records.io import RecordError
from referee.records.model import Record

T = TypeVar("T")
OPEN_FILES = 64
"""Files of a split kept open at once; others are closed and opened again to append."""


@dataclass
class Counts:
    """What happened to the games read."""

    read: int = 0
    kept: int = 0
    filtered: int = 0
    duplicates: int = 0
    unreadable: int = 0
    unfit: int = 0
    """Games the output format cannot hold (a Trax game into PDN)."""
    left: int = 0
    """Games past `--first`, or not drawn by `--sample`."""

    @property
    def dropped(self) -> int:
        return self.filtered + self.duplicates + self.unreadable + self.unfit + self.left

    def summary(self) -> str:
        parts = [
            f"{self.filtered} by the filters",
            f"{self.duplicates} duplicates",
            f"{self.unreadable} unreadable",
        ]
        if self.unfit:
            parts.append(f"{self.unfit} not in the output format's game")
        if self.left:
            parts.append(f"{self.left} left by --first/--sample")
        return (
            f"read {self.read} games, kept {self.kept}, dropped {self.dropped} ({', '.join(parts)})"
        )


Report = Callable[[str], None]
"""Told one line for each game left out for a problem (unreadable, does not fit)."""


@dataclass(frozen=True)
class Plan:
    criteria: Criteria
    dedupe: bool = False
    first: int | None = None
    sample: int | None = None
    seed: str = "0"


def game_digest(view: Any) -> bytes:
    """What makes two games the same game: game, ruleset, start, opening rolls and every
    turn's seat, roll and move (not the players, times or event)."""
    turns = [(turn.seat, turn.roll, turn.move) for turn in view.turns]
    data = (view.game, view.ruleset, view.start, view.opening_dice(), turns)
    return hashlib.blake2b(msgspec.json.encode(data), digest_size=16).digest()


def _readable(entry: Entry, read: Callable[[Entry], T], counts: Counts, report: Report) -> T | None:
    """What `read` gives of the entry; None for a record that cannot be read, which is counted
    and reported with its place."""
    try:
        return read(entry)
    except RecordError as error:
        counts.unreadable += 1
        report(f"{entry.where()}: [{error.code}] {error.message}")
        return None


def selected(paths: list[str], plan: Plan, counts: Counts, report: Report) -> Iterator[Entry]:
    """The games that pass, in input order (a sample in input order too)."""

    def unreadable(file: str, number: int, line: int, error: RecordError) -> None:
        counts.read += 1
        counts.unreadable += 1
        report(f"{file}:{line}: game {number}: [{error.code}] {error.message}")

    def passed_over() -> None:
        counts.read += 1
        counts.filtered += 1

    matcher = plan.criteria.matcher()
    with_turns = plan.dedupe or plan.criteria.needs_turns()
    keep = plan.criteria.line_test()
    seen: set[bytes] = set()

    def passing() -> Iterator[Entry]:
        for entry in read_entries(paths, unreadable, with_turns, keep, passed_over):
            counts.read += 1
            passes = _readable(entry, matcher, counts, report)
            if passes is None:
                continue
            if not passes:
                counts.filtered += 1
                continue
            if plan.dedupe:
                digest = game_digest(entry.view)
                if digest in seen:
                    counts.duplicates += 1
                    continue
                seen.add(digest)
            yield entry

    if plan.sample is not None:
        sample = reservoir(passing(), plan.sample, random.Random(plan.seed))
        counts.left = counts.read - counts.unreadable - counts.filtered - counts.duplicates
        counts.left -= len(sample)
        yield from sample
    elif plan.first is not None:
        # Stop reading once enough games passed: the rest of the archive is never read.
        yield from itertools.islice(passing(), plan.first)
    else:
        yield from passing()


def reservoir(entries: Iterable[T], size: int, rng: random.Random) -> list[T]:
    """A uniform sample of `size` games in one pass (Algorithm R), returned in input order."""
    chosen: list[tuple[int, T]] = []
    for index, entry in enumerate(entries):
        if index < size:
            chosen.append((index, entry))
        else:
            slot = rng.randrange(index + 1)
            if slot < size:
                chosen[slot] = (index, entry)
    return [entry for _, entry in sorted(chosen, key=lambda pair: pair[0])]


def output_format(target: str, name: str | None) -> FileFormat:
    """The format named, else the one of the target's extension (JSONL for standard output)."""
    if name is not None:
        return format_named(name)
    if target == STDOUT:
        return format_named("jsonl")
    suffix = Path(target).suffix.lower()
    for file_format in formats():
        if suffix in file_format.extensions:
            return file_format
    known = ", ".join(f.name for f in formats())
    raise ArchiveError(f"{target}: no format has this extension; give --format ({known})")


@contextmanager
def _target(path: Path) -> Iterator[IO[bytes]]:
    """A file written in full or not at all: a temporary file beside it, renamed at the end.
    What is not a regular file (/dev/null, a pipe) is written to directly."""
    if path.exists() and not path.is_file():
        with path.open("wb") as stream:
            yield stream
        return
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with temporary.open("wb") as stream:
            yield stream
        os.replace(temporary, path)
    finally:
        temporary.unlink(missing_ok=True)


def _fitting(
    entries: Iterable[Entry], file_format: FileFormat, counts: Counts, report: Report
) -> Iterator[Record]:
    """The records of the games the format holds; the others are reported and counted."""
    for entry in entries:
        if file_format.game is not None and entry.game != file_format.game:
            counts.unfit += 1
            report(
                f"{entry.where()}: a {entry.game} game; {file_format.name} holds {file_format.game}"
            )
            continue
        record = _readable(entry, Entry.record, counts, report)
        if record is None:
            continue
        if file_format.game is not None:
            # A game's own format may not hold everything a record can (a Trax list has no
            # tag named like one of its headers): try the game alone first.
            try:
                file_format.write([record], io.StringIO())
            except ValueError as error:
                counts.unfit += 1
                report(f"{entry.where()}: not written as {file_format.name}: {error}")
                continue
        counts.kept += 1
        yield record


def _write(
    entries: Iterable[Entry],
    file_format: FileFormat,
    stream: IO[bytes],
    counts: Counts,
    report: Report,
) -> None:
    if isinstance(file_format, JsonlFormat):
        for entry in entries:
            line = _readable(entry, Entry.json_line, counts, report)
            if line is None:
                continue
            stream.write(line)
            counts.kept += 1
        return
    text = _TextStream(stream)
    try:
        # The writers only write and flush: the text stream is all the IO they use.
        file_format.write(_fitting(entries, file_format, counts, report), text)  # type: ignore[arg-type]
    except ValueError as error:
        raise ArchiveError(f"cannot write {file_format.name}: {error}") from None
    text.flush()


class _TextStream:
    """Text written to a binary stream as UTF-8 (the format writers write text)."""

    def __init__(self, stream: IO[bytes]) -> None:
        self.stream = stream

    def write(self, text: str) -> int:
        self.stream.write(text.encode("utf-8"))
        return len(text)

    def flush(self) -> None:
        self.stream.flush()


def write_selected(
    entries: Iterable[Entry], target: str, format_name: str | None, counts: Counts, report: Report
) -> None:
    """Write the games to one file, or to standard output with `-`."""
    file_format = output_format(target, format_name)
    if target == STDOUT:
        _write(entries, file_format, sys.stdout.buffer, counts, report)
        sys.stdout.buffer.flush()
        return
    path = Path(target)
    if path.is_dir():
        raise ArchiveError(f"{target}: a folder; --split-by writes into folders")
    with _target(path) as stream:
        _write(entries, file_format, stream, counts, report)


def split_values(entry: Entry, by: SplitBy) -> list[str]:
    """The values of a game that name its files: a game goes to the file of each player."""
    view = entry.view
    if by is SplitBy.game:
        return [entry.game]
    if by is SplitBy.variant:
        return [f"{entry.game}-{entry.variant}"]
    if by is SplitBy.event:
        return [view.event.event or view.event.tournament or "no-event"]
    names = [player.name for player in view.players]
    if by is SplitBy.player:
        return list(dict.fromkeys(names))
    return ["-vs-".join(sorted(names))]


_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


class _Names:
    """A file name for each value: its safe characters, numbered when two values clash."""

    def __init__(self, extension: str) -> None:
        self.extension = extension
        self.names: dict[str, str] = {}
        self.taken: set[str] = set()

    def __call__(self, value: str) -> str:
        name = self.names.get(value)
        if name is None:
            stem = _UNSAFE.sub("_", value).strip("._") or "_"
            name = stem + self.extension
            number = 1
            while name.lower() in self.taken:
                number += 1
                name = f"{stem}-{number}{self.extension}"
            self.taken.add(name.lower())
            self.names[value] = name
        return name


def split_selected(
    entries: Iterable[Entry],
    folder: str,
    by: SplitBy,
    format_name: str | None,
    counts: Counts,
    report: Report,
) -> list[str]:
    """Write each game into the file of each of its values in `folder`; the files written."""
    if folder == STDOUT:
        raise ArchiveError("--split-by writes files into a folder, not to standard output")
    root = Path(folder)
    if root.exists() and (not root.is_dir() or any(root.iterdir())):
        raise ArchiveError(f"{folder}: give a new or empty folder for --split-by")
    root.mkdir(parents=True, exist_ok=True)
    file_format = format_named(format_name or "jsonl")
    names = _Names(file_format.extensions[0])
    if isinstance(file_format, JsonlFormat):
        _split_jsonl(entries, root, by, names, counts, report)
    else:
        groups: dict[str, list[Entry]] = {}
        for entry in entries:
            for value in split_values(entry, by):
                groups.setdefault(names(value), []).append(entry)
        for name, group in groups.items():
            with _target(root / name) as stream:
                _write(group, file_format, stream, counts, report)
    return sorted(set(names.names.values()))


def _split_jsonl(
    entries: Iterable[Entry], root: Path, by: SplitBy, names: _Names, counts: Counts, report: Report
) -> None:
    streams: OrderedDict[str, IO[bytes]] = OrderedDict()
    try:
        for entry in entries:
            line = _readable(entry, Entry.json_line, counts, report)
            if line is None:
                continue
            counts.kept += 1
            for value in split_values(entry, by):
                name = names(value)
                stream = streams.pop(name, None)
                if stream is None:
                    if len(streams) >= OPEN_FILES:
                        streams.popitem(last=False)[1].close()
                    stream = (root / name).open("ab")
                streams[name] = stream
                stream.write(line)
    finally:
        for stream in streams.values():
            stream.close()
