"""What `referee openings` writes, and what a user's suite file can make referee say (issue
31): the suite is plain text of the engines' own notation, one printable line an opening; a
suite file of hostile move text is refused in one line that shows its characters, never
sends them to the terminal."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.games import get_game
from referee.tournament.openings import read_openings
from tests.cli.commands import one_error_line, referee
from tests.cli.test_fuzz_commands import run


@pytest.mark.parametrize("game", ["trax", "thai"])
def test_every_line_written_is_printable_and_reads_back(game: str, tmp_path: Path) -> None:
    out = tmp_path / "suite.txt"
    assert run("openings", "-g", game, "--plies", 2, "-o", out) == 0
    lines = out.read_text("utf-8").splitlines()
    assert lines and all(line.isprintable() for line in lines)
    engine = get_game(game)
    suite = read_openings(out, engine, engine.ruleset())
    assert [opening.text() for opening in suite] == [line for line in lines if line[:1] != "#"]


PAYLOADS = [
    "\x1b]0;PWNED\x07",
    "\u202eP3",
    "22-18 \x1b[2J",
    "<script>alert(1)</script>",
    "=cmd|' /C calc'!A0",
    "|a|b|",
]


@pytest.mark.parametrize("payload", PAYLOADS, ids=repr)
def test_a_hostile_suite_is_one_line_that_shows_it(payload: str, tmp_path: Path) -> None:
    suite = tmp_path / "suite.txt"
    suite.write_text(payload + "\n", "utf-8")
    out = referee(
        "tournament",
        "run",
        "-g",
        "thai",
        "--bots",
        "random,greedy",
        "--out",
        str(tmp_path / "t"),
        "--openings",
        str(suite),
    )
    line = one_error_line(out)
    assert line.startswith(f"referee: error: {suite}:1: "), line
    assert line.isprintable(), line  # no escape, bell or bidi override reaches it raw
    assert not (tmp_path / "t").exists()
