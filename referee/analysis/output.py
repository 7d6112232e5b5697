"""Analyses written out: a game's JSON object (a line of the analysis file, and of `--format
json`), and the tables of the terminal (80 columns), Markdown and CSV.

Each writer gives the lines to print before any game, for each game as it is analysed (so
that a long run shows its games as they come) and after the last: the players' totals and
the largest errors.
"""

from __future__ import annotations

import csv
import heapq
import io
from dataclasses import dataclass
from typing import Any

import msgspec

from referee.analysis.summary import GameAnalysis, PlayTotals, SeatSummary
from referee.analysis.turns import TurnAnalysis
from referee.escaping import csv_cell, markdown_row, printable, printable_json

WORST_SHOWN = 10
"""The largest errors listed after the tables."""


def seat_data(seat: SeatSummary) -> dict[str, Any]:
    return {
        "decisions": seat.decisions,
        "error_total": seat.error_total,
        "error_rate": seat.error_rate,
        "blunders": seat.blunders,
        "luck": seat.luck,
    }


def turn_data(number: int, turn: TurnAnalysis) -> dict[str, Any]:
    """A turn's object; what it does not have (a roll, a better move) is left out."""
    data: dict[str, Any] = {
        "turn": number,
        "seat": turn.seat,
        "move": turn.move,
        "choices": turn.choices,
        "value": turn.value,
        "error": turn.error,
    }
    if turn.best is not None:
        data["best"] = turn.best
    if turn.roll is not None:
        data["roll"] = list(turn.roll)
        data["luck"] = turn.luck
    return data


def game_data(analysis: GameAnalysis) -> dict[str, Any]:
    """The game's JSON object: where it is (file and game number, its line, and the
    tournament game it is), the reference, the result, the luck-adjusted result, each seat's
    summary, the opening roll's luck and each turn's (numbered from 1)."""
    key = analysis.key
    opening = analysis.opening
    return {
        "file": analysis.file,
        "game_number": analysis.game_number,
        "line": analysis.line,
        "key": None
        if key is None
        else dict(zip(("tournament", "pairing", "game_number", "match_game"), key, strict=True)),
        "game": analysis.game,
        "engine": analysis.engine,
        "players": list(analysis.players),
        "result": None if analysis.result is None else list(analysis.result),
        "adjusted": None if analysis.adjusted is None else list(analysis.adjusted),
        "seats": [seat_data(seat) for seat in analysis.seats],
        "opening": None
        if opening is None
        else {"seat": opening.seat, "roll": list(opening.roll), "luck": opening.luck},
        "turns": [turn_data(number, turn) for number, turn in enumerate(analysis.turns, 1)],
    }


_ENCODE = msgspec.json.Encoder().encode
"""JSON as `json.dumps` writes it but without spaces, several times as fast (a game's line
holds an object for each turn)."""


def json_line(analysis: GameAnalysis) -> str:
    return printable_json(_ENCODE(game_data(analysis)).decode())


@dataclass
class PlayerTotals(PlayTotals):
    """A player's seats summed up, and its results in the games that finished."""

    finished: int = 0
    score: float = 0.0
    adjusted: float = 0.0


@dataclass(frozen=True, order=True)
class Worst:
    """A turn among the largest errors (ordered by its error)."""

    error: float
    file: str
    game_number: int
    turn: int
    player: str
    move: str
    best: str


