"""What the tournament tests compare: the stored games, as they would be in any run."""

from __future__ import annotations

import json
from pathlib import Path


def stored_games(directory: Path) -> list[dict]:
    """The games of `directory`'s games.jsonl in schedule order, without what differs from
    run to run: the times and the tournament id."""
    games = []
    for line in (directory / "games.jsonl").read_text().splitlines():
        data = json.loads(line)
        data["event"].pop("tournament")
        for turn in data.get("turns", []):
            turn.pop("time_ms", None)
        games.append(data)
    return sorted(
        games, key=lambda g: (g["event"]["game_number"], g.get("match", {}).get("game", 0))
    )


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
