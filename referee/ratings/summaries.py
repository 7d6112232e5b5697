"""Summaries of the record files `referee ratings` reads: a big file is read once, not at
every run.

Reading a million records takes seconds however fast each line is skimmed, and a club rates
the same archive again and again. Once a big file is read, the numbers its tables are built
from (`results.GameRows`, some twenty bytes a game) are kept as a summary in a cache folder,
under the file's full path and its identity on disk: size, modification and change times,
inode and device. Any write to the file gives it a new change time (which, unlike the
modification time, no program can set back), so a summary is used only while its file is
exactly as it was read; otherwise the file is read again and a new summary replaces the old.

But for one change: a JSONL file that only grew (a tournament appending to the folder being
rated) is read from where its summary ended, and the summary extended. "Only grew" is judged
by the file's inode and device (the same file, not one written anew under its name), its size
(larger), the summarised part ending a line, and a fingerprint of that part: `SAMPLES` blocks
of `BLOCK` bytes spread over it, the first and the last included, which it must still hold
byte for byte. Reading all of it again to be sure would cost a good part of what the summary
saves; an in-place rewrite (same inode) that makes the file larger and keeps every sampled
block while changing a game between them is the case this lets through, and no referee
command writes a file so (`--no-cache` reads every file in full).

The summary also names the summary format, referee's version and a digest of the code that
reads records for it: other code (a release, or a changed source tree) does not take it.

A summary that cannot be read, or that does not hold what a summary holds, is passed over:
the file is read as if there were none. Nothing here ever stops the command: a folder that
cannot be written to means no summary is kept. Files below `MIN_BYTES` get none (reading
them takes less than writing one), and the folder keeps the `KEEP` summaries used last.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import importlib.util
import json
import os
import stat
import tempfile
import time
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import IO, Any

import numpy as np

from referee.ratings.results import (
    FIELDS,
    MAX_POINTS,
    TEXTS,
    UNFINISHED,
    GameRows,
    Numbers,
    Reader,
    Tail,
    appendable,
    value_range,
)

FORMAT = 2
"""The layout of a summary; a new layout takes a new number, so that old summaries are
passed over."""

MIN_BYTES = 8 << 20
"""The smallest file given a summary."""

KEEP = 64
"""Summaries kept in the folder; the ones used longest ago are removed."""

BLOCK = 4096
SAMPLES = 16
"""The fingerprint of a summarised file: SAMPLES blocks of BLOCK bytes spread over it."""

_RANGES: Mapping[str, tuple[int, int | None]] = {
    "winner": (UNFINISHED, 1),
    "first": (0, 1),
    "points": (0, MAX_POINTS),
    "pairing": (-1, None),
    "game_number": (-1, None),
    "match_game": (0, None),
    "line": (1, None),
}
"""The values a summary's number columns may hold (text columns: their tables' numbers)."""

_NONE_ALLOWED = {"reason", "tournament"}
"""Text columns where -1 stands for none."""


@dataclass(frozen=True)
class Summaries:
    """The summaries of record files in `folder`."""

    folder: Path
    min_bytes: int = MIN_BYTES

    def read(self, path: Path, read: Reader) -> GameRows:
        """The games of `path`: from its summary while the file is unchanged, from its
        summary and what was appended since when it only grew, else read by `read` (whose
        errors pass through); summarised anew unless it was unchanged."""
        try:
            before = path.stat()
        except OSError:
            return read(path)  # which says what is wrong with the path
        if not stat.S_ISREG(before.st_mode) or before.st_size < self.min_bytes:
            return read(path)
        key = _key(path, before)
        entry = self.folder / (key[:40].decode() + ".npz")
        kept = _load(entry, key, path)
        tail = None
        if kept is None:
            rows = read(path)
        else:
            rows, tail = kept
            if tail is None:
                _touch(entry)
                return rows
            rows.extend(read(path, tail))
        try:
            unchanged = _key(path, path.stat()) == key
        except OSError:
            unchanged = False
        if unchanged and not rows.huge:
            self._store(entry, key, rows, _prefix(path, before.st_size, len(rows), tail))
        return rows

    def _store(
        self, entry: Path, key: bytes, rows: GameRows, prefix: dict[str, Any] | None
    ) -> None:
        """Write the summary through a temporary file renamed into place, so that a reader
        finds the old summary or the new one, never half of one; then keep the `KEEP` used
        last."""
        temporary: str | None = None
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            handle, temporary = tempfile.mkstemp(dir=self.folder, suffix=".tmp")
            with os.fdopen(handle, "wb") as file:
                arrays: dict[str, Any] = _arrays(rows)  # numpy's stubs: not allow_pickle
                np.savez(
                    file,
                    key=np.frombuffer(key, dtype=np.uint8),
                    prefix=np.frombuffer(json.dumps(prefix).encode(), dtype=np.uint8),
                    **arrays,
                )
            os.replace(temporary, entry)
            temporary = None
            _prune(self.folder)
        except OSError:
            pass  # no summary: the next run reads the file again
        finally:
            if temporary is not None:
                Path(temporary).unlink(missing_ok=True)


WHERE = 64
"""The length of the digest of the full path that starts a key."""


def _key(path: Path, status: os.stat_result) -> bytes:
    """What a summary is kept under: a digest of the full path first (`WHERE` characters,
    the first 40 name the summary's file), then as JSON the file's identity on disk, the
    summary format and referee's version."""
    where = hashlib.sha256(os.fsencode(path.resolve())).hexdigest()
    identity = {
        "size": status.st_size,
        "modified": status.st_mtime_ns,
        "changed": status.st_ctime_ns,
        "inode": status.st_ino,
        "device": status.st_dev,
        "format": FORMAT,
        "referee": _version(),
    }
    return (where + json.dumps(identity, sort_keys=True)).encode()


@functools.cache
def _version() -> str:
    """referee's version and a digest of the code that decides what a summary holds, so
    that a summary made by other code (another release, or a changed source tree, which
    keeps its version) is not taken."""
    try:
        version = metadata.version("referee")
    except metadata.PackageNotFoundError:  # run from a source tree without installing
        version = "unknown"
    digest = hashlib.sha256()
    for module in _READERS:
        # Found without importing them: a run that reads only summaries never loads the
        # record readers (a tenth of a second).
        spec = importlib.util.find_spec(module)
        with contextlib.suppress(OSError, TypeError):
            digest.update(Path(str(spec.origin if spec else None)).read_bytes())
    return f"{version} {digest.hexdigest()[:16]}"


_READERS = (
    "referee.ratings.results",
    "referee.ratings.summaries",
    "referee.records.scan",
    "referee.records.model",
)
"""The modules that decide what a summary holds."""


def _arrays(rows: GameRows) -> dict[str, np.ndarray]:
    """A summary's arrays: each column in the smallest integer type that holds it, and
    the text tables (but the file's name, which is the one given when it is read) as JSON."""
    arrays: dict[str, np.ndarray] = {}
    for field in FIELDS:
        if field == "file":
            continue
        column = rows.column(field)
        low, high = value_range(column)
        kind = next(
            kind
            for kind in (np.int8, np.int16, np.int32, np.int64)
            if np.iinfo(kind).min <= low and high <= np.iinfo(kind).max
        )
        arrays[field] = column.astype(kind)
    texts = {name: list(getattr(rows, name)) for name in set(TEXTS.values()) - {"files"}}
    arrays["texts"] = np.frombuffer(json.dumps(texts).encode(), dtype=np.uint8)
    return arrays


def _load(entry: Path, key: bytes, path: Path) -> tuple[GameRows, Tail | None] | None:
    """The rows of the summary in `entry` of the file at `path`: with None when it is kept
    under `key` (the file as it is now), with the `Tail` to read when the file only grew
    since; None when there is no such summary or it is not a whole, sound summary."""
    try:
        with np.load(entry, allow_pickle=False) as summary:
            kept = summary["key"].tobytes()
            tail = None
            if kept != key:
                tail = _grown(path, kept, key, json.loads(summary["prefix"].tobytes()))
                if tail is None:
                    return None
            texts = json.loads(summary["texts"].tobytes())
            columns = {field: summary[field] for field in FIELDS if field != "file"}
    except Exception:  # none, or one damaged in any way (zip, CRC, array, JSON): read the file
        return None
    rows = _rows(texts, columns, str(path))
    if rows is None or (tail is not None and len(rows) != tail.records):
        return None
    return rows, tail


def _grown(path: Path, kept: bytes, key: bytes, prefix: Any) -> Tail | None:
    """Where to read on from when the file kept under `kept` (with `prefix`, what `_prefix`
    found) has only grown into the file kept under `key` (the module's docstring says how
    this is judged); else None. Raises what a damaged summary or the file's reading raises."""
    if not prefix or kept[:WHERE] != key[:WHERE]:
        return None
    was, now = json.loads(kept[WHERE:]), json.loads(key[WHERE:])
    same = all(was[name] == now[name] for name in ("inode", "device", "format", "referee"))
    if not (same and was["size"] < now["size"]):
        return None
    with path.open("rb") as file:
        fingerprint, _ = _fingerprint(file, was["size"])
    if fingerprint != prefix["fingerprint"]:
        return None
    return Tail(was["size"], prefix["lines"], prefix["records"])


def _fingerprint(file: IO[bytes], size: int) -> tuple[str, bool]:
    """A digest of the first `size` bytes of `file`: of the size and `SAMPLES` blocks spread
    over them, the first and the last included; and whether they end a line."""
    digest = hashlib.sha256(str(size).encode())
    block = b""
    for start in sorted({i * max(size - BLOCK, 0) // (SAMPLES - 1) for i in range(SAMPLES)}):
        file.seek(start)
        block = file.read(min(BLOCK, size - start))
        digest.update(block)
    return digest.hexdigest(), block.endswith(b"\n")


def _prefix(path: Path, size: int, records: int, tail: Tail | None) -> dict[str, Any] | None:
    """What lets a later run read only what is appended to the file, its first `size` bytes
    holding `records` records (of which `tail` was read last, if the rest came from a
    summary): the lines they end, their fingerprint; None when the file is not read line
    by line, or its last line is not ended (being written), or it cannot be read."""
    if not appendable(path):
        return None
    start, lines = (0, 0) if tail is None else (tail.start, tail.lines)
    try:
        with path.open("rb") as file:
            fingerprint, ended = _fingerprint(file, size)
            file.seek(start)
            while start < size:  # the lines are counted only where they were not before
                chunk = file.read(min(1 << 20, size - start))
                if not chunk:
                    return None
                lines += chunk.count(b"\n")
                start += len(chunk)
    except OSError:
        return None
    if not ended:
        return None
    return {"lines": lines, "records": records, "fingerprint": fingerprint}


def _rows(texts: object, columns: dict[str, np.ndarray], name: str) -> GameRows | None:
    """The rows of a summary's text tables and columns, once each holds what it should."""
    rows = GameRows()
    tables = set(TEXTS.values()) - {"files"}
    if not isinstance(texts, dict) or set(texts) != tables:
        return None
    for table in tables:
        listed = texts[table]
        if not isinstance(listed, list) or not all(isinstance(text, str) for text in listed):
            return None
        numbers = Numbers((text, number) for number, text in enumerate(listed))
        if len(numbers) != len(listed):
            return None
        setattr(rows, table, numbers)
    rows.files = Numbers({name: 0})
    sizes = {column.shape for column in columns.values()}
    if len(sizes) != 1 or len(next(iter(sizes))) != 1:
        return None
    (size,) = next(iter(sizes))
    for field, column in columns.items():
        if column.dtype.kind != "i":
            return None
        if field in TEXTS:
            low, high = -1 if field in _NONE_ALLOWED else 0, len(texts[TEXTS[field]]) - 1
        else:
            low, given = _RANGES[field]
            high = np.iinfo(np.int64).max if given is None else given
        if size and (int(column.min()) < low or int(column.max()) > high):
            return None
    rows.given = {field: column.astype(np.int64) for field, column in columns.items()}
    rows.given["file"] = np.zeros(size, dtype=np.int64)  # every game: file 0, the one read
    return rows


def _touch(entry: Path) -> None:
    """Mark a summary as used now (what `_prune` keeps by)."""
    with contextlib.suppress(OSError):
        os.utime(entry)


def _prune(folder: Path) -> None:
    """Remove all but the `KEEP` summaries used last, and what a run stopped while writing
    one left behind an hour ago or more."""
    kept: list[tuple[float, Path]] = []
    for entry in folder.glob("*.npz"):
        try:
            kept.append((entry.stat().st_mtime, entry))
        except OSError:
            continue
    for left in folder.glob("*.tmp"):
        with contextlib.suppress(OSError):
            if time.time() - left.stat().st_mtime > 3600:
                left.unlink()
    kept.sort(reverse=True)
    for _, entry in kept[KEEP:]:
        entry.unlink(missing_ok=True)
