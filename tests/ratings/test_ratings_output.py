"""Outputs: golden Markdown and CSV, JSON, HTML, the terminal, and the PNG plot."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest
from rich.console import Console

from referee.files import CannotWrite
from referee.ratings.errors import RatingsError
from referee.ratings.output import print_tables, render
from referee.ratings.plot import plot_ratings
from referee.records.model import Reason
from tests.cli.helpers import run_in_terminal
from tests.ratings.helpers import record, tables_from

GOLDEN = Path(__file__).parent / "golden"
UPDATE = os.environ.get("REFEREE_UPDATE_GOLDEN") == "1"
"""Set REFEREE_UPDATE_GOLDEN=1 to rewrite the golden files after a deliberate change."""


def _records():
    """A small tournament with what the outputs must show: colour-swapped pairs, a draw,
    forfeits, a bot that won every game, a name with a Markdown pipe; and a Takhteh table
    with a gammon."""
    pairs = [
        ("greedy", "random", 0, 1),
        ("greedy", "random", 0, 1),
        ("random", "greedy", 1, 0),
        ("greedy", "x|y", 0, 1),
        ("random", "x|y", None, None),
        ("random", "x|y", 1, 0),
    ]
    records = []
    number = 0
    for pairing, (a, b, first, second) in enumerate(pairs):
        records.append(record(a, b, first, tournament="t", pairing=pairing, game_number=number))
        records.append(
            record(b, a, second, tournament="t", pairing=pairing, game_number=number + 1)
        )
        number += 2
    records.append(record("random", "x|y", 1, reason=Reason.TIME, game_number=number))
    records.append(record("x|y", "random", 1, reason=Reason.CRASH, game_number=number + 1))
    records.append(record("alpha", "beta", 0, game="takhteh", points=2))
    records.append(record("beta", "alpha", 0, game="takhteh", points=1))
    records.append(record("alpha", "beta", 1, game="takhteh", points=1, finished=False))
    return records


def _check_golden(name: str, text: str) -> None:
    path = GOLDEN / name
    if UPDATE:
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8")


@pytest.fixture
def tables(tmp_path):
    # The observed information, not the bootstrap: the golden files then depend on
    # arithmetic only, not on numpy's random streams, which may change between versions.
    return tables_from(tmp_path, _records(), interval="information")


def test_markdown_output_matches_golden(tables):
    """Protects the Markdown table, crosstable, LOS matrix, pentanomial and notes layout."""
    _check_golden("ratings.md", render(tables, "markdown"))


def test_csv_output_matches_golden(tables):
    """Protects the CSV columns, their order and their rounding."""
    _check_golden("ratings.csv", render(tables, "csv"))


def test_json_output_holds_every_part_and_no_infinity(tables):
    """Protects the JSON: standings, crosstable with pentanomial, LOS and notes, and open
    interval ends as null (JSON has no infinity)."""
    data = json.loads(render(tables, "json"))
    # In the order the registry lists the games (THAX first), not alphabetical.
    assert [(t["game"], t["variant"]) for t in data] == [
        ("thax", "standard"),
        ("takhteh", "standard"),
    ]
    thax = data[0]
    greedy = thax["standings"][0]
    assert greedy["bot"] == "greedy" and greedy["bound"] == "lower"
    assert greedy["elo_high"] is None and greedy["elo_low"] is not None
    pair = next(r for r in thax["crosstable"] if (r["bot"], r["opponent"]) == ("greedy", "random"))
    assert [pair[f"pairs_{k}"] for k in range(5)] == [0, 0, 0, 0, 3]
    assert thax["los_pct"]["greedy"]["greedy"] is None
    assert data[1]["notes"] == ["1 unfinished game left out", *data[1]["notes"][1:]]


def test_html_output_escapes_names(tmp_path):
    """Protects the HTML page against names that are markup."""
    records = [record("<b>bold</b>", "plain", 0), record("plain", "<b>bold</b>", None)]
    html = render(tables_from(tmp_path, records), "html")
    assert html.startswith("<!DOCTYPE html>")
    assert "&lt;b&gt;bold&lt;/b&gt;" in html and "<b>bold</b>" not in html


def test_unknown_format_is_refused(tables):
    """Protects `render` from silently writing nothing."""
    with pytest.raises(ValueError, match="unknown format"):
        render(tables, "xml")  # type: ignore[arg-type]


def test_terminal_shows_names_literally(tmp_path):
    """Protects the rich table: every bot and its rating are printed, and a name that looks
    like rich markup is printed as it is."""
    records = [record("[red]x", "plain", 0), record("plain", "[red]x", None)]
    tables = tables_from(tmp_path, records)
    console = Console(record=True, width=200, color_system=None)
    print_tables(tables, console)
    text = console.export_text()
    assert "[red]x" in text and "plain" in text
    assert f"{tables[0].standings['elo'].iloc[0]:.1f}" in text
    assert "Crosstable" in text and "Likelihood of superiority" in text


def test_plot_writes_a_png(tables, tmp_path):
    """Protects --plot: a non-empty PNG, with open-ended bars for bounded ratings."""
    path = tmp_path / "ratings.png"
    plot_ratings(tables, path)
    data = path.read_bytes()
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    assert len(data) > 5000


def test_plot_draws_names_with_dollar_signs(tmp_path):
    """Protects the plot from names matplotlib would read as mathematics (and fail on)."""
    records = [record("$x^{$", "a$b$c", 0), record("a$b$c", "$x^{$", None)]
    path = tmp_path / "dollars.png"
    plot_ratings(tables_from(tmp_path, records), path)
    assert path.stat().st_size > 0


def test_plot_of_nothing_or_to_a_bad_path_raises_a_one_line_error(tables, tmp_path):
    """Protects the CLI's error path for --plot: the file is named."""
    with pytest.raises(RatingsError, match="no rating table"):
        plot_ratings([], tmp_path / "x.png")
    path = tmp_path / "missing" / "x.png"
    with pytest.raises(CannotWrite, match=f"cannot write {path}: No such file"):
        plot_ratings(tables, path)


