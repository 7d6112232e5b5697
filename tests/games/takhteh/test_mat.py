"""Jellyfish `.mat` match files: reading real backgammon files, cube actions reported as not
part of Takhteh, and export then import giving back the same moves."""

from __future__ import annotations

import io
import random
import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.games.takhteh import GAME
from referee.games.takhteh.mat import parse_mat, write_mat
from referee.records.convert import convert
from referee.records.formats import detect_format, format_named
from referee.records.formats.takhteh_mat import NAME_LENGTH, mat_name
from referee.records.model import Player, Reason, Result, TakhtehRecord
from referee.records.replay import replay
from referee.validator.check import validate_file
from tests.games.takhteh.helpers import random_game, random_match
from tests.records.helpers import write_jsonl

FIXTURE = Path(__file__).parents[2] / "fixtures/takhteh/standard-backgammon-7pt-two-games.mat"
FIXTURES = FIXTURE.parent


def test_fixture_reads_entries_columns_and_results() -> None:
    match = parse_mat(FIXTURE.read_text())
    assert match.length == 7 and match.tags == {"EventDate": "2025.11.08"}
    first, second = match.games
    assert first.players == ("charlot1", "charlot2") and second.score == (0, 2)
    opening = first.entries[0]
    assert (opening.seat, opening.line, opening.column) == (1, 7, 34)
    assert (opening.roll, opening.move) == ((4, 1), "13/9 24/23")
    assert first.entries[1].move == "6/5 8/5" and first.entries[1].seat == 0
    assert (first.winner, first.points) == (1, 2)
    assert (second.winner, second.points) == (0, 2)
    cubes = [(entry.seat, entry.cube) for entry in second.entries if entry.cube]
    assert cubes == [(1, "Doubles => 2"), (0, "Takes"), (0, "Doubles => 4"), (1, "Drops")]


def test_fixture_cube_actions_are_reported_as_not_takhteh_at_their_line() -> None:
    reports = list(validate_file(FIXTURE))
    assert [r.valid for r in reports] == [False, False]
    first, second = (r.diagnostics[0] for r in reports)
    assert (first.code, first.line) == ("takhteh.cube", 16)
    assert (second.code, second.line) == ("takhteh.cube", 42)
    assert "not part of Takhteh" in first.message and "Doubles => 2" in first.message


def test_fixture_moves_replay_until_a_takhteh_rule_differs() -> None:
    """Without its cube actions the real game is read and replayed: bar as 25, off as 0 and
    hits as `*`; it stops at the first play Takhteh forbids (a wasted pip), at its line."""
    text = FIXTURE.read_text().split(" Game 2")[0]
    text = text.replace(
        " 10) 61: 9/8 13/7                 Doubles => 2\n"
        " 11)  Takes                      64: 13/7 7/3 \n",
        " 10) 61: 9/8 13/7                 64: 13/7 7/3 \n",
    )
    (loaded,) = format_named("mat").read(io.BytesIO(text.encode()))
    assert loaded.record is not None and loaded.record.match is not None
    assert loaded.record.match.first == 1 and loaded.turn_places[0] == (7, 34)
    steps = list(replay_until_error(loaded.record))
    assert len(steps) == 30
    report = next(iter(validate_file_text(text)))
    (diagnostic,) = report.diagnostics
    assert (diagnostic.code, diagnostic.line, diagnostic.column) == ("takhteh.wasted-pips", 22, 34)


def replay_until_error(record: TakhtehRecord) -> list[object]:
    steps: list[object] = []
    try:
        for step in replay(record):
            steps.append(step)
    except Exception:
        return steps
    return steps


def validate_file_text(text: str) -> list:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "games.mat"
        path.write_text(text)
        return list(validate_file(path))


def test_a_bad_game_does_not_hide_the_next() -> None:
    text = FIXTURE.read_text().replace("  3) 31: 24/21 6/5", "  3) nonsense here")
    match = parse_mat(text)
    assert match.games[0].error is not None and match.games[0].error.line == 9
    assert match.games[1].error is None and len(match.games[1].entries) == 43


def test_detected_by_extension_and_content() -> None:
    assert detect_format(FIXTURE, b"").name == "mat"
    assert detect_format(None, FIXTURE.read_bytes()[:200]).name == "mat"


