"""Names made to attack what reads referee's output (a spreadsheet formula, terminal escape
sequences, HTML, a Markdown pipe, a line break) go through every output format as text: no
formula cell, no raw control character, no raw HTML, no header or cell broken open."""

from __future__ import annotations

import csv
import io
import json
import re
import unicodedata
from collections.abc import Sequence
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from referee.archive.stats import collect_stats, render_stats
from referee.cli.app import app
from referee.games import get_game
from referee.players.registry import make_bot
from referee.ratings.export import export_results
from referee.ratings.formats import RATING_OUTPUTS
from referee.ratings.output import print_tables, render
from referee.ratings.results import read_games
from referee.ratings.table import RatingOptions, build_tables
from referee.records.model import EventInfo, Player, Record
from referee.tournament.play import GameSetup, play_game
from tests.ratings.helpers import record
from tests.records.helpers import write_jsonl

runner = CliRunner()

FORMULA = "=cmd|' /C calc'!A0"
ESCAPES = "\x1b]0;PWNED\x07\x1b[2J"
SCRIPT = "<script>alert(1)</script>"
PAYLOADS = (
    FORMULA,
    "+1",
    "-2+3",
    "@SUM(A1)",
    "\t=1",
    "\r=1",
    ESCAPES,
    SCRIPT,
    "a|b",
    '"quoted" \\ back',
    "new\nline",
    "\x9b31mC1",  # the one-character CSI of C1
    "\u202eevil",  # right-to-left override
)

CSV_SHOWN = {
    FORMULA: "'=cmd|' /C calc'!A0",
    "+1": "'+1",
    "-2+3": "'-2+3",
    "@SUM(A1)": "'@SUM(A1)",
    "\t=1": "\\t=1",
    "\r=1": "\\r=1",
    ESCAPES: "\\x1b]0;PWNED\\x07\\x1b[2J",
    SCRIPT: SCRIPT,
    "a|b": "a|b",
    '"quoted" \\ back': '"quoted" \\ back',
    "new\nline": "new\\nline",
    "\x9b31mC1": "\\x9b31mC1",
    "\u202eevil": "\\u202eevil",
}
"""Each payload as a CSV cell shows it: control characters written as Python writes them,
a `'` before a formula."""

ONE_LINE = {
    ESCAPES: "]0;PWNED [2J",
    "new\nline": "new line",
    "\t=1": "=1",
    "\r=1": "=1",
    "\x9b31mC1": "31mC1",
    "\u202eevil": "evil",
}
"""The payloads a PGN tag changes: each character `str.isprintable` refuses as a space, spaces
collapsed; the others stay as they are."""

FORMULA_START = ("=", "+", "-", "@", "\t", "\r")

HOSTILE = st.text(
    st.one_of(
        st.sampled_from(list("=+-@\t\r\n\x1b\x07\x9b\x7f\u202e\u2028<>&|\\\"'`*_[]{}#:; ")),
        st.characters(exclude_categories=["Cs"]),
    ),
    min_size=1,
    max_size=12,
)
"""Names from an alphabet rich in what other programs act on."""


def raw_controls(text: str) -> list[str]:
    """The characters of `text` a terminal would act on, but for the line breaks of the
    output itself."""
    return [char for char in text if not char.isprintable() and char != "\n"]


def c0_c1_controls(text: str) -> list[str]:
    """The control characters (Unicode category Cc) of `text` but its line breaks: what a
    record file's header must not hold raw (a bidi override it may hold, as text)."""
    return [char for char in text if unicodedata.category(char) == "Cc" and char != "\n"]


def is_number(cell: str) -> bool:
    try:
        float(cell)
    except ValueError:
        return False
    return True


def check_csv(text: str) -> list[list[str]]:
    rows = list(csv.reader(io.StringIO(text)))
    for row in rows:
        for cell in row:
            assert not raw_controls(cell), cell
            assert is_number(cell) or not cell.startswith(FORMULA_START), cell
    return rows


def markdown_cells(line: str) -> list[str]:
    """The cells of a Markdown table row, a backslash escaping the next character."""
    cells, current, escaped = [], "", False
    for char in line.strip()[1:-1]:
        if escaped:
            current += char
            escaped = False
        elif char == "\\":
            escaped = True
        elif char == "|":
            cells.append(current.strip())
            current = ""
        else:
            current += char
    return [*cells, current.strip()]


