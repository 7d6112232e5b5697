"""The report builder: standings, games list, forfeits, the viewer's data and its boards."""

from __future__ import annotations

import base64
import json
import re
import zlib
from collections.abc import Callable
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from referee.cli.app import app
from referee.games.base import State
from referee.games.thax import GAME as THAX
from referee.games.thax import ThaxGame
from referee.records.io import iter_jsonl, record_to_json
from referee.records.model import Record
from referee.records.replay import final_state, replay, start_state
from referee.report.boards import BoardEncoder, inline_svg
from referee.report.build import collect
from referee.report.page import build_report

runner = CliRunner()
MakeTournament = Callable[..., Path]


class _Tables(HTMLParser):
    """The text of each cell of each table of a page, row by row."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: list[list[list[str]]] = []
        self._cell: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "table":
            self.tables.append([])
        elif tag == "tr":
            self.tables[-1].append([])
        elif tag in ("td", "th"):
            self._cell = []

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th") and self._cell is not None:
            self.tables[-1][-1].append("".join(self._cell).strip())
            self._cell = None

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)


def tables_of(page: str) -> list[list[list[str]]]:
    parser = _Tables()
    parser.feed(page)
    return parser.tables


def data_of(page: str) -> dict[str, Any]:
    match = re.search(r'<script type="application/json" id="report-data">(.*?)</script>', page)
    assert match is not None
    return json.loads(match.group(1))


def unpack(text: str) -> Any:
    """What the page's script does with a packed value: base64, inflate, JSON."""
    return json.loads(zlib.decompress(base64.b64decode(text)))


def boards_of(tokens: str, packed: str) -> list[str]:
    """Each position's SVG, joined from its tokens as the page's script joins them."""
    words = unpack(tokens)
    return ["<".join(words[n] for n in position) for position in unpack(packed)["positions"]]


def records_of(path: Path) -> list[Record]:
    with path.open("rb") as stream:
        return [loaded.record for loaded in iter_jsonl(stream) if loaded.record is not None]


def positions_of(record: Record) -> list[State]:
    return [start_state(record)] + [step.after for step in replay(record)]


def boards_drawn(record: Record) -> list[str]:
    """The start's board, then each position's with the move that led to it marked."""
    steps = list(replay(record))
    return [THAX.render_svg(start_state(record))] + [
        THAX.render_svg(step.after, step.before) for step in steps
    ]


def test_standings_and_crosstable_are_those_of_the_ratings(
    tmp_path: Path, make_tournament: MakeTournament
) -> None:
    directory = make_tournament(tmp_path / "t", games_per_pair=6)
    page = build_report([directory])
    standings, crosstable = tables_of(page)[:2]
    header, *rows = standings
    assert header[:3] == ["#", "bot", "games"]
    assert sorted(row[1] for row in rows) == ["random-a", "random-b"]
    assert [row[2] for row in rows] == ["6", "6"]
    wins = {row[1]: int(row[3]) for row in rows}
    losses = {row[1]: int(row[5]) for row in rows}
    assert wins["random-a"] == losses["random-b"] and sum(wins.values()) == 6
    assert crosstable[0] == ["", rows[0][1], rows[1][1]]
    assert "<h2>Rating plot</h2>" in page and "data:image/svg+xml;base64," in page
    assert "No game was lost by a forfeit." in page


def test_games_list_data_follows_the_file(tmp_path: Path, make_tournament: MakeTournament) -> None:
    directory = make_tournament(tmp_path / "t")
    records = records_of(directory / "games.jsonl")
    data = data_of(build_report([directory]))
    assert data["files"] == [str(directory / "games.jsonl")]
    assert len(data["games"]) == len(records) == 4
    for number, (game, record) in enumerate(zip(data["games"], records, strict=True), 1):
        assert game["label"] == str(number) and game["number"] == number
        assert game["players"] == [player.name for player in record.players]
        assert game["ruleset"] == "thax/standard@1"
        assert record.result is not None
        assert game["result"] == {0: "1-0", 1: "0-1"}[record.result.winner]
        assert game["reason"] == "rules" and game["detail"] == record.result.detail
        assert game["turns"] == len(record.turns) and "error" not in game
        assert unpack(game["pack"])["turns"] == [
            [turn.seat, f"{turn.roll[0]}-{turn.roll[1]}", turn.move] for turn in record.turns
        ]


def test_viewer_boards_are_the_engine_svg_of_every_position(
    tmp_path: Path, make_tournament: MakeTournament
) -> None:
    directory = make_tournament(tmp_path / "t")
    records = records_of(directory / "games.jsonl")
    report = collect([directory])
    for packed, record in zip(report.packs, records, strict=True):
        # Each board after the start marks the move that led to it, played in `step.before`.
        steps = list(replay(record))
        expected = boards_drawn(record)
        assert boards_of(report.tokens, packed) == expected
        assert 'class="last-move"' not in expected[0]
        for board, step in zip(expected[1:], steps, strict=True):
            assert 'class="dice"' in board
            # A pass (or 6-6 on an empty side) changes nothing, and marks nothing.
            changed = step.before.sides != step.after.sides
            assert ('class="last-move' in board) == changed
            assert step.before.roll is not None
            assert f"dice {step.before.roll[0]}-{step.before.roll[1]}" in board
    # A THAX board is drawn from fewer than three hundred distinct pieces.
    assert len(unpack(report.tokens)) < 300


