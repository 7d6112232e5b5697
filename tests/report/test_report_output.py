"""Where `referee report` writes, what it will replace, and the page's title."""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner

from referee.cli.app import app
from referee.report.page import build_report

runner = CliRunner()
MakeTournament = Callable[..., Path]


def title_of(page: str) -> tuple[str, str]:
    """The page's <title> and its <h1>, unescaped."""
    title = re.search(r"<title>(.*?)</title>", page)
    heading = re.search(r"<h1>(.*?)</h1>", page)
    assert title is not None and heading is not None
    return html.unescape(title.group(1)), html.unescape(heading.group(1))


def report(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, ["report", *args])
    assert "Traceback" not in result.output
    return result.exit_code, result.output


def test_a_report_goes_beside_what_it_reports(
    tmp_path: Path, make_tournament: MakeTournament, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The README's two commands in a row: each tournament's report in its own folder, a
    record file's beside it under its name, several paths' in the current folder."""
    monkeypatch.chdir(tmp_path)
    first = make_tournament(
        tmp_path / "t1", games_per_pair=2, bots=(("alice-bot", "random"), ("carol-bot", "random"))
    )
    second = make_tournament(tmp_path / "t2", games_per_pair=2)
    assert report("t1") == (0, "wrote t1/report.html (0.0 MB)\n")
    assert report("t2", "--anchor", "random-a")[0] == 0
    assert (
        "alice-bot" in (first / "report.html").read_text()
        and "alice-bot" not in (second / "report.html").read_text()
    )
    assert report(str(second / "games.jsonl"))[0] == 0
    assert (second / "games.html").is_file()
    assert report("t1", "t2")[0] == 0
    assert (tmp_path / "report.html").is_file()


def test_a_report_replaces_its_own_earlier_self_and_nothing_else(
    tmp_path: Path, make_tournament: MakeTournament
) -> None:
    first = make_tournament(
        tmp_path / "t1", games_per_pair=2, bots=(("alice-bot", "random"), ("carol-bot", "random"))
    )
    second = make_tournament(tmp_path / "t2", games_per_pair=2)
    out = tmp_path / "report.html"
    assert report(str(first), "-o", str(out))[0] == 0
    made = out.read_text()
    # The same tournament again (say after more games): brought up to date without a word.
    assert report(str(first), "-o", str(out)) == (
        0,
        f"wrote {out} ({len(made.encode()) / 1e6:.1f} MB)\n",
    )
    # Another tournament's report: refused in one line, the file left as it was.
    code, output = report(str(second), "-o", str(out))
    assert code == 2
    assert output == (
        f"referee: error: {out}: holds the report of {first.resolve()}; give --force to "
        "replace it, or -o another file\n"
    )
    assert out.read_text() == made
    # Any other file: refused too; --force replaces either.
    notes = tmp_path / "notes.html"
    notes.write_text("<p>my notes</p>")
    code, output = report(str(second), "-o", str(notes))
    assert code == 2 and "is no report of these games" in output and "--force" in output
    assert notes.read_text() == "<p>my notes</p>"
    assert report(str(second), "-o", str(out), "--force")[0] == 0
    assert "random-a" in out.read_text() and "alice-bot" not in out.read_text()
    # A path that is not there is named before the output file is looked at.
    code, output = report(str(tmp_path / "nowhere"), "-o", str(out))
    assert code == 2 and "nowhere: no such file or folder" in output


def test_the_title_is_the_event(tmp_path: Path, make_tournament: MakeTournament) -> None:
    named = make_tournament(tmp_path / "club", games_per_pair=2, event="Club night <3>")
    assert title_of(build_report([named])) == ("Club night <3>", "Club night <3>")
    # The games name it too: a copy of the file alone is titled the same.
    copy = tmp_path / "copy.jsonl"
    copy.write_bytes((named / "games.jsonl").read_bytes())
    assert title_of(build_report([copy]))[0] == "Club night <3>"


def test_without_an_event_the_title_says_what_was_played(
    tmp_path: Path, make_tournament: MakeTournament
) -> None:
    plain = make_tournament(tmp_path / "t", game="trax", games_per_pair=2)
    page = build_report([plain])
    assert title_of(page)[0] == "Trax round robin of random-a, random-b"
    tournament_id = re.search(r'"tournament": "([^"]+)"', (plain / "games.jsonl").read_text())
    assert tournament_id is not None and tournament_id.group(1) not in title_of(page)[0]
