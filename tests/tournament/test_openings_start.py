"""A suite read into a configuration (`with_openings`): `--openings-start N` with a suite named
on the command line or in a TOML file is checked against the suite once it is read (it was
refused as given without a suite), and the programs keep the values of their env."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from referee.cli.app import app
from referee.games import get_game
from referee.tournament.config import BotEntry, build_config, with_openings
from referee.tournament.openings import find_suite, read_openings

GAME = get_game("trax")


def suite_lines() -> list[str]:
    """The shipped Trax suite's openings, as the tournament keeps them."""
    path = find_suite("trax-3ply", Path.cwd())
    return [opening.text() for opening in read_openings(path, GAME, GAME.ruleset())]


def first_book_moves(folder: Path) -> str:
    """The book moves of game 0 of the tournament in `folder`, as one line."""
    games = [json.loads(line) for line in (folder / "games.jsonl").read_text().splitlines()]
    first = next(game for game in games if game["event"]["game_number"] == 0)
    return " ".join(turn["move"] for turn in first["turns"] if turn.get("book"))


@pytest.mark.parametrize("start", [1, 3, 32])
def test_a_named_suite_begins_at_the_start_given(tmp_path: Path, start: int) -> None:
    args = ["tournament", "run", "--out", str(tmp_path / "t"), "-g", "trax", "-q"]
    args += ["--bots", "random,greedy", "--openings", "trax-3ply"]
    done = CliRunner().invoke(app, [*args, "--openings-start", str(start)])
    assert done.exit_code == 0, done.output
    stored = json.loads((tmp_path / "t" / "tournament.json").read_text())["config"]
    assert stored["openings_start"] == start
    assert first_book_moves(tmp_path / "t") == suite_lines()[start - 1]


def test_a_toml_suite_begins_at_its_start(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    toml = tmp_path / "t.toml"
    toml.write_text(
        'game = "trax"\nopenings = "trax-3ply"\nopenings_start = 5\n'
        'bots = [{name = "a", spec = "random"}, {name = "b", spec = "greedy"}]\n'
    )
    done = CliRunner().invoke(app, ["tournament", "run", "--config", str(toml), "--out", "t2"])
    assert done.exit_code == 0, done.output
    assert first_book_moves(tmp_path / "t2") == suite_lines()[4]


def test_a_start_past_the_suite_is_refused(tmp_path: Path) -> None:
    args = ["tournament", "run", "--out", str(tmp_path / "t"), "-g", "trax", "-q"]
    args += ["--bots", "random,greedy", "--openings", "trax-3ply", "--openings-start", "33"]
    done = CliRunner().invoke(app, args)
    assert done.exit_code == 2
    assert "--openings-start 33 is past the suite's 32 openings" in done.output
    assert not (tmp_path / "t").exists()


def test_a_suite_keeps_the_values_of_the_bots_env(tmp_path: Path) -> None:
    """Reading the suite into the configuration kept the names of a program's env only (as
    tournament.json does), so the program ran without the values given."""
    program = BotEntry(name="b", command=["prog"], env={"FOO": "1"})
    config = build_config(game="trax", bots=[BotEntry(name="a", spec="random"), program])
    assert with_openings(config, "trax-3ply", tmp_path).bots[1].env == {"FOO": "1"}
