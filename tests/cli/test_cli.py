"""The command line: the demo (the README's first command), engine tools, ratings output."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from referee.cli.app import app
from referee.schemas import render, schemas

runner = CliRunner()


def test_demo_runs_validates_and_ends_in_a_rating_table(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, ["demo", "--out", "demo"])
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "0 invalid" in out
    assert "Elo" in out and "thax-perfect" in out
    assert (tmp_path / "demo" / "thax" / "games.jsonl").exists()
    # The games in the order the README introduces them, in every list the demo prints.
    order = ["thax", "takhteh", "trax", "thai"]
    lines = out.splitlines()
    assert [line.partition(":")[0] for line in lines if line.endswith(("greedy, thax-perfect",
        "greedy, tdnet", "greedy, threat", "greedy, search"))] == order  # fmt: skip
    rows = [line.split()[1] for line in lines if line.startswith("│")]
    assert rows == order
    titles = [line.split("/")[0] for line in lines if line.rstrip().endswith("/standard")]
    assert titles == order
    # It ends with what to try next, commands that run as printed.
    commands = [line.strip() for line in lines if line.startswith("  referee ")]
    assert len(commands) >= 3 and lines[-1].strip() == commands[-1]
    for command in commands:
        words = command.split()[1:]
        assert runner.invoke(app, words).exit_code == 0, command
    assert (tmp_path / "trax.html").exists()


def test_ratings_formats_and_plot(tmp_path: Path) -> None:
    out = tmp_path / "t"
    run = ["tournament", "run", "--game", "thax", "--bots", "random,greedy", "--out", str(out)]
    assert runner.invoke(app, [*run, "--games-per-pair", "20", "-q"]).exit_code == 0
    csv = runner.invoke(app, ["ratings", str(out), "--format", "csv"])
    assert csv.exit_code == 0 and csv.output.splitlines()[0].startswith("game,")
    data = json.loads(runner.invoke(app, ["ratings", str(out), "--format", "json"]).output)
    assert data
    plot = tmp_path / "r.png"
    result = runner.invoke(app, ["ratings", str(out), "--plot", str(plot), "--format", "markdown"])
    assert result.exit_code == 0 and plot.stat().st_size > 0
    missing = runner.invoke(app, ["ratings", str(tmp_path / "nowhere")])
    assert missing.exit_code == 2 and "nowhere" in missing.output


def test_moves_from_a_record_turn_with_a_roll(tmp_path: Path) -> None:
    out = tmp_path / "t"
    run = ["tournament", "run", "--game", "thax", "--bots", "random,greedy", "--out", str(out)]
    assert runner.invoke(app, [*run, "--games-per-pair", "2", "-q"]).exit_code == 0
    record = str(out / "games.jsonl")
    result = runner.invoke(app, ["moves", "--record", record, "--turn", "0", "--roll", "35"])
    assert result.exit_code == 0
    assert set(result.output.split("\n")) - {""} == {"P3 P5"}  # the empty board, 3-5
    # Without --roll, the roll is the one the record holds for the next turn.
    first = json.loads((out / "games.jsonl").read_text().splitlines()[0])["turns"][0]
    recorded = runner.invoke(app, ["moves", "--record", record, "--turn", "0"])
    assert recorded.exit_code == 0, recorded.output
    assert first["move"] in recorded.output.split("\n")
    rolled = "".join(str(die) for die in first["roll"])
    explicit = runner.invoke(app, ["moves", "--record", record, "--turn", "0", "--roll", rolled])
    assert recorded.output == explicit.output


def test_perft_prints_each_depth() -> None:
    result = runner.invoke(app, ["perft", "--game", "thax", "--depth", "2"])
    assert result.exit_code == 0
    assert result.output.splitlines()[0] == "1\t54"


def test_bots_lists_every_bot_with_options() -> None:
    result = runner.invoke(app, ["bots", "--game", "thax"])
    assert result.exit_code == 0
    for name in ("random", "greedy", "thax-perfect"):
        assert name in result.output


def test_schema_command_writes_the_checked_in_schemas(tmp_path: Path) -> None:
    result = runner.invoke(app, ["schema", "--out", str(tmp_path)])
    assert result.exit_code == 0
    for name, schema in schemas().items():
        assert (tmp_path / name).read_text() == render(schema)


def test_convert_round_trip_and_bad_game_left_out(tmp_path: Path) -> None:
    out = tmp_path / "t"
    run = ["tournament", "run", "--game", "thax", "--bots", "random,greedy", "--out", str(out)]
    assert runner.invoke(app, [*run, "--games-per-pair", "4", "-q"]).exit_code == 0
    lines = (out / "games.jsonl").read_text().splitlines()
    broken = json.loads(lines[1])
    broken["turns"][0]["move"] = "R5"
    source = tmp_path / "in.jsonl"
    source.write_text("\n".join([lines[0], json.dumps(broken), *lines[2:]]) + "\n")
    result = runner.invoke(app, ["convert", str(source), str(tmp_path / "out.json")])
    assert result.exit_code == 1 and "game 2" in result.output
    converted = json.loads((tmp_path / "out.json").read_text())
    assert len(converted) == 3


def test_thai_perft_from_the_english_12_man_start_prints_179740_at_depth_7() -> None:
    """Issue 4: `referee perft --game thai --depth 7 --fen ...` prints 179,740."""
    fen = "B:W1,2,3,4,5,6,7,8,9,10,11,12:B21,22,23,24,25,26,27,28,29,30,31,32"
    result = runner.invoke(app, ["perft", "--game", "thai", "--depth", "7", "--fen", fen])
    assert result.exit_code == 0
    lines = result.output.splitlines()
    assert lines[6] == "7\t179740"
    assert lines[0] == "1\t7"


def test_thai_moves_prints_captures_in_full_notation() -> None:
    result = runner.invoke(app, ["moves", "--game", "thai", "--fen", "B:W9,K18:B14,22"])
    assert result.exit_code == 0
    assert result.output.split() == ["14x5", "22x15"]


def test_trax_perft_depth_4_and_moves_of_a_token_list() -> None:
    """Issue 3: perft from the empty board (depth 5, 246,888, is in tests/games/trax as slow)."""
    result = runner.invoke(app, ["perft", "--game", "trax", "--depth", "4"])
    assert result.exit_code == 0
    assert [line.split("\t")[1] for line in result.output.splitlines()[:4]] == [
        "2",
        "24",
        "432",
        "9568",
    ]
    moves = runner.invoke(
        app, ["moves", "--game", "trax", "--moves", "@0+ B1/ C1/ A2/ A3+ A4/ B4+ C4/"]
    )
    assert moves.exit_code == 0
    assert "C3+" in moves.output.split() and "C3/" not in moves.output.split()
