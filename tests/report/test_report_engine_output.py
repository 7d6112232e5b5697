"""The viewer's data carries what bots said about their moves and their clocks (issue 15)."""

from __future__ import annotations

import base64
import json
import zlib
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from referee.records.formats import format_named
from referee.records.model import Player, ThaiRecord, Turn
from referee.report.page import build_report
from referee.tournament.config import BotEntry, build_config
from referee.tournament.runner import run_tournament
from tests.tournament.helpers import stored_records


def viewer_turns(page: str) -> list[list]:
    """The first game's turns as the page's script unpacks them."""
    start = page.index('id="report-data">') + len('id="report-data">')
    data = json.loads(page[start : page.index("</script>", start)])
    packed = base64.b64decode(data["games"][0]["pack"])
    return json.loads(zlib.decompress(packed))["turns"]


def test_the_viewer_shows_score_depth_nodes_and_clock_of_each_turn(tmp_path: Path) -> None:
    bots = [BotEntry(name="search", spec="search:depth=2"), BotEntry(name="g", spec="greedy")]
    config = build_config(game="thai", bots=bots, games_per_pair=2, tc="60+1", turn_cap=12)
    run_tournament(tmp_path, config, executor_factory=lambda: ThreadPoolExecutor(1))
    record = stored_records(tmp_path)[0]
    turns = viewer_turns(build_report([tmp_path]))
    assert len(turns) == len(record.turns) == 12
    searched = 0
    for shown, turn in zip(turns, record.turns, strict=True):
        assert shown[:3] == [turn.seat, "", turn.move]
        score, note = shown[3:]
        assert turn.clock_ms is not None and turn.time_ms is not None
        assert f"{turn.clock_ms // 1000}.{turn.clock_ms % 1000:03d} s left on the clock" in note
        if turn.score is not None:
            searched += 1
            assert score == f"{turn.score:+d}/{turn.depth}" and f"{turn.nodes:,} nodes" in note
        else:
            assert score == "" and "nodes" not in note
    assert searched >= 3


def test_a_turn_without_engine_output_or_clock_stays_three_fields(tmp_path: Path) -> None:
    turns = [
        Turn(seat=0, move="22-18", time_ms=5),
        Turn(seat=1, move="11-15", score=0.25, pv=["18x11", "8x15"]),
    ]
    players = [Player(name="b"), Player(name="w")]
    record = ThaiRecord(game="thai", ruleset="thai/standard@1", players=players, turns=turns)
    path = tmp_path / "g.json"
    json_format = format_named("json")
    assert json_format is not None
    with path.open("w") as out:
        json_format.write([record], out)
    shown = viewer_turns(build_report([path]))
    assert shown == [[0, "", "22-18"], [1, "", "11-15", "+0.25", "score +0.25; expects 18x11 8x15"]]
