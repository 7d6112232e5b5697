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
