"""External bots: each way a program can misbehave ends its game as a forfeit with the reason,
the tournament goes on, and the healthy games are all stored (issue 7, docs/bot-protocol.md)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from referee.records.io import iter_jsonl
from referee.tournament.config import BotEntry, build_config
from referee.tournament.runner import run_tournament

HERE = Path(__file__).parent
ROOT = HERE.parents[1]


def bad_bot(mode: str) -> BotEntry:
    return BotEntry(
        name=mode,
        command=[sys.executable, str(HERE / "bots" / "misbehave.py"), mode],
        startup_time=1.0,
        max_line=100_000,
    )


def stored(directory: Path):
    with (directory / "games.jsonl").open("rb") as stream:
        return [loaded.record for loaded in iter_jsonl(stream)]


@pytest.mark.parametrize(
    ("mode", "reason", "detail"),
    [
        ("sleep", "time", "no move within 500 ms"),
        ("late", "time", "over the limit"),
        ("exit", "crash", "exited with code 3"),
        ("garbage", "protocol_error", "not a JSON line"),
        ("illegal", "illegal_move", ""),
        ("notation", "illegal_move", "is not a move"),
        ("flood", "protocol_error", "longer than 100000 bytes"),
        ("mute", "time", "no hello"),
    ],
)
def test_a_misbehaving_bot_forfeits_with_the_reason(tmp_path: Path, mode, reason, detail) -> None:
    config = build_config(
        game="thax",
        bots=[BotEntry(name="random", spec="random"), bad_bot(mode)],
        games_per_pair=4,
        time_limit=0.5,
    )
    summary = run_tournament(tmp_path, config, concurrency=2)
    records = stored(tmp_path)
    assert summary.played == len(records) == 4
    for record in records:
        bad_seat = [p.name for p in record.players].index(mode)
        result = record.result
        assert result is not None and result.winner == 1 - bad_seat
        assert result.reason.value == reason
        assert detail in (result.detail or "")
    log = tmp_path / "logs" / f"{mode}.stderr.log"
    if mode != "mute":
        assert "move 1" in log.read_text()


def test_the_example_bot_plays_a_tournament(tmp_path: Path) -> None:
    example = BotEntry(
        name="example", command=[sys.executable, str(ROOT / "examples" / "bots" / "random_bot.py")]
    )
    config = build_config(
        game="thax", bots=[BotEntry(name="greedy", spec="greedy"), example], games_per_pair=4
    )
    run_tournament(tmp_path, config, concurrency=1)
    records = stored(tmp_path)
    assert len(records) == 4
    assert all(r.result is not None and r.result.reason.value == "rules" for r in records)
