"""The analyses a report shows: read from analysis files, matched to the report's games, and
summed up per bot.

An analysis file is what `referee analyse --out` writes, a game a line (`analysis.stored`);
a tournament folder holds one (`path_names.ANALYSIS_FILE`) when its tournament is
luck-adjusted. A game is matched to its analysis by its tournament key
(`records.keys.game_key`); a game that names no tournament game, by its file and its number
in it. A game without an analysis shows none.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from referee.analysis.stored import AnalysisFileError, StoredAnalysis, read_analysis_file
from referee.analysis.summary import BLUNDER, PlayTotals
from referee.escaping import escaped
from referee.path_names import ANALYSIS_FILE
from referee.records.keys import GameKey, describe_key, game_key
from referee.records.model import Record

DECIMALS = 4
"""The figures the viewer gets are rounded to this many decimals: a hundredth of a percentage
point of the chance of winning is finer than any reference, and the page stays small."""


def analysis_files(paths: Iterable[Path], given: Iterable[Path]) -> list[Path]:
    """The analysis files of a report: each tournament folder's own, when it has one, then
    those given (`--analysis`), which come later so that their analysis of a game wins."""
    found = [path / ANALYSIS_FILE for path in paths if path.is_dir()]
    return [path for path in found if path.is_file()] + list(given)


class Analyses:
    """The analyses read, found by a game's key or by its file and number."""

    def __init__(self, files: Sequence[Path] = ()) -> None:
        """Every game of `files`, read in order (a game analysed twice: the later analysis).
        Raises AnalysisFileError for a file that is not there or not an analysis file."""
        self.files = list(files)
        self._by_key: dict[GameKey, tuple[StoredAnalysis, Path]] = {}
        self._by_place: dict[tuple[str, int], tuple[StoredAnalysis, Path]] = {}
        for path in self.files:
            for stored in read_analysis_file(path):
                key = stored.game_key
                if key is not None:
                    self._by_key[key] = (stored, path)
                else:
                    self._by_place[(_place(stored.file), stored.game_number)] = (stored, path)

    def find(self, file: Path, number: int, record: Record) -> StoredAnalysis | None:
        """The analysis of game `number` (1-based) of `file`, which is `record`; None when
        there is none. Raises AnalysisFileError when the analysis found is of another game
        (other players, another length): a file analysed before its games changed."""
        key = game_key(record)
        if key is not None:
            found = self._by_key.get(key)
        else:
            found = self._by_place.get((_place(str(file)), number))
        if found is None:
            return None
        stored, path = found
        players = [player.name for player in record.players]
        if stored.players != players or len(stored.turns) != len(record.turns):
            what = describe_key(key) if key is not None else f"game {number} of {file}"
            raise AnalysisFileError(
                f"its analysis of {escaped(what)} is of another game (other players or "
                "another number of turns): analyse the games again",
                path=escaped(str(path)),
            )
        return stored


def _place(file: str) -> str:
    """A record file as analyses and reports name it, made comparable: its full path."""
    return str(Path(file).resolve())


def _rounded(value: float | None) -> float | None:
    return None if value is None else round(value, DECIMALS)


def seat_figures(stored: StoredAnalysis) -> list[list[Any]]:
    """Each seat's [error per decision or None, blunders, net luck (its luck less its
    opponent's)], as the list of games shows them."""
    first, second = stored.seats
    net = first.luck - second.luck
    return [
        [_rounded(seat.error_rate), seat.blunders, _rounded(sign * net)]
        for seat, sign in ((first, 1), (second, -1))
    ]


def turn_figures(stored: StoredAnalysis) -> dict[str, Any]:
    """What the viewer shows of a game's analysis: per turn [error (None for a book move or a
    forced one), the best move where the move played is worse, the roll's luck (None without
    a roll), the value for seat 0 before the move (None for a book move)], the opening roll
    as [seat it made start, luck], and the reference."""
    turns = []
    for turn in stored.turns:
        value = turn.value
        if value is not None and turn.seat == 1:
            value = 1 - value  # the mover's chance, as the chance of seat 0
        error = turn.error if turn.choices > 1 else None
        turns.append([_rounded(error), turn.best, _rounded(turn.luck), _rounded(value)])
    opening = stored.opening
    return {
        "engine": stored.engine,
        "blunder": BLUNDER,
        "turns": turns,
        "opening": None if opening is None else [opening.seat, _rounded(opening.luck)],
    }


class BotFigures(PlayTotals):
    """A bot's analysed games summed up."""

    def cells(self) -> list[str]:
        """The standings' cells: error per decision, blunders, luck per game."""
        rate = "" if not self.decisions else f"{self.error / self.decisions:.4f}"
        return [rate, str(self.blunders), f"{self.luck / self.games:+.3f}"]


BOT_HEADERS = ("error/move", "blunders", "luck/game")
"""The standings' columns of the analysis (`BotFigures.cells`)."""


def bot_figures(
    analysed: Iterable[tuple[tuple[str, str], StoredAnalysis]],
) -> dict[tuple[str, str], dict[str, BotFigures]]:
    """Per (game, variant), each bot's analysed games summed up; a tournament game counted
    once however many files hold it."""
    figures: dict[tuple[str, str], dict[str, BotFigures]] = {}
    seen: set[GameKey] = set()
    for table, stored in analysed:
        key = stored.game_key
        if key is not None:
            if key in seen:
                continue
            seen.add(key)
        bots = figures.setdefault(table, {})
        for seat, name in enumerate(stored.players):
            bots.setdefault(name, BotFigures()).add(stored.seats[seat])
    return figures
