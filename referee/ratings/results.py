"""Game records -> a pandas DataFrame of finished games, one row per game.

Records are read one at a time (a tournament's games.jsonl can hold millions of games), and
only what the tables need is kept: the game and variant, the two names, the result and the
pairing data. Unfinished games (no result yet) are left out and counted; a tournament game
read a second time (same tournament, pairing and game number) is left out with a warning.

A JSONL file is read by the scan (`referee.records.scan`): each line decoded with msgspec
into the header fields, checked, and the first turn's seat, without building the record
(the turns are passed over unread; `referee validate` checks them). Other formats are read
into full records.
"""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from referee.ratings.errors import RatingsInputError
from referee.records.formats import detect_stream
from referee.records.formats.referee_json import JsonlFormat
from referee.records.io import RecordError
from referee.records.keys import GameKey, game_key
from referee.records.model import Record
from referee.records.scan import Header, first_seat, scan_jsonl

TOURNAMENT_FILE = "games.jsonl"
"""The file of a tournament folder that holds its games."""

MAX_POINTS = 2**31 - 1
"""The most points a game may give to be rated: no game gives more, and the table adds the
points of every game up in 64-bit integers."""

DRAW = -1
"""The `winner` of a drawn game in the games frame (otherwise the winner's seat, 0 or 1)."""

COLUMNS: dict[str, str] = {
    "game": "category",
    "variant": "category",
    "white": "category",
    "black": "category",
    "winner": "int8",
    "first": "int8",
    "points": "int64",
    "reason": "category",
    "tournament": "object",
    "pairing": "Int64",
    "game_number": "Int64",
    "file": "category",
    "line": "int64",
}
"""The columns of the games frame and their types.

`white` and `black` are the names of the players on seat 0 and seat 1; `winner` is 0, 1 or
`DRAW`; `first` is the seat that made the first move (seat 0 when the game has none);
`points` are the points the winner got (a Takhteh gammon gives 2); `reason` is the
result's reason (`rules`, `resign`, `time`, ...); `tournament`, `pairing` and `game_number` come
from the record's event data (missing values are null); `file` and `line` say where the record
was read.
"""


def variant_of(ruleset: str) -> str:
    """The variant of a ruleset id `game/variant@version[?options]`."""
    return ruleset.partition("/")[2].partition("@")[0]


def make_frame(columns: Mapping[str, Sequence[Any] | np.ndarray]) -> pd.DataFrame:
    """A games frame from its columns (every column of `COLUMNS`), with the proper types."""
    return pd.DataFrame(
        {name: pd.Series(columns[name], dtype=kind) for name, kind in COLUMNS.items()}
    )


def _selection(value: str | Collection[str] | None) -> frozenset[str] | None:
    if value is None:
        return None
    return frozenset([value]) if isinstance(value, str) else frozenset(value)


@dataclass
class Selection:
    """Which games to keep: by game name, by variant, and by bots.

    With `bots`, a game is kept when both of its players are among them, so that the table is
    the one of that group of bots playing each other.
    """

    games: frozenset[str] | None = None
    variants: frozenset[str] | None = None
    bots: frozenset[str] | None = None

    def keeps(self, game: str, variant: str, white: str, black: str) -> bool:
        if self.games is not None and game not in self.games:
            return False
        if self.variants is not None and variant not in self.variants:
            return False
        return self.bots is None or (white in self.bots and black in self.bots)


@dataclass
class Games:
    """The finished games read, and what was left out."""

    frame: pd.DataFrame
    """One row per finished game; its columns are described by `COLUMNS`."""
    unfinished: dict[tuple[str, str], int] = field(default_factory=dict)
    """Games without a result, by (game, variant); they are not in `frame`."""
    files: tuple[str, ...] = ()
    """The record files read, in order."""


class _Rows:
    """Collects the games frame column by column while records stream past."""

    def __init__(self, selection: Selection) -> None:
        self.selection = selection
        self.columns: dict[str, list[Any]] = {name: [] for name in COLUMNS}
        self.unfinished: Counter[tuple[str, str]] = Counter()
        self.seen: dict[GameKey, tuple[str, int]] = {}
        self.repeats: list[tuple[str, int, str, int]] = []
        """Games read again: (file, line, where first read, its line)."""

    def add(self, record: Record | Header, first: int, file: str, line: int) -> None:
        """Add a game: its record (or scanned header), the seat of its first turn (0 when it
        has none) and where it was read."""
        key = game_key(record)  # type: ignore[arg-type]  # a header has the fields it reads
        if key is not None:
            if key in self.seen:
                self.repeats.append((file, line, *self.seen[key]))
                return
            self.seen[key] = (file, line)
        white, black = record.players[0].name, record.players[1].name
        variant = variant_of(record.ruleset)
        if not self.selection.keeps(record.game, variant, white, black):
            return
        result = record.result
        if result is None:
            self.unfinished[record.game, variant] += 1
            return
        if result.points > MAX_POINTS:
            raise RatingsInputError(
                file,
                f"the result gives {result.points} points, more than a table adds up "
                f"(at most {MAX_POINTS} a game)",
                line,
            )
        event = record.event
        row = (
            record.game,
            variant,
            white,
            black,
            DRAW if result.winner is None else result.winner,
            first,
            result.points,
            str(result.reason),
            event.tournament,
            event.pairing,
            event.game_number,
            file,
            line,
        )
        for column, value in zip(self.columns.values(), row, strict=True):
            column.append(value)

    def games(self, files: Sequence[str]) -> Games:
        return Games(make_frame(self.columns), dict(self.unfinished), tuple(files))