def check_markdown(text: str) -> list[list[str]]:
    """Every table row of `text` has as many cells as its header; the cells, unescaped."""
    assert not raw_controls(text)
    assert not re.search(r"<[A-Za-z/!?]", text), "raw HTML"
    rows: list[list[str]] = []
    width = 0
    for line in text.splitlines():
        if not line.startswith("|"):
            width = 0
            continue
        cells = markdown_cells(line)
        width = width or len(cells)
        assert len(cells) == width, line
        rows.append(cells)
    return rows


def check_html(text: str) -> None:
    assert not raw_controls(text)
    assert "<script>alert" not in text
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in text


def thax_records(names: Sequence[str]) -> list[Record]:
    """A round of games in which each name meets the next (so all are rated), both ways, and
    the first beats the second once more (so that some ratings are negative)."""
    games = [record(names[0], names[1], 0, tournament="t", game_number=0)]
    for index, name in enumerate(names):
        other = names[(index + 1) % len(names)]
        games.append(record(name, other, 0, tournament="t", game_number=2 * index + 1))
        games.append(record(other, name, 0, tournament="t", game_number=2 * index + 2))
    return games


def played(game: str, names: Sequence[str], turn_cap: int = 40) -> list[Record]:
    """Real games of `game` between random bots that carry the names, two names a game."""
    rules = get_game(game)
    records = []
    for index in range(0, len(names), 2):
        seats = [names[index], names[(index + 1) % len(names)]]
        players = [Player(name=name, kind="bot", spec="random") for name in seats]
        bots = [make_bot(game, "random") for _ in seats]
        event = EventInfo(event=ESCAPES + SCRIPT, tournament="t", game_number=index)
        records.append(
            play_game(
                GameSetup(
                    rules, rules.ruleset(), players, str(index), turn_cap=turn_cap, event=event
                ),
                bots,
            )
        )
    return records


