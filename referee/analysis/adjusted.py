"""Each game's luck-adjusted result for the luck-adjusted ratings (docs/ratings.md): read from
analysis files where one holds the game, analysed now where none does.

A stored analysis (`referee analyse --out`, or a tournament folder's `ANALYSIS_FILE`) is
matched to a game by its tournament game key (`records.keys.game_key`), and is used only when
made with the reference asked: `--engine`'s, else each game's default. An analysis with
another reference is not the one asked for, and analysing again costs what the analysis did,
so a game whose only stored analyses are by another reference is an error that names both
references, never a silent analysis. Every game left (games of no tournament among them) is
analysed with `analysis.run.analyse_files`, the files holding such games whole, and matched
by its file and line. A game without dice has no luck: its adjusted result is its result,
and nothing is analysed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from referee.analysis.stored import StoredAnalysis, read_analysis_file
from referee.escaping import escaped, quoted
from referee.games import get_game
from referee.games.base import GameError
from referee.ratings.errors import RatingsError, RatingsInputError
from referee.ratings.results import ADJUSTED, DRAW, Games
from referee.records.keys import GameKey, describe_key


@dataclass(frozen=True)
class _Mismatch:
    """The first stored analysis of a game made with another reference than the one asked."""

    where: str
    engine: str


class LuckAdjustment:
    """The luck-adjusted results of `games`: from the stored analyses of `analysis_files`
    first, then (`analyse`) from the games analysed now, by the reference `spec` (None: each
    game's default). Raises RatingsError for a stored
    analysis of another reference or that does not match its game's record, and a reference
    no game of the table has; AnalysisFileError for an analysis file that cannot be read."""

    def __init__(self, games: Games, spec: str | None, analysis_files: Iterable[Path]) -> None:
        self.read = games
        self.frame = games.frame
        self.spec = spec
        self.references: dict[str, str] = {}
        """Each game's reference spec, every option written out; '' for a game without dice."""
        for name in self.frame["game"].unique().tolist():
            self.references[str(name)] = self._reference(str(name))
        frame = self.frame
        self.adjusted = np.full(len(frame), np.nan)
        """Seat 0's adjusted result of each game; NaN while it is not known."""
        seat0 = (frame["winner"].to_numpy() == 0) + 0.5 * (frame["winner"].to_numpy() == DRAW)
        self._results = seat0.astype(np.float64)
        dice = frame["game"].astype(str).map(self.references).to_numpy() != ""
        self.adjusted[~dice] = self._results[~dice]
        self._read(analysis_files)
        missing = np.isnan(self.adjusted)
        self.files: list[str] = sorted(set(frame["file"].astype(str).to_numpy()[missing]))
        """The record files that hold games still without an analysis, to analyse."""

    def _reference(self, game: str) -> str:
        found = get_game(game)
        if not found.has_dice:
            return ""
        try:
            reference = found.reference(self.spec)
        except GameError as error:
            raise RatingsError(f"--engine {quoted(self.spec or '')}: {error.message}") from None
        if reference is None:
            raise RatingsError(f"{found.title} has no reference to adjust its results by")
        return reference.spec

    def _read(self, analysis_files: Iterable[Path]) -> None:
        frame = self.frame
        keys = _keys(frame)
        mismatched: dict[int, _Mismatch] = {}
        for path in analysis_files:
            for number, stored in enumerate(read_analysis_file(path), 1):
                row = keys.get(stored.game_key) if stored.game_key is not None else None
                if row is None or not np.isnan(self.adjusted[row]) or stored.adjusted is None:
                    continue
                where = f"{escaped(str(path))}: analysis {number}"
                self._check(row, stored, where)
                if stored.engine != self.references[stored.game]:
                    mismatched.setdefault(row, _Mismatch(where, stored.engine))
                    continue
                self.adjusted[row] = stored.adjusted[0]
        for row, mismatch in mismatched.items():
            if np.isnan(self.adjusted[row]):
                asked = self.references[str(frame["game"].iloc[row])]
                raise RatingsError(
                    f"{mismatch.where}: analysed by the reference {quoted(mismatch.engine)}, "
                    f"not {quoted(asked)} as asked: give --engine {mismatch.engine} to rate by "
                    "it, or leave that analysis file out to analyse the game again"
                )

    def _check(self, row: int, stored: StoredAnalysis, where: str) -> None:
        """A stored analysis must be of the game its key names: same game, players, result."""
        game = self.frame.iloc[row]
        players = [str(game["seat0"]), str(game["seat1"])]
        assert stored.result is not None  # an adjusted result comes with its result
        if (
            stored.game != str(game["game"])
            or stored.players != players
            or stored.result[0] != self._results[row]
        ):
            key = stored.game_key
            assert key is not None
            raise RatingsError(
                f"{where}: the analysis of {describe_key(key)} is not of the game recorded "
                f"under that key ({game['file']}:{game['line']}): another game, players or "
                "result"
            )

    def analyse(self, jobs: int = 1, seen: Callable[[str], None] | None = None) -> None:
        """Analyse the games of `files` (`seen` is told each game's file as it is done)."""
        from referee.analysis.run import analyse_files

        if not self.files:
            return
        frame = self.frame
        rows = {
            (escaped(str(file)), int(line)): row
            for row, (file, line) in enumerate(
                zip(frame["file"].astype(str), frame["line"], strict=True)
            )
        }
        for analysis in analyse_files(self.files, self.spec, jobs):
            if seen is not None:
                seen(analysis.file)
            row = rows.get((analysis.file, analysis.line))
            if row is not None and np.isnan(self.adjusted[row]) and analysis.adjusted is not None:
                self.adjusted[row] = analysis.adjusted[0]

    def games(self) -> Games:
        """The games with the column `ADJUSTED`; RatingsError if a game is still without one."""
        missing = np.flatnonzero(np.isnan(self.adjusted))
        if len(missing):
            game = self.frame.iloc[int(missing[0])]
            raise RatingsInputError(
                "the game was not analysed: no analysis of it was found",
                path=str(game["file"]),
                line=int(game["line"]),
            )
        frame = self.frame.assign(**{ADJUSTED: self.adjusted})
        return Games(frame, self.read.unfinished, self.read.files)


def _keys(frame: pd.DataFrame) -> dict[GameKey, int]:
    """The row of each tournament game by its key (`records.keys.game_key`)."""
    tournament = frame["tournament"].to_numpy(dtype=object)
    pairing = frame["pairing"].to_numpy(dtype=np.int64, na_value=-1)
    number = frame["game_number"].to_numpy(dtype=np.int64, na_value=-1)
    match_game = frame["match_game"].to_numpy(dtype=np.int64)
    return {
        (str(tournament[row]), int(pairing[row]), int(number[row]), int(match_game[row])): row
        for row in np.flatnonzero((number >= 0) & pd.notna(tournament)).tolist()
    }
