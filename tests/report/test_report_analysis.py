"""The report with an analysis: games matched to their analyses, and the figures it shows
against those computed here from the analysis file."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec
import pytest
from typer.testing import CliRunner

from referee.analysis.stored import AnalysisFileError, StoredAnalysis, read_analysis_file
from referee.analysis.summary import BLUNDER
from referee.cli.app import app
from referee.path_names import ANALYSIS_FILE
from referee.records.io import record_to_json
from referee.records.keys import game_key
from referee.report.build import collect
from referee.report.page import build_report
from tests.report.test_report_build import data_of, records_of, tables_of, unpack

runner = CliRunner()
MakeTournament = Callable[..., Path]

BOTS = (("greedy", "greedy"), ("random", "random"))


def analyse(paths: list[Path], out: Path) -> list[StoredAnalysis]:
    """`referee analyse PATHS --out OUT`, and what it wrote."""
    result = runner.invoke(app, ["analyse", *map(str, paths), "--out", str(out)])
    assert result.exit_code == 0, result.output
    return list(read_analysis_file(out))


@pytest.fixture
def takhteh(tmp_path: Path, make_tournament: MakeTournament) -> tuple[Path, Path]:
    """A Takhteh tournament of greedy and random (4 games) and its analysis file."""
    directory = make_tournament(tmp_path / "t", game="takhteh", games_per_pair=4, bots=BOTS)
    out = tmp_path / "analysis.out.jsonl"
    analyse([directory], out)
    return directory, out


def write_lines(path: Path, analyses: list[StoredAnalysis]) -> Path:
    path.write_bytes(b"".join(json_line(stored) for stored in analyses))
    return path


def json_line(stored: StoredAnalysis) -> bytes:
    return msgspec.json.encode(stored) + b"\n"


def expected_seats(stored: StoredAnalysis) -> list[list[object]]:
    net = stored.seats[0].luck - stored.seats[1].luck
    return [
        [
            None if seat.error_rate is None else round(seat.error_rate, 4),
            seat.blunders,
            round(sign * net, 4),
        ]
        for seat, sign in zip(stored.seats, (1, -1), strict=True)
    ]


def test_games_are_matched_to_their_analyses_by_tournament_key(
    tmp_path: Path, takhteh: tuple[Path, Path]
) -> None:
    directory, out = takhteh
    records = records_of(directory / "games.jsonl")
    analyses = list(read_analysis_file(out))
    # In another order, and without the second game: it shows no analysis.
    kept = [analyses[3], analyses[0], analyses[2]]
    shuffled = write_lines(tmp_path / "shuffled.jsonl", kept)
    data = data_of(build_report([directory], analyses=[shuffled]))
    assert data["analysed"] is True
    by_key = {stored.game_key: stored for stored in kept}
    for game, record in zip(data["games"], records, strict=True):
        stored = by_key.get(game_key(record))
        if stored is None:
            assert "analysis" not in game and "analysis" not in unpack(game["pack"])
            continue
        assert game["analysis"] == expected_seats(stored)
        figures = unpack(game["pack"])["analysis"]
        assert figures["engine"] == "tdnet:depth=0" and figures["blunder"] == BLUNDER
        assert len(figures["turns"]) == len(record.turns)
        for (error, best, luck, value), turn in zip(figures["turns"], stored.turns, strict=True):
            assert error == (round(turn.error, 4) if turn.choices > 1 else None)
            assert best == turn.best
            assert luck == (None if turn.luck is None else round(turn.luck, 4))
            assert turn.value is not None
            seat_zero = turn.value if turn.seat == 0 else 1 - turn.value
            assert value == round(seat_zero, 4)
        assert stored.opening is not None
        assert figures["opening"] == [stored.opening.seat, round(stored.opening.luck, 4)]
    assert sum("analysis" in game for game in data["games"]) == 3


def test_a_tournament_folders_own_analysis_is_read_and_given_files_win(
    tmp_path: Path, takhteh: tuple[Path, Path]
) -> None:
    directory, out = takhteh
    shutil.copy(out, directory / ANALYSIS_FILE)
    report = collect([directory])
    assert all(row.analysis is not None for row in report.games)
    assert report.facts[-1] == (
        f"Analysis of 4 of 4 games (reference tdnet:depth=0) from {directory / ANALYSIS_FILE}."
    )
    # A file given later holds another analysis of the first game: the report shows it.
    first = next(read_analysis_file(out))
    seats = [
        msgspec_replace(first.seats[0], blunders=first.seats[0].blunders + 7),
        first.seats[1],
    ]
    again = write_lines(tmp_path / "again.jsonl", [msgspec_replace(first, seats=seats)])
    report = collect([directory], analyses=[again])
    assert report.games[0].analysis is not None
    assert report.games[0].analysis[0][1] == first.seats[0].blunders + 7
    assert report.games[1].analysis is not None


def msgspec_replace(struct: Any, **changes: Any) -> Any:
    return msgspec.structs.replace(struct, **changes)


def test_a_report_without_analysis_shows_none(tmp_path: Path, takhteh: tuple[Path, Path]) -> None:
    directory, _ = takhteh
    page = build_report([directory])
    data = data_of(page)
    assert data["analysed"] is False
    assert all("analysis" not in game for game in data["games"])
    assert tables_of(page)[0][0][-1] == "forfeits"
    assert not any(fact.startswith("Analysis") for fact in collect([directory]).facts)


def test_games_without_a_key_are_matched_by_file_and_number(
    tmp_path: Path, takhteh: tuple[Path, Path]
) -> None:
    directory, _ = takhteh
    lines = []
    for record in records_of(directory / "games.jsonl"):
        data = json.loads(record_to_json(record))
        data["event"] = {}
        lines.append(json.dumps(data) + "\n")
    games = tmp_path / "keyless.jsonl"
    games.write_text("".join(lines))
    stored = analyse([games], tmp_path / "keyless-analysis.jsonl")
    assert all(analysis.game_key is None for analysis in stored)
    report = collect([games], analyses=[tmp_path / "keyless-analysis.jsonl"])
    assert [row.analysis for row in report.games] == [expected_seats(s) for s in stored]
    # The same games in another file are other games: no analysis.
    other = tmp_path / "copy.jsonl"
    shutil.copy(games, other)
    report = collect([other], analyses=[tmp_path / "keyless-analysis.jsonl"])
    assert all(row.analysis is None for row in report.games)


def test_standings_show_each_bots_error_rate_blunders_and_luck(
    tmp_path: Path, takhteh: tuple[Path, Path]
) -> None:
    directory, out = takhteh
    analyses = list(read_analysis_file(out))
    page = build_report([directory], analyses=[out, out])  # a file twice counts once
    header, *rows = tables_of(page)[0]
    assert header[-3:] == ["error/move", "blunders", "luck/game"]
    shown = {row[1]: row[-3:] for row in rows}
    for name in ("greedy", "random"):
        seats = [
            stored.seats[stored.players.index(name)]
            for stored in analyses
            if name in stored.players
        ]
        decisions = sum(seat.decisions for seat in seats)
        error = sum(seat.error_total for seat in seats)
        luck = sum(seat.luck for seat in seats) / len(seats)
        assert len(seats) == 4
        assert shown[name] == [
            f"{error / decisions:.4f}",
            str(sum(seat.blunders for seat in seats)),
            f"{luck:+.3f}",
        ]
    # random errs more than greedy against the network.
    assert float(shown["random"][0]) > float(shown["greedy"][0])


def test_bad_analysis_files_are_one_line_errors(tmp_path: Path, takhteh: tuple[Path, Path]) -> None:
    directory, out = takhteh
    report = tmp_path / "r.html"

    def run(analysis: Path) -> str:
        result = runner.invoke(
            app, ["report", str(directory), "--analysis", str(analysis), "-o", str(report)]
        )
        assert result.exit_code == 2, result.output
        assert not report.exists()
        lines = result.output.strip().splitlines()
        assert len(lines) == 1, result.output
        return lines[0]

    missing = run(tmp_path / "nowhere.jsonl")
    assert missing.startswith(f"referee: error: {tmp_path / 'nowhere.jsonl'}: cannot read")
    broken = tmp_path / "broken.jsonl"
    broken.write_text(out.read_text().splitlines()[0] + "\n{not json\n")
    assert run(broken).startswith(f"referee: error: {broken}:2: not a game's analysis")
    # An analysis of the same tournament game with other players: made before a change.
    first = next(read_analysis_file(out))
    other = write_lines(tmp_path / "other.jsonl", [msgspec_replace(first, players=["ann", "bob"])])
    line = run(other)
    assert line.startswith(f"referee: error: {other}: its analysis of game ")
    assert "is of another game" in line
    with pytest.raises(AnalysisFileError):
        collect([directory], analyses=[other])
    # The folder's own file is read too.
    (directory / ANALYSIS_FILE).write_text("[]\n")
    folder = runner.invoke(app, ["report", str(directory), "-o", str(report)])
    assert folder.exit_code == 2
    assert f"{directory / ANALYSIS_FILE}:1: not a game's analysis" in folder.output


def test_the_report_command_reads_given_analyses(
    tmp_path: Path, takhteh: tuple[Path, Path]
) -> None:
    directory, out = takhteh
    report = tmp_path / "r.html"
    result = runner.invoke(
        app, ["report", str(directory), "--analysis", str(out), "-o", str(report)]
    )
    assert result.exit_code == 0, result.output
    data = data_of(report.read_text())
    assert all("analysis" in game for game in data["games"])
