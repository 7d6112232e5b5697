"""Every real game of the commented collection replays and ends as its `expected` column says.

Each game is read through the game-list format, replayed by the record replay and checked by
the validator core, as `referee validate` would on a .trx file.
"""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path

import pytest

from referee.records.formats import format_named
from referee.records.io import Loaded
from referee.records.model import Reason, Result
from referee.records.replay import ReplayError, final_state, replay
from referee.validator.check import validate_file, validate_loaded

FIXTURE = Path(__file__).parents[2] / "fixtures" / "trax" / "commented-games.tsv"
ROWS = list(csv.DictReader(FIXTURE.open(encoding="utf-8"), delimiter="\t"))
ILLEGAL_RULES = {"G19": "trax.8x8-limit"}
"""The rule broken by each game the collection records with an illegal move."""
COLOURS = ("white", "black")


def load(row: dict[str, str]) -> tuple[str, Loaded]:
    text = f"# Variant: {row['variant']}\n# Id: {row['id']}\n{row['moves']}\n"
    (loaded,) = format_named("trax").read(io.BytesIO(text.encode()))
    assert loaded.record is not None, loaded.error
    return text, loaded


def test_the_collection_holds_all_three_variants() -> None:
    assert len(ROWS) == 159
    assert {row["variant"] for row in ROWS} == {"standard", "looptrax", "8x8"}


@pytest.mark.parametrize("row", ROWS, ids=[row["id"] for row in ROWS])
def test_real_game_ends_as_expected(row: dict[str, str]) -> None:
    text, loaded = load(row)
    record = loaded.record
    assert record is not None
    assert record.ruleset == f"trax/{row['variant']}@1" and record.tags == {"Id": row["id"]}
    report = validate_loaded("commented-games.trx", loaded)
    expected = row["expected"]
    if match := re.fullmatch(r"(white|black) wins by (loop|line)", expected):
        winner = COLOURS.index(match.group(1))
        assert record.result == Result(
            winner=winner, points=1, reason=Reason.RULES, detail=match.group(2)
        )
        outcome = final_state(record).outcome()
        assert outcome is not None and (outcome.winner, outcome.detail) == (winner, match[2])
        assert report.valid, report.diagnostics
    elif match := re.fullmatch(r"(white|black) resigns", expected):
        loser = COLOURS.index(match.group(1))
        assert record.result == Result(winner=1 - loser, points=1, reason=Reason.RESIGN)
        state = final_state(record)
        assert state.to_move == loser and not state.is_terminal()
        assert report.valid, report.diagnostics
    elif expected == "unfinished":
        assert record.result is None
        assert not final_state(record).is_terminal()
        assert report.valid, report.diagnostics
    else:
        match = re.fullmatch(r"illegal: move (\d+) (\S+)", expected)
        assert match is not None, expected
        turn, token = int(match.group(1)), match.group(2)
        with pytest.raises(ReplayError) as raised:
            list(replay(record))
        assert raised.value.turn == turn - 1
        assert raised.value.code == ILLEGAL_RULES[row["id"]]
        assert not report.valid
        (diagnostic,) = report.diagnostics
        assert (diagnostic.turn, diagnostic.move) == (turn, token)
        assert diagnostic.code == ILLEGAL_RULES[row["id"]]
        line = text.splitlines()[diagnostic.line - 1]  # type: ignore[operator]
        assert line[diagnostic.column - 1 :].startswith(token)  # type: ignore[operator]


def test_the_whole_collection_reads_as_one_game_list() -> None:
    """One file, one blank-line separated block per game; each game keeps its own line."""
    text = "\n".join(f"# Variant: {row['variant']}\n{row['moves']}\n" for row in ROWS)
    loaded = list(format_named("trax").read(io.BytesIO(text.encode())))
    assert [item.number for item in loaded] == list(range(1, 160))
    assert [item.line for item in loaded] == [3 * index + 1 for index in range(159)]
    reports = [validate_loaded("all.trx", item) for item in loaded]
    assert [row["id"] for row, report in zip(ROWS, reports, strict=True) if not report.valid] == [
        "G19"
    ]


def test_validate_file_reads_a_game_list_and_points_at_the_bad_token(tmp_path: Path) -> None:
    """`referee validate games.txt`: found by content, each game judged, the bad move located."""
    path = tmp_path / "games.txt"
    path.write_text("@0+ B1+ Resign\n\n1. @0/ 2. B1\\\n3. A2\\ 4. A0+\n", encoding="utf-8")
    first, second = validate_file(path)
    assert first.valid and first.turns == 2
    assert not second.valid
    (diagnostic,) = second.diagnostics
    assert (diagnostic.code, diagnostic.turn, diagnostic.move) == ("after-end", 4, "A0+")
    assert (diagnostic.line, diagnostic.column) == (4, 11)
    assert diagnostic.position is not None and "Black wins by a loop" in diagnostic.position
