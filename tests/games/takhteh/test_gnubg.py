"""GNU Backgammon reads the `.mat` files referee writes: the real program, not a model of it.

A Takhteh match tournament and a money tournament are played, converted to a folder of
`.mat` files (one per match or money session), and each file is imported into `gnubg -t`
and exported again. What gnubg exports must hold the same games with the same rolls and
moves, the same players and winners. Skipped, with the reason, where gnubg is not installed
(.ci/install-gnubg installs Debian's package).
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from typer.testing import CliRunner

from referee.cli.app import app
from referee.games.takhteh.mat import MatGame, parse_mat
from referee.validator.check import validate_file

GNUBG = shutil.which("gnubg") or shutil.which("gnubg", path="/usr/games")
pytestmark = pytest.mark.skipif(
    GNUBG is None, reason="GNU Backgammon (gnubg) is not installed; run .ci/install-gnubg"
)

runner = CliRunner()


def _tournament(tmp_path: Path, name: str, *options: str) -> list[Path]:
    """Play a small Takhteh tournament and convert it to a folder of .mat files."""
    out = tmp_path / name
    run = ["tournament", "run", "--out", str(out), "--game", "takhteh", "--bots", "random,greedy"]
    result = runner.invoke(app, [*run, *options, "--seed", "7", "-q"])
    assert result.exit_code == 0, result.output
    folder = tmp_path / f"{name}-mat"
    result = runner.invoke(app, ["convert", str(out / "games.jsonl"), str(folder), "--to", "mat"])
    assert result.exit_code == 0, result.output
    return sorted(folder.glob("*.mat"))


def _through_gnubg(path: Path) -> str:
    """The match as gnubg exports it after importing `path`."""
    exported = path.with_suffix(".gnubg.mat")
    script = path.with_suffix(".gnubg-commands")
    script.write_text(f"import mat {path}\nexport match mat {exported}\n", encoding="utf-8")
    subprocess.run(
        [str(GNUBG), "-t", "-q", "-c", str(script)],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        timeout=120,
        check=True,
    )
    return exported.read_text(encoding="utf-8")


def _moves(game: MatGame) -> list[tuple[int, tuple[int, int] | None, str]]:
    return [(entry.seat, entry.roll, entry.move) for entry in game.entries]


def _check_read_back(path: Path) -> int:
    """Compare one file with gnubg's export of it; returns the number of games compared."""
    ours = parse_mat(path.read_text(encoding="utf-8"))
    theirs = parse_mat(_through_gnubg(path))
    assert theirs.length == ours.length
    assert theirs.games, f"gnubg read no game of {path.name}"
    # Takhteh has no backgammons: where standard rules see one, gnubg scores 3 points for
    # referee's gammon (2). In a match that can end the match early for gnubg, which then
    # ignores the games after it; a money session has no end.
    tally = [0, 0]
    for index, (mine, read) in enumerate(zip(ours.games, theirs.games, strict=False)):
        where = f"{path.name} game {index + 1}"
        assert read.number == mine.number, where
        assert read.players == mine.players, where
        # gnubg takes a money session's running score from the file, and counts a match's
        # score itself
        assert read.score == (tuple(tally) if ours.length else mine.score), where
        assert _moves(read) == _moves(mine), where
        assert read.winner == mine.winner, where
        assert read.points in ((2, 3) if mine.points == 2 else (mine.points,)), where
        if read.winner is not None:
            tally[read.winner] += read.points
    if len(theirs.games) < len(ours.games):
        assert ours.length and max(tally) >= ours.length, (path.name, tally)
    return len(theirs.games)


def test_gnubg_reads_every_match_of_a_match_tournament(tmp_path):
    files = _tournament(tmp_path, "match", "--option", "match=3", "--games-per-pair", "2")
    assert len(files) == 2  # one match per scheduled game: random-greedy, greedy-random
    for path in files:
        reports = list(validate_file(path))
        assert reports and all(report.valid for report in reports), path
        assert _check_read_back(path) >= 1


def test_gnubg_reads_every_game_of_a_money_session(tmp_path):
    files = _tournament(tmp_path, "money", "--games-per-pair", "6")
    assert len(files) == 2  # one session per seating
    games = 0
    for path in files:
        assert path.read_text().splitlines()[0] == " 0 point match"
        assert all(report.valid for report in validate_file(path)), path
        games += _check_read_back(path)
    assert games == 6
