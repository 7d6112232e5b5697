"""The rating outputs and result exports are the entries of their registries
(ratings/formats.py): each one registered writes, and `referee ratings` and `referee export`
write what it writes."""

from __future__ import annotations

import io

import pytest
from typer.testing import CliRunner

from referee.cli.app import app
from referee.ratings.export import export_results
from referee.ratings.formats import RATING_OUTPUTS, RESULT_EXPORTS
from referee.ratings.output import render
from tests.ratings.helpers import record, tables_from
from tests.records.helpers import write_jsonl

runner = CliRunner()
BOTS = ("greedy", "random", "x|y")
RECORDS = [
    record("greedy", "random", 0, tournament="t", pairing=0, game_number=0),
    record("random", "greedy", None, tournament="t", pairing=0, game_number=1),
    record("x|y", "greedy", 1, game_number=2),
    record("random", "x|y", 0, game_number=3),
]


@pytest.mark.parametrize("name", RATING_OUTPUTS.names())
def test_every_rating_output_writes_the_tables(tmp_path, name):
    """Every registered output names every bot, and the command writes its text whole."""
    text = render(tables_from(tmp_path, RECORDS), name)
    assert text.endswith("\n")
    for bot in BOTS:
        assert bot.replace("|", "\\|" if name == "markdown" else "|") in text
    out = tmp_path / "out"
    run = ["ratings", str(tmp_path / "games.jsonl"), "--format", name, "-o", str(out)]
    result = runner.invoke(app, [*run, "--no-cache"])
    assert result.exit_code == 0, result.output
    assert out.read_text(encoding="utf-8") == text


def test_rating_outputs_are_what_the_command_offers():
    """`table` (the terminal) and then every registered output, in the registry's order."""
    result = runner.invoke(app, ["ratings", "--help"])
    assert "[" + "|".join(("table", *RATING_OUTPUTS.names())) + "]" in result.output
    assert RATING_OUTPUTS.names() == ("csv", "markdown", "json", "html")


def test_an_unknown_rating_output_lists_the_registered_ones(tmp_path):
    with pytest.raises(
        ValueError, match=r"unknown format 'xml' \(known: csv, markdown, json, html\)"
    ):
        render(tables_from(tmp_path, RECORDS), "xml")


@pytest.mark.parametrize("name", RESULT_EXPORTS.names())
def test_every_result_export_writes_every_game(tmp_path, name):
    """Every registered export counts and names each game's players, and the command writes
    what it writes."""
    path = tmp_path / "games.jsonl"
    write_jsonl(path, RECORDS)
    out = tmp_path / "out"
    result = runner.invoke(app, ["export", str(path), "--format", name, "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert result.output.startswith(f"{len(RECORDS)} games written")
    text = out.read_text(encoding="utf-8")
    for bot in BOTS:
        assert bot in text
    with (tmp_path / "again").open("w", encoding="utf-8", newline="") as again:
        assert export_results([path], name, again) == len(RECORDS)
    assert (tmp_path / "again").read_text(encoding="utf-8") == text


def test_an_unknown_export_lists_the_registered_ones():
    with pytest.raises(ValueError, match=r"unknown format 'xml' \(known: pgn, csv\)"):
        export_results([], "xml", io.StringIO())
