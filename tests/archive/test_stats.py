"""`referee stats`: every figure against one computed here from the records, and the first
mover's edge in THAX under perfect play inside the interval."""

from __future__ import annotations

import json
import math
import tempfile
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.archive.choices import STATS_OUTPUTS
from referee.records.model import Record, Result
from referee.tournament.config import BotEntry, build_config
from referee.tournament.runner import run_tournament
from tests.archive.helpers import archives, pool, select, stats
from tests.cli.commands import one_error_line, referee
from tests.records.helpers import write_jsonl

SOLVED_FIRST_MOVER = 0.5182474968634
"""The first player's chance under perfect play (docs/thax.md)."""


def _wilson(wins: int, games: int) -> tuple[float, float]:
    """The textbook Wilson interval of a proportion, z = 1.96."""
    z = 1.959963984540054
    p = wins / games
    middle = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z / (1 + z * z / games) * math.sqrt(p * (1 - p) / games + z * z / (4 * games**2))
    return middle - half, middle + half


def _stats(games: list[Record], *options: str) -> dict:
    folder = Path(tempfile.mkdtemp(prefix="referee-stats-test-"))
    write_jsonl(folder / "in.jsonl", games)
    result = stats(str(folder / "in.jsonl"), "--format", "json", *options)
    assert result.exit_code == 0, result.output
    return {(group["game"], group["variant"]): group for group in json.loads(result.stdout)}


def _points(record: Record, seat: int) -> float:
    assert record.result is not None
    winner = record.result.winner
    return 0.5 if winner is None else float(winner == seat)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(archives(min_size=1, max_size=10), st.integers(1, 3))
def test_every_figure_agrees_with_the_records(games: list[Record], plies: int) -> None:
    groups = _stats(games, "--plies", str(plies), "--openings", "100")
    keys = {(r.game, r.ruleset.split("/")[1].split("@")[0]) for r in games}
    assert set(groups) == keys
    for key, group in groups.items():
        ours = [r for r in games if (r.game, r.ruleset.split("/")[1].split("@")[0]) == key]
        done = [r for r in ours if r.result is not None]
        assert group["games"] == len(ours)
        assert group["unfinished"] == len(ours) - len(done)
        assert group["results"] == {
            "seat0": sum(r.result.winner == 0 for r in done),
            "seat1": sum(r.result.winner == 1 for r in done),
            "draws": sum(r.result.winner is None for r in done),
        }
        assert group["reasons"] == dict(Counter(r.result.reason.value for r in done))
        moved = [r for r in done if r.turns]
        first = [_points(r, r.turns[0].seat) for r in moved]
        mover = group["first_mover"]
        assert mover["games"] == len(first)
        assert mover["wins"] == first.count(1.0) and mover["draws"] == first.count(0.5)
        if first:
            assert mover["score"] == pytest.approx(sum(first) / len(first))
            assert mover["low"] <= mover["score"] <= mover["high"]
            if 0.5 not in first:
                low, high = _wilson(first.count(1.0), len(first))
                assert (mover["low"], mover["high"]) == pytest.approx((low, high))
        lengths = [len(r.turns) for r in ours]
        turns = group["turns"]
        q1, median, q3 = np.percentile(lengths, [25, 50, 75])
        assert (turns["q1"], turns["median"], turns["q3"]) == pytest.approx((q1, median, q3))
        assert (turns["min"], turns["max"]) == (min(lengths), max(lengths))
        assert sum(games for _, _, games in turns["histogram"]) == len(ours)
        for low, high, count in turns["histogram"]:
            assert count == sum(low <= n <= high for n in lengths)
        openings: Counter[tuple[str, ...]] = Counter()
        seat0: Counter[tuple[str, ...]] = Counter()
        for r in done:
            if len(r.turns) >= plies:
                opening = tuple(
                    (tuple(sorted(t.roll, reverse=True)) if t.roll else (), t.move)
                    for t in r.turns[:plies]
                )
                openings[opening] += 1
                seat0[opening] += _points(r, 0)
        shown = {tuple(_plies(o["moves"])): o for o in group["openings"]}
        assert {k: o["games"] for k, o in shown.items()} == dict(openings)
        for opening, entry in shown.items():
            assert entry["seat0_score"] == pytest.approx(seat0[opening] / openings[opening])
        players: dict[str, list[float]] = {}
        for r in done:
            for seat, player in enumerate(r.players):
                players.setdefault(player.name, []).append(_points(r, seat))
        assert {p["name"]: p["games"] for p in group["players"]} == {
            name: len(scores) for name, scores in players.items()
        }
        for p in group["players"]:
            assert p["score"] == pytest.approx(sum(players[p["name"]]) / p["games"])


def _plies(text: str) -> list[tuple[tuple[int, ...], str]]:
    """(roll, move) of each ply of an opening as stats writes it (dice: `31: 8/5 6/5; ...`)."""
    if ": " in text:
        plies = [ply.split(": ", 1) for ply in text.split("; ")]
        return [(tuple(int(d) for d in roll), move) for roll, move in plies]
    return [((), move) for move in text.split(" ")]


def _scored(record: Record, points: float) -> Record:
    """The record with a result that gives its first mover `points`."""
    first = record.turns[0].seat
    winner = None if points == 0.5 else (first if points == 1 else 1 - first)
    return record.model_copy(
        update={"result": Result(winner=winner, points=0 if winner is None else 1, reason="rules")}
    )