def test_a_record_that_stops_replaying_keeps_its_first_positions(
    tmp_path: Path, make_tournament: MakeTournament
) -> None:
    directory = make_tournament(tmp_path / "t", games_per_pair=2)
    record = records_of(directory / "games.jsonl")[0]
    data = json.loads(record_to_json(record))
    data["turns"][2]["move"] = "P9"  # no such number on a THAX board
    broken = tmp_path / "broken.jsonl"
    broken.write_text(json.dumps(data) + "\n")
    report = collect([broken])
    error = report.errors[0]
    assert error is not None and error.startswith("the record stops replaying at turn 3")
    boards = boards_of(report.tokens, report.packs[0])
    assert boards == boards_drawn(record)[:3]
    assert len(unpack(report.packs[0])["turns"]) == report.games[0].turns == len(record.turns)


def test_forfeits_are_listed_with_the_player_who_lost(
    tmp_path: Path, make_tournament: MakeTournament
) -> None:
    directory = make_tournament(tmp_path / "t", games_per_pair=2)
    records = [
        json.loads(record_to_json(record)) for record in records_of(directory / "games.jsonl")
    ]
    lost = {"winner": 0, "points": 1, "reason": "time", "detail": "no answer in 1s"}
    records[1]["result"] = lost
    file = tmp_path / "forfeit.jsonl"
    file.write_text("".join(json.dumps(record) + "\n" for record in records))
    page = build_report([file])
    forfeits = next(table for table in tables_of(page) if table[0][:2] == ["game", "lost by"])
    names = [player["name"] for player in records[1]["players"]]
    assert forfeits[1:] == [["2", names[1], "time", "no answer in 1s", " – ".join(names)]]


def test_names_cannot_break_out_of_the_page(
    tmp_path: Path, make_tournament: MakeTournament
) -> None:
    name = "</script><script>alert(1)</script>"
    directory = make_tournament(
        tmp_path / "t", games_per_pair=2, bots=((name, "random"), ("b", "random"))
    )
    page = build_report([directory])
    assert "<script>alert(1)" not in page
    assert name in data_of(page)["games"][0]["players"]


def test_positions_met_again_are_drawn_once_and_prologs_dropped() -> None:
    drawn: list[int] = []

    class Counted(ThaxGame):
        """Draws a number n as n distinct pieces after an XML declaration, and counts."""

        def render_svg(self, state: Any, before: Any = None) -> str:
            drawn.append(state)
            cells = "".join(f'<text x="{n}">{n}</text>' for n in range(state))
            return f'<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg">{cells}</svg>'

    game = Counted()
    encoder = BoardEncoder()
    # A board is a position with the move that led to it: the third board of the first game
    # is position 3 after a move from 300, not the start again, so it is drawn anew.
    first = encoder.pack_game(game, [3, 300, 3], [3, 300], [])
    second = encoder.pack_game(game, [3, 300, 2], [3, 300], [])
    tokens = encoder.pack_tokens()
    assert drawn == [3, 300, 3, 2]
    svg = {n: inline_svg(game.render_svg(n)) for n in (2, 3, 300)}
    assert boards_of(tokens, first) == [svg[3], svg[300], svg[3]]
    assert boards_of(tokens, second) == [svg[3], svg[300], svg[2]]
    assert svg[3].startswith("<svg ")
    # A game that no engine here can replay keeps its moves, without boards.
    turns = [[0, "", "@0+"]]
    assert unpack(encoder.pack_game(None, [], [], turns)) == {"turns": turns, "positions": []}


def test_report_command_writes_the_page(tmp_path: Path, make_tournament: MakeTournament) -> None:
    directory = make_tournament(tmp_path / "t", games_per_pair=2)
    out = tmp_path / "report.html"
    result = runner.invoke(app, ["report", str(directory), "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert f"wrote {out}" in result.output
    assert out.read_text().startswith("<!DOCTYPE html>")
    missing = runner.invoke(app, ["report", str(tmp_path / "nowhere"), "-o", str(out)])
    assert missing.exit_code == 2 and "nowhere" in missing.output


def test_show_prints_a_position_and_writes_its_svg(
    tmp_path: Path, make_tournament: MakeTournament
) -> None:
    directory = make_tournament(tmp_path / "t", games_per_pair=2)
    file = directory / "games.jsonl"
    record = records_of(file)[1]
    after_three = positions_of(record)[3]
    svg = tmp_path / "board.svg"
    args = ["show", str(file), "--game-number", "2", "--turn", "3", "--svg", str(svg)]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert result.output == THAX.render_text(after_three) + "\n"
    assert svg.read_text() == THAX.render_svg(after_three)
    last = runner.invoke(app, ["show", str(file), "--game-number", "2"])
    assert last.output == THAX.render_text(final_state(record)) + "\n"
    assert "has won" in last.output


def test_show_refuses_a_turn_or_game_the_file_does_not_have(
    tmp_path: Path, make_tournament: MakeTournament
) -> None:
    directory = make_tournament(tmp_path / "t", games_per_pair=2)
    file = str(directory / "games.jsonl")
    too_far = runner.invoke(app, ["show", file, "--turn", "9999"])
    assert too_far.exit_code == 2 and "turns, not 9999" in too_far.output
    no_game = runner.invoke(app, ["show", file, "--game-number", "7"])
    games = len((directory / "games.jsonl").read_text().splitlines())
    assert no_game.exit_code == 2
    assert f"game 7 not found: the file has {games} games" in no_game.output