class Totals:
    """What the tables show after the games: each player's totals and the largest errors."""

    def __init__(self) -> None:
        self.players: dict[str, PlayerTotals] = {}
        self.worst: list[Worst] = []

    def add(self, analysis: GameAnalysis) -> None:
        adjusted = analysis.adjusted
        for seat, (name, summary) in enumerate(zip(analysis.players, analysis.seats, strict=True)):
            totals = self.players.setdefault(name, PlayerTotals())
            totals.add(summary)
            if analysis.result is not None and adjusted is not None:
                totals.finished += 1
                totals.score += analysis.result[seat]
                totals.adjusted += adjusted[seat]
        for number, turn in enumerate(analysis.turns, 1):
            if turn.best is None or turn.choices < 2:
                continue
            if len(self.worst) == WORST_SHOWN and turn.error <= self.worst[0].error:
                continue
            worst = Worst(
                turn.error,
                analysis.file,
                analysis.game_number,
                number,
                analysis.players[turn.seat],
                turn.move,
                turn.best,
            )
            if len(self.worst) < WORST_SHOWN:
                heapq.heappush(self.worst, worst)
            else:
                heapq.heapreplace(self.worst, worst)

    def player_rows(self) -> list[list[str]]:
        rows = []
        for name, totals in self.players.items():
            rows.append(
                [
                    name,
                    str(totals.games),
                    _mean(totals.score, totals.finished, 3),
                    _mean(totals.adjusted, totals.finished, 3),
                    str(totals.decisions),
                    _mean(totals.error, totals.decisions, 4),
                    str(totals.blunders),
                    _signed(totals.luck / totals.games),
                ]
            )
        return rows

    def worst_rows(self) -> list[list[str]]:
        return [
            [
                str(worst.game_number),
                str(worst.turn),
                worst.player,
                worst.move,
                worst.best,
                f"{worst.error:.3f}",
            ]
            for worst in sorted(self.worst, reverse=True)
        ]


def _mean(total: float, count: int, decimals: int) -> str:
    return "-" if not count else f"{total / count:.{decimals}f}"


def _signed(value: float) -> str:
    return f"{value:+.3f}"


def _score(value: float) -> str:
    return {1.0: "1", 0.0: "0", 0.5: "0.5"}[value]


def seat_rows(analysis: GameAnalysis) -> list[list[str]]:
    """Each seat's row of the game's table: player, score, adjusted, decisions, error per
    decision, blunders, luck."""
    rows = []
    adjusted = analysis.adjusted
    for seat, (name, summary) in enumerate(zip(analysis.players, analysis.seats, strict=True)):
        rate = summary.error_rate
        rows.append(
            [
                name,
                "-" if analysis.result is None else _score(analysis.result[seat]),
                "-" if adjusted is None else f"{adjusted[seat]:.3f}",
                str(summary.decisions),
                "-" if rate is None else f"{rate:.4f}",
                str(summary.blunders),
                _signed(summary.luck),
            ]
        )
    return rows


GAME_COLUMNS = ("game", "player", "score", "adjusted", "moves", "error/move", "blunders", "luck")
PLAYER_COLUMNS = ("player", "games", "score", "adjusted", "moves", "error/move", "blunders", "luck")
WORST_COLUMNS = ("game", "turn", "player", "played", "best", "error")

WIDTHS = {"game": 6, "player": 16, "played": 14, "best": 14, "turn": 4, "luck": 7}
"""The widths of the text table's columns other than their headings': with two spaces
between them, each table fits 80 columns. Names and moves longer are cut (`…`); a number
longer than its column (a game numbered in the millions) is shown whole."""
TEXT = frozenset({"player", "played", "best"})


class Writer:
    """The lines of one format: `head` before the games, `game` for each, `tail` after."""

    prose = True
    """Lines for a reader, printed as messages are (above a progress display, wrapped on a
    narrow terminal); False for lines other tools read, printed as they are."""

    def __init__(self) -> None:
        self.totals = Totals()

    def head(self) -> list[str]:
        return []

    def game(self, analysis: GameAnalysis) -> list[str]:
        self.totals.add(analysis)
        return []

    def tail(self) -> list[str]:
        return []


class JsonWriter(Writer):
    prose = False

    def game(self, analysis: GameAnalysis) -> list[str]:
        return [json_line(analysis)]


