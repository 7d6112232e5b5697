"""Game records -> a pandas DataFrame of finished games, one row per game.

Records are read one at a time (a tournament's games.jsonl can hold millions of games), and
only what the tables need is kept: the game and variant, the two names, the result and the
pairing data. Unfinished games (no result yet) are left out and counted; a tournament game
read a second time (same tournament, pairing and game number) is left out with a warning.

A JSONL file is skimmed (`referee.records.scan.skim_jsonl`): each line decoded with msgspec
into the header fields, checked, and the first turn's seat read from the text, without
building the record and without reading the turns (`referee validate` checks them). Other
formats are read into full records.
"""

from __future__ import annotations

import sys
from array import array
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np
import pandas as pd

from referee.games.base import ruleset_variant
from referee.path_names import GAMES_FILE, TOURNAMENT_FILE
from referee.ratings.errors import RatingsInputError
from referee.wording import plural

if TYPE_CHECKING:
    from referee.records.io import RecordError
    from referee.records.model import Record
    from referee.records.scan import Header

MAX_POINTS = 2**31 - 1
"""The most points a game may give to be rated: no game gives more, and the table adds the
points of every game up in 64-bit integers."""

ADJUSTED = "adjusted"
"""The column of seat 0's luck-adjusted result that `analysis.adjusted` adds to a games
frame for luck-adjusted ratings (not one of `COLUMNS`: plain tables have none)."""

DRAW = -1
"""The `winner` of a drawn game in the games frame (otherwise the winner's seat, 0 or 1)."""

COLUMNS: dict[str, str] = {
    "game": "category",
    "variant": "category",
    "seat0": "category",
    "seat1": "category",
    "winner": "int8",
    "first": "int8",
    "points": "int64",
    "reason": "category",
    "tournament": "object",
    "pairing": "Int64",
    "game_number": "Int64",
    "match_game": "int64",
    "file": "category",
    "line": "int64",
}
"""The columns of the games frame and their types.

`seat0` and `seat1` are the names of the players on seat 0 and seat 1; `winner` is 0, 1 or
`DRAW`; `first` is the seat that made the first move (seat 0 when the game has none);
`points` are the points the winner got (a Takhteh gammon gives 2); `reason` is the
result's reason (`rules`, `resign`, `time`, ...); `tournament`, `pairing` and `game_number` come
from the record's event data (missing values are null), `match_game` is the game's number in
its match (0 outside a match), so that these four are `records.keys.game_key`; `file` and
`line` say where the record was read.
"""


def make_frame(columns: Mapping[str, Any]) -> pd.DataFrame:
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


@dataclass
class Games:
    """The finished games read, and what was left out."""

    frame: pd.DataFrame
    """One row per finished game; its columns are described by `COLUMNS`."""
    unfinished: dict[tuple[str, str], int] = field(default_factory=dict)
    """Games without a result, by (game, variant); they are not in `frame`."""
    files: tuple[str, ...] = ()
    """The record files read, in order."""


UNFINISHED = -2
"""The `winner` of a game without a result, while games are read."""

FIELDS = (
    "game", "ruleset", "seat0", "seat1", "winner", "first", "points", "reason",
    "tournament", "pairing", "game_number", "match_game", "file", "line",
)  # fmt: skip
"""What is kept of each game read, as numbers: texts by their number in `Numbers`, a
missing tournament, pairing or game number as -1."""


class Numbers(dict[str, int]):
    """Texts numbered in the order met (`numbers[text]`, a new text gets the next number):
    a column is read as small numbers, each text kept once however many games repeat it (a
    million games name ten bots)."""

    def __missing__(self, text: str) -> int:
        number = self[text] = len(self)
        return number

    def texts(self) -> np.ndarray:
        return np.array(list(self), dtype=object)

    def column(self, numbers: np.ndarray) -> pd.Categorical:
        """The texts of `numbers` as a categorical column whose categories are the texts
        used, sorted (as pandas makes a column of texts categorical)."""
        texts = list(self)
        present = np.flatnonzero(np.bincount(numbers, minlength=len(texts)))  # not a sort
        used = sorted(present.tolist(), key=texts.__getitem__)
        rank = np.zeros(len(texts), dtype=np.int64)
        rank[used] = np.arange(len(used))
        # pandas-stubs want the categories as an Index; pandas takes the list as documented.
        return pd.Categorical.from_codes(rank[numbers], [str(texts[i]) for i in used])  # type: ignore[call-overload]


