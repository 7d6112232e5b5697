"""Validating paths: files, folders (recursively) and standard input."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path

from referee.bounds import MAX_JOBS
from referee.errors import RefereeError
from referee.path_names import STDIN, STDIN_NAME, TOURNAMENT_FILE
from referee.records.formats import RECORD_FORMATS
from referee.validator.check import validate_file, validate_stream
from referee.validator.diagnostics import GameReport


class UsageError(RefereeError, ValueError):
    """A path that does not exist: the command was given wrong, no record was judged."""

    code = "usage"


def expand_paths(paths: list[str]) -> list[str]:
    """Files in the order given, folders replaced by their files (sorted, recursively)."""
    files: list[str] = []
    for text in paths:
        if text == STDIN:
            files.append(STDIN)
            continue
        path = Path(text)
        if path.is_dir():
            files.extend(str(p) for p in sorted(_walk(path)) if _record_file(p, path))
        elif path.exists():
            files.append(text)
        else:
            raise UsageError(f"{text}: no such file or folder")
    return files


def _walk(root: Path) -> Iterator[Path]:
    """Every entry below `root` but hidden folders' (`_record_file` takes none of them),
    symbolic links to folders not followed; a folder that cannot be read is a UsageError
    naming it (pathlib's `rglob` passes over it in silence, and a command would read no game
    and say nothing)."""

    def refuse(error: OSError) -> None:
        reason = error.strerror or str(error)
        raise UsageError(f"{error.filename or root}: cannot read the folder: {reason}")

    for folder, dirs, names in os.walk(root, onerror=refuse):
        dirs[:] = [name for name in dirs if not name.startswith(".")]  # never read: not walked
        for name in (*dirs, *names):
            yield Path(folder, name)


def _record_file(path: Path, root: Path) -> bool:
    """In a folder walk: files with the extension of a record format, not hidden, and not a
    tournament's configuration (tournament.json)."""
    if any(part.startswith(".") for part in path.relative_to(root).parts):
        return False
    if not path.is_file() or path.name == TOURNAMENT_FILE:
        return False
    return RECORD_FORMATS.for_suffix(path.suffix) is not None


def _file_reports(file: str) -> list[GameReport]:
    return list(validate_file(Path(file)))


def _reports(file: str) -> Iterator[GameReport]:
    if file == STDIN:
        return validate_stream(sys.stdin.buffer, STDIN_NAME, None)
    return validate_file(Path(file))


def validate_files(files: list[str], jobs: int = 1) -> Iterator[GameReport]:
    """The reports of every game, file by file in the order given.

    With one job the games are streamed, so memory stays flat on a large file; with more,
    whole files are checked in parallel worker processes: no more than MAX_JOBS, nor than the
    files on disk (a process more would have nothing to check).
    """
    on_disk = [file for file in files if file != STDIN]
    jobs = min(jobs, len(on_disk), MAX_JOBS)
    if jobs <= 1:
        for file in files:
            yield from _reports(file)
        return
    # Imported here: a single job, the usual call, starts no process pool.
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    # Forked (Python 3.14 defaults to forkserver): workers know the games registered by a call.
    with ProcessPoolExecutor(
        max_workers=jobs, mp_context=multiprocessing.get_context("fork")
    ) as pool:
        chunk = max(1, len(on_disk) // (8 * jobs))
        parallel = pool.map(_file_reports, on_disk, chunksize=chunk)
        for file in files:
            yield from _reports(file) if file == STDIN else next(parallel)


def validate_paths(paths: list[str], jobs: int = 1) -> Iterator[GameReport]:
    return validate_files(expand_paths(paths), jobs)
