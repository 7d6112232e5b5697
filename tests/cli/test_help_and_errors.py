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
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

import referee
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
    # typer's <int>, <list[str]>, <bool>; a range such as [1<=x<=64] is click's, and wanted
    assert not re.search(r"<[a-z]", result.output), result.output
    assert "…" not in result.output and "╭" not in result.output


def test_every_option_and_argument_has_help() -> None:
    for words, command in commands():
        for param in command.params:
            assert param.help, f"referee {' '.join(words)} {param.name}"


def test_version() -> None:
    result = runner.invoke(app, ["--version"])
    # The compiled build (README, "Compiled engines") names its compiled games after the
    # version: the extension modules in each game's folder, looked for here by name.
    games = Path(referee.__file__).parent / "games"
    compiled = [
        name
        for name in ("thax", "takhteh", "trax", "thai")
        if any(
            ".cpython-" in path.name or path.suffix == ".pyd" for path in (games / name).iterdir()
        )
    ]
    built = f", engines compiled (mypyc): {', '.join(compiled)}" if compiled else ""
    assert result.exit_code == 0 and result.output.strip() == f"referee {version('referee')}{built}"


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


RUN = ["tournament", "run", "--out", "t", "--game"]


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (
            [*RUN, "thax", "--bots", "random,gredy"],
            "unknown bot 'gredy'; did you mean 'greedy'? (thax's bots: random, greedy, "
            "thax-perfect)",
        ),
        ([*RUN, "thx", "--bots", "random,greedy"], "unknown game 'thx'; did you mean 'thax'?"),
        (["bots", "--game", "trx"], "unknown game 'trx'; did you mean 'trax'?"),
        (
            [*RUN, "thai", "--bots", "random,search:tme=1"],
            "bot 'search' takes no option tme; did you mean 'time'?",
        ),
    ],
)
def test_a_mistyped_name_gets_the_name_meant(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: list[str], words: str
) -> None:
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    (line,) = result.stderr.splitlines()
    assert line.startswith("referee: error: ") and words in line


def test_a_name_close_to_none_gets_no_guess(tmp_path: Path) -> None:
    args = ["tournament", "run", "--game", "thax", "--bots", "random,qqqqqq"]
    result = runner.invoke(app, [*args, "--out", str(tmp_path / "t")])
    assert result.exit_code == 2
    assert "unknown bot 'qqqqqq' (thax's bots:" in result.stderr
    assert "did you mean" not in result.stderr


@given(count=st.integers(0, 10**6))
def test_plural_counts_in_words(count: int) -> None:
    from referee.wording import plural

    assert plural(count, "game") == (f"{count} game" if count == 1 else f"{count} games")
    assert plural(count, "match", "matches").endswith("match" if count == 1 else "matches")


def test_messages_with_one_of_a_thing_say_it_in_the_singular(tmp_path: Path) -> None:
    """One pair, one round, one repeated game: no `1 ... pairs`, `1 rounds`, `1 games`."""
    out = tmp_path / "t"
    args = ["tournament", "run", "--game", "thax", "--bots", "random,greedy", "--out", str(out)]
    assert runner.invoke(app, [*args, "-q"]).exit_code == 0  # one pair: two games
    table = runner.invoke(app, ["ratings", str(out), "--format", "markdown", "--no-cache"])
    assert table.exit_code == 0
    assert "2 games. Elo" in table.stdout
    assert "1 colour-swapped game pair as units" in table.stdout
    extend = runner.invoke(app, ["tournament", "extend", str(out), "--games-per-pair", "2"])
    assert extend.exit_code == 2
    assert "already plays 2 games per pairing x 1 round; give more" in extend.stderr
    games = out / "games.jsonl"
    first = games.read_text().splitlines()[0]
    with games.open("a") as stream:
        stream.write(first + "\n")
    repeated = runner.invoke(app, ["ratings", str(out), "--no-cache"])
    assert "referee: warning: 1 game repeats a game read before" in repeated.stderr


def test_a_librarys_warning_is_one_line_without_a_source_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import warnings

    from referee.ratings import plot

    drawn = plot.plot_ratings

    def warning_plot(*args: Any) -> None:
        # As matplotlib warns about odd data, from its own source file.
        warnings.warn_explicit(
            "Attempting to set identical low and high xlims\nmakes transformation singular",
            UserWarning,
            "/usr/lib/python3/site-packages/matplotlib/axes/_base.py",
            3700,
        )
        drawn(*args)

    monkeypatch.setattr(plot, "plot_ratings", warning_plot)
    out = tmp_path / "t"
    args = ["tournament", "run", "--game", "thax", "--bots", "random,greedy", "--out", str(out)]
    assert runner.invoke(app, [*args, "-q"]).exit_code == 0
    plotted = runner.invoke(
        app, ["ratings", str(out), "--no-cache", "--plot", str(tmp_path / "r.png")]
    )
    assert plotted.exit_code == 0, plotted.output
    assert plotted.stderr == (
        "referee: warning: Attempting to set identical low and high xlims makes "
        "transformation singular\n"
    )
    assert (tmp_path / "r.png").exists()