@dataclass(frozen=True)
class _Repeats:
    count: int
    first: tuple[str, int, str, int]
    """The first game read again: (file, line, where first read, its line)."""


TEXTS = {
    "game": "games_",
    "ruleset": "rulesets",
    "seat0": "bots",
    "seat1": "bots",
    "reason": "reasons",
    "tournament": "tournaments",
    "file": "files",
}
"""The fields of `FIELDS` held as numbers of texts, and the table of `GameRows` that numbers
them (-1 in `reason` and `tournament`: none)."""


class GameRows:
    """Every game read, as numbers (`FIELDS`) appended column by column while records
    stream past; `games` then leaves out the repeated, unselected and unfinished ones at
    once. The rows of one file can be kept (`ratings.summaries`) and added to others
    (`extend`)."""

    def __init__(self) -> None:
        self.games_ = Numbers()
        self.rulesets = Numbers()
        self.bots = Numbers()
        self.reasons = Numbers()
        self.tournaments = Numbers()
        self.files = Numbers()
        self.columns = {name: array("q") for name in FIELDS}
        """Each field's numbers, appended to game by game."""
        self.given: dict[str, np.ndarray] = {}
        """Or each field's numbers as a summary gives them (`ratings.summaries`): taken as
        they are, not copied into `columns`."""
        self.huge: dict[int, int] = {}
        """Points above MAX_POINTS by row (the row holds MAX_POINTS + 1)."""

    def __len__(self) -> int:
        return len(self.column("line"))

    def column(self, name: str) -> np.ndarray:
        """A field of every game; a view of the column, not a copy."""
        given = self.given.get(name)
        return np.frombuffer(self.columns[name], dtype=np.int64) if given is None else given

    def extend(self, other: GameRows) -> None:
        """Add the games of `other`, their texts numbered as this one numbers them (`other`
        is taken over, not copied, when this one is still empty)."""
        if not len(self) and not any(getattr(self, name) for name in TEXTS.values()):
            for name in TEXTS.values():
                setattr(self, name, getattr(other, name))
            self.columns, self.given, self.huge = other.columns, other.given, other.huge
            return
        for name, numbers in self.given.items():
            self.columns[name] = array("q", numbers.tobytes())
        self.given = {}
        start = len(self)
        for name in FIELDS:
            values = other.column(name)
            if name in TEXTS:
                mine: Numbers = getattr(self, TEXTS[name])
                renumber = np.array([mine[text] for text in getattr(other, TEXTS[name])] + [-1])
                values = renumber[values]  # -1 (none) stays -1: the last
            self.columns[name].frombytes(values.tobytes())
        self.huge.update((start + row, points) for row, points in other.huge.items())

    def add(self, record: Record | Header, first: int, file: str, line: int) -> None:
        """Add a game: its record (or scanned header), the seat of its first turn (0 when it
        has none) and where it was read."""
        column = self.columns
        result, event = record.result, record.event
        if result is None:
            winner, points, reason = UNFINISHED, 0, -1
        else:
            winner = DRAW if result.winner is None else result.winner
            points = result.points
            reason = self.reasons[result.reason]  # a StrEnum: the same key as its text
            if points > MAX_POINTS:
                self.huge[len(self)] = points
                points = MAX_POINTS + 1
        match = record.match_info()
        tournament, pairing, number = event.tournament, event.pairing, event.game_number
        # An append to each column costs less than a row of fourteen numbers to one array.
        column["game"].append(self.games_[record.game])
        column["ruleset"].append(self.rulesets[record.ruleset])
        column["seat0"].append(self.bots[record.players[0].name])
        column["seat1"].append(self.bots[record.players[1].name])
        column["winner"].append(winner)
        column["first"].append(first)
        column["points"].append(points)
        column["reason"].append(reason)
        column["tournament"].append(-1 if tournament is None else self.tournaments[tournament])
        column["pairing"].append(-1 if pairing is None else pairing)
        column["game_number"].append(-1 if number is None else number)
        column["match_game"].append(0 if match is None else match.game)
        column["file"].append(self.files[file])
        column["line"].append(line)

    def games(self, selection: Selection, files: Sequence[str]) -> tuple[Games, _Repeats | None]:
        """The games frame of the games `selection` keeps, and the games read again, if
        any."""
        row = {name: self.column(name) for name in FIELDS}
        repeated, repeats = self._repeats(row)
        variants = Numbers()
        variant = np.array([variants[ruleset_variant(ruleset)] for ruleset in self.rulesets])
        variant = variant[row["ruleset"]] if len(variant) else row["ruleset"]
        keep = ~repeated & self._selected(row, selection, variants, variant)
        unfinished = np.flatnonzero(keep & (row["winner"] == UNFINISHED))
        games, names = self.games_.texts(), variants.texts()
        counts = Counter(
            zip(
                games[row["game"][unfinished]].tolist(),
                names[variant[unfinished]].tolist(),
                strict=True,
            )
        )
        keep[unfinished] = False
        kept = np.flatnonzero(keep)
        huge = kept[row["points"][kept] > MAX_POINTS]
        if len(huge):
            first = int(huge[0])
            raise RatingsInputError(
                f"the result gives {self.huge[first]} points, more than a table adds up "
                f"(at most {MAX_POINTS} a game)",
                path=self.files.texts()[row["file"][first]],
                line=int(row["line"][first]),
            )
        frame = make_frame(
            {
                "game": self.games_.column(row["game"][kept]),
                "variant": variants.column(variant[kept]),
                "seat0": self.bots.column(row["seat0"][kept]),
                "seat1": self.bots.column(row["seat1"][kept]),
                "winner": row["winner"][kept],
                "first": row["first"][kept],
                "points": row["points"][kept],
                "reason": self.reasons.column(row["reason"][kept]),
                # -1, no tournament: the None appended last
                "tournament": np.append(self.tournaments.texts(), None)[  # type: ignore[call-overload]
                    row["tournament"][kept]
                ],
                "pairing": _nullable(row["pairing"][kept]),
                "game_number": _nullable(row["game_number"][kept]),
                "match_game": row["match_game"][kept],
                "file": self.files.column(row["file"][kept]),
                "line": row["line"][kept],
            }
        )
        return Games(frame, dict(counts), tuple(files)), repeats

    def _selected(
        self,
        row: dict[str, np.ndarray],
        selection: Selection,
        variants: Numbers,
        variant: np.ndarray,
    ) -> np.ndarray:
        """Whether each game is one `selection` keeps."""

        def allowed(texts: Iterable[str], chosen: frozenset[str] | None) -> np.ndarray:
            return np.array([chosen is None or text in chosen for text in texts], dtype=bool)

        bots = allowed(self.bots, selection.bots)
        return (
            allowed(self.games_, selection.games)[row["game"]]
            & allowed(variants, selection.variants)[variant]
            & bots[row["seat0"]]
            & bots[row["seat1"]]
        )

    def _repeats(self, row: dict[str, np.ndarray]) -> tuple[np.ndarray, _Repeats | None]:
        """Which games repeat a tournament game read before (`keys.game_key`: same
        tournament, pairing, game number and match game), and the first of them."""
        keyed = (row["tournament"] >= 0) & (row["game_number"] >= 0)
        repeated = _duplicated([row[name] for name in _KEY]) & keyed
        if not repeated.any():
            return repeated, None
        again = int(np.flatnonzero(repeated)[0])
        same = np.logical_and.reduce([row[name] == row[name][again] for name in _KEY])
        original = int(np.flatnonzero(same)[0])
        files = self.files.texts()
        where = (
            str(files[row["file"][again]]),
            int(row["line"][again]),
            str(files[row["file"][original]]),
            int(row["line"][original]),
        )
        return repeated, _Repeats(int(repeated.sum()), where)


