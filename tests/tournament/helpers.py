"""What the tournament tests compare: the stored games, as records or as they would be in any
run."""

from __future__ import annotations

import json
from pathlib import Path

from referee.records.io import iter_jsonl
from referee.records.model import Record
from referee.tournament.store import GAMES_FILE


def stored_records(directory: Path) -> list[Record]:
    """The games of `directory`'s games.jsonl in file order; a line that is no record (a
    write cut short by a kill) is skipped."""
    path = directory / GAMES_FILE
    if not path.exists():
        return []
    with path.open("rb") as stream:
        return [loaded.record for loaded in iter_jsonl(stream) if loaded.record]


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
