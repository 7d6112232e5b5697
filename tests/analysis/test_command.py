"""`referee analyse` as a user runs it: the JSON objects other tools read, the analysis file,
CSV, Markdown and the terminal's table of 80 columns, several jobs, and bad input told in one
line."""

from __future__ import annotations

import csv
import io
import json
import shutil
from pathlib import Path

import jsonschema
import pytest

from referee.analysis.formats import ANALYSIS_OUTPUTS
from referee.analysis.stored import read_analysis_file
from referee.records.io import record_to_json
from referee.schemas import schemas
from tests.analysis.helpers import PLAYERS, record
from tests.cli.commands import SAMPLES, THAX, one_error_line, referee

FIELDS = {"file", "game_number", "players", "result", "adjusted", "seats"}
SEAT_FIELDS = {"decisions", "error_total", "error_rate", "blunders", "luck"}


def lines(out: bytes) -> list[dict]:
    return [json.loads(line) for line in out.decode().splitlines()]


def test_json_gives_each_games_summary_and_turns() -> None:
    out = referee("analyse", str(THAX), "--format", "json")
    assert out.returncode == 0, out.stderr
    games = lines(out.stdout)
    assert [game["game_number"] for game in games] == [1, 2, 3]
    for game in games:
        assert set(game) >= FIELDS and game["file"] == str(THAX)
        assert game["engine"] == "exact" and game["key"]["tournament"].startswith("thax-")
        assert len(game["players"]) == 2 and sorted(game["result"]) == [0.0, 1.0]
        seats = game["seats"]
        assert all(set(seat) == SEAT_FIELDS for seat in seats)
        for seat in (0, 1):
            expected = game["result"][seat] - seats[seat]["luck"] + seats[1 - seat]["luck"]
            assert game["adjusted"][seat] == pytest.approx(expected, abs=1e-12)
            own = [turn for turn in game["turns"] if turn["seat"] == seat]
            luck = sum(turn["luck"] for turn in own)
            if game["opening"]["seat"] == seat:
                luck += game["opening"]["luck"]
            assert seats[seat]["luck"] == pytest.approx(luck, abs=1e-12)
            assert seats[seat]["decisions"] == sum(turn["choices"] > 1 for turn in own)
            assert seats[seat]["error_total"] == pytest.approx(sum(t["error"] for t in own))
        assert all("best" in turn for turn in game["turns"] if turn["error"] > 0)


def test_every_line_follows_the_published_schema_and_reads_back(tmp_path: Path) -> None:
    schema = schemas()["analysis.schema.json"]
    out = referee("analyse", str(THAX), str(SAMPLES / "takhteh.jsonl"), "--format", "json")
    assert out.returncode == 0, out.stderr
    printed = lines(out.stdout)
    for game in printed:
        jsonschema.validate(game, schema)
    (tmp_path / "a.jsonl").write_bytes(out.stdout)
    back = list(read_analysis_file(tmp_path / "a.jsonl"))
    assert [game.adjusted for game in back] == [game["adjusted"] for game in printed]
    assert [game.game_key for game in back] == [
        tuple(game["key"].values()) if game["key"] else None for game in printed
    ]


def test_the_analysis_file_holds_what_json_prints_and_the_records_stay(tmp_path: Path) -> None:
    source = tmp_path / "games.jsonl"
    shutil.copy(THAX, source)
    before = source.read_bytes()
    out = referee("analyse", str(source), "--format", "json", "--out", str(tmp_path / "a.jsonl"))
    assert out.returncode == 0, out.stderr
    assert (tmp_path / "a.jsonl").read_bytes() == out.stdout
    assert source.read_bytes() == before
    refused = referee("analyse", str(source), "--out", str(source))
    one_error_line(refused, "records are never written")
    assert source.read_bytes() == before


def test_csv_has_a_row_per_game_and_seat() -> None:
    out = referee("analyse", str(THAX), "--format", "csv")
    rows = list(csv.DictReader(io.StringIO(out.stdout.decode())))
    assert [(row["game_number"], row["seat"]) for row in rows] == [
        (str(game), str(seat)) for game in (1, 2, 3) for seat in (0, 1)
    ]
    games = lines(referee("analyse", str(THAX), "--format", "json").stdout)
    for row in rows:
        seat = games[int(row["game_number"]) - 1]["seats"][int(row["seat"])]
        assert float(row["luck"]) == seat["luck"] and int(row["blunders"]) == seat["blunders"]


