"""Files written whole or not at all, and the error that says one could not be written.

Every file referee writes for its user (reports, exports, ratings, conversions, schemas,
tournament.json) goes through `write_atomically`: a temporary file in the target's folder,
flushed to the disk, then renamed over the target. A full disk, a quota or a size limit
midway leaves the old file, or none, and never a truncated one; the temporary file is removed
on any failure. (games.jsonl is the exception: a tournament appends each finished game to it,
and an append that fails midway is cut back to the games before it, `CannotWrite` naming the
file; `tournament repair` appends to games.rejected and removes what it appended when it
cannot replace games.jsonl.)
"""

from __future__ import annotations

import errno
import os
import secrets
import shutil
import stat
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import IO, Any, BinaryIO, Literal, TextIO, overload

MACHINE_ERRORS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EROFS, errno.EIO})
"""The errors that say the machine cannot store more (full disk, quota, size limit, read-only
file system, a failing device), whatever was given: `CannotWrite` when writing a file."""

_REFUSED = frozenset({errno.EACCES, errno.EPERM})
"""No permission: a failure of the machine when writing, of what was given when reading."""


def machine_failure(error: OSError) -> bool:
    """Whether `error` is the machine's failure (a full disk, a size limit; no permission to
    write a file), not that of what the user gave (a file to read that is not there, an
    output path that is a folder)."""
    return error.errno in MACHINE_ERRORS or (
        isinstance(error, CannotWrite) and error.errno in _REFUSED
    )


class CannotWrite(OSError):
    """A file could not be written (or its folder made). `machine_failure` tells the machine's
    failures (a full disk, no permission) from a wrong path (a folder, a folder that is not
    there). `filename` is the file the user named, never the temporary file beside it."""

    def __str__(self) -> str:
        return f"cannot write {self.filename}: {self.strerror}"


def cannot_write(path: str | os.PathLike[str], error: OSError) -> CannotWrite:
    """`error`, met while writing `path`, as a CannotWrite naming `path`."""
    if isinstance(error, CannotWrite):
        return error
    return CannotWrite(error.errno or errno.EIO, error.strerror or str(error), os.fspath(path))


@overload
def write_atomically(
    path: str | os.PathLike[str],
    mode: Literal["w"] = "w",
    *,
    encoding: str = "utf-8",
    newline: str | None = None,
) -> AbstractContextManager[TextIO]: ...


@overload
def write_atomically(
    path: str | os.PathLike[str],
    mode: Literal["wb"],
    *,
    encoding: str = "utf-8",
    newline: str | None = None,
) -> AbstractContextManager[BinaryIO]: ...


def write_atomically(
    path: str | os.PathLike[str],
    mode: Literal["w", "wb"] = "w",
    *,
    encoding: str = "utf-8",
    newline: str | None = None,
) -> AbstractContextManager[IO[Any]]:
    """A context manager giving a file opened with `mode` (`"w"` text, `"wb"` bytes) whose
    content replaces `path` when the block ends without an error, and is thrown away when it
    raises. An OSError of the writing (opening, writing, renaming) is raised as CannotWrite
    naming `path`; one raised inside the block is, when it is a failure of the machine
    (MACHINE_ERRORS: the block's writes to the file), and is let through otherwise (the block
    may read files of its own).

    A target that exists and is not a regular file (`/dev/null`, a named pipe) cannot be
    replaced by renaming; it is written directly.
    """
    return _writing(Path(path), mode, encoding, newline)


@contextmanager
def _writing(
    path: Path, mode: Literal["w", "wb"], encoding: str, newline: str | None
) -> Iterator[IO[Any]]:
    text: dict[str, Any] = {"encoding": encoding, "newline": newline} if mode == "w" else {}
    try:
        status = path.stat()
        special, permissions = not stat.S_ISREG(status.st_mode), stat.S_IMODE(status.st_mode)
    except FileNotFoundError:
        special, permissions = False, None
    except OSError as error:
        raise cannot_write(path, error) from error
    inside = False  # whether an error comes from the caller's block
    try:
        if special:  # a folder too (`.`, an empty path), which has no name to be beside
            with path.open(mode, **text) as file:
                inside = True
                yield file
                inside = False
            return
        temporary = path.with_name(f".{path.name}.{secrets.token_hex(4)}.tmp")
        # 0o666 and O_EXCL: a new file gets the permissions of any new file (the umask), and
        # a name taken by another writer is never written over.
        descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
        try:
            if permissions is not None:  # a file replaced keeps its own (a private one stays so)
                os.fchmod(descriptor, permissions)
            with os.fdopen(descriptor, mode, **text) as file:
                inside = True
                yield file
                inside = False
                file.flush()
                os.fsync(file.fileno())
            os.replace(temporary, path)
        except BaseException:
            temporary.unlink(missing_ok=True)
            raise
        _sync_folder(path.parent)
    except OSError as error:
        # The block may read files of its own: only the machine's failures there (its writes
        # to the file) are this file's; all of the writing's own are.
        if isinstance(error, CannotWrite) or (inside and error.errno not in MACHINE_ERRORS):
            raise
        raise cannot_write(path, error) from error


def _sync_folder(folder: Path) -> None:
    """The folder's entries flushed to the disk: the rename survives a power cut too."""
    descriptor = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)


@contextmanager
def folder_atomically(path: str | os.PathLike[str]) -> Iterator[Path]:
    """A new folder beside `path`, filled by the block, that takes the place of `path` (which
    must be missing or an empty folder) when the block ends without an error, and is removed
    with all it holds when it raises: a folder of files written whole, or none.

    A machine's failure in the block is raised as CannotWrite naming the file under `path`
    (or `path` itself), never the temporary folder.
    """
    path = Path(path)
    whole = Path(os.path.abspath(path))  # `.` too has a name and a folder to be beside
    temporary = whole.with_name(f".{whole.name}.{secrets.token_hex(4)}.tmp")
    try:
        temporary.mkdir()
    except OSError as error:
        raise cannot_write(path, error) from error
    try:
        yield temporary
        os.replace(temporary, whole)  # over an empty folder too (rename(2))
    except BaseException as error:
        shutil.rmtree(temporary, ignore_errors=True)
        if not isinstance(error, OSError):
            raise
        name = os.fspath(error.filename or "")
        if name.startswith(os.fspath(temporary)):
            name = os.fspath(path) + name[len(os.fspath(temporary)) :]
        elif isinstance(error, CannotWrite) or error.errno not in MACHINE_ERRORS:
            raise
        else:
            name = os.fspath(path)
        raise CannotWrite(error.errno or errno.EIO, error.strerror or str(error), name) from error
