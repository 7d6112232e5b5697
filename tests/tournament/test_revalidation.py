"""The games a worker replays through the validator (`--verify`): one that fails is told at its
place in games.jsonl, however many games earlier runs stored before it."""

from __future__ import annotations

import json
import re
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.tournament import worker
from referee.tournament.config import bot_entries, build_config
from referee.tournament.runner import _lines_before, run_tournament

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
    first, second, third = games.read_bytes().splitlines(keepends=True)[:3]
    games.write_bytes(first + second + b"\n" + third)  # a blank line, which holds no game

    compact = worker.compact

    def faulty(
        data: dict[str, Any], number: int, check: bool, luck: str | None = None
    ) -> worker.PlayedGame:
        data["turns"][0]["move"] = BAD_MOVE
        return compact(data, number, check, luck)

    monkeypatch.setattr(worker, "compact", faulty)
    summary = run_tournament(tmp_path, executor_factory=one_by_one, verify="all")

    lines = games.read_text().splitlines()
    faulty_lines = [
        number
        for number, line in enumerate(lines, 1)
        if line and json.loads(line)["turns"][0]["move"] == BAD_MOVE
    ]
    assert faulty_lines == [5, 6, 7, 8, 9]  # the four lines kept, then the games played again
    named = []
    for message in summary.invalid:
        place = re.match(rf"{re.escape(str(games))}:(\d+), game (\d+),", message)
        assert place is not None, message
        # numbered as `referee validate` numbers them: the blank line holds no game
        assert int(place[2]) == int(place[1]) - 1
        named.append(int(place[1]))
    assert sorted(named) == faulty_lines


@given(st.lists(st.sampled_from([b"\n", b" \n", b"{}\n", b'{"a": 1}\n'])), st.data())
def test_the_lines_before_a_place_count_every_line_and_the_records_apart(
    lines: list[bytes], data: st.DataObject
) -> None:
    cut = data.draw(st.integers(0, len(lines)))
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "games.jsonl"
        path.write_bytes(b"".join(lines))
        end = len(b"".join(lines[:cut]))
        assert _lines_before(path, end) == (cut, sum(1 for line in lines[:cut] if line.strip()))
