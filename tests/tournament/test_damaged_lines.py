"""A damaged line of games.jsonl never leads to a game stored twice: resume reads its key from
the line and plays nothing stored, status names the line, and `tournament repair` moves the
damaged lines aside, after which resume plays exactly their games (issue 31, point 6)."""

from __future__ import annotations

import json
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from referee.cli.app import app
from referee.records.keys import salvage

runner = CliRunner()


def _edit(change: Callable[[dict], None]) -> Callable[[bytes], bytes]:
    def edit(raw: bytes) -> bytes:
        data = json.loads(raw)
        change(data)
        return (json.dumps(data) + "\n").encode()

    return edit


def _turns_shortened(data: dict) -> None:
    data["turns"] = data["turns"][: len(data["turns"]) // 2]


MUTATIONS: dict[str, Callable[[bytes], bytes]] = {
    "extra field": _edit(lambda data: data.update(extra=1)),
    "field deleted": _edit(lambda data: data.pop("ruleset")),
    "player deleted": _edit(lambda data: data["players"].pop()),
    "field retyped": _edit(lambda data: data.update(version="1")),
    "result retyped": _edit(lambda data: data["result"].update(points="1")),
    "turns shortened": _edit(_turns_shortened),
    # The text cut inside the turn list (the key comes before the turns), a line break kept.
    "text cut in the turns": lambda raw: raw[: raw.index(b'"move"', raw.index(b"turns"))] + b"\n",
    "not JSON": lambda raw: raw.replace(b'"turns": [', b'"turns": [[', 1),
}
SCHEMA_VALID = {"turns shortened"}
"""What the cheap scan of status and resume reads as a valid header (the moves are checked by
`referee validate` and by repair)."""


def key(raw: bytes) -> tuple:
    """The key of an intact line, read independently of referee's code."""
    data = json.loads(raw)
    event = data["event"]
    return event["tournament"], event["pairing"], event["game_number"]


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("damaged") / "t"
    command = ["tournament", "run", "--game", "thax", "--bots", "random,greedy"]
    command += ["--games-per-pair", "6", "-q", "--out", str(out)]
    result = runner.invoke(app, command)
    assert result.exit_code == 0, result.output
    return out


@settings(
    max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(damage=st.dictionaries(st.integers(0, 5), st.sampled_from(sorted(MUTATIONS)), min_size=1))
def test_damaged_lines_are_never_played_again_and_repair_moves_exactly_them(
    folder: Path, damage: dict[int, str]
) -> None:
    with tempfile.TemporaryDirectory() as scratch:
        directory = Path(scratch) / "t"
        shutil.copytree(folder, directory)
        games = directory / "games.jsonl"
        lines = games.read_bytes().splitlines(keepends=True)
        assert len(lines) == 6
        keys = [key(raw) for raw in lines]
        damaged = [MUTATIONS[damage[i]](raw) if i in damage else raw for i, raw in enumerate(lines)]
        games.write_bytes(b"".join(damaged))

        status = runner.invoke(app, ["tournament", "status", str(directory)])
        assert status.exit_code == 0, status.output
        assert "6 of 6 scheduled finished" in status.output
        for index, mutation in damage.items():
            named = f"{games}:{index + 1}: " in status.output
            assert named == (mutation not in SCHEMA_VALID), (mutation, status.output)

        resumed = runner.invoke(app, ["tournament", "resume", "-q", str(directory)])
        assert resumed.exit_code == 0, resumed.output
        assert games.read_bytes() == b"".join(damaged), "resume played a stored game again"

        repaired = runner.invoke(app, ["tournament", "repair", str(directory)])
        assert repaired.exit_code == 0, repaired.output
        moved = sorted(damage)
        assert games.read_bytes() == b"".join(raw for i, raw in enumerate(lines) if i not in damage)
        assert (directory / "games.rejected").read_bytes() == b"".join(damaged[i] for i in moved)
        notes = (directory / "games.rejected.txt").read_text().splitlines()
        assert [note.split()[1].split(":")[:2] for note in notes] == [
            ["games.jsonl", str(i + 1)] for i in moved
        ]

        replayed = runner.invoke(app, ["tournament", "resume", "-q", str(directory)])
        assert replayed.exit_code == 0, replayed.output
        after = games.read_bytes().splitlines(keepends=True)
        assert after[: 6 - len(damage)] == [raw for i, raw in enumerate(lines) if i not in damage]
        assert sorted(key(raw) for raw in after[6 - len(damage) :]) == sorted(
            keys[i] for i in moved
        )
        assert sorted(map(key, after)) == sorted(keys)

        validated = runner.invoke(app, ["validate", str(directory)])
        assert validated.exit_code == 0, validated.output
        again = runner.invoke(app, ["tournament", "repair", str(directory)])
        assert again.exit_code == 0 and "nothing to repair" in again.output


def damaged_copy(folder: Path, directory: Path, damage: dict[int, str]) -> tuple[Path, list[bytes]]:
    """A copy of the tournament `folder` at `directory` whose games.jsonl has the lines at the
    indexes of `damage` mutated as it names them: its games file and its lines, as written."""
    shutil.copytree(folder, directory)
    games = directory / "games.jsonl"
    lines = games.read_bytes().splitlines(keepends=True)
    for index, mutation in damage.items():
        lines[index] = MUTATIONS[mutation](lines[index])
    games.write_bytes(b"".join(lines))
    return games, lines


def test_ratings_and_report_name_the_damaged_line(folder: Path, tmp_path: Path) -> None:
    """They refuse the folder, as they refuse any file with a bad record, naming the line."""
    directory = tmp_path / "t"
    games, _ = damaged_copy(folder, directory, {3: "extra field"})
    for command in (["ratings", str(directory)], ["report", str(directory), "-o", "r.html"]):
        result = runner.invoke(app, command)
        assert result.exit_code == 2, result.output
        assert f"{games}:4: " in result.output and "/extra" in result.output


@pytest.mark.parametrize("command", [["resume", "-q"], ["repair"]], ids=lambda c: c[0])
def test_a_last_line_cut_short_is_no_stored_game(
    folder: Path, tmp_path: Path, command: list[str]
) -> None:
    """A write cut short (no line break, even when all but the line break was written) is
    the one line whose game resume plays again: it cuts the line off, so it must not count
    the game as stored; repair moves it aside instead. The first game is missing too, so
    that resume has a game to play and appends."""
    directory = tmp_path / command[0]
    shutil.copytree(folder, directory)
    games = directory / "games.jsonl"
    lines = games.read_bytes().splitlines(keepends=True)
    games.write_bytes(b"".join(lines[1:-1]) + lines[-1][:-1])
    result = runner.invoke(app, ["tournament", *command, str(directory)])
    assert result.exit_code == 0, result.output
    after = games.read_bytes().splitlines(keepends=True)
    if command[0] == "resume":
        assert sorted(map(key, after)) == sorted(map(key, lines))
    else:
        assert after == lines[1:-1]
        assert (directory / "games.rejected").read_bytes() == lines[-1]


@pytest.mark.parametrize("mutation", sorted(MUTATIONS))
def test_resume_plays_no_stored_game_again(folder: Path, tmp_path: Path, mutation: str) -> None:
    directory = tmp_path / "t"
    games, lines = damaged_copy(folder, directory, {2: mutation})
    result = runner.invoke(app, ["tournament", "resume", "-q", str(directory)])
    assert result.exit_code == 0, result.output
    assert games.read_bytes() == b"".join(lines)
    named = f"referee: warning: {games}:3: " in result.output
    assert named == (mutation not in SCHEMA_VALID), result.output


def test_status_json_names_the_damaged_lines(folder: Path, tmp_path: Path) -> None:
    directory = tmp_path / "t"
    damaged_copy(folder, directory, {1: "not JSON", 4: "extra field"})
    result = runner.invoke(app, ["tournament", "status", "--json", str(directory)])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["stored"] == 6 and data["left_to_play"] == 0
    assert data["damaged_lines"] == 2
    assert [entry["line"] for entry in data["damaged"]] == [2, 5]
    assert "not JSON" in data["damaged"][0]["reason"]
    assert data["damaged"][1]["reason"] == "/extra: unknown field"


@settings(
    max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(index=st.integers(0, 5), cut=st.floats(0, 1), length=st.integers(0, 40), junk=st.binary())
def test_a_line_damaged_in_its_turns_keeps_its_key(
    folder: Path, index: int, cut: float, length: int, junk: bytes
) -> None:
    """Any bytes put in place of any part of the turn list (the key comes before it)."""
    raw = (folder / "games.jsonl").read_bytes().splitlines(keepends=True)[index]
    start = raw.index(b'"turns": [') + len(b'"turns": [')
    end = raw.rindex(b'"result"')
    at = start + int(cut * (end - start))
    damaged = raw[:at] + junk.replace(b"\n", b" ") + raw[at + length :]
    tournament, pairing, number = key(raw)
    assert salvage(damaged)[0] == (tournament, pairing, number, 0)


def test_a_line_nested_too_deeply_is_no_key() -> None:
    assert salvage(b"[" * 100_000 + b"]" * 100_000 + b"\n") == (None, {})