def _round_trip(records: list[TakhtehRecord]) -> list[TakhtehRecord]:
    out = io.StringIO()
    format_named("mat").write(records, out)
    loaded = list(format_named("mat").read(io.BytesIO(out.getvalue().encode())))
    assert all(item.error is None for item in loaded), [item.error for item in loaded]
    return [item.record for item in loaded]  # type: ignore[misc]


def _canonical_moves(record: TakhtehRecord) -> list[tuple[int, list[int] | None, str]]:
    return [
        (record.turns[step.turn].seat, record.turns[step.turn].roll,
         GAME.format_move(step.before, step.move))
        for step in replay(record)
    ]  # fmt: skip


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 4))
def test_export_then_import_gives_back_the_same_moves(seed: int, length: int) -> None:
    records = (
        random_match(random.Random(seed), length)
        if length > 1
        else [random_game(random.Random(seed))]
    )
    again = _round_trip(records)
    assert len(again) == len(records)
    for original, read in zip(records, again, strict=True):
        assert _canonical_moves(read) == _canonical_moves(original)
        assert read.result is not None and original.result is not None
        assert (read.result.winner, read.result.points) == (
            original.result.winner,
            original.result.points,
        )
        assert read.match is not None and read.match.length == length
        assert read.players == original.players
        assert read.result.reason == original.result.reason


@pytest.mark.parametrize(
    ("name", "turns", "winner"),
    [
        # The winner (seat 0, then seat 1) moved, then the other player resigned: GNU
        # Backgammon writes `Wins 1 point` in the winner's column, as after bearing off.
        ("gnubg-resigns-after-the-winners-move-left.mat", 11, 0),
        ("gnubg-resigns-after-the-winners-move-right.mat", 12, 1),
        # Seat 1 rolled 63, then resigned: `63:` without a move is no turn.
        ("gnubg-rolls-then-resigns.mat", 11, 0),
    ],
)
def test_a_gnubg_resignation_is_read_as_one_and_validates(
    name: str, turns: int, winner: int
) -> None:
    path = FIXTURES / name
    [loaded] = list(format_named("mat").read(io.BytesIO(path.read_bytes())))
    record = loaded.record
    assert record is not None and record.result is not None
    assert (record.result.winner, record.result.points) == (winner, 1)
    assert record.result.reason is Reason.RESIGN
    assert len(record.turns) == len(loaded.turn_places) == turns
    [report] = list(validate_file(path))
    assert report.valid, report.diagnostics


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 2**32 - 1), st.floats(0, 1), st.integers(0, 1))
def test_a_resignation_at_any_turn_reads_back_as_one(seed: int, where: float, winner: int) -> None:
    whole = random_game(random.Random(seed))
    cut = int(where * (len(whole.turns) - 1))
    # Either player gives up after `cut` turns, whoever moved last.
    record = whole.model_copy(
        update={
            "turns": whole.turns[:cut],
            "result": Result(winner=winner, points=1, reason=Reason.RESIGN),
        }
    )
    [again] = _round_trip([record])
    assert again.result is not None and again.result.reason is Reason.RESIGN
    assert _canonical_moves(again) == _canonical_moves(record)


def test_written_layout_matches_gnubg() -> None:
    match = parse_mat(FIXTURE.read_text())
    text = write_mat(match)
    assert "  1)                             41: 13/9 24/23\n" in text
    assert " 11)  Takes                      64: 13/7 7/3\n" in text
    assert "\n                                  Wins 2 points\n" in text
    assert parse_mat(text).games[1].entries == [
        entry.__class__(**{**entry_fields(entry), "line": entry.line})
        for entry in parse_mat(text).games[1].entries
    ]


def entry_fields(entry: object) -> dict:
    return {name: getattr(entry, name) for name in entry.__slots__}  # type: ignore[attr-defined]


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=400))
def test_reader_never_raises_on_any_text(text: str) -> None:
    """Bad input becomes errors on the games it spoils, never an exception."""
    match = parse_mat(text)
    assert match.games or match.error is not None
    for loaded in format_named("mat").read(io.BytesIO(text.encode())):
        assert (loaded.record is None) != (loaded.error is None)


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(0, 60), st.sampled_from(["x", "99: 1/2", "Wins"]))
def test_reader_survives_damaged_real_files(seed: int, line: int, junk: str) -> None:
    lines = FIXTURE.read_text().splitlines()
    lines.insert(min(line, len(lines)), junk)
    loaded = list(format_named("mat").read(io.BytesIO("\n".join(lines).encode())))
    assert len(loaded) == 2


