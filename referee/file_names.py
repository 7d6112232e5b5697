"""File names made from names a user chose (a bot's, a player's, an event's): safe on every
system, bounded, and as unique as the names (imports nothing of referee)."""

from __future__ import annotations

import hashlib
import re

SAFE = re.compile(r"[A-Za-z0-9_-][A-Za-z0-9._-]*")
"""A name kept as it is: ASCII letters, digits, `_`, `-` and `.`, not first (no hidden file,
no `.` or `..`)."""
_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")
LONGEST = 100
"""Characters of the longest name kept as it is: with a suffix or an extension a file name
stays far below the 255 bytes systems allow."""
READABLE = 64
"""Characters of a changed name kept, in front of its hash."""


def file_stem(name: str) -> str:
    """`name` itself when it is SAFE and at most LONGEST characters long; else its safe ASCII
    characters (at most READABLE of them, others each run a `_`) and a hash of the whole name,
    so that two names never share a file: `bot/../x` is `bot_.._x-cbc2dfd739`, a name of no
    ASCII letter or digit only the hash."""
    if len(name) <= LONGEST and SAFE.fullmatch(name):
        return name
    digest = hashlib.blake2b(name.encode("utf-8", "surrogatepass"), digest_size=5).hexdigest()
    readable = _UNSAFE.sub("_", name).strip("._-")[:READABLE].rstrip("._-")
    return f"{readable}-{digest}" if readable else digest
