"""PDN files (GameType 31) as Thai checkers records.

Seats: Black moves first in Thai checkers, so seat 0 is Black (the `Black` tag) and seat 1 is
White. Results: PDN writes a result as the score of the side that starts the game type first
(PDN 2.0 for English checkers: `1-0` "indicating Black won"; PDN 3.0's `2-0` for White in
international draughts, where White starts), so in GameType 31 `2-0` (or `1-0`) means Black
won, `0-2` (or `0-1`) White won, `1-1` (or `1/2-1/2`) a draw, `*` no result.

Tags: Event, Site, Date and Round go to `record.event` (`?` and `????.??.??` mean unknown),
FEN to `record.start`, every other tag to `record.tags`, except those referee writes to keep
what PDN has no tag for: `ResultReason` and `ResultDetail` (the result's reason and detail),
`ResultPoints` (when not the usual 1 for a win, 0 for a draw), `BlackKind`, `WhiteKind`,
`BlackSpec`, `WhiteSpec` (the players), `Tournament`, `Pairing`, `GameNumber` (the event),
`Ruleset` (when not `thai/standard@1`). A turn's time and engine output go into its comment
as commands that read back: `[%emt seconds]` (time used), `[%clk H:MM:SS.mmm]` (the mover's
clock after the move), `[%eval SCORE]` (the bot's score as recorded: its own units and point
of view), `[%depth N]`, `[%nodes N]` and `[%pv MOVE MOVE ...]` (left out when a move of it
has a space or a bracket). Comments before the first move become the tag `Comment`.

A PDN result does not say why a game ended. Without a `ResultReason` tag the moves are
replayed: a game that ends on the board by the rules gets the reason `rules`; otherwise a
win is taken as a resignation and a draw as adjudicated (agreed), each with a detail saying
the reason was inferred.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Iterator
from typing import IO

from pydantic import ValidationError

from referee.games import get_game
from referee.games.base import GameError, NotationError
from referee.games.thai.fen import format_fen, parse_fen
from referee.games.thai.pdn import GAME_TYPE, PdnGame, PdnMove, read_games, write_game
from referee.records.formats.base import FileFormat
from referee.records.formats.text import Utf8Lines, checked
from referee.records.io import Loaded, RecordError, schema_error
from referee.records.model import EventInfo, Player, Reason, Record, Result, ThaiRecord, Turn

RULESET = "thai/standard@1"

_WINNER = {"2-0": 0, "1-0": 0, "0-2": 1, "0-1": 1, "1-1": None, "1/2-1/2": None}
_TOKEN = {0: "2-0", 1: "0-2", None: "1-1"}
_SEATS = (("Black", 0), ("White", 1))
_EVENT_TAGS = (("Event", "event"), ("Site", "site"), ("Date", "date"), ("Round", "round"))
_EVENT_NUMBERS = (("Pairing", "pairing"), ("GameNumber", "game_number"))
_UNKNOWN = frozenset({"", "?", "????.??.??"})
_MAPPED = frozenset(
    {
        "Event",
        "Site",
        "Date",
        "Round",
        "White",
        "Black",
        "Result",
        "GameType",
        "FEN",
        "Ruleset",
        "BlackKind",
        "WhiteKind",
        "BlackSpec",
        "WhiteSpec",
        "Tournament",
        "Pairing",
        "GameNumber",
        "ResultReason",
        "ResultDetail",
        "ResultPoints",
    }
)
_COMMAND = re.compile(r"\[%(emt|clk|eval|depth|nodes|pv)\s+([^\]]*?)\s*\]")
_DECIMAL = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
_PV_MOVE = re.compile(r"[^\s\[\]{}]+")
_TAG_HEAD = re.compile(rb'\s*\[\s*[A-Za-z][A-Za-z0-9_]*\s+"')


class _Unreadable(Exception):
    def __init__(self, message: str, *, code: str, line: int) -> None:
        super().__init__(message)
        self.error = RecordError(message, code=code)
        self.line = line


def move_numbers(turns: int, white_starts: bool = False) -> tuple[str, ...]:
    """PDN move numbers of the turns: `1.` for Black's move, `1...` for White's."""
    offset = 1 if white_starts else 0
    return tuple(
        f"{(i + offset) // 2 + 1}{'.' if (i + offset) % 2 == 0 else '...'}" for i in range(turns)
    )


def _white_starts(record: Record) -> bool:
    return record.start is not None and record.start.lstrip().upper().startswith("W")


class PdnFormat(FileFormat):
    game = "thai"

    def sniff(self, head: bytes) -> bool:
        return _TAG_HEAD.match(head.removeprefix(b"\xef\xbb\xbf")) is not None

    def read(self, stream: IO[bytes]) -> Iterator[Loaded]:
        lines = Utf8Lines(stream)
        return checked(_games(lines), lines)

    def write(self, records: Iterable[Record], stream: IO[str]) -> None:
        for record in records:
            stream.write(_pdn_text(record))

    def cannot_hold(self, record: Record) -> str | None:
        try:
            _pdn_text(record)
        except ValueError as error:
            return str(error)
        return None


def _pdn_text(record: Record) -> str:
    if not isinstance(record, ThaiRecord):
        raise ValueError(f"PDN holds Thai checkers records, not {record.game}")
    return write_game(record_to_pdn(record))


def _games(lines: Iterable[str]) -> Iterator[tuple[int, Loaded]]:
    """Each game's Loaded with the line where the game starts."""
    for number, game in enumerate(read_games(lines), 1):
        try:
            record, places = pdn_to_record(game)
        except _Unreadable as problem:
            yield game.line, Loaded(number, problem.line, error=problem.error)
        except ValidationError as error:
            # A tag value a record cannot hold: a Ruleset not of the form game/variant@N,
            # a number past the largest a record holds.
            ruleset = game.tags.get("Ruleset")
            yield game.line, Loaded(number, game.line, error=schema_error(error, ruleset))
        else:
            labels = move_numbers(len(record.turns), white_starts=_white_starts(record))
            loaded = Loaded(number, game.line, record, turn_places=places, turn_labels=labels)
            yield game.line, loaded


