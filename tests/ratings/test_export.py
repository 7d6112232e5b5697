"""`referee export`: results for Ordo and BayesElo as PGN, read back by python-chess, and CSV."""

from __future__ import annotations

import csv
import io
import json
import re

import chess.pgn
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from referee.cli.app import app
from referee.ratings.export import pgn_game
from referee.records.model import Reason
from tests.ratings.helpers import record
from tests.records.helpers import write_jsonl

runner = CliRunner()
TOKEN = {0: "1-0", 1: "0-1", None: "1/2-1/2"}


def _unescape(value: str) -> str:
    """PGN's string escapes (standard 7: `\\"` and `\\\\`), which python-chess leaves as
    written."""
    return re.sub(r"\\(.)", r"\1", value)


def _pgn_headers(text: str) -> list[chess.pgn.Headers]:
    stream = io.StringIO(text)
    headers = []
    while (found := chess.pgn.read_headers(stream)) is not None:
        headers.append(found)
    return headers


def test_pgn_of_a_thax_tournament_reads_back_in_python_chess(tmp_path):
    """Acceptance (issue 19): the PGN of a 3-bot THAX tournament gives python-chess every
    game back with its players (seat 0 as White) and result."""
    out = tmp_path / "thax"
    bots = "random,greedy,thax-perfect"
    run = ["tournament", "run", "--out", str(out), "--game", "thax", "--bots", bots]
    result = runner.invoke(app, [*run, "--games-per-pair", "4", "-q"])
    assert result.exit_code == 0, result.output
    pgn = tmp_path / "results.pgn"
    result = runner.invoke(app, ["export", str(out), "--format", "pgn", "-o", str(pgn)])
    assert result.exit_code == 0, result.output
    stored = [json.loads(line) for line in (out / "games.jsonl").read_text().splitlines()]
    headers = _pgn_headers(pgn.read_text())
    assert len(headers) == len(stored) > 0
    for game, header in zip(stored, headers, strict=True):
        assert header["White"] == game["players"][0]["name"]
        assert header["Black"] == game["players"][1]["name"]
        assert header["Result"] == TOKEN[game["result"]["winner"]]
        assert header["Ruleset"] == game["ruleset"]


@settings(max_examples=60, deadline=None)
@given(
    st.text(min_size=1, max_size=30),
    st.text(min_size=1, max_size=30),
    st.sampled_from([0, 1, None]),
    st.sampled_from(list(Reason)),
)
def test_any_names_and_results_read_back(white, black, winner, reason):
    """Names with quotes, backslashes or line breaks, and every result, survive the PGN
    string escapes; a forfeit carries PGN's Termination."""
    game = record(white, black, winner, reason=reason)
    (header,) = _pgn_headers(pgn_game(game, 1))
    flat = [
        " ".join("".join(c if c.isprintable() else " " for c in n).split()) for n in (white, black)
    ]
    assert [_unescape(header["White"]), _unescape(header["Black"])] == flat
    assert header["Result"] == TOKEN[winner]
    expected = {
        Reason.TIME: "time forfeit",
        Reason.CRASH: "rules infraction",
        Reason.ILLEGAL_MOVE: "rules infraction",
        Reason.PROTOCOL_ERROR: "rules infraction",
        Reason.ADJUDICATED: "adjudication",
        Reason.RESIGN: "normal",
    }
    assert header.get("Termination") == expected.get(reason)


def test_csv_has_a_row_per_game_and_unfinished_games_as_star(tmp_path):
    records = [
        record("a", "b", 0, points=2, tournament="t", pairing=0, game_number=0),
        record("b", "a", None, tournament="t", pairing=0, game_number=1),
        record("a", "b", 1, finished=False),
    ]
    path = tmp_path / "games.jsonl"
    write_jsonl(path, records)
    result = runner.invoke(app, ["export", str(path), "--format", "csv"])
    assert result.exit_code == 0, result.output
    rows = list(csv.DictReader(io.StringIO(result.output)))
    assert [(r["seat0"], r["seat1"], r["result"], r["points"]) for r in rows] == [
        ("a", "b", "1-0", "2"),
        ("b", "a", "1/2-1/2", "0"),
        ("a", "b", "*", ""),
    ]
    assert rows[0]["pairing"] == "0" and rows[2]["tournament"] == ""


def test_bad_input_is_one_line_and_leaves_no_file(tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text("{not json\n")
    out = tmp_path / "out.pgn"
    result = runner.invoke(app, ["export", str(bad), "-o", str(out)])
    assert result.exit_code == 2
    assert "bad.jsonl:1" in result.output and "Traceback" not in result.output
    assert not out.exists() and not list(tmp_path.glob("*.tmp"))