def test_markdown_and_the_table_show_games_players_and_the_largest_errors() -> None:
    markdown = referee("analyse", str(THAX), "--format", "markdown").stdout.decode()
    assert "| file | reference | game | player |" in markdown
    assert "## Players" in markdown and "## Largest errors" in markdown
    table = referee("analyse", str(THAX)).stdout.decode()
    assert "players" in table.splitlines() and "largest errors" in table.splitlines()


@pytest.mark.parametrize("name", ANALYSIS_OUTPUTS.names())
def test_every_registered_format_names_every_player(name: str) -> None:
    out = referee("analyse", str(SAMPLES / "takhteh.jsonl"), "--format", name)
    assert out.returncode == 0, out.stderr
    assert b"random" in out.stdout and b"greedy" in out.stdout


def test_the_table_fits_80_columns_whatever_the_names(tmp_path: Path) -> None:
    long = "a player whose name goes on and on =cmd|' \x1b[31m"
    game = record("thax", [{"seat": 0, "roll": [3, 1], "move": "P4"}], opening_rolls=[[5, 2]])
    game = game.model_copy(
        update={"players": [PLAYERS[0].model_copy(update={"name": long}), PLAYERS[1]]}
    )
    (tmp_path / "long.jsonl").write_text(record_to_json(game) + "\n")
    out = referee("analyse", str(tmp_path / "long.jsonl"), env={"COLUMNS": "80"})
    assert out.returncode == 0, out.stderr
    text = out.stdout.decode()
    assert "\x1b" not in text and "a player whose …" in text
    assert max(len(line) for line in text.splitlines() if "long.jsonl" not in line) <= 80


def test_several_jobs_give_what_one_gives(tmp_path: Path) -> None:
    files = [str(THAX), str(SAMPLES / "thax.json"), str(SAMPLES / "takhteh.jsonl")]
    one = referee("analyse", *files, "--format", "json")
    two = referee("analyse", *files, "--format", "json", "--jobs", "2")
    assert one.returncode == two.returncode == 0, two.stderr
    assert one.stdout == two.stdout
    assert {game["file"] for game in lines(one.stdout)} == set(files)


def test_standard_input_is_read() -> None:
    out = referee("analyse", "-", "--format", "json", stdin=THAX.read_bytes())
    assert [game["file"] for game in lines(out.stdout)] == ["<stdin>"] * 3


@pytest.mark.parametrize(
    ("content", "words"),
    [
        (b"", ["empty.jsonl", "the file holds no game"]),
        (b"hello\n", ["empty.jsonl:1: game 1"]),
        (None, ["empty.jsonl:2: game 2, turn 1", "[thax.must-move]"]),
    ],
)
def test_a_game_that_cannot_be_analysed_stops_the_run_in_one_line(
    tmp_path: Path, content: bytes | None, words: list[str]
) -> None:
    if content is None:
        good = record("thax", [{"seat": 0, "roll": [3, 1], "move": "P4"}], opening_rolls=[[5, 2]])
        bad = record("thax", [{"seat": 0, "roll": [3, 1], "move": "-"}], opening_rolls=[[5, 2]])
        content = f"{record_to_json(good)}\n{record_to_json(bad)}\n".encode()
    (tmp_path / "empty.jsonl").write_bytes(content)
    out = referee("analyse", str(tmp_path / "empty.jsonl"), "--out", str(tmp_path / "a.jsonl"))
    one_error_line(out, *words)
    assert not (tmp_path / "a.jsonl").exists()


def test_a_reference_the_game_does_not_have_is_refused() -> None:
    one_error_line(
        referee("analyse", str(THAX), "--engine", "search:depth=2"),
        "THAX has no reference 'search'",
    )
    one_error_line(referee("analyse", str(THAX), "--engine", "exact:depth=2"), "no option 'depth'")
    one_error_line(referee("analyse", str(THAX), "--jobs", "0"), "--jobs")
