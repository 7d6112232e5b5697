"""The games a worker replays through the validator (`--verify`): one that fails is told at its
place in games.jsonl, however many games earlier runs stored before it."""

from __future__ import annotations

import json
import re
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from referee.tournament import worker
from referee.tournament.config import bot_entries, build_config
from referee.tournament.runner import run_tournament

BAD_MOVE = "Z0?"
"""No Trax move: what a fault of the referee's own game loop might have written."""


def test_a_resumed_run_names_a_game_failing_its_check_by_its_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = build_config(
        game="trax", bots=bot_entries(["random", "random"], []), games_per_pair=8, seed="1"
    )
    one_by_one = lambda: ThreadPoolExecutor(1)  # noqa: E731
    run_tournament(tmp_path, config, executor_factory=one_by_one, verify="none")
    games = tmp_path / "games.jsonl"
    games.write_bytes(b"".join(games.read_bytes().splitlines(keepends=True)[:3]))

    compact = worker.compact

    def faulty(data: dict[str, Any], number: int, check: bool) -> worker.PlayedGame:
        data["turns"][0]["move"] = BAD_MOVE
        return compact(data, number, check)

    monkeypatch.setattr(worker, "compact", faulty)
    summary = run_tournament(tmp_path, executor_factory=one_by_one, verify="all")

    lines = games.read_text().splitlines()
    faulty_lines = [
        number
        for number, line in enumerate(lines, 1)
        if json.loads(line)["turns"][0]["move"] == BAD_MOVE
    ]
    assert faulty_lines == [4, 5, 6, 7, 8]  # the three lines kept, then the games played again
    named = []
    for message in summary.invalid:
        place = re.match(rf"{re.escape(str(games))}:(\d+), game (\d+),", message)
        assert place is not None, message
        assert place[1] == place[2]  # no blank line: the n-th line holds the n-th game
        named.append(int(place[1]))
    assert sorted(named) == faulty_lines