def pdn_to_record(game: PdnGame) -> tuple[ThaiRecord, tuple[tuple[int, int], ...]]:
    """The record of one PDN game and the (line, column) of each move; raises _Unreadable."""
    tags = game.tags
    if game.error is not None:
        error = game.error
        raise _Unreadable(
            f"{error.message} (line {error.line}, column {error.column})",
            code=error.code,
            line=error.line,
        )
    _check_game_type(game)
    start = _start(tags.get("FEN"))
    first = 1 if (start or "").strip().strip('"').upper().startswith("W") else 0
    turns = [_turn((first + index) % 2, move) for index, move in enumerate(game.moves)]
    players = [_player(game, colour) for colour, _ in _SEATS]
    ruleset = tags.get("Ruleset") or RULESET
    record_tags = {name: value for name, value in tags.items() if name not in _MAPPED}
    if game.comments:
        earlier = [record_tags["Comment"]] if "Comment" in record_tags else []
        record_tags["Comment"] = " ".join([*earlier, *game.comments])
    winner, has_result = _winner(game)
    result = _result(game, winner, ruleset, start, turns) if has_result else None
    record = ThaiRecord(
        game="thai",
        ruleset=ruleset,
        players=players,
        event=_event(game),
        start=start,
        turns=turns,
        result=result,
        tags=record_tags,
    )
    return record, tuple((move.line, move.column) for move in game.moves)


def _check_game_type(game: PdnGame) -> None:
    value = game.tags.get("GameType")
    if value is None:
        return
    spec = value.replace(" ", "")
    if spec.split(",")[0] != "31":
        raise _Unreadable(
            f"GameType {value!r} is not Thai checkers (GameType 31)",
            code="pdn.game-type",
            line=game.tag_lines.get("GameType", game.line),
        )
    if spec not in ("31", GAME_TYPE):
        raise _Unreadable(
            f"GameType {value!r}: only the GameType 31 board {GAME_TYPE!r} is read "
            "(Black starts, square 1 top left)",
            code="pdn.game-type",
            line=game.tag_lines.get("GameType", game.line),
        )


def _start(fen: str | None) -> str | None:
    if fen is None or not fen.strip():
        return None
    try:
        return format_fen(*parse_fen(fen))
    except NotationError:
        # Kept as written: the validator reports what is wrong with it.
        return fen


def _turn(seat: int, move: PdnMove) -> Turn:
    found: dict[str, object] = {}

    def take(command: re.Match[str]) -> str:
        """A command that reads is taken out of the comment (the first of each name kept)."""
        name, value = command.groups()
        parsed = _COMMAND_READERS[name](value)
        if parsed is None:
            return command.group(0)
        found.setdefault(_COMMAND_FIELDS[name], parsed)
        return ""

    texts = [text for text in (_COMMAND.sub(take, c).strip() for c in move.comments) if text]
    return Turn(seat=seat, move=move.text, comment=" ".join(texts) or None, **found)  # type: ignore[arg-type]


def _score(value: str) -> int | float | None:
    if re.fullmatch(r"[+-]?[0-9]+", value):
        return int(value)
    if not _DECIMAL.fullmatch(value):
        return None
    number = float(value)
    return number if math.isfinite(number) else None


