"""Checking records: replay every turn, then hold the declared result against the position."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

from referee.games.base import Game, Outcome, State, ruleset_variant
from referee.records.formats import detect_stream
from referee.records.io import Loaded, RecordError, jsonl_lines, load_line
from referee.records.model import Reason, Record, Result
from referee.records.replay import GameLog, ReplayError, final_state, game_of
from referee.records.scan import ScanResult, WholeRecord, read_whole
from referee.validator.diagnostics import Diagnostic, GameReport
from referee.validator.matches import MatchTracker

LEGAL_SHOWN = 20


def _legal_moves(game: Game[Any, Any], state: State[Any]) -> list[str]:
    if state.is_terminal() or state.is_chance():
        return []
    moves = [game.format_move(state, move) for move in state.legal_moves()]
    if len(moves) > LEGAL_SHOWN:
        return [*moves[:LEGAL_SHOWN], f"... ({len(moves) - LEGAL_SHOWN} more)"]
    return moves


def describe_outcome(winner: int | None, points: int) -> str:
    if winner is None:
        return "a draw"
    return f"seat {winner} wins" + (f" {points} points" if points != 1 else "")


def result_problems(
    result: Result | ScanResult | None, outcome: Outcome | None, points: tuple[int, ...] = (1,)
) -> list[tuple[str, str]]:
    """How a declared result disagrees with the replayed end, as (code, message) pairs.

    `points` are what a win the rules did not decide may score at the end (Game.win_points
    for the declared winner)."""
    if result is None:
        if outcome is None:
            return []
        what = describe_outcome(outcome.winner, outcome.points)
        detail = f" by {outcome.detail}" if outcome.detail else ""
        return [
            (
                "result-missing",
                f"the game ended by the rules ({what}{detail}) but no result is declared",
            )
        ]
    # The outcomes are described only for a problem: most games have none.
    if outcome is None:
        if result.reason == Reason.RULES:
            declared = describe_outcome(result.winner, result.points)
            return [
                (
                    "result-not-over",
                    f"the result says {declared} by the rules, but the game is not over",
                )
            ]
        return _stopped_problems(result, points)
    if result.reason != Reason.RULES:
        actual = describe_outcome(outcome.winner, outcome.points)
        return [
            (
                "result-reason",
                f"the game ended by the rules ({actual}), not by {result.reason.value}",
            )
        ]
    if result.winner != outcome.winner or result.points != outcome.points:
        declared = describe_outcome(result.winner, result.points)
        actual = describe_outcome(outcome.winner, outcome.points)
        return [("result-mismatch", f"the result says {declared}, the replay gives {actual}")]
    return []


def _stopped_problems(
    result: Result | ScanResult, points: tuple[int, ...]
) -> list[tuple[str, str]]:
    """A game stopped before the rules ended it: a resignation or a forfeit has a loser, a
    draw scores 0, and a win scores what the ruleset gives at that point."""
    reason = result.reason.value
    if result.winner is None:
        if result.reason != Reason.ADJUDICATED:
            return [("result-reason", f"a draw by {reason}: only an adjudication can be a draw")]
        if result.points:
            return [("result-points", f"a draw scores 0 points, not {result.points}")]
        return []
    if result.points not in points:
        allowed = " or ".join(map(str, points))
        return [
            (
                "result-points",
                f"a win by {reason} scores {allowed} point{'s' if points != (1,) else ''} "
                f"here, not {result.points}",
            )
        ]
    return []


def validate_record(
    record: Record,
    file: str,
    number: int,
    line: int | None = None,
    turn_places: tuple[tuple[int, int], ...] = (),
    turn_labels: tuple[str, ...] = (),
) -> GameReport:
    """Replay one record and report every problem found, with its place."""
    diagnostics: list[Diagnostic] = []
    try:
        game = game_of(record)
        state = final_state(record, game)
    except ReplayError as error:
        diagnostic = _replay_diagnostic(error, record, file, number, line, turn_places)
        if error.turn is not None and error.turn < len(turn_labels):
            diagnostic.move_number = turn_labels[error.turn]
        diagnostics.append(diagnostic)
    else:
        for code, message in _declared_problems(game, state, record.result):
            diagnostics.append(
                Diagnostic(
                    code=code,
                    message=message,
                    file=file,
                    game=number,
                    line=line,
                    pointer="/result",
                    position=game.render_text(state),
                )
            )
    return _game_report(record, file, number, line, diagnostics)


def _game_report(
    record: GameLog, file: str, number: int, line: int | None, diagnostics: list[Diagnostic]
) -> GameReport:
    """The report of a game read, valid without `diagnostics`."""
    # Built once, its diagnostics given: a default list would be deep-copied, and each field
    # set afterwards is a validation of its own, the three of them 1.5 us a game.
    return GameReport(
        file=file,
        game=number,
        line=line,
        game_name=record.game,
        variant=ruleset_variant(record.ruleset) or None,
        turns=len(record.turns),
        valid=not diagnostics,
        diagnostics=diagnostics,
    )


def _declared_problems(
    game: Game[Any, Any], state: State[Any], result: Result | ScanResult | None
) -> list[tuple[str, str]]:
    """How the declared result disagrees with the replayed end (`result_problems`)."""
    points: tuple[int, ...] = (1,)
    if result is not None and result.winner is not None:
        points = game.win_points(state, result.winner)
    return result_problems(result, state.outcome(), points)


def _valid_whole(line: str | bytes) -> WholeRecord | None:
    """The record of a line read whole (`scan.read_whole`) when it replays to its declared
    result without a problem; None when it does not, or cannot be read so (the record model
    then reads the line and says what is wrong)."""
    whole = read_whole(line)
    if whole is None:
        return None
    try:
        game = game_of(whole)
        state = final_state(whole, game)
    except ReplayError:
        return None
    return None if _declared_problems(game, state, whole.result) else whole


def _replay_diagnostic(
    error: ReplayError,
    record: Record,
    file: str,
    number: int,
    line: int | None,
    turn_places: tuple[tuple[int, int], ...],
) -> Diagnostic:
    column = None
    turn = record.turns[error.turn] if error.turn is not None else None
    if error.turn is not None and error.turn < len(turn_places):
        line, column = turn_places[error.turn]
    game = game_of(record) if error.state is not None else None
    return Diagnostic(
        code=error.code,
        message=error.message,
        file=file,
        game=number,
        line=line,
        column=column,
        pointer=error.pointer or None,
        turn=None if error.turn is None else error.turn + 1,
        seat=None if turn is None else turn.seat,
        move=None if turn is None else turn.move,
        position=None if game is None else game.render_text(error.state),
        legal=None if game is None or error.state is None else _legal_moves(game, error.state),
    )


def _error_report(file: str, loaded: Loaded, error: RecordError) -> GameReport:
    """A game that could not be read; number and line 0 mean the file as a whole."""
    game, line = loaded.number or None, loaded.line or None
    diagnostic = Diagnostic(
        code=error.code,
        message=error.message,
        file=file,
        game=game,
        line=line,
        pointer=error.pointer or None,
    )
    return GameReport(file=file, game=game, line=line, valid=False, diagnostics=[diagnostic])


def validate_loaded(file: str, loaded: Loaded) -> GameReport:
    if loaded.error is not None or loaded.record is None:
        assert loaded.error is not None
        return _error_report(file, loaded, loaded.error)
    return validate_record(
        loaded.record, file, loaded.number, loaded.line, loaded.turn_places, loaded.turn_labels
    )


def validate_stream(stream: IO[bytes], file: str, path: Path | None) -> Iterator[GameReport]:
    """A report for every game of a stream; the format comes from the name or the content."""
    file_format, stream = detect_stream(path, stream)
    if file_format is None:
        error = RecordError("not a game record file in any format referee reads", code="format")
        yield _error_report(file, Loaded(0, 0), error)
        return
    empty = True
    matches = MatchTracker()
    games = (
        _jsonl_games(stream, file)
        if file_format.name == "jsonl"
        else ((validate_loaded(file, loaded), loaded.record) for loaded in file_format.read(stream))
    )
    for report, record in games:
        empty = False
        problems = [] if record is None else matches.check(record)
        if problems:
            report.diagnostics.extend(
                Diagnostic(
                    code=code,
                    message=message,
                    file=file,
                    game=report.game,
                    line=report.line,
                    pointer="/match",
                )
                for code, message in problems
            )
            report.valid = False
        yield report
    if empty:
        yield _error_report(file, Loaded(0, 0), RecordError("the file holds no game", code="empty"))


def _jsonl_games(
    stream: IO[bytes], file: str
) -> Iterator[tuple[GameReport, Record | WholeRecord | None]]:
    """The report of each record of a JSONL stream, with the record read (None for a line
    that holds none). Each line is read whole first, without the record model
    (`scan.read_whole`): a record so read that replays to its declared result is valid, and
    is reported so at once. Any other line is read by the record model and validated as a
    record of any format is, so that what is wrong is said as everywhere else."""
    for number, line_number, line in jsonl_lines(stream):
        whole = _valid_whole(line)
        if whole is not None:
            yield _game_report(whole, file, number, line_number, []), whole
            continue
        loaded = load_line(number, line_number, line)
        yield validate_loaded(file, loaded), loaded.record


def record_line_valid(line: bytes) -> bool:
    """Whether one record's JSON line is valid on its own, as `validate_record` judges it (a
    tournament's check of the games it plays): read whole and played on one board where it
    can be, as `referee validate` reads a line, else read by the record model."""
    return _valid_whole(line) is not None or validate_loaded("", load_line(1, 1, line)).valid


def validate_file(path: Path) -> Iterator[GameReport]:
    """A report for every game of a record file."""
    file = str(path)
    try:
        with path.open("rb") as stream:
            yield from validate_stream(stream, file, path)
    except OSError as error:
        yield _error_report(
            file, Loaded(0, 0), RecordError(f"cannot read: {error.strerror}", code="io")
        )