_KEY = ("tournament", "pairing", "game_number", "match_game")


def value_range(column: np.ndarray) -> tuple[int, int]:
    """The smallest and the largest number of a column; (0, 0) when it is empty."""
    return (int(column.min()), int(column.max())) if len(column) else (0, 0)


def _duplicated(columns: list[np.ndarray]) -> np.ndarray:
    """Whether each row repeats an earlier row (every column equal). The columns are
    written as one number a row when their ranges allow (as digits of a mixed radix): a
    million numbers are hashed in a tenth of the time of a million rows of four."""
    key = np.zeros(len(columns[0]), dtype=np.int64)
    size = 1
    for column in columns:
        low, high = value_range(column)
        span = high - low + 1
        size *= span
        if size >= 2**63:
            frame = pd.DataFrame(dict(enumerate(columns)))
            return frame.duplicated(keep="first").to_numpy()
        key = key * span + (column - low)
    return pd.Series(key).duplicated(keep="first").to_numpy()


def _nullable(values: np.ndarray) -> pd.api.extensions.ExtensionArray:
    """Numbers with -1 for missing, as a nullable integer column."""
    return pd.arrays.IntegerArray(values.copy(), values < 0)


def record_files(paths: Iterable[str | Path]) -> list[Path]:
    """The record files named by `paths`: tournament folders (their games.jsonl) and files.

    A file named twice (say a folder and its games.jsonl) is read once.
    """
    files: list[Path] = []
    seen: set[Path] = set()
    for given in paths:
        path = Path(given)
        if path.is_dir():
            file = path / GAMES_FILE
            if not file.is_file():
                raise RatingsInputError(
                    f"a folder without {GAMES_FILE}, so not a tournament folder", path=path
                )
        elif path.exists():
            file = path
        else:
            raise RatingsInputError("no such file or folder", path=path)
        key = file.resolve()
        if key not in seen:
            seen.add(key)
            files.append(file)
    return files