def test_single_game_without_match_header_or_scores() -> None:
    """GNU Backgammon's single-game export names the players without scores."""
    text = (
        " Game 1\n"
        " alice                          bob\n"
        "  1)                             31: 8/5 6/5\n"
        "  2) 66: 24/18(2) 13/7(2)\n"
    )
    (loaded,) = format_named("mat").read(io.BytesIO(text.encode()))
    assert loaded.error is None and loaded.record is not None
    assert [p.name for p in loaded.record.players] == ["alice", "bob"]
    assert loaded.record.ruleset == "takhteh/standard@1"
    assert loaded.record.match is not None and loaded.record.match.first == 1
    (report,) = validate_file_text(text)
    assert report.valid, [d.one_line() for d in report.diagnostics]


def _named(records: list[TakhtehRecord], white: str, black: str) -> list[TakhtehRecord]:
    return [
        record.model_copy(update={"players": [Player(name=white), Player(name=black)]})
        for record in records
    ]


def test_games_of_several_matches_are_not_written_as_one_match():
    """The old file shape (every game of a tournament as one match with running scores) is
    refused: a .mat holds one match, and the error says to write a folder."""
    records = random_match(random.Random(1), 3) + random_match(random.Random(2), 3)
    with pytest.raises(ValueError, match="form 2 matches"):
        format_named("mat").write(records, io.StringIO())


def test_a_folder_gets_one_file_per_match_and_money_session(tmp_path):
    """Protects folder output: matches numbered as their records number them, money games
    as sessions (` 0 point match`, games numbered from 1, running scores), each file valid."""
    matches = _named(random_match(random.Random(3), 3), "ann", "bo")
    matches += _named(random_match(random.Random(4), 3), "bo", "ann")
    money = [_named([random_game(random.Random(seed))], "ann", "cy")[0] for seed in (5, 6, 7)]
    source = tmp_path / "games.jsonl"
    write_jsonl(source, [*matches, *money])
    result = convert(source, tmp_path / "matches", "mat")
    assert result.files == 3 and result.written == len(matches) + 3
    files = sorted((tmp_path / "matches").glob("*.mat"))
    assert [path.name for path in files] == [
        "0001-ann-bo.mat",
        "0002-bo-ann.mat",
        "0003-ann-cy.mat",
    ]
    session = parse_mat(files[2].read_text())
    assert session.length == 0 and [game.number for game in session.games] == [1, 2, 3]
    won = [0, 0]
    for game, record in zip(session.games, money, strict=True):
        assert game.score == tuple(won)
        assert record.result is not None and record.result.winner is not None
        won[record.result.winner] += record.result.points
    first = parse_mat(files[0].read_text())
    assert first.length == 3
    assert [game.number for game in first.games] == list(range(1, len(first.games) + 1))
    for path in files:
        reports = list(validate_file(path))
        assert reports and all(report.valid for report in reports), path


@settings(max_examples=50, deadline=None)
@given(st.text(min_size=1, max_size=60))
def test_any_player_name_is_written_so_that_the_file_reads_back(name):
    """Long, multi-line or colon-holding names are sanitised with a warning, and the file
    validates with the sanitised names."""
    records = _named([random_game(random.Random(8))], name, "bob")
    out = io.StringIO()
    warnings = format_named("mat").write(records, out)
    written = mat_name(name)
    assert (warnings == []) == (written == name)
    assert len(written) <= NAME_LENGTH and ":" not in written and "\n" not in written
    (loaded,) = format_named("mat").read(io.BytesIO(out.getvalue().encode()))
    assert loaded.record is not None, loaded.error
    assert [player.name for player in loaded.record.players] == [written, "bob"]
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "game.mat"
        path.write_text(out.getvalue())
        (report,) = validate_file(path)
        assert report.valid, [d.one_line() for d in report.diagnostics]