def _duration(value: str) -> int | None:
    """Seconds, or H:MM:SS.mmm, in milliseconds."""
    return _milliseconds(value) if re.fullmatch(r"[0-9:.]+", value) else None


def _whole(value: str) -> int | None:
    return int(value) if re.fullmatch(r"[0-9]+", value) else None


_COMMAND_READERS: dict[str, Callable[[str], object]] = {
    "emt": _duration,
    "clk": _duration,
    "eval": _score,
    "depth": _whole,
    "nodes": _whole,
    "pv": lambda value: value.split() or None,
}
_COMMAND_FIELDS = {
    "emt": "time_ms",
    "clk": "clock_ms",
    "eval": "score",
    "depth": "depth",
    "nodes": "nodes",
    "pv": "pv",
}


def _milliseconds(value: str) -> int | None:
    seconds = 0.0
    try:
        for part in value.split(":"):
            seconds = seconds * 60 + float(part)
    except ValueError:
        return None
    return round(seconds * 1000) if math.isfinite(seconds) and seconds >= 0 else None


def _clock_text(milliseconds: int) -> str:
    minutes, ms = divmod(milliseconds, 60_000)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}:{minutes:02d}:{ms // 1000:02d}.{ms % 1000:03d}"


def _notes(turn: Turn) -> list[str]:
    """The commands that keep a turn's time, clock and engine output in its comment."""
    notes = []
    if turn.time_ms is not None:
        notes.append(f"[%emt {turn.time_ms / 1000:.3f}]")
    if turn.clock_ms is not None:
        notes.append(f"[%clk {_clock_text(turn.clock_ms)}]")
    if turn.score is not None:
        notes.append(f"[%eval {turn.score!r}]")
    if turn.depth is not None:
        notes.append(f"[%depth {turn.depth}]")
    if turn.nodes is not None:
        notes.append(f"[%nodes {turn.nodes}]")
    if turn.pv and all(_PV_MOVE.fullmatch(move) for move in turn.pv):
        notes.append(f"[%pv {' '.join(turn.pv)}]")
    if turn.comment is not None:
        notes.append(turn.comment)
    return notes


def _player(game: PdnGame, colour: str) -> Player:
    tags = game.tags
    kind = tags.get(f"{colour}Kind", "human")
    if kind not in ("human", "bot", "external"):
        raise _Unreadable(
            f"{colour}Kind {kind!r} is not human, bot or external",
            code="pdn.tag",
            line=game.tag_lines.get(f"{colour}Kind", game.line),
        )
    name = tags.get(colour, "").strip() or "?"
    return Player(name=name, kind=kind, spec=tags.get(f"{colour}Spec"))  # type: ignore[arg-type]


def _event(game: PdnGame) -> EventInfo:
    tags = game.tags
    fields: dict[str, object] = {}
    for tag, name in _EVENT_TAGS:
        value = tags.get(tag)
        if value is not None and value.strip() not in _UNKNOWN:
            fields[name] = value
    if tags.get("Tournament"):
        fields["tournament"] = tags["Tournament"]
    for tag, name in _EVENT_NUMBERS:
        if tag in tags:
            value = tags[tag].strip()
            if not value.isdigit():
                raise _Unreadable(
                    f"{tag} {tags[tag]!r} is not a number",
                    code="pdn.tag",
                    line=game.tag_lines.get(tag, game.line),
                )
            fields[name] = int(value)
    return EventInfo(**fields)  # type: ignore[arg-type]


def _winner(game: PdnGame) -> tuple[int | None, bool]:
    """The winner's seat and whether there is a result at all."""
    tag, token = game.tags.get("Result"), game.result
    line = game.tag_lines.get("Result", game.line)
    values: list[str | None] = []
    for text in (tag, token):
        if text is None or text.strip() == "*":
            values.append(None)
            continue
        text = text.strip()
        if text == "0-0":
            raise _Unreadable(
                "the result 0-0 (lost for both) has no place in a record",
                code="pdn.result",
                line=line,
            )
        if text not in _WINNER:
            raise _Unreadable(f"{text!r} is not a PDN result", code="pdn.result", line=line)
        values.append(text)
    tagged, ended = values
    if tagged is not None and ended is not None and _WINNER[tagged] != _WINNER[ended]:
        raise _Unreadable(
            f"the Result tag says {tag} but the moves end with {token}",
            code="pdn.result-mismatch",
            line=line,
        )
    if tag is not None and token is not None and (tagged is None) != (ended is None):
        raise _Unreadable(
            f"the Result tag says {tag} but the moves end with {token}",
            code="pdn.result-mismatch",
            line=line,
        )
    decided = tagged or ended
    if decided is None:
        return None, False
    return _WINNER[decided], True


def _result(
    game: PdnGame, winner: int | None, ruleset: str, start: str | None, turns: list[Turn]
) -> Result:
    tags = game.tags
    points = 1 if winner is not None else 0
    if "ResultPoints" in tags:
        if not tags["ResultPoints"].strip().isdigit():
            raise _Unreadable(
                f"ResultPoints {tags['ResultPoints']!r} is not a number",
                code="pdn.tag",
                line=game.tag_lines.get("ResultPoints", game.line),
            )
        points = int(tags["ResultPoints"])
    if "ResultReason" not in tags:
        reason, detail = _inferred_reason(winner, ruleset, start, turns)
        return Result(winner=winner, points=points, reason=reason, detail=detail)
    try:
        reason = Reason(tags["ResultReason"])
    except ValueError:
        known = ", ".join(r.value for r in Reason)
        raise _Unreadable(
            f"ResultReason {tags['ResultReason']!r} is not one of {known}",
            code="pdn.tag",
            line=game.tag_lines.get("ResultReason", game.line),
        ) from None
    detail = tags.get("ResultDetail")
    return Result(winner=winner, points=points, reason=reason, detail=detail)


def _inferred_reason(
    winner: int | None, ruleset: str, start: str | None, turns: list[Turn]
) -> tuple[Reason, str | None]:
    game = get_game("thai")
    try:
        state = game.initial_state(game.parse_ruleset(ruleset), start)
        for turn in turns:
            state = game.play_text(state, turn.move)
    except GameError:
        # The validator reports the bad move; the reason stays that of a game played out.
        return Reason.RULES, None
    outcome = state.outcome()
    if outcome is not None:
        return Reason.RULES, outcome.detail
    if winner is None:
        return Reason.ADJUDICATED, "drawn off the board (no ResultReason tag; inferred)"
    return Reason.RESIGN, "won off the board (no ResultReason tag; inferred as resignation)"


def record_to_pdn(record: ThaiRecord) -> PdnGame:
    """The PDN game of a record, with every move in canonical notation where it replays.

    Raises ValueError for what PDN cannot hold: turns that do not alternate from the side
    to move, or record tags named like the tags referee maps.
    """
    clash = sorted(set(record.tags) & _MAPPED)
    if clash:
        raise ValueError(f"record tags {clash} clash with the tags PDN export writes")
    tags: dict[str, str] = {}
    event = record.event
    for tag, name in _EVENT_TAGS:
        value = getattr(event, name)
        if value is not None:
            tags[tag] = value
    tags["White"] = record.players[1].name
    tags["Black"] = record.players[0].name
    token = "*" if record.result is None else _TOKEN[record.result.winner]
    tags["Result"] = token
    tags["GameType"] = GAME_TYPE
    if record.start is not None:
        tags["FEN"] = record.start
    if record.ruleset != RULESET:
        tags["Ruleset"] = record.ruleset
    for colour, seat in _SEATS:
        player = record.players[seat]
        if player.kind != "human":
            tags[f"{colour}Kind"] = player.kind
        if player.spec is not None:
            tags[f"{colour}Spec"] = player.spec
    if event.tournament is not None:
        tags["Tournament"] = event.tournament
    for tag, name in _EVENT_NUMBERS:
        value = getattr(event, name)
        if value is not None:
            tags[tag] = str(value)
    result = record.result
    if result is not None:
        tags["ResultReason"] = result.reason.value
        if result.detail is not None:
            tags["ResultDetail"] = result.detail
        if result.points != (1 if result.winner is not None else 0):
            tags["ResultPoints"] = str(result.points)
    tags.update(record.tags)
    first = 1 if (record.start or "").strip().upper().startswith("W") else 0
    moves = []
    for index, (turn, text) in enumerate(zip(record.turns, _canonical(record), strict=True)):
        if turn.seat != (first + index) % 2:
            raise ValueError(
                f"turn {index + 1} is seat {turn.seat}'s, but the players alternate from "
                f"seat {first}: PDN cannot hold that"
            )
        notes = _notes(turn)
        moves.append(PdnMove(text, comments=[" ".join(notes)] if notes else []))
    return PdnGame(tags=tags, moves=moves, result=token)


def _canonical(record: ThaiRecord) -> list[str]:
    """Each turn's move in canonical notation, as far as the record replays; then as written."""
    game = get_game("thai")
    texts = [turn.move for turn in record.turns]
    try:
        state = game.initial_state(game.parse_ruleset(record.ruleset), record.start)
        for index, text in enumerate(texts):
            move = game.parse_move(state, text)
            texts[index] = game.format_move(state, move)
            state = state.play(move)
    except GameError:
        pass
    return texts
