"""Writing a file whole or not at all."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO


@contextmanager
def write_atomically(path: Path) -> Iterator[IO[bytes]]:
    """A stream that becomes `path` once the block ends without an error: written to a hidden
    temporary file in the same folder (a rename within a file system is atomic), synced, then
    renamed over `path` and the folder synced, so that a crash at any moment leaves the old
    file or the new one, never a part. On an error the temporary file is removed."""
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with temporary.open("wb") as stream:
            yield stream
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temporary, path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
    folder = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(folder)
    finally:
        os.close(folder)
