"""`referee select`: the games of an archive that pass the filters, without duplicates, the
first N or a random sample, written to one file or one file per value.

Everything streams: games are read, judged and written one at a time; memory holds only a
digest per game with `dedupe`, the sample with `sample`, and with `split_by` into a format
other than JSONL each file's games until the end. JSONL read and written as JSONL is copied
line for line, byte for byte.
"""

from __future__ import annotations

import difflib
import hashlib
import io
import itertools
import random
import sys
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, TypeVar

import msgspec

from referee.archive.choices import SplitBy
from referee.archive.entries import ArchiveError, Entry, read_entries
from referee.archive.filters import Criteria
from referee.escaping import printable, quoted
from referee.file_names import file_stem
from referee.files import folder_atomically, write_atomically
from referee.path_names import STDIN, STDOUT
from referee.records.formats import RECORD_FORMATS, format_named, format_of, known_formats
from referee.records.formats.base import FileFormat
from referee.records.formats.referee_json import JsonlFormat
from referee.records.io import RecordError
from referee.records.model import Record

T = TypeVar("T")
OPEN_FILES = 64
"""Files of a split kept open at once; others are closed and opened again to append."""


@dataclass
class Counts:
    """What happened to the games read: each game read is kept or dropped for one reason, so
    `read == kept + dropped` (a game written into two files of a split is kept once)."""

    read: int = 0
    kept: int = 0
    filtered: int = 0
    duplicates: int = 0
    unreadable: int = 0
    unfit: int = 0
    """Games the output format cannot write (a tag a Trax list reads as a header)."""
    others: dict[str, int] = field(default_factory=dict)
    """Games of another game than the one the output format holds, by game (told once, in
    the summary, not game by game)."""
    output: str | None = None
    """The output format's name and game, for the summary of `others`: `pdn holds only thai`."""
    left: int = 0
    """Games past `--first`, or not drawn by `--sample`."""

    @property
    def dropped(self) -> int:
        other = sum(self.others.values())
        return self.filtered + self.duplicates + self.unreadable + self.unfit + other + self.left

    def summary(self) -> str:
        parts = [
            f"{self.filtered} by the filters",
            f"{self.duplicates} duplicates",
            f"{self.unreadable} unreadable",
        ]
        if self.others:
            games = ", ".join(f"{count} {game}" for game, count in sorted(self.others.items()))
            parts.append(f"{sum(self.others.values())} of other games ({self.output}: {games})")
        if self.unfit:
            parts.append(f"{self.unfit} the output format cannot hold")
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
    output: FileFormat | None = None
    """The format written: when it holds one game, the games of the others are set apart
    before the filters (so `--first` counts only games it can write)."""


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


@dataclass
class Seen:
    """The player names and events of the games read, for the note on a name no game has."""

    players: set[str] = field(default_factory=set)
    events: set[str] = field(default_factory=set)
    partial: bool = False
    """Some games were not looked at (ruled out unread by the line test, or past `--first`)."""

    def add(self, view: Any) -> None:
        for player in view.players:
            self.players.add(player.name)
        event = view.event
        for text in (event.event, event.tournament):
            if text:
                self.events.add(text)


def selected(
    paths: list[str], plan: Plan, counts: Counts, report: Report, seen: Seen | None = None
) -> Iterator[Entry]:
    """The games that pass, in input order (a sample in input order too); `seen` gathers the
    names of the games read."""

    def unreadable(file: str, number: int, line: int, error: RecordError) -> None:
        counts.read += 1
        counts.unreadable += 1
        report(f"{file}:{line}: game {number}: [{error.code}] {error.message}")

    def passed_over() -> None:
        counts.read += 1
        counts.filtered += 1
        if seen is not None:
            seen.partial = True

    matcher = plan.criteria.matcher()
    with_turns = plan.dedupe or plan.criteria.needs_turns()
    keep = plan.criteria.line_test()
    output = plan.output
    only = output.game if output is not None else None
    if output is not None and only is not None:
        counts.output = f"{output.name} holds only {only}"
    others = counts.others
    digests: set[bytes] = set()
    passed = 0

    def passing() -> Iterator[Entry]:
        nonlocal passed
        for entry in read_entries(paths, unreadable, with_turns, keep, passed_over):
            counts.read += 1
            if seen is not None:
                seen.add(entry.view)
            if only is not None and entry.game != only:
                others[entry.game] = others.get(entry.game, 0) + 1
                continue
            passes = _readable(entry, matcher, counts, report)
            if passes is None:
                continue
            if not passes:
                counts.filtered += 1
                continue
            if plan.dedupe:
                digest = game_digest(entry.view)
                if digest in digests:
                    counts.duplicates += 1
                    continue
                digests.add(digest)
            passed += 1
            yield entry

    if plan.sample is not None:
        sample = reservoir(passing(), plan.sample, random.Random(plan.seed))
        counts.left = passed - len(sample)
        yield from sample
    elif plan.first is not None:
        if seen is not None:
            seen.partial = True
        # Stop reading once enough games passed: the rest of the archive is never read.
        yield from itertools.islice(passing(), plan.first)
    else:
        yield from passing()


