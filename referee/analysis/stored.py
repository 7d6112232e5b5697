"""Analysis files read back: the JSON lines `referee analyse --out` writes (output.py's
`game_data`, one game a line), and a luck-adjusted tournament keeps in its folder
(`path_names.ANALYSIS_FILE`), read by the commands that use an analysis without making it
again (`referee ratings --luck-adjusted`, `referee report`).

Each line is decoded into small typed structs (msgspec checks every field's type as it
decodes, and the checks below what types cannot say), so that a damaged or hand-edited line
is one error naming its file, line and field, never a wrong figure. Only what later commands
read is decoded: the game's identity, the reference, the players, the result, the adjusted
result, each seat's summary and each turn's figures.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Annotated

import msgspec

from referee.errors import RefereeError
from referee.escaping import escaped
from referee.records.keys import GameKey

Seat = Annotated[int, msgspec.Meta(ge=0, le=1)]
Count = Annotated[int, msgspec.Meta(ge=0)]
Pair = Annotated[list[float], msgspec.Meta(min_length=2, max_length=2)]


class AnalysisFileError(RefereeError, ValueError):
    """An analysis file that cannot be read: not there, not JSON lines, or a line that is not
    a game's analysis."""

    code = "analysis-file"


class StoredKey(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    tournament: str
    pairing: int
    game_number: Count
    match_game: Count


class StoredSeat(msgspec.Struct, frozen=True):
    decisions: Count
    error_total: float
    error_rate: float | None
    blunders: Count
    luck: float


class StoredTurn(msgspec.Struct, frozen=True):
    turn: Annotated[int, msgspec.Meta(ge=1)]
    seat: Seat
    move: str
    choices: Count
    value: float | None
    error: float
    best: str | None = None
    roll: list[int] | None = None
    luck: float | None = None


class StoredOpening(msgspec.Struct, frozen=True):
    seat: Seat
    roll: list[int]
    luck: float


class StoredAnalysis(msgspec.Struct, frozen=True):
    """One game's analysis as an analysis file holds it (`analysis.output.game_data`)."""

    file: str
    game_number: Count
    """1-based place in `file`; 0 in a tournament's analysis file, whose games are known by
    their key (made where the game was played, before its place was known)."""
    line: Count
    key: StoredKey | None
    game: str
    engine: str
    players: Annotated[list[str], msgspec.Meta(min_length=2, max_length=2)]
    result: Pair | None
    adjusted: Pair | None
    seats: Annotated[list[StoredSeat], msgspec.Meta(min_length=2, max_length=2)]
    opening: StoredOpening | None
    turns: list[StoredTurn]

    @property
    def game_key(self) -> GameKey | None:
        """The tournament game it is, as `records.keys.game_key` gives a record's."""
        key = self.key
        if key is None:
            return None
        return (key.tournament, key.pairing, key.game_number, key.match_game)

    def problem(self) -> str | None:
        """What no type says is wrong: turns out of order, or adjusted results that are not
        the result less the net luck (JSON has no infinite figure, and msgspec refuses one out
        of a float's range)."""
        if any(turn.turn != number for number, turn in enumerate(self.turns, 1)):
            return "its turns are not numbered 1, 2, ... in order"
        if (self.result is None) != (self.adjusted is None):
            return "it has a result without an adjusted result, or the other way round"
        if self.result is not None and self.adjusted is not None:
            net = self.seats[0].luck - self.seats[1].luck
            expected = (self.result[0] - net, self.result[1] + net)
            if any(abs(a - b) > 1e-6 for a, b in zip(expected, self.adjusted, strict=True)):
                return "its adjusted result is not its result less the seats' net luck"
        return None


_DECODE = msgspec.json.Decoder(StoredAnalysis).decode


def decode_analysis(raw: bytes) -> StoredAnalysis:
    """One line's analysis; msgspec.DecodeError, or ValueError saying what no type says."""
    stored = _DECODE(raw)
    problem = stored.problem()
    if problem is not None:
        raise ValueError(problem)
    return stored


def read_analysis_file(path: Path) -> Iterator[StoredAnalysis]:
    """Every game's analysis in an analysis file, in order; AnalysisFileError at the first
    line that is not one (blank lines are skipped)."""
    name = escaped(str(path))
    try:
        stream = path.open("rb")
    except OSError as error:
        reason = error.strerror or type(error).__name__
        raise AnalysisFileError(f"cannot read the analysis file: {reason}", path=name) from None
    with stream:
        for number, raw in enumerate(stream, 1):
            if not raw.strip():
                continue
            try:
                stored = _DECODE(raw)
            except msgspec.DecodeError as error:
                raise AnalysisFileError(
                    f"not a game's analysis: {escaped(str(error))}", path=name, line=number
                ) from None
            problem = stored.problem()
            if problem is not None:
                raise AnalysisFileError(f"not a game's analysis: {problem}", path=name, line=number)
            yield stored