class CsvWriter(Writer):
    """A row per game and seat, the figures as numbers at full precision."""

    prose = False

    COLUMNS = (
        "file", "game_number", "line", "game", "engine", "seat", "player", "result",
        "adjusted", "decisions", "error_total", "error_rate", "blunders", "luck",
    )  # fmt: skip

    def _line(self, row: list[Any]) -> str:
        out = io.StringIO()
        csv.writer(out, lineterminator="").writerow([csv_cell(cell) for cell in row])
        return out.getvalue()

    def head(self) -> list[str]:
        return [self._line(list(self.COLUMNS))]

    def game(self, analysis: GameAnalysis) -> list[str]:
        lines = []
        adjusted = analysis.adjusted
        place = [analysis.file, analysis.game_number, analysis.line, analysis.game]
        for seat, summary in enumerate(analysis.seats):
            rate = summary.error_rate
            row = [
                *place,
                analysis.engine,
                seat,
                analysis.players[seat],
                "" if analysis.result is None else analysis.result[seat],
                "" if adjusted is None else adjusted[seat],
                summary.decisions,
                summary.error_total,
                "" if rate is None else rate,
                summary.blunders,
                summary.luck,
            ]
            lines.append(self._line(row))
        return lines


class MarkdownWriter(Writer):
    """The tables in Markdown: the games, the players, the largest errors."""

    def _head(self, columns: tuple[str, ...]) -> list[str]:
        return [markdown_row(list(columns)), "|" + "|".join(" --- " for _ in columns) + "|"]

    def head(self) -> list[str]:
        return ["## Games", "", *self._head(("file", "reference", *GAME_COLUMNS))]

    def game(self, analysis: GameAnalysis) -> list[str]:
        super().game(analysis)
        first = [analysis.file, analysis.engine, str(analysis.game_number)]
        return [
            markdown_row([*(first if seat == 0 else ["", "", ""]), *row])
            for seat, row in enumerate(seat_rows(analysis))
        ]

    def tail(self) -> list[str]:
        lines = ["", "## Players", "", *self._head(PLAYER_COLUMNS)]
        lines += [markdown_row(row) for row in self.totals.player_rows()]
        worst = self.totals.worst_rows()
        if worst:
            lines += ["", "## Largest errors", "", *self._head(WORST_COLUMNS)]
            lines += [markdown_row(row) for row in worst]
        return lines


def _text_row(columns: tuple[str, ...], cells: list[str]) -> str:
    parts = []
    for column, text in zip(columns, cells, strict=True):
        width = WIDTHS.get(column, len(column))
        if column in TEXT:
            text = printable(text)
            parts.append((text[: width - 1] + "…" if len(text) > width else text).ljust(width))
        else:
            parts.append(text.rjust(width))
    return "  ".join(parts).rstrip()


class TableWriter(Writer):
    """Tables of fixed widths for the terminal, printed as the games come: a line naming
    each file (and the reference) before its games."""

    def __init__(self) -> None:
        super().__init__()
        self.place: tuple[str, str] | None = None

    def game(self, analysis: GameAnalysis) -> list[str]:
        super().game(analysis)
        lines = []
        place = (analysis.file, analysis.engine)
        if place != self.place:
            if self.place is not None:
                lines.append("")
            lines += [f"{printable(analysis.file)}, reference {analysis.engine}"]
            lines.append(_text_row(GAME_COLUMNS, list(GAME_COLUMNS)))
            self.place = place
        for seat, row in enumerate(seat_rows(analysis)):
            number = str(analysis.game_number) if seat == 0 else ""
            lines.append(_text_row(GAME_COLUMNS, [number, *row]))
        return lines

    def tail(self) -> list[str]:
        lines = ["", "players", _text_row(PLAYER_COLUMNS, list(PLAYER_COLUMNS))]
        lines += [_text_row(PLAYER_COLUMNS, row) for row in self.totals.player_rows()]
        worst = self.totals.worst_rows()
        if worst:
            lines += ["", "largest errors", _text_row(WORST_COLUMNS, list(WORST_COLUMNS))]
            lines += [_text_row(WORST_COLUMNS, row) for row in worst]
        return lines