def unknown_names(paths: list[str], criteria: Criteria, seen: Seen) -> list[str]:
    """A note for each player name and event asked for that no game of the input has, with
    the nearest names it has: such a filter keeps nothing, which is otherwise silent.

    `seen` holds the names of the games the selection read; when one asked for is not among
    them and some games were not looked at (the quick line test skips games unread, `--first`
    stops early), the files are read again for their names alone (standard input cannot be
    read twice).
    """
    players = [name for name in criteria.player_names() if name not in seen.players]
    events = [word for word in criteria.events if not _in_event(word, seen.events)]
    if not players and not events:
        return []
    files = [path for path in paths if path != STDIN]
    if files and seen.partial:
        for entry in read_entries(files, lambda *_: None):
            seen.add(entry.view)
    notes = []
    for name in players:
        if name not in seen.players:
            notes.append(f"no game has a player named {quoted(name)}{_nearest(name, seen.players)}")
    for word in events:
        if not _in_event(word, seen.events):
            nearest = _nearest(word, seen.events)
            notes.append(f"no event or tournament id has {quoted(word)}{nearest}")
    return notes


def _in_event(word: str, events: Iterable[str]) -> bool:
    folded = word.casefold()
    return any(folded in event.casefold() for event in events)


def _nearest(text: str, known: set[str]) -> str:
    """`; nearest: a, b, c`: the known names most like `text` (nothing when none is known)."""
    if not known:
        return ""
    names = difflib.get_close_matches(text, sorted(known), n=3, cutoff=0)
    return f"; nearest: {', '.join(printable(name) for name in names)}"  # names of records


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


def output_format(target: str, name: str | None, split: bool = False) -> FileFormat:
    """The format named, else the one of the target's extension (JSONL for standard output
    and for the files of a split)."""
    if name is not None:
        return format_named(name)
    if target == STDOUT or split:
        return format_named("jsonl")
    entry = RECORD_FORMATS.for_suffix(Path(target).suffix)
    if entry is None:
        raise ArchiveError(
            f"{target}: no format has this extension; give --format ({known_formats()})"
        )
    return format_of(entry)


def _fitting(
    entries: Iterable[Entry], file_format: FileFormat, counts: Counts, report: Report
) -> Iterator[tuple[Entry, Record]]:
    """The games the format can write, with their records, each counted once as kept; the
    others are reported and counted."""
    for entry in entries:
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
        yield entry, record


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
    fitting = _fitting(entries, file_format, counts, report)
    _write_records((record for _, record in fitting), file_format, stream)


def _write_records(records: Iterable[Record], file_format: FileFormat, stream: IO[bytes]) -> None:
    text = _TextStream(stream)
    try:
        # The writers only write and flush: the text stream is all the IO they use.
        file_format.write(records, text)  # type: ignore[arg-type]
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
    entries: Iterable[Entry], target: str, file_format: FileFormat, counts: Counts, report: Report
) -> None:
    """Write the games to one file, or to standard output with `-`."""
    if target == STDOUT:
        _write(entries, file_format, sys.stdout.buffer, counts, report)
        sys.stdout.buffer.flush()
        return
    path = Path(target)
    if path.is_dir():
        raise ArchiveError(f"{target}: a folder; --split-by writes into folders")
    with write_atomically(path, "wb") as stream:
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


class _Names:
    """A file name for each value (`file_stem`), numbered when two values clash on a system
    that does not tell capitals from small letters."""

    def __init__(self, extension: str) -> None:
        self.extension = extension
        self.names: dict[str, str] = {}
        self.taken: set[str] = set()

    def __call__(self, value: str) -> str:
        name = self.names.get(value)
        if name is None:
            stem = file_stem(value)
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
    file_format: FileFormat,
    counts: Counts,
    report: Report,
) -> list[str]:
    """Write each game into the file of each of its values in `folder`; the files written
    (a file only for a value some game written has)."""
    if folder == STDOUT:
        raise ArchiveError("--split-by writes files into a folder, not to standard output")
    root = Path(folder)
    if root.exists() and (not root.is_dir() or any(root.iterdir())):
        raise ArchiveError(f"{folder}: give a new or empty folder for --split-by")
    root.parent.mkdir(parents=True, exist_ok=True)
    names = _Names(file_format.extensions[0])
    # The files are written into a folder beside `root` that takes its place at the end: a
    # failure (a full disk) leaves no folder of half-written files.
    with folder_atomically(root) as building:
        if isinstance(file_format, JsonlFormat):
            _split_jsonl(entries, building, by, names, counts, report)
        else:
            # Each game is read and tried once, then goes into the group of each of its values.
            groups: dict[str, list[Record]] = {}
            for entry, record in _fitting(entries, file_format, counts, report):
                for value in split_values(entry, by):
                    groups.setdefault(names(value), []).append(record)
            for name, group in groups.items():
                with (building / name).open("wb") as stream:
                    _write_records(group, file_format, stream)
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
