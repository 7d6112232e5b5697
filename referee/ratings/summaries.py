"""Summaries of the record files `referee ratings` reads: a big file is read once, not at
every run.

Reading a million records takes seconds however fast each line is skimmed, and a club rates
the same archive again and again. Once a big file is read, the numbers its tables are built
from (`results.GameRows`, some twenty bytes a game) are kept as a summary in a cache folder,
under the file's full path and its identity on disk: size, modification and change times,
inode and device. Any write to the file gives it a new change time (which, unlike the
modification time, no program can set back), so a summary is used only while its file is
exactly as it was read; otherwise the file is read again and a new summary replaces the old.
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
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Any

import numpy as np

from referee.ratings.results import (
    FIELDS,
    MAX_POINTS,
    TEXTS,
    UNFINISHED,
    GameRows,
    Numbers,
    value_range,
)

FORMAT = 1
"""The layout of a summary; a new layout takes a new number, so that old summaries are
passed over."""

MIN_BYTES = 8 << 20
"""The smallest file given a summary."""

KEEP = 64
"""Summaries kept in the folder; the ones used longest ago are removed."""

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

    def read(self, path: Path, read: Callable[[Path], GameRows]) -> GameRows:
        """The games of `path`: from its summary while the file is unchanged, else read by
        `read` (whose errors pass through) and summarised."""
        try:
            before = path.stat()
        except OSError:
            return read(path)  # which says what is wrong with the path
        if not stat.S_ISREG(before.st_mode) or before.st_size < self.min_bytes:
            return read(path)
        key = _key(path, before)
        entry = self.folder / (key[:40].decode() + ".npz")
        kept = _load(entry, key, str(path))
        if kept is not None:
            _touch(entry)
            return kept
        rows = read(path)
        try:
            unchanged = _key(path, path.stat()) == key
        except OSError:
            unchanged = False
        if unchanged and not rows.huge:
            self._store(entry, key, rows)
        return rows

    def _store(self, entry: Path, key: bytes, rows: GameRows) -> None:
        """Write the summary through a temporary file renamed into place, so that a reader
        finds the old summary or the new one, never half of one; then keep the `KEEP` used
        last."""
        temporary: str | None = None
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            handle, temporary = tempfile.mkstemp(dir=self.folder, suffix=".tmp")
            with os.fdopen(handle, "wb") as file:
                arrays: dict[str, Any] = _arrays(rows)  # numpy's stubs: not allow_pickle
                np.savez(file, key=np.frombuffer(key, dtype=np.uint8), **arrays)
            os.replace(temporary, entry)
            temporary = None
            _prune(self.folder)
        except OSError:
            pass  # no summary: the next run reads the file again
        finally:
            if temporary is not None:
                Path(temporary).unlink(missing_ok=True)


def _key(path: Path, status: os.stat_result) -> bytes:
    """What a summary is kept under: a digest of the full path first (its first 40
    characters name the summary's file), then the file's identity on disk, the summary
    format and referee's version."""
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


def _load(entry: Path, key: bytes, name: str) -> GameRows | None:
    """The rows of a summary kept under `key`, for the file named `name`; None when there is
    none, or it is kept under another key, or it is not a whole, sound summary."""
    try:
        with np.load(entry, allow_pickle=False) as summary:
            if summary["key"].tobytes() != key:
                return None
            texts = json.loads(summary["texts"].tobytes())
            columns = {field: summary[field] for field in FIELDS if field != "file"}
    except Exception:  # none, or one damaged in any way (zip, CRC, array, JSON): read the file
        return None
    return _rows(texts, columns, name)


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