def records_of(path: Path) -> Iterator[tuple[Record, int]]:
    """The records of one file with the line each starts on; a bad record stops the reading."""
    from referee.records.formats import detect_stream  # the readers: as in `read_file`

    try:
        with path.open("rb") as raw:
            file_format, stream = detect_stream(path, raw)
            if file_format is None:
                raise RatingsInputError(
                    "not a game record file in any format referee reads", path=path
                )
            for loaded in file_format.read(stream):
                if loaded.error is not None:
                    raise _bad(path, loaded.number, loaded.line, loaded.error)
                if loaded.record is not None:
                    yield loaded.record, loaded.line
    except OSError as error:
        raise RatingsInputError(f"cannot read: {error.strerror or error}", path=path) from None


def _bad(path: Path, number: int, line: int, error: RecordError) -> RatingsInputError:
    """A bad record, at its place (the pointer once: the scan's messages start with it); in a
    tournament's games.jsonl, with how to move the damaged lines aside."""
    pointer, message = error.pointer, error.message
    where = f" at {pointer}" if pointer and not message.startswith(pointer) else ""
    repair = ""
    if path.name == GAMES_FILE and (path.parent / TOURNAMENT_FILE).is_file():
        repair = f" (move damaged lines aside with 'referee tournament repair {path.parent}')"
    return RatingsInputError(f"record {number}{where}: {message}{repair}", path=path, line=line)


