"""The one way referee names the formats it writes (and reads): record files, rating tables,
result exports, statistics.

A format is one `OutputFormat` entry in its kind's `Registry`: its name (what `--format` and
`--to` take), its file extensions, its place in detection by content, and where its code is.
The code is named, `module:attribute`, and imported when the format is first used, so that
the command line offers every name without loading a writer (pandas, a game's engine:
tests/cli/test_startup.py). Imports nothing of referee.
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Iterator
from typing import Any, Generic, NamedTuple, TypeVar, cast

T = TypeVar("T")


# A named tuple, not a frozen dataclass: the command line builds its choices from these at
# start-up, and a dataclass's generated methods cost it most of a millisecond more.
class OutputFormat(NamedTuple, Generic[T]):
    name: str
    code: str
    """`module:attribute`: what the format's kind uses (a record format's class, a writer)."""
    extensions: tuple[str, ...] = ()
    """Lower-case, with the dot; a file with one of them is taken to be in this format."""
    detect: int | None = None
    """The place in detection by content, lowest tried first; None: never found by content."""
    folder: bool = False
    """Written as a folder of files, one per match (`.mat`), when the target is a folder or
    has no extension."""

    def load(self) -> T:
        return cast(T, _attribute(self.code))


@functools.cache
def _attribute(code: str) -> Any:
    module, _, attribute = code.partition(":")
    return getattr(importlib.import_module(module), attribute)


class Registry(Generic[T]):
    """The formats of one kind, listed in the order they were added (the order the command
    line shows them in), detected in the order of their `detect` places."""

    def __init__(self, *formats: OutputFormat[T]) -> None:
        self._formats: dict[str, OutputFormat[T]] = {}
        for entry in formats:
            self.add(entry)

    def add(self, entry: OutputFormat[T]) -> None:
        """Register a format; a name, an extension or a detection place taken already is a
        mistake of the program (ValueError): which format wins is never left to chance."""
        for other in self._formats.values():
            if other.name == entry.name:
                raise ValueError(f"format {entry.name!r} is registered already")
            if set(other.extensions) & set(entry.extensions):
                raise ValueError(f"{entry.name} and {other.name} share an extension")
            if entry.detect is not None and other.detect == entry.detect:
                raise ValueError(f"{entry.name} and {other.name} share a detection place")
        self._formats[entry.name] = entry

    def __iter__(self) -> Iterator[OutputFormat[T]]:
        return iter(self._formats.values())

    def names(self) -> tuple[str, ...]:
        return tuple(self._formats)

    def get(self, name: str) -> OutputFormat[T] | None:
        return self._formats.get(name)

    def named(self, name: str) -> OutputFormat[T]:
        """The format of that name; ValueError, listing the names, for another."""
        entry = self._formats.get(name)
        if entry is None:
            raise ValueError(f"unknown format {name!r} (known: {', '.join(self._formats)})")
        return entry

    def for_suffix(self, suffix: str) -> OutputFormat[T] | None:
        """The format of a file name's suffix (`.JSONL` as `.jsonl`), or None."""
        suffix = suffix.lower()
        return next((entry for entry in self if suffix in entry.extensions), None)

    def detection_order(self) -> tuple[OutputFormat[T], ...]:
        """The formats found by content, in the order their sniffs are tried."""
        found = [entry for entry in self if entry.detect is not None]
        return tuple(sorted(found, key=lambda entry: cast(int, entry.detect)))