def test_draws_narrow_the_interval_of_an_even_score() -> None:
    base = pool()[0]
    decisive = _stats([_scored(base, p) for p in [1.0] * 5 + [0.0] * 5])
    drawn = _stats([_scored(base, p) for p in [1.0] * 4 + [0.0] * 4 + [0.5] * 2])
    plain, narrow = (next(iter(g.values()))["first_mover"] for g in (decisive, drawn))
    assert plain["score"] == narrow["score"] == 0.5
    assert (plain["low"], plain["high"]) == pytest.approx(_wilson(5, 10))
    assert plain["low"] < narrow["low"] < 0.5 < narrow["high"] < plain["high"]


def test_text_markdown_csv_and_plot(tmp_path: Path) -> None:
    lines = write_jsonl(tmp_path / "in.jsonl", list(pool()))
    assert lines
    text = stats(str(tmp_path / "in.jsonl"))
    assert text.exit_code == 0 and "first mover" in text.stdout and "turns |" in text.stdout
    markdown = stats(str(tmp_path / "in.jsonl"), "--format", "markdown")
    assert "| seat 0 wins | seat 1 wins | draws |" in markdown.stdout
    table = stats(str(tmp_path / "in.jsonl"), "--format", "csv").stdout.splitlines()
    assert table[0] == "game,variant,section,name,value"
    assert all(len(row.split(",")) >= 5 for row in table)
    plot = tmp_path / "turns.png"
    assert stats(str(tmp_path / "in.jsonl"), "--plot", str(plot)).exit_code == 0
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    missing = stats(str(tmp_path / "nowhere.jsonl"))
    assert (
        missing.exit_code == 2 and "nowhere" in missing.output and "Traceback" not in missing.output
    )


@pytest.mark.parametrize("name", STATS_OUTPUTS.names())
def test_every_registered_output_writes(tmp_path: Path, name: str) -> None:
    """Each format of the registry is a choice of `stats --format`, names every game, and is
    written to a file as it is shown."""
    write_jsonl(tmp_path / "in.jsonl", list(pool()))
    shown = stats(str(tmp_path / "in.jsonl"), "--format", name)
    assert shown.exit_code == 0, shown.output
    for game in {record.game for record in pool()}:
        assert game in shown.stdout
    out = tmp_path / "out"
    assert stats(str(tmp_path / "in.jsonl"), "--format", name, "-o", str(out)).exit_code == 0
    assert out.read_text(encoding="utf-8") == shown.stdout


def _perfect_self_play(folder: Path, games: int) -> Path:
    """A tournament of the perfect THAX bot against itself, one game of each pair kept: in a
    pair both games roll the same dice for each seat, so the same bot plays the same game
    twice but for the ties it breaks by its seed (which follows the bot's name)."""
    config = build_config(
        game="thax",
        bots=[
            BotEntry(name="perfect-a", spec="thax-perfect"),
            BotEntry(name="perfect-b", spec="thax-perfect"),
        ],
        games_per_pair=games,
        seed="first-mover",
    )
    run_tournament(folder / "t", config, concurrency=2)
    kept = folder / "seat0.jsonl"
    result = select(str(folder / "t"), "--seat0", "perfect-a", "-o", str(kept))
    assert result.exit_code == 0, result.output
    assert f"kept {games // 2}" in result.output
    return kept


def _first_mover(path: Path) -> dict:
    result = stats(str(path), "--format", "json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)[0]["first_mover"]


def test_perfect_thax_self_play_first_mover_interval_holds_the_solved_value(tmp_path) -> None:
    mover = _first_mover(_perfect_self_play(tmp_path, 100))
    assert mover["games"] == 50
    assert mover["low"] <= SOLVED_FIRST_MOVER <= mover["high"]


@pytest.mark.slow
def test_perfect_thax_first_mover_edge_over_ten_thousand_games(tmp_path) -> None:
    """Enough games that the interval leaves out an even game (0.5) and still holds 0.5182."""
    mover = _first_mover(_perfect_self_play(tmp_path, 20_000))
    assert mover["games"] == 10_000
    assert mover["low"] <= SOLVED_FIRST_MOVER <= mover["high"]
    assert mover["low"] > 0.5


def test_no_game_read_is_one_line_with_the_first_reason(tmp_path: Path) -> None:
    """Every game left out: the error names the first one's file, line and reason in its one
    line, and counts the others (issue 31: a line for each, then the error, before)."""
    path = tmp_path / "games.jsonl"
    path.write_bytes(b'{"format": "referee"}\n\xff\n')
    line = one_error_line(referee("stats", str(path)), f"no game read: {path}:1: game 1")
    assert line.endswith("; 1 other game too (referee validate lists them)")
    one_error_line(referee("stats", "-", stdin=b"[1]\n"), "no game read: <stdin>:1")


def test_games_left_out_are_warnings_before_the_one_error(tmp_path: Path) -> None:
    """A game left out is a warning line; a plot that cannot be written is then the one error
    line, the last (issue 31: the campaign found `left out:` lines a script could not tell
    from errors)."""
    good = (Path(__file__).parents[1] / "validator" / "samples" / "thax.jsonl").read_bytes()
    path = tmp_path / "games.jsonl"
    path.write_bytes(good.splitlines(keepends=True)[0] + b"\xff\n")
    (tmp_path / "a-folder").mkdir()
    out = referee("stats", str(path), "--plot", str(tmp_path / "a-folder"))
    assert out.returncode in (2, 4), out.stderr
    lines = out.stderr.decode(errors="replace").splitlines()
    assert lines[0].startswith(f"referee: warning: left out: {path}:2"), lines
    assert [line for line in lines if not line.startswith("referee: warning: ")] == lines[-1:]
    assert lines[-1].startswith("referee: error: ") and "a-folder" in lines[-1], lines