@dataclass(frozen=True)
class Tail:
    """The part of a JSONL file after the part read before (`ratings.summaries`): its first
    byte, the start of a line, and the lines and records before it, which the numbers of
    the lines and records read from it follow."""

    start: int
    lines: int
    records: int


def appendable(path: Path) -> bool:
    """Whether the file is read as JSONL, one record a line, so that lines appended to it can
    be read alone (`read_file(path, Tail(...))`)."""
    from referee.records.formats import RECORD_FORMATS

    entry = RECORD_FORMATS.for_suffix(path.suffix)  # as `detect_stream` finds it
    return entry is not None and entry.name == "jsonl"


class Reader(Protocol):
    """What reads a file's games (`read_file`): all of them, or with a `Tail` those from
    there on."""

    def __call__(self, path: Path, after: Tail | None = None, /) -> GameRows: ...


class Summarised(Protocol):
    """What gives a file's games from its summary (`summaries.Summaries`, which is built on
    this module and so is not imported by it)."""

    def read(self, path: Path, read: Reader) -> GameRows: ...


def read_file(path: Path, after: Tail | None = None) -> GameRows:
    """The games of one file, or with `after` of the part of an `appendable` file from
    there on; a bad record stops the reading. JSONL is skimmed, other formats read in
    full."""
    # The readers and the record models load here, not with the module: a file read from
    # its summary (`ratings.summaries`) needs neither.
    from referee.records.formats import detect_stream
    from referee.records.formats.referee_json import JsonlFormat
    from referee.records.scan import skim_jsonl

    rows = GameRows()
    add, name = rows.add, str(path)
    lines, records = (0, 0) if after is None else (after.lines, after.records)
    try:
        with path.open("rb") as opened:
            file_format, stream = detect_stream(path, opened)
            if file_format is None:
                raise RatingsInputError(
                    "not a game record file in any format referee reads", path=path
                )
            if not isinstance(file_format, JsonlFormat):
                for record, line in records_of(path):
                    add(record, record.turns[0].seat if record.turns else 0, name, line)
                return rows
            if after is not None:
                stream.seek(after.start)
            for number, line, header, first, error in skim_jsonl(stream):
                if header is None:
                    assert error is not None
                    raise _bad(path, records + number, lines + line, error)
                add(header, first, name, lines + line)
    except OSError as error:
        raise RatingsInputError(f"cannot read: {error.strerror or error}", path=path) from None
    return rows


def read_games(
    paths: Iterable[str | Path],
    *,
    game: str | Collection[str] | None = None,
    variant: str | Collection[str] | None = None,
    bots: Collection[str] | None = None,
    summaries: Summarised | None = None,
    warn: Callable[[str], None] | None = None,
) -> Games:
    """Read tournament folders and record files (any mix) into a games frame.

    Each path is a tournament folder (its games.jsonl is read) or a record file in a format
    referee reads (.json, .jsonl). `game`, `variant` and `bots` select games as `Selection`
    says. With `summaries`, a file read before and not changed since is taken from its
    summary, and a file read now leaves one. Raises `RatingsInputError` naming the file (and
    line) for a missing path, a folder that is no tournament folder, an unreadable file or a
    record that is not valid. Games repeated are counted once and `warn` is told (by default a
    line goes to stderr).
    """
    rows = GameRows()
    files = record_files(paths)
    for path in files:
        rows.extend(read_file(path) if summaries is None else summaries.read(path, read_file))
    selection = Selection(_selection(game), _selection(variant), _selection(bots))
    games, repeats = rows.games(selection, [str(path) for path in files])
    if repeats is not None:
        file, line, first, first_line = repeats.first
        message = (
            f"referee: warning: {plural(repeats.count, 'game repeats', 'games repeat')} a game "
            "read before (same tournament, pairing and game number), each counted once; the "
            f"first at {file}:{line} repeats {first}:{first_line}"
        )
        if warn is None:
            print(message, file=sys.stderr)
        else:
            warn(message)
    return games
