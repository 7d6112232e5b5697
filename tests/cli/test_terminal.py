"""What a user sees on an 80-column terminal: prose wrapped at words, progress bars that never
share a line with a message, nothing drawn before an error, `-q` quiet.

The commands run in a real pseudo-terminal (tests/cli/helpers.py), whose screen is worked out
from what they write.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from referee.cli.app import app
from referee.players.registry import describe_bots
from tests.cli.helpers import Screen, run_in_terminal, words_intact

cli = CliRunner()
BAR = "━"
"""What rich draws a progress bar with."""


def _tournament(out: Path, bots: str, games: int = 2, game: str = "thax") -> None:
    args = ["tournament", "run", "--game", game, "--bots", bots, "--out", str(out), "-q"]
    result = cli.invoke(app, [*args, "--games-per-pair", str(games)])
    assert result.exit_code == 0, result.output


@pytest.fixture(scope="module")
def bad_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A THAX file of two games whose second plays `zz` at turn 4."""
    folder = tmp_path_factory.mktemp("bad")
    _tournament(folder / "t", "random,greedy")
    first, second = (folder / "t" / "games.jsonl").read_text().splitlines()
    record = json.loads(second)
    record["turns"][3]["move"] = "zz"
    path = folder / "thax.jsonl"
    path.write_text(f"{first}\n{json.dumps(record)}\n")
    return path


def _no_line_too_long(screen: Screen) -> None:
    assert screen.wrapped == [], "lines longer than the terminal"


def test_validate_clears_its_bar_before_each_diagnostic(bad_file: Path) -> None:
    run = run_in_terminal(["validate", str(bad_file)], bad_file.parent)
    assert run.code == 1
    assert BAR in run.raw  # the bar was drawn: the test looks at the case that failed
    _no_line_too_long(run.screen)
    lines = run.screen.text()
    diagnostic = next(i for i, line in enumerate(lines) if line.startswith(str(bad_file)))
    told = " ".join(lines[diagnostic : diagnostic + 2]).split()  # the wrap's indent folded
    assert "'zz' is not a THAX move token" in " ".join(told)
    assert not [line for line in lines if line.startswith("files")], "a bar left on the screen"
    message = "turn 4, 'zz': [notation] 'zz' is not a THAX move token (P3, T5>3, R4 or -;"
    assert words_intact(message, run.screen) == []
    assert "2 games: 1 valid, 1 invalid" in lines


def test_validate_draws_no_bar_while_its_output_goes_to_a_pipe(bad_file: Path) -> None:
    """The pipe's reader (less, cat) writes to the same terminal, out of step with a bar."""
    run = run_in_terminal(["validate", str(bad_file)], bad_file.parent, pipe_stdout=True)
    assert run.code == 1
    assert BAR not in run.raw
    # A pipe gets each diagnostic on one line, however wide, for the tools that read it.
    (line,) = [line for line in run.piped.splitlines() if line.startswith(str(bad_file))]
    assert line.endswith("spaces 1 to 5)") and len(line) > 80


def test_nothing_is_drawn_before_a_configuration_error(tmp_path: Path) -> None:
    _tournament(tmp_path / "t", "random,greedy")
    args = ["tournament", "run", "--game", "thax", "--bots", "greedy,random"]
    run = run_in_terminal([*args, "--out", "t"], tmp_path)
    assert run.code == 2
    assert BAR not in run.raw and "0/?" not in run.raw
    lines = [line for line in run.screen.text() if line]
    assert lines[0].startswith("referee: error: t")
    _no_line_too_long(run.screen)


def test_the_tournament_bar_and_the_time_note_fit_80_columns(tmp_path: Path) -> None:
    bots = "random,greedy,search:time=0.01,alphabeta:depth=2,time=0.01"
    args = ["tournament", "run", "--game", "thai", "--bots", bots, "--games-per-pair", "2"]
    run = run_in_terminal([*args, "--out", "t"], tmp_path)
    assert run.code == 0, run.raw
    _no_line_too_long(run.screen)
    note = (
        "note: search:time=0.01, alphabeta:depth=2,time=0.01 stop at a time limit a move, so "
        "their moves depend on this machine's speed and load: the same --seed can give other "
        "games, on resume too"
    )
    assert words_intact(note, run.screen) == []
    lines = run.screen.text()
    # Drawn over itself, on one line.
    (bar,) = [line for line in lines if BAR in line and not line.startswith(("┏", "┡", "━"))]
    assert bar.startswith("games ") and "12/12" in bar and "leader " in bar
    assert lines[lines.index(bar) + 1] == "12 games played, 12 of 12 finished in t/games.jsonl"


def test_bots_wraps_at_words_at_80_columns(tmp_path: Path) -> None:
    run = run_in_terminal(["bots"], tmp_path)
    assert run.code == 0
    _no_line_too_long(run.screen)
    for game in ("thax", "takhteh", "trax", "thai"):
        for info in describe_bots(game):
            assert words_intact(info.description, run.screen) == [], info.name
            for key, value in info.options.items():
                assert any(f"{key}={value}" in line for line in run.screen.text()), key


def test_quiet_prints_only_the_result(tmp_path: Path) -> None:
    """No note of a time limit, no bar, no standings."""
    args = ["tournament", "run", "--game", "thai", "--bots", "random,search:time=0.01"]
    result = cli.invoke(app, [*args, "--out", str(tmp_path / "t"), "-q"])
    assert result.exit_code == 0
    assert result.stderr == ""
    games = tmp_path / "t" / "games.jsonl"
    assert result.stdout.splitlines() == [f"2 games played, 2 of 2 finished in {games}"]


def test_the_time_limit_note_only_when_a_timed_bot_plays(tmp_path: Path) -> None:
    out = str(tmp_path / "t")
    args = ["tournament", "run", "--game", "thai", "--bots", "random,search:time=0.01"]
    first = cli.invoke(app, [*args, "--out", out])
    assert first.exit_code == 0
    assert first.stderr.startswith("note: search:time=0.01 stops at a time limit a move")
    # Nothing left to play: nothing depends on the machine.
    again = cli.invoke(app, ["tournament", "resume", out])
    assert again.exit_code == 0 and "note:" not in again.stderr
    # Bots without a time limit: no note.
    bots = "random,greedy,search:time=0,depth=1"
    untimed = cli.invoke(app, [*args[:-1], bots, "--out", str(tmp_path / "u")])
    assert untimed.exit_code == 0 and "note:" not in untimed.stderr


@given(
    words=st.lists(st.text("abcdefghij-/:.'", min_size=1, max_size=30), min_size=1, max_size=40),
    indent=st.integers(0, 4),
    width=st.integers(20, 100),
)
def test_wrapping_breaks_only_between_words(words: list[str], indent: int, width: int) -> None:
    """Every word kept whole and in order; a line longer than the width only when it is one
    word (a long path) after the indent."""
    from referee.cli.output import wrapped

    line = " " * indent + " ".join(words)
    lines = wrapped(line, width).split("\n")
    assert [word for text in lines for word in text.split()] == words
    for text in lines:
        assert text.startswith(" " * indent)
        assert len(text) <= width or len(text.split()) == 1
