"""Results for other raters: a minimal PGN game per record (Ordo, BayesElo), or CSV.

Only who played whom and the result are written: a PGN game of the Seven Tag Roster (Event,
Site, Date, Round, White, Black, Result), the ruleset as `Ruleset`, `Termination` where the
game did not end by the rules, and the result token as the whole movetext. Seat 0 is White,
seat 1 Black, whatever the game calls its sides (docs/ratings.md says what seat 0 is in each
game). Records are read one at a time, so a file of millions of games streams through.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import IO

from referee.escaping import csv_cell, one_line
from referee.games.base import ruleset_variant
from referee.ratings.formats import RESULT_EXPORTS
from referee.ratings.results import record_files, records_of
from referee.records.model import Reason, Record

TERMINATION: dict[Reason, str] = {
    Reason.RESIGN: "normal",
    Reason.ADJUDICATED: "adjudication",
    Reason.TIME: "time forfeit",
    Reason.CRASH: "rules infraction",
    Reason.ILLEGAL_MOVE: "rules infraction",
    Reason.PROTOCOL_ERROR: "rules infraction",
}
"""PGN's Termination values (PGN standard 9.8.1) for results not decided by the rules."""

CSV_COLUMNS: tuple[str, ...] = (
    "game",
    "variant",
    "ruleset",
    "seat0",
    "seat1",
    "result",
    "winner",
    "reason",
    "points",
    "turns",
    "tournament",
    "pairing",
    "game_number",
    "file",
    "line",
)
"""One row per game: `seat0` and `seat1` are the players on seat 0 and seat 1 (whatever the
game calls its sides), `result` the PGN token, `winner` 0, 1 or empty."""

_DATE = re.compile(r"(\d{4})[-.](\d{2})[-.](\d{2})")


def result_token(record: Record) -> str:
    """`1-0` when seat 0 won, `0-1` when seat 1 won, `1/2-1/2` for a draw, `*` unfinished."""
    result = record.result
    if result is None:
        return "*"
    return {0: "1-0", 1: "0-1", None: "1/2-1/2"}[result.winner]


def _tag_value(text: str) -> str:
    # PGN 8.1.1: a string token escapes `"` and `\` with a backslash; tabs and line breaks
    # are not allowed in it, and a tag pair sits on one line.
    return one_line(text).replace("\\", "\\\\").replace('"', '\\"')


def _date(text: str | None) -> str:
    found = _DATE.match(text or "")
    return ".".join(found.groups()) if found else "????.??.??"


def pgn_game(record: Record, number: int) -> str:
    """One record as a minimal PGN game; `number` is its place in the export (1-based)."""
    event = record.event
    name = event.event or event.tournament or record.game
    round_ = event.round or (str(event.game_number + 1) if event.game_number is not None else "-")
    tags = [
        ("Event", name),
        ("Site", event.site or "?"),
        ("Date", _date(event.date)),
        ("Round", round_),
        ("White", record.players[0].name),
        ("Black", record.players[1].name),
        ("Result", result_token(record)),
        ("Ruleset", record.ruleset),
        ("GameNumber", str(number)),
    ]
    result = record.result
    if result is not None and result.reason in TERMINATION:
        tags.append(("Termination", TERMINATION[result.reason]))
    lines = [f'[{key} "{_tag_value(value)}"]' for key, value in tags]
    return "\n".join(lines) + f"\n\n{result_token(record)}\n\n"


def _csv_row(record: Record, file: str, line: int) -> list[object]:
    result, event = record.result, record.event
    return [
        record.game,
        ruleset_variant(record.ruleset),
        record.ruleset,
        record.players[0].name,
        record.players[1].name,
        result_token(record),
        "" if result is None or result.winner is None else result.winner,
        "" if result is None else result.reason.value,
        "" if result is None else result.points,
        len(record.turns),
        event.tournament or "",
        "" if event.pairing is None else event.pairing,
        "" if event.game_number is None else event.game_number,
        file,
        line,
    ]


def _records(paths: Iterable[str | Path]) -> Iterator[tuple[Record, str, int]]:
    for path in record_files(paths):
        for record, line in records_of(path):
            yield record, str(path), line


def write_pgn(games: Iterable[tuple[Record, str, int]], out: IO[str]) -> int:
    """A minimal PGN game per record (`pgn_game`), numbered from 1."""
    count = 0
    for record, _, _ in games:
        count += 1
        out.write(pgn_game(record, count))
    return count


def write_csv(games: Iterable[tuple[Record, str, int]], out: IO[str]) -> int:
    """A header of `CSV_COLUMNS`, then a row per game."""
    count = 0
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for record, file, line in games:
        writer.writerow([csv_cell(cell) for cell in _csv_row(record, file, line)])
        count += 1
    return count


def export_results(paths: Iterable[str | Path], output_format: str, out: IO[str]) -> int:
    """Write every record of `paths` (tournament folders and record files) to `out` in
    `output_format`, one of `RESULT_EXPORTS` (pgn, csv); returns the number of games. Raises
    ValueError for another format, `RatingsInputError` for bad input, naming the file and
    line, before or while writing (the caller writes to a temporary file)."""
    return RESULT_EXPORTS.named(output_format).load()(_records(paths), out)
