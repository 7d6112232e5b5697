"""What the tests of bots' programs share: the test programs and a look at the processes they
leave (Linux /proc)."""

from __future__ import annotations

from pathlib import Path

BOTS = Path(__file__).parent / "bots"
"""The test programs: bots speaking docs/bot-protocol.md, each behaving as its tests need."""


def alive(pid: int) -> bool:
    """Whether a process runs (Linux /proc); a zombie (state Z) has exited."""
    status = Path(f"/proc/{pid}/stat")
    try:
        return status.read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except (FileNotFoundError, ProcessLookupError):
        return False


def children(pid: int) -> set[int]:
    """The live child processes of `pid` (Linux /proc)."""
    found = set()
    for task in Path(f"/proc/{pid}/task").glob("*/children"):
        found.update(int(child) for child in task.read_text().split())
    return found