def games_from_records(
    records: Iterable[Record],
    *,
    file: str = "",
    game: str | Collection[str] | None = None,
    variant: str | Collection[str] | None = None,
    bots: Collection[str] | None = None,
) -> Games:
    """The games frame of records already in memory (for callers that hold them)."""
    rows = _Rows(Selection(_selection(game), _selection(variant), _selection(bots)))
    for number, record in enumerate(records, 1):
        rows.add(record, record.turns[0].seat if record.turns else 0, file, number)
    return rows.games([file] if file else [])


def record_files(paths: Iterable[str | Path]) -> list[Path]:
    """The record files named by `paths`: tournament folders (their games.jsonl) and files.

    A file named twice (say a folder and its games.jsonl) is read once.
    """
    files: list[Path] = []
    seen: set[Path] = set()
    for given in paths:
        path = Path(given)
        if path.is_dir():
            file = path / TOURNAMENT_FILE
            if not file.is_file():
                raise RatingsInputError(
                    path, f"a folder without {TOURNAMENT_FILE}, so not a tournament folder"
                )
        elif path.exists():
            file = path
        else:
            raise RatingsInputError(path, "no such file or folder")
        key = file.resolve()
        if key not in seen:
            seen.add(key)
            files.append(file)
    return files


def records_of(path: Path) -> Iterator[tuple[Record, int]]:
    """The records of one file with the line each starts on; a bad record stops the reading."""
    try:
        with path.open("rb") as stream:
            file_format, stream = detect_stream(path, stream)
            if file_format is None:
                raise RatingsInputError(path, "not a game record file in any format referee reads")
            for loaded in file_format.read(stream):
                if loaded.error is not None:
                    raise _bad(path, loaded.number, loaded.line, loaded.error)
                if loaded.record is not None:
                    yield loaded.record, loaded.line
    except OSError as error:
        raise RatingsInputError(path, f"cannot read: {error.strerror or error}") from None


def _bad(path: Path, number: int, line: int, error: RecordError) -> RatingsInputError:
    where = f" at {error.pointer}" if error.pointer else ""
    return RatingsInputError(path, f"record {number}{where}: {error.message}", line)


def _games_of(path: Path) -> Iterator[tuple[Record | Header, int, int]]:
    """The games of one file with the seat of their first turn and the line each starts
    on; a bad record stops the reading. JSONL is scanned, other formats read in full."""
    try:
        with path.open("rb") as stream:
            file_format, stream = detect_stream(path, stream)
            if file_format is None:
                raise RatingsInputError(path, "not a game record file in any format referee reads")
            if not isinstance(file_format, JsonlFormat):
                for record, line in records_of(path):
                    yield record, record.turns[0].seat if record.turns else 0, line
                return
            for number, line, raw, header, error in scan_jsonl(stream):
                if header is None:
                    assert error is not None
                    raise _bad(path, number, line, error)
                try:
                    first = first_seat(header, raw)
                except RecordError as refused:
                    raise _bad(path, number, line, refused) from None
                yield header, first, line
    except OSError as error:
        raise RatingsInputError(path, f"cannot read: {error.strerror or error}") from None


def read_games(
    paths: Iterable[str | Path],
    *,
    game: str | Collection[str] | None = None,
    variant: str | Collection[str] | None = None,
    bots: Collection[str] | None = None,
) -> Games:
    """Read tournament folders and record files (any mix) into a games frame.

    Each path is a tournament folder (its games.jsonl is read) or a record file in a format
    referee reads (.json, .jsonl). `game`, `variant` and `bots` select games as `Selection`
    says. Raises `RatingsInputError` naming the file (and line) for a missing path, a folder
    that is no tournament folder, an unreadable file or a record that is not valid.
    """
    rows = _Rows(Selection(_selection(game), _selection(variant), _selection(bots)))
    files = record_files(paths)
    for path in files:
        name = str(path)
        for record, first, line in _games_of(path):
            rows.add(record, first, name, line)
    if rows.repeats:
        file, line, first, first_line = rows.repeats[0]
        print(
            f"referee: warning: {len(rows.repeats)} games repeat a game read before (same "
            f"tournament, pairing and game number), each counted once; the first at "
            f"{file}:{line} repeats {first}:{first_line}",
            file=sys.stderr,
        )
    return rows.games([str(path) for path in files])
