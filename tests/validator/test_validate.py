"""The validator: it names the file, game, turn, move and the rule broken; never a traceback."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from referee.cli.app import app
from referee.games.agent import RandomBot
from referee.games.thax import GAME, ThaxMove
from referee.games.thax.notation import format_move
from referee.games.thax.rules import check
from referee.records.io import record_to_dict, record_to_json
from referee.records.model import Player
from referee.records.replay import replay
from referee.tournament.play import GameSetup, play_game
from referee.validator.check import validate_record

runner = CliRunner()
PLAYERS = [Player(name="a", kind="bot"), Player(name="b", kind="bot")]


def a_game(seed: str):
    return play_game(GameSetup(GAME, GAME.ruleset(), PLAYERS, seed), [RandomBot(), RandomBot()])


def write(tmp_path: Path, data: dict, name: str = "game.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def all_moves() -> list[ThaxMove]:
    numbers = range(1, 6)
    return [
        ThaxMove(),
        *(ThaxMove(place=(n,)) for n in numbers),
        *(ThaxMove(place=p) for p in itertools.combinations_with_replacement(numbers, 2)),
        *(ThaxMove(place=(y,), take=x) for x in numbers for y in numbers),
        *(ThaxMove(remove=n) for n in numbers),
    ]


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**6), st.integers(0, 10**6), st.integers(0, 10**6))
def test_one_changed_move_is_named_with_its_turn_and_rule(seed, turn_pick, move_pick) -> None:
    """Changing one move to an illegal one: exit 1, that turn, the rule the engine names."""
    record = a_game(str(seed))
    steps = list(replay(record))
    index = turn_pick % len(steps)
    before = steps[index].before
    sides, seat, roll = before.sides, before.seat, before.roll
    illegal = [
        (move, error)
        for move in all_moves()
        if (error := check(sides[seat], sides[1 - seat], roll, move)) is not None
    ]
    move, error = illegal[move_pick % len(illegal)]
    data = record_to_dict(record)
    data["turns"][index]["move"] = format_move(move)
    report = validate_record(type(record).model_validate(data), "x.json", 1)
    assert not report.valid
    first = report.diagnostics[0]
    assert (first.turn, first.code, first.move) == (index + 1, error.rule, format_move(move))
    assert first.legal and first.position


def test_cli_names_the_turn_and_rule_and_exits_1(tmp_path: Path) -> None:
    record = a_game("3")
    data = record_to_dict(record)
    data["turns"][4]["move"] = "R5" if data["turns"][4]["roll"] != [6, 6] else "P1 P2"
    path = write(tmp_path, data)
    result = runner.invoke(app, ["validate", str(path)])
    assert result.exit_code == 1
    assert f"{path}" in result.output and "turn 5" in result.output
    assert "legal moves:" in result.output


@pytest.mark.parametrize(
    ("content", "code"),
    [
        (None, "json"),  # truncated
        ("this is not json at all\n", "json"),
        ('{"format": "referee", "version": 1, "game": "go"}', "game"),
    ],
)
def test_bad_files_give_one_line_naming_the_file(tmp_path: Path, content, code) -> None:
    if content is None:
        content = record_to_json(a_game("5"), indent=2)[:-40]
    path = tmp_path / "bad.json"
    path.write_text(content, encoding="utf-8")
    result = runner.invoke(app, ["validate", str(path)])
    assert result.exit_code == 1
    assert result.exception is None or isinstance(result.exception, SystemExit)
    lines = [line for line in result.output.splitlines() if str(path) in line]
    assert len(lines) == 1 and f"[{code}]" in lines[0]
    assert "Traceback" not in result.output


def test_missing_path_is_a_usage_error(tmp_path: Path) -> None:
    result = runner.invoke(app, ["validate", str(tmp_path / "nope.json")])
    assert result.exit_code == 2


def test_json_output_is_one_object_per_game(tmp_path: Path) -> None:
    path = tmp_path / "games.jsonl"
    path.write_text("\n".join(record_to_json(a_game(str(s))) for s in range(3)) + "\n")
    result = runner.invoke(app, ["validate", "--json", str(path)])
    assert result.exit_code == 0
    reports = [json.loads(line) for line in result.output.splitlines()]
    assert [r["game"] for r in reports] == [1, 2, 3] and all(r["valid"] for r in reports)


def _changed(record, **turn_changes):
    data = record_to_dict(record)
    for key, value in turn_changes.items():
        index, field = key.split("_", 1)
        data["turns"][int(index[1:])][field] = value
    return type(record).model_validate(data)


def test_the_wrong_player_after_a_double_is_refused() -> None:
    """Extra turns: after a non-six double the same seat rolls again."""
    record = a_game("11")
    index = next(i for i, turn in enumerate(record.turns[:-1]) if turn.roll[0] == turn.roll[1] != 6)
    data = record_to_dict(record)
    data["turns"][index + 1]["seat"] = 1 - data["turns"][index]["seat"]
    report = validate_record(type(record).model_validate(data), "x", 1)
    assert report.diagnostics[0].code == "seat" and report.diagnostics[0].turn == index + 2


def test_a_turn_after_the_end_is_refused() -> None:
    record = a_game("12")
    data = record_to_dict(record)
    data["turns"].append({**data["turns"][-1], "seat": 1 - data["turns"][-1]["seat"]})
    report = validate_record(type(record).model_validate(data), "x", 1)
    assert report.diagnostics[0].code == "after-end"


@pytest.mark.parametrize(
    ("result", "code"),
    [
        (None, "result-missing"),
        ("flip", "result-mismatch"),
        ("resign", "result-reason"),
    ],
)
def test_the_declared_result_must_match_the_replay(result, code) -> None:
    record = a_game("13")
    data = record_to_dict(record)
    if result is None:
        data.pop("result")
    elif result == "flip":
        data["result"]["winner"] = 1 - data["result"]["winner"]
    else:
        data["result"]["reason"] = "resign"
    report = validate_record(type(record).model_validate(data), "x", 1)
    assert [d.code for d in report.diagnostics] == [code]


def test_a_win_declared_before_the_end_is_refused() -> None:
    record = a_game("14")
    data = record_to_dict(record)
    data["turns"] = data["turns"][:5]
    report = validate_record(type(record).model_validate(data), "x", 1)
    assert [d.code for d in report.diagnostics] == ["result-not-over"]


def test_a_missing_roll_is_refused() -> None:
    record = a_game("15")
    data = record_to_dict(record)
    del data["turns"][3]["roll"]
    report = validate_record(type(record).model_validate(data), "x", 1)
    assert (report.diagnostics[0].code, report.diagnostics[0].turn) == ("roll-missing", 4)
