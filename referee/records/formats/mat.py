"""Jellyfish `.mat` match files as Takhteh records: one record per game, with its match info.

Reading keeps each move as written (`.mat` writes the bar as 25 and off as 0, which Takhteh
notation reads too) and its line and column; opening rolls are not in `.mat`, so each game's
`match.first` is the seat of its first entry. A cube action (`Doubles => 2`, `Takes`,
`Drops`) makes the game unreadable as Takhteh, reported with code `takhteh.cube` at its line.
Writing replays each record and writes every checker move one die at a time, as backgammon
software expects.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import IO

from pydantic import ValidationError

from referee.games import get_game
from referee.games.base import Ruleset
from referee.games.takhteh.mat import MatEntry, MatGame, MatMatch, parse_mat, write_mat
from referee.games.takhteh.notation import format_legs_plain
from referee.games.takhteh.rules import TakhtehState
from referee.records.formats.base import FileFormat
from referee.records.formats.text import Utf8Lines, checked
from referee.records.io import Loaded, RecordError, schema_error
from referee.records.model import (
    EventInfo,
    MatchInfo,
    Player,
    Reason,
    Record,
    Result,
    TakhtehRecord,
    Turn,
)
from referee.records.replay import ReplayError, replay

_SNIFF = re.compile(rb"^\s*(\d+\s+point\s+match|Game\s+\d+)\s*$", re.MULTILINE | re.IGNORECASE)
_EVENT_TAGS = {"Event": "event", "Site": "site", "EventDate": "date", "Round": "round"}


class MatFormat(FileFormat):
    name = "mat"
    description = "Jellyfish .mat match text (Takhteh games, one record per game)"
    extensions = (".mat",)
    game = "takhteh"

    def sniff(self, head: bytes) -> bool:
        return _SNIFF.search(head) is not None

    def read(self, stream: IO[bytes]) -> Iterator[Loaded]:
        lines = Utf8Lines(stream)
        match = parse_mat("".join(lines))
        if not match.games:
            error = match.error
            line = error.line if error else 1
            message = error.message if error else "no game found"
            games = [(1, Loaded(1, line, error=RecordError("mat.syntax", message)))]
        else:
            games = [(g.line, _loaded(match, g, n)) for n, g in enumerate(match.games, 1)]
        return checked(games, lines)

    def write(self, records: Iterable[Record], stream: IO[str]) -> None:
        stream.write(write_mat(to_mat(records)))


def _loaded(match: MatMatch, game: MatGame, number: int) -> Loaded:
    if game.error is not None:
        where = f"line {game.error.line}, column {game.error.column}"
        return Loaded(
            number,
            game.error.line,
            error=RecordError("mat.syntax", f"{where}: {game.error.message}"),
        )
    cube = next((entry for entry in game.entries if entry.cube is not None), None)
    if cube is not None:
        return Loaded(
            number,
            cube.line,
            error=RecordError(
                "takhteh.cube",
                f"line {cube.line}, column {cube.column}: {cube.cube!r} is a cube action, "
                "which is not part of Takhteh (there is no doubling cube)",
            ),
        )
    try:
        record = _record(match, game)
    except ValidationError as error:  # points or a score past the largest a record holds
        return Loaded(number, game.line, error=schema_error(error))
    return Loaded(
        number,
        game.line,
        record=record,
        turn_places=tuple((entry.line, entry.column) for entry in game.entries),
    )


def _record(match: MatMatch, game: MatGame) -> TakhtehRecord:
    length = match.length or 1
    ruleset = "takhteh/standard@1" + (f"?match={length}" if length > 1 else "")
    entries = game.entries
    result = None
    if game.winner is not None:
        # A game won on the winner's own last move ended by the rules; otherwise the loser
        # gave it up.
        by_rules = bool(entries) and entries[-1].seat == game.winner
        result = Result(
            winner=game.winner,  # type: ignore[arg-type]
            points=game.points,
            reason=Reason.RULES if by_rules else Reason.RESIGN,
        )
    event = {field: match.tags[tag] for tag, field in _EVENT_TAGS.items() if tag in match.tags}
    return TakhtehRecord(
        game="takhteh",
        ruleset=ruleset,
        players=[Player(name=name or f"seat {seat}") for seat, name in enumerate(game.players)],
        event=EventInfo(**event),
        turns=[
            Turn(seat=entry.seat, roll=list(entry.roll), move=entry.move)  # type: ignore[arg-type]
            for entry in entries
        ],
        result=result,
        tags={key: value for key, value in match.tags.items() if key not in _EVENT_TAGS},
        match=MatchInfo(
            length=length,
            game=max(1, game.number),
            score=list(game.score),
            first=entries[0].seat if entries else None,  # type: ignore[arg-type]
        ),
    )


def to_mat(records: Iterable[Record]) -> MatMatch:
    """The records as the games of one `.mat` match; ValueError for one that does not replay."""
    game = get_game("takhteh")
    match = MatMatch()
    score = [0, 0]
    for index, record in enumerate(records, 1):
        if not isinstance(record, TakhtehRecord):
            raise ValueError(f"game {index}: .mat holds Takhteh games, not {record.game}")
        if index == 1:
            match.length = _length(record, game.parse_ruleset(record.ruleset))
            match.tags = _tags(record)
        info = record.match
        entries: list[MatEntry] = []
        try:
            for step in replay(record):
                before = step.before
                assert isinstance(before, TakhtehState)
                turn = record.turns[step.index]
                roll = turn.roll
                assert roll is not None  # replay refuses a Takhteh turn without its roll
                legs = before.resolve(step.move)[1]
                entries.append(
                    MatEntry(
                        seat=turn.seat,
                        line=0,
                        column=0,
                        roll=(roll[0], roll[1]),
                        move=format_legs_plain(before.board, legs),
                    )
                )
        except ReplayError as error:
            where = "" if error.turn is None else f" turn {error.turn + 1}:"
            raise ValueError(
                f"game {index} cannot be written as .mat:{where} {error.message}"
            ) from None
        before_score = (info.score[0], info.score[1]) if info else (score[0], score[1])
        mat_game = MatGame(
            number=info.game if info else index,
            line=0,
            players=(record.players[0].name, record.players[1].name),
            score=before_score,
            entries=entries,
        )
        if record.result is not None and record.result.winner is not None:
            mat_game.winner = record.result.winner
            mat_game.points = record.result.points
            score[record.result.winner] += record.result.points
        match.games.append(mat_game)
    return match


def _length(record: TakhtehRecord, ruleset: Ruleset) -> int:
    if record.match is not None:
        return record.match.length
    return int(ruleset.option("match", 1))


def _tags(record: TakhtehRecord) -> dict[str, str]:
    tags = {
        tag: getattr(record.event, field)
        for tag, field in _EVENT_TAGS.items()
        if getattr(record.event, field)
    }
    tags.update(record.tags)
    return tags
