"""Help and errors: clean metavars, help on every option, one error style, plurals."""

from __future__ import annotations

import inspect
import json
import re
from importlib.metadata import version
from pathlib import Path
from typing import Any

import pytest
import typer.main
from typer.testing import CliRunner

from referee.cli import tournament as tournament_cli
from referee.cli.app import app
from referee.cli.usage import name_metavars

runner = CliRunner()
ROOT = Path(__file__).resolve().parents[2]


def commands() -> list[tuple[list[str], Any]]:
    """Every command as (its words after `referee`, the click command)."""
    root = typer.main.get_command(app)
    name_metavars(root)
    found: list[tuple[list[str], Any]] = []

    def walk(words: list[str], command: Any) -> None:
        subs = getattr(command, "commands", {})
        if not subs:
            found.append((words, command))
        for name, sub in subs.items():
            walk([*words, name], sub)

    walk([], root)
    return found


@pytest.mark.parametrize("words", [words for words, _ in commands()], ids=" ".join)
def test_help_has_clean_metavars_and_no_cut_names(words: list[str]) -> None:
    result = runner.invoke(app, [*words, "--help"], terminal_width=80)
    assert result.exit_code == 0
    assert "<" not in result.output, result.output  # typer's <int>, <list[str]>, <bool>
    assert "…" not in result.output and "╭" not in result.output


def test_every_option_and_argument_has_help() -> None:
    for words, command in commands():
        for param in command.params:
            assert param.help, f"referee {' '.join(words)} {param.name}"


def test_version() -> None:
    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0 and result.output.strip() == f"referee {version('referee')}"


@pytest.mark.parametrize(
    "args, words",
    [
        (["moves", "--bogus"], "No such option: --bogus"),
        (["perft"], "Missing option '--depth'"),
        (["perft", "--depth", "x"], "--depth"),
        (["nowhere"], "No such command"),
        (["tournament", "run", "--out", "x", "--games-per-pair", "3"], "--games-per-pair must"),
        (["tournament", "run", "--out", "x", "--games-per-pair", "0"], "--games-per-pair must"),
    ],
)
def test_usage_errors_are_one_line_in_one_style(args: list[str], words: str) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.startswith("referee: error: ") and words in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_games_per_pair_message_in_the_users_words() -> None:
    result = runner.invoke(
        app,
        [
            "tournament",
            "run",
            "--out",
            "x",
            "--game",
            "thax",
            "--bots",
            "random,greedy",
            "--games-per-pair",
            "5",
        ],
    )
    assert "referee: error: --games-per-pair must be an even number >= 2" in result.stderr
    assert "games_per_pair" not in result.stderr


def test_validate_of_an_empty_folder_is_a_usage_error(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("no games here\n")
    result = runner.invoke(app, ["validate", str(tmp_path)])
    assert result.exit_code == 2
    assert result.stderr.strip() == f"referee: error: no record files in {tmp_path}"


def test_the_demo_folder_is_ignored_by_git() -> None:
    default = inspect.signature(tournament_cli.demo).parameters["out"].default
    ignored = (ROOT / ".gitignore").read_text().splitlines()
    assert f"/{default}/" in ignored


def test_one_game_and_matches_are_counted_in_words(tmp_path: Path) -> None:
    out = tmp_path / "m"
    result = runner.invoke(
        app,
        [
            "tournament",
            "run",
            "--game",
            "takhteh",
            "--bots",
            "random,greedy",
            "--option",
            "match=3",
            "--out",
            str(out),
            "-q",
        ],
    )
    assert result.exit_code == 0, result.output
    stored = len((out / "games.jsonl").read_text().splitlines())
    assert stored >= 4  # two matches to 3 points
    assert f"2 matches ({stored} games) played, 2 of 2 finished" in result.stdout
    first = json.loads((out / "games.jsonl").read_text().splitlines()[0])
    one = tmp_path / "one.json"
    one.write_text(json.dumps(first))
    converted = runner.invoke(app, ["convert", str(one), str(tmp_path / "one.jsonl")])
    assert converted.exit_code == 0
    assert re.search(r"^1 game written", converted.stdout, re.MULTILINE)
