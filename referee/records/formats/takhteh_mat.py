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
from pathlib import Path
from typing import IO

from pydantic import ValidationError

from referee.escaping import one_line
from referee.files import write_atomically
from referee.games import get_game
from referee.games.base import Ruleset
from referee.games.takhteh import GAME as TAKHTEH
from referee.games.takhteh.mat import MatEntry, MatGame, MatMatch, parse_mat, write_mat
from referee.games.takhteh.notation import format_legs_plain
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

NAME_LENGTH = 20
"""The longest player name written (`mat_name`)."""
_SNIFF = re.compile(rb"^\s*(\d+\s+point\s+match|Game\s+\d+)\s*$", re.MULTILINE | re.IGNORECASE)
_EVENT_TAGS = {"Event": "event", "Site": "site", "EventDate": "date", "Round": "round"}


class MatFormat(FileFormat):
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
            games = [(1, Loaded(1, line, error=RecordError(message, code="mat.syntax")))]
        else:
            games = [(g.line, _loaded(match, g, n)) for n, g in enumerate(match.games, 1)]
        return checked(games, lines)

    def write(self, records: Iterable[Record], stream: IO[str]) -> list[str]:
        matches, warnings = to_matches(records)
        if len(matches) > 1:
            raise ValueError(
                f"the games form {len(matches)} matches or money sessions, and a .mat file "
                "holds one: write to a folder instead (a file per match)"
            )
        for match in matches:
            stream.write(write_mat(match))
        return warnings

    def write_folder(self, records: Iterable[Record], folder: Path) -> tuple[list[str], int]:
        """A `.mat` file per match or money session in `folder` (made when missing), named
        `NNNN-LEFT-RIGHT.mat`; returns the warnings and the number of files."""
        matches, warnings = to_matches(records)
        folder.mkdir(parents=True, exist_ok=True)
        for number, match in enumerate(matches, 1):
            left, right = (_file_part(name) for name in match.games[0].players)
            _write_file(folder / f"{number:04d}-{left}-{right}.mat", write_mat(match))
        return warnings, len(matches)


def _loaded(match: MatMatch, game: MatGame, number: int) -> Loaded:
    if game.error is not None:
        where = f"line {game.error.line}, column {game.error.column}"
        return Loaded(
            number,
            game.error.line,
            error=RecordError(f"{where}: {game.error.message}", code=game.error.code),
        )
    cube = next((entry for entry in game.entries if entry.cube is not None), None)
    if cube is not None:
        return Loaded(
            number,
            cube.line,
            error=RecordError(
                f"line {cube.line}, column {cube.column}: {cube.cube!r} is a cube action, "
                "which is not part of Takhteh (there is no doubling cube)",
                code="takhteh.cube",
            ),
        )
    try:
        record = _record(match, game)
    except ValidationError as error:  # points or a score past the largest a record holds
        return Loaded(number, game.line, error=schema_error(error))
    entries = game.entries[: len(record.turns)]
    return Loaded(
        number,
        game.line,
        record=record,
        turn_places=tuple((entry.line, entry.column) for entry in entries),
    )


def _write_file(path: Path, text: str) -> None:
    # Whole or not at all: a failed write never leaves half a match behind.
    with write_atomically(path) as file:
        file.write(text)


def _file_part(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.]+", "_", name).strip("_.") or "player"


def _record(match: MatMatch, game: MatGame) -> TakhtehRecord:
    # A money session (` 0 point match`) or a file without a match line holds single games:
    # each is its own one-point match, whose `first` says who starts without an opening roll.
    money = not match.length or match.length == 1
    length = 1 if money else match.length or 1
    ruleset = "takhteh/standard@1" + (f"?match={length}" if length > 1 else "")
    entries = game.entries
    event = {field: match.tags[tag] for tag, field in _EVENT_TAGS.items() if tag in match.tags}
    record = TakhtehRecord(
        game="takhteh",
        ruleset=ruleset,
        players=[Player(name=name or f"seat {seat}") for seat, name in enumerate(game.players)],
        event=EventInfo.model_validate(event),
        turns=[
            Turn(seat=entry.seat, roll=list(entry.roll), move=entry.move)  # type: ignore[arg-type]
            for entry in entries
        ],
        tags={key: value for key, value in match.tags.items() if key not in _EVENT_TAGS},
        match=MatchInfo(
            length=length,
            game=1 if money else max(1, game.number),
            score=[0, 0] if money else list(game.score),
            first=entries[0].seat if entries else None,
        ),
    )
    if game.winner is None:
        return record
    record, reason = _ending(record, game.winner)
    result = Result(winner=game.winner, points=game.points, reason=reason)
    return record.model_copy(update={"result": result})


