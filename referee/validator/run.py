"""Validating paths: files, folders (recursively) and standard input."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

from referee.validator.check import validate_file, validate_stream
from referee.validator.diagnostics import GameReport

STDIN = "-"


class UsageError(ValueError):
    """A path that does not exist: the command was given wrong, no record was judged."""


def expand_paths(paths: list[str]) -> list[str]:
    """Files in the order given, folders replaced by their files (sorted, recursively)."""
    files: list[str] = []
    for text in paths:
        if text == STDIN:
            files.append(STDIN)
            continue
        path = Path(text)
        if path.is_dir():
            files.extend(
                str(p) for p in sorted(path.rglob("*")) if p.is_file() and not _hidden(p, path)
            )
        elif path.exists():
            files.append(text)
        else:
            raise UsageError(f"{text}: no such file or folder")
    return files


def _hidden(path: Path, root: Path) -> bool:
    return any(part.startswith(".") for part in path.relative_to(root).parts)


def validate_paths(paths: list[str]) -> Iterator[GameReport]:
    for file in expand_paths(paths):
        if file == STDIN:
            yield from validate_stream(sys.stdin.buffer, "<stdin>", None)
        else:
            yield from validate_file(Path(file))