def test_plot_takes_an_estimate_outside_or_on_its_interval(tables, tmp_path):
    """Regression (issue 16): a percentile interval need not hold its estimate, and an
    estimate may sit on an end; the plot drew bars from the estimate and failed with
    "'xerr' must not contain negative values"."""
    frame = tables[0].standings  # THAX: three bots
    frame.loc[0, ["elo_low", "elo_high"]] = [frame.loc[0, "elo"] + 5, frame.loc[0, "elo"] + 50]
    frame.loc[1, "elo_high"] = frame.loc[1, "elo"]
    frame.loc[2, ["elo_low", "elo_high"]] = [frame.loc[2, "elo"] - 60, frame.loc[2, "elo"] - 1]
    path = tmp_path / "outside.png"
    plot_ratings(tables, path)
    assert path.read_bytes().startswith(b"\x89PNG")


def test_the_table_fits_80_columns_without_cutting_a_number(tmp_path):
    """Acceptance (issue 17): in an 80-column terminal, `referee ratings` on a tournament
    folder shows every bot's Elo and interval, and no cell is cut to `…`."""
    from tests.ratings.helpers import synthetic_tournament
    from tests.records.helpers import write_jsonl

    folder = tmp_path / "tournament"
    folder.mkdir()
    names = ["alphabeta:depth=4", "greedy", "random", "expectimax:depth=2"]
    records = synthetic_tournament([150.0, 20.0, -200.0, 60.0], 20, seed=3)
    renamed = [
        r.model_copy(update={"players": [p.model_copy(update={"name": names[int(p.name[3:])]})
                                         for p in r.players]})
        for r in records
    ]  # fmt: skip
    write_jsonl(folder / "games.jsonl", renamed)
    run = run_in_terminal(["ratings", str(folder)], tmp_path)
    assert run.code == 0
    text = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", run.raw)  # what was written, escapes removed
    assert "…" not in text
    assert max(len(line) for line in text.splitlines()) <= 80
    wide = render(tables_from(tmp_path, renamed, interval="information"), "markdown")
    assert "| LOS next |" in wide
    (table,) = tables_from(tmp_path, renamed)
    for row in table.standings.itertuples():
        line = next(line for line in text.splitlines() if f" {row.bot} " in line)
        assert f"{row.elo:.1f}" in line
        assert f"[{row.elo_low:.1f}, {row.elo_high:.1f}]" in line