def _ending(record: TakhtehRecord, winner: int) -> tuple[TakhtehRecord, Reason]:
    """How a game that `Wins` ended, told by its last position: by the rules when the game is
    over there, else by a resignation. The text does not say: GNU Backgammon writes a
    resignation right after the winner's move exactly as the winner bearing off the last
    checker. A last entry of the loser that is a roll without a move where a move exists is
    the loser rolling and then resigning (GNU Backgammon writes the dice, `63:`): no turn,
    left out. A game that does not replay keeps what the written order suggests (won on the
    winner's own last move: the rules), and the validator says where it stops."""
    turns = record.turns
    last = None
    try:
        for step in replay(record, TAKHTEH):
            last = step.after
    except ReplayError as error:
        final = turns[-1]
        if error.turn == len(turns) - 1 and final.seat != winner and not final.move:
            return record.model_copy(update={"turns": turns[:-1]}), Reason.RESIGN
        by_rules = final.seat == winner
        return record, Reason.RULES if by_rules else Reason.RESIGN
    return record, Reason.RULES if last is not None and last.is_terminal() else Reason.RESIGN


def to_matches(records: Iterable[Record]) -> tuple[list[MatMatch], list[str]]:
    """The records as `.mat` matches, as GNU Backgammon writes them, and warnings.

    A `.mat` text holds one match. The games of a match (a `match` record field of length
    above 1) are known by their tournament, job number, players and length, as the validator
    follows them, and a game numbered 1 starts a new match; they are numbered as the records
    number them. Single games (length 1, or no `match` field) are money games: those of one
    tournament between the same players on the same seats form one money session, written
    as GNU Backgammon writes a session (` 0 point match`, games numbered from 1, the header
    carrying the points won so far). Names are sanitised (`mat_name`), each change a
    warning. Raises ValueError for a record that is not Takhteh or does not replay.
    """
    game = get_game("takhteh")
    matches: list[MatMatch] = []
    open_matches: dict[tuple[object, ...], MatMatch] = {}
    sessions: dict[tuple[object, ...], tuple[MatMatch, list[int]]] = {}
    warnings: list[str] = []
    names: dict[str, str] = {}
    for index, record in enumerate(records, 1):
        if not isinstance(record, TakhtehRecord):
            raise ValueError(f"game {index}: .mat holds Takhteh games, not {record.game}")
        players = tuple(_sanitised(player.name, names, warnings) for player in record.players)
        info = record.match
        length = _length(record, game.parse_ruleset(record.ruleset))
        tournament = record.event.tournament
        if length > 1:
            key: tuple[object, ...] = (
                tournament,
                record.event.game_number if tournament else None,
                *players,
                length,
            )
            number = info.game if info else 1
            match = open_matches.get(key)
            if match is None or number == 1:
                match = open_matches[key] = MatMatch(length=length, tags=_tags(record))
                matches.append(match)
            score = (info.score[0], info.score[1]) if info else (0, 0)
        else:
            key = (tournament, *players)
            if key not in sessions:
                sessions[key] = (MatMatch(length=0, tags=_tags(record)), [0, 0])
                matches.append(sessions[key][0])
            match, won = sessions[key]
            number = len(match.games) + 1
            score = (won[0], won[1])
        mat_game = MatGame(
            number=number,
            line=0,
            players=(players[0], players[1]),
            score=score,
            entries=_entries(record, index),
        )
        result = record.result
        if result is not None and result.winner is not None:
            mat_game.winner = result.winner
            mat_game.points = result.points
            if length <= 1:
                sessions[key][1][result.winner] += result.points
        match.games.append(mat_game)
    return matches, warnings


def _entries(record: TakhtehRecord, index: int) -> list[MatEntry]:
    """The record's turns as `.mat` entries, every play one die at a time."""
    entries: list[MatEntry] = []
    try:
        for step in replay(record, TAKHTEH):
            before = step.before
            turn = record.turns[step.turn]
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
    return entries


def mat_name(name: str) -> str:
    """A player name as `.mat` readers take it: no colon (GNU Backgammon 1.07 aborts on one,
    and the reader splits `name : score` there), no control characters or line breaks,
    spaces collapsed, no `;` first (a line that starts with one is a comment), at most
    `NAME_LENGTH` characters (so that `name : score` keeps a space before the right-hand
    name in GNU Backgammon's 31-column field); `player` when nothing is left."""
    kept = "".join(" " if char == ":" or not char.isprintable() else char for char in name)
    words = " ".join(kept.split()).lstrip("; ")
    return words[:NAME_LENGTH].strip() or "player"


def _sanitised(name: str, names: dict[str, str], warnings: list[str]) -> str:
    if name not in names:
        names[name] = mat_name(name)
        if names[name] != name:
            warnings.append(f"player name {name!r} written as {names[name]!r}")
    return names[name]


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
    # A header line is `; [Key "value"]`: one line, a key of letters, digits and `_`.
    cleaned = {re.sub(r"[^A-Za-z0-9_]", "_", key): one_line(value) for key, value in tags.items()}
    return {key: value for key, value in cleaned.items() if key.strip("_")}