@pytest.fixture(scope="module")
def payload_games(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("payloads") / "games.jsonl"
    write_jsonl(path, thax_records(PAYLOADS))
    return path


def invoke(args: Sequence[object]) -> str:
    result = runner.invoke(app, [str(arg) for arg in args])
    assert result.exit_code == 0, result.output
    return result.stdout


# -- CSV: ratings, stats, export -------------------------------------------------------------


def test_ratings_csv_neutralises_formulas_and_keeps_negative_ratings_numbers(payload_games):
    rows = check_csv(invoke(["ratings", payload_games, "--format", "csv"]))
    header, body = rows[0], rows[1:]
    bots = [row[header.index("bot")] for row in body]
    assert sorted(bots) == sorted(CSV_SHOWN.values())
    elos = [row[header.index("elo")] for row in body]
    assert any(elo.startswith("-") and is_number(elo) for elo in elos), elos


def test_stats_csv_neutralises_formulas(payload_games):
    rows = check_csv(invoke(["stats", payload_games, "--format", "csv"]))
    names = {row[3] for row in rows if row[2] == "player_games"}
    assert names == set(CSV_SHOWN.values())


def test_export_csv_neutralises_formulas(payload_games):
    rows = check_csv(invoke(["export", payload_games, "--format", "csv"]))
    header, body = rows[0], rows[1:]
    seats = {row[header.index(seat)] for row in body for seat in ("seat0", "seat1")}
    assert seats == set(CSV_SHOWN.values())


# -- Markdown, HTML and the terminal ---------------------------------------------------------


def test_ratings_markdown_escapes_html_pipes_and_controls(payload_games):
    rows = check_markdown(invoke(["ratings", payload_games, "--format", "markdown"]))
    shown = {row[1] for row in rows}
    assert SCRIPT.replace("<", "&lt;").replace(">", "&gt;") in shown
    assert "a|b" in shown
    assert "\\x1b]0;PWNED\\x07\\x1b[2J" in shown


def test_stats_markdown_escapes_html_pipes_and_controls(payload_games):
    rows = check_markdown(invoke(["stats", payload_games, "--format", "markdown"]))
    assert "a|b" in {row[0] for row in rows}


def test_ratings_html_escapes_html_and_controls(payload_games):
    check_html(invoke(["ratings", payload_games, "--format", "html"]))


def test_report_page_escapes_html_and_controls(payload_games, tmp_path):
    page = tmp_path / "report.html"
    invoke(["report", payload_games, "-o", page])
    check_html(page.read_text("utf-8"))


@pytest.mark.parametrize("command", ["ratings", "stats"])
def test_terminal_tables_show_control_characters_escaped(payload_games, command):
    text = invoke([command, payload_games])
    assert not raw_controls(text)
    assert "\\x1b]0;PWNED\\x07\\x1b[2J" in text
    assert "new\\nline" in text


def test_an_error_shows_the_escape_sequences_of_a_path(tmp_path):
    result = runner.invoke(app, ["ratings", str(tmp_path / f"no{ESCAPES}such.jsonl")])
    assert result.exit_code == 2
    assert "no\\x1b]0;PWNED\\x07\\x1b[2Jsuch.jsonl" in result.output
    assert not raw_controls(result.output)


# -- Headers of the text formats: PGN, PDN, Trax game lists, .mat -----------------------------


def pgn_value(line: str) -> str:
    found = re.fullmatch(r'\[[A-Za-z]+ "((?:[^"\\]|\\.)*)"\]', line)
    assert found is not None, f"not one tag pair: {line!r}"
    return re.sub(r"\\(.)", r"\1", found.group(1))


def test_export_pgn_keeps_each_name_inside_its_tag(payload_games):
    text = invoke(["export", payload_games, "--format", "pgn"])
    assert not raw_controls(text)
    tags = [pgn_value(line) for line in text.splitlines() if line.startswith("[")]
    assert len(tags) == 9 * (2 * len(PAYLOADS) + 1)
    whites = set(tags[4::9])
    assert whites == {ONE_LINE.get(name, name) for name in PAYLOADS}


@pytest.mark.parametrize(("game", "fmt"), [("thai", "pdn"), ("trax", "trax"), ("takhteh", "mat")])
def test_converted_files_hold_names_on_their_header_lines(tmp_path, game, fmt):
    source = tmp_path / "games.jsonl"
    write_jsonl(source, played(game, PAYLOADS))
    # .mat holds one match a file: its games go to a folder, a file per match.
    target = tmp_path / ("matches" if fmt == "mat" else f"games.{fmt}")
    result = runner.invoke(app, ["convert", str(source), str(target), "--to", fmt])
    assert result.exit_code == 0, result.output
    files = sorted(target.glob("*.mat")) if fmt == "mat" else [target]
    assert len(files) == ((len(PAYLOADS) + 1) // 2 if fmt == "mat" else 1)
    text = "".join(file.read_text("utf-8") for file in files)
    assert not c0_c1_controls(text)
    if fmt == "pdn":
        values = [pgn_value(line) for line in text.splitlines() if line.startswith("[")]
        assert {"]0;PWNED [2J<script>alert(1)</script>", "new line", '"quoted" \\ back'} <= {
            " ".join(value.split()) for value in values
        }
    for file in files:
        back = runner.invoke(app, ["validate", str(file)])
        assert "[schema]" not in back.output


# -- Any name, from a hostile alphabet -------------------------------------------------------


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(names=st.lists(HOSTILE, min_size=2, max_size=4, unique=True))
def test_any_names_through_every_rating_format(tmp_path, names):
    path = tmp_path / "games.jsonl"
    write_jsonl(path, thax_records(names))
    tables = build_tables(read_games([path]), RatingOptions())
    for fmt in RATING_OUTPUTS.names():
        text = render(tables, fmt)
        if fmt == "csv":
            check_csv(text)
        elif fmt == "markdown":
            rows = check_markdown(text)
            assert len(rows) > len(names)
        elif fmt == "html":
            assert not raw_controls(text)
            assert not re.search(r"<script", text, re.IGNORECASE)
        else:
            assert not raw_controls(text)
            shown = {row["bot"] for table in json.loads(text) for row in table["standings"]}
            assert shown == set(names)
    from rich.console import Console

    console = Console(file=io.StringIO(), width=200)
    print_tables(tables, console)
    assert not raw_controls(console.file.getvalue())  # type: ignore[attr-defined]
    for fmt in ("csv", "pgn"):
        out = io.StringIO()
        export_results([path], fmt, out)  # type: ignore[arg-type]
        if fmt == "csv":
            check_csv(out.getvalue())
        else:
            assert not raw_controls(out.getvalue())
            for line in out.getvalue().splitlines():
                if line.startswith("["):
                    pgn_value(line)
    summary = collect_stats([str(path)], 2, lambda message: None)
    check_csv(render_stats(summary, "csv"))
    check_markdown(render_stats(summary, "markdown"))
    assert not raw_controls(render_stats(summary, "text"))
