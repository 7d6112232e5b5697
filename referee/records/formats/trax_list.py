"""Trax game lists (official notation tokens, blank-line separated games) as records.

Reading maps each game to a `TraxRecord`: the ruleset `trax/<Variant header or standard>@1`,
seats alternating from White (seat 0), a final `Resign` as a resignation of the player to
move, and otherwise the result that replaying the tokens gives (a loop or a line; nothing for
an unfinished game, or for one that breaks off at an illegal move, which is the validator's
to report). Writing is the reverse; what the plain form cannot hold (per-turn times and
comments, player kinds and bot specs, tournament ids) is left out.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import IO

from pydantic import ValidationError

from referee.games import get_game
from referee.games.base import GameError
from referee.games.trax import gamelist
from referee.records.formats.base import FileFormat
from referee.records.formats.text import Utf8Lines, checked
from referee.records.io import Loaded, RecordError, schema_error
from referee.records.model import EventInfo, Player, Reason, Record, Result, TraxRecord, Turn
from referee.records.replay import result_of

COLOURS = ("white", "black")
DEFAULT_NAMES = ("White", "Black")
EVENT_HEADERS = ("Event", "Site", "Date", "Round")
RESULT = re.compile(r"(?:(white|black) wins|(draw))\s*\((\w+)\)", re.IGNORECASE)
RULESET = re.compile(r"trax/([^@?/]+)@1")
RESERVED = {key.lower() for key in (*gamelist.KNOWN_HEADERS, *gamelist.RESULT_HEADERS)}


def _header_result(game: gamelist.ListedGame) -> Result | None:
    text = game.header("Result")
    if text is None:
        return None
    match = RESULT.fullmatch(text.strip())
    reasons = {reason.value for reason in Reason}
    if match is None or match.group(3).lower() not in reasons:
        raise RecordError(
            f"Result header {text!r} is not 'white wins (reason)', 'black wins (reason)' or "
            f"'draw (reason)' with a reason of {', '.join(sorted(reasons))}",
            code="trax-list.result",
        )
    colour, draw, reason = match.groups()
    winner = None if draw else COLOURS.index(colour.lower())
    return Result(
        winner=winner,
        points=0 if draw else 1,
        reason=Reason(reason.lower()),
        detail=game.header("Result-Detail") or None,
    )


def _rules_result(ruleset: str, moves: list[str]) -> Result | None:
    """The result the rules give at the end of the moves, if they are legal and it ended."""
    game = get_game("trax")
    try:
        state = game.initial_state(game.parse_ruleset(ruleset))
        for move in moves:
            state = state.play(game.parse_move(state, move))
    except GameError:
        return None
    outcome = state.outcome()
    return None if outcome is None else result_of(outcome)


def to_record(game: gamelist.ListedGame) -> TraxRecord:
    """The record of a listed game; RecordError when its headers make no record."""
    moves = [token.text for token in game.moves]
    ruleset = f"trax/{(game.header('Variant') or 'standard').lower()}@1"
    result = _header_result(game)
    if game.resign is not None:
        if result is not None:
            raise RecordError(
                "a game ends either with Resign or with a Result header", code="trax-list.result"
            )
        result = Result(winner=1 - len(moves) % 2, points=1, reason=Reason.RESIGN)
    elif result is None:
        result = _rules_result(ruleset, moves)
    names = [
        game.header(colour) or default
        for colour, default in zip(COLOURS, DEFAULT_NAMES, strict=True)
    ]
    try:
        return TraxRecord(
            game="trax",
            ruleset=ruleset,
            players=[Player(name=name) for name in names],
            event=EventInfo.model_validate(
                {key.lower(): game.header(key) for key in EVENT_HEADERS}
            ),
            turns=[Turn(seat=index % 2, move=move) for index, move in enumerate(moves)],
            result=result,
            tags={key: value for key, value in game.headers.items() if key.lower() not in RESERVED},
        )
    except ValidationError as error:
        raise schema_error(error, ruleset) from None


def from_record(record: Record) -> str:
    """A record in the canonical game-list form; ValueError for what the form cannot hold."""
    if not isinstance(record, TraxRecord):
        raise ValueError(f"a Trax game list holds Trax games, not {record.game}")
    match = RULESET.fullmatch(record.ruleset)
    if match is None or record.start is not None:
        raise ValueError(
            f"a Trax game list holds games of ruleset trax/<variant>@1 from the empty board, "
            f"not {record.ruleset!r}" + (" from a start position" if record.start else "")
        )
    headers: dict[str, str] = {}
    if match.group(1) != "standard" or not record.turns:
        headers["Variant"] = match.group(1)
    for colour, player, default in zip(COLOURS, record.players, DEFAULT_NAMES, strict=True):
        if player.name != default:
            headers[colour.capitalize()] = player.name
    for key in EVENT_HEADERS:
        value = getattr(record.event, key.lower())
        if value is not None:
            headers[key] = value
    for key, value in record.tags.items():
        if key.lower() in RESERVED:
            raise ValueError(f"tag {key!r} would be read back as a header of the game list")
        headers[key] = value
    result = record.result
    resign = (
        result is not None
        and result.reason == Reason.RESIGN
        and result.winner == 1 - len(record.turns) % 2
        and result.points == 1
        and result.detail is None
    )
    if result is not None and not resign and result.reason != Reason.RULES:
        if result.winner is None:
            headers["Result"] = f"draw ({result.reason.value})"
        else:
            headers["Result"] = f"{COLOURS[result.winner]} wins ({result.reason.value})"
        if result.detail:
            headers["Result-Detail"] = result.detail
    return gamelist.format_game([turn.move for turn in record.turns], resign, headers)


class TraxListFormat(FileFormat):
    game = "trax"

    def sniff(self, head: bytes) -> bool:
        return gamelist.looks_like_game_list(
            head.decode("utf-8", errors="replace").removeprefix("\ufeff")
        )

    def read(self, stream: IO[bytes]) -> Iterator[Loaded]:
        lines = Utf8Lines(stream)
        return checked(_games(lines), lines)

    def write(self, records: Iterable[Record], stream: IO[str]) -> None:
        for index, record in enumerate(records):
            if index:
                stream.write("\n")
            stream.write(from_record(record))

    def cannot_hold(self, record: Record) -> str | None:
        try:
            from_record(record)
        except ValueError as error:
            return str(error)
        return None


def _games(lines: Iterable[str]) -> Iterator[tuple[int, Loaded]]:
    """Each game's Loaded with the line where its block starts."""
    for number, item in enumerate(gamelist.read_games(lines), 1):
        if isinstance(item, gamelist.GameListError):
            message = f"{item.message} (column {item.column})"
            yield item.line, Loaded(number, item.line, error=RecordError(message, code=item.code))
            continue
        try:
            record = to_record(item)
        except RecordError as error:
            yield item.line, Loaded(number, item.line, error=error)
            continue
        places = tuple((token.line, token.column) for token in item.moves)
        yield item.line, Loaded(number, item.line, record, turn_places=places)
