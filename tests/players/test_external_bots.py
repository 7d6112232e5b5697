"""External bots: each way a program can misbehave ends its game as a forfeit with the reason,
the tournament goes on, and the healthy games are all stored (issue 7, docs/bot-protocol.md)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from referee.tournament.config import BotEntry, build_config
from referee.tournament.runner import run_tournament
from tests.players.helpers import BOTS
from tests.tournament.helpers import stored_records

ROOT = Path(__file__).parents[2]


def bad_bot(mode: str) -> BotEntry:
    return BotEntry(
        name=mode,
        command=[sys.executable, str(BOTS / "misbehave.py"), mode],
        startup_time=1.0,
        max_line=100_000,
    )


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
    # keep_going: a bot that never answers its hello would otherwise stop the run at once.
    summary = run_tournament(tmp_path, config, concurrency=2, keep_going=True)
    records = stored_records(tmp_path)
    assert summary.played == len(records) == 4
    for record in records:
        bad_seat = [p.name for p in record.players].index(mode)
        result = record.result
        assert result is not None and result.winner == 1 - bad_seat
        assert result.reason.value == reason
        assert detail in (result.detail or "")
        if mode != "mute":  # the program's last stderr line ends the detail (issue 15)
            assert (result.detail or "").endswith("; stderr: move 3")
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
    records = stored_records(tmp_path)
    assert len(records) == 4
    assert all(r.result is not None and r.result.reason.value == "rules" for r in records)


def test_a_trax_bot_speaking_the_contest_protocol_plays_a_tournament(tmp_path: Path) -> None:
    """Issue 7: `-W`/`-B`, then one move in Trax notation per line each way."""
    contest = BotEntry(
        name="contest",
        command=[sys.executable, str(ROOT / "examples" / "bots" / "trax_contest_bot.py")],
        protocol="trax",
    )
    config = build_config(
        game="trax",
        bots=[
            BotEntry(name="random", spec="random"),
            BotEntry(name="greedy", spec="greedy"),
            contest,
        ],
        games_per_pair=4,
        time_limit=5.0,
    )
    run_tournament(tmp_path, config, concurrency=2)
    records = stored_records(tmp_path)
    assert len(records) == 12
    with_contest = [r for r in records if "contest" in [p.name for p in r.players]]
    assert len(with_contest) == 8
    for record in with_contest:
        assert record.result is not None
        assert record.result.reason.value in ("rules", "adjudicated"), record.result
    seats = {[p.name for p in r.players].index("contest") for r in with_contest}
    assert seats == {0, 1}  # it played White (-W) and Black (-B)
