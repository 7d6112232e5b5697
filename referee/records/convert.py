"""Converting records between formats, rewritten in each game's canonical notation."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

from referee.files import write_atomically
from referee.records.formats import RECORD_FORMATS, detect_stream, format_for_path
from referee.records.formats.base import FileFormat
from referee.records.io import RecordError
from referee.records.model import Record
from referee.records.replay import ReplayError, game_of, replay


def canonical(record: Record) -> Record:
    """The record with every move rewritten in canonical notation (raises ReplayError)."""
    game = game_of(record)
    turns = list(record.turns)
    for step in replay(record, game):
        text = game.format_move(step.before, step.move)
        if text != turns[step.turn].move:
            turns[step.turn] = turns[step.turn].model_copy(update={"move": text})
    return record.model_copy(update={"turns": turns})


@dataclass
class Conversion:
    written: int = 0
    skipped: list[str] = field(default_factory=list)
    """Why each game that could not be converted was left out."""
    warnings: list[str] = field(default_factory=list)
    """What was written differently from the record (a name the format cannot hold)."""
    files: int = 1
    """Files written: more than one when a folder gets a file per match."""


def convert(source: Path, target: Path, to: str | None = None) -> Conversion:
    """Write every game of `source` that replays, and that the target format can hold, to
    `target`, in canonical form.

    A format registered with `folder` (`.mat`, one match a file) writes a `target` that is a
    folder, or has no extension, as a file per match or money session. A file target is
    written as a temporary file beside it and renamed only when all went well, so a failed
    conversion leaves no file and never a half-written one. Raises RecordError (code
    `format`) for what cannot be written, naming the target: a target format that holds
    another game than the source's games, a file where no game could be written.
    """
    result = Conversion()
    if target.is_dir() and to is None:
        raise RecordError(f"{target}: a folder target needs --to (the format)", code="format")
    target_format = format_for_path(target, to)
    folder = target.is_dir() or (target_format.entry.folder and not target.suffix)
    with source.open("rb") as raw:
        source_format, stream = detect_stream(source, raw)
        if source_format is None:
            raise RecordError(f"{source}: not a record file referee reads", code="format")
        games = _canonical_games(source, source_format, target_format, stream, result)
        if folder:
            if not target_format.entry.folder:
                folders = ", ".join(f.extensions[0] for f in RECORD_FORMATS if f.folder)
                raise RecordError(
                    f"{target}: {target_format.name} is written to one file; a folder is for "
                    f"{folders}",
                    code="format",
                )
            try:
                result.warnings, result.files = target_format.write_folder(games, target)
            except ValueError as error:
                raise RecordError(f"{target}: {error}", code="format") from None
            return result
        with write_atomically(target) as out:
            try:
                result.warnings = target_format.write(games, out) or []
            except RecordError:
                raise
            except ValueError as error:
                raise RecordError(
                    f"{target}: cannot be written as {target_format.name}: {error}", code="format"
                ) from None
            if not result.written and result.skipped:
                more = f" (and {len(result.skipped) - 1} more)" if result.skipped[1:] else ""
                raise RecordError(
                    f"no game could be written to {target}: {result.skipped[0]}{more}",
                    code="format",
                )
    return result


def _canonical_games(
    source: Path,
    source_format: FileFormat,
    target_format: FileFormat,
    stream: IO[bytes],
    result: Conversion,
) -> Iterator[Record]:
    for loaded in source_format.read(stream):
        where = f"{source}: game {loaded.number}"
        if loaded.record is None:
            result.skipped.append(f"{where}: {loaded.error}")
            continue
        if target_format.game is not None and loaded.record.game != target_format.game:
            raise RecordError(
                f"{where} is a {loaded.record.game} game; {target_format.name} holds only "
                f"{target_format.game} games",
                code="format",
            )
        try:
            record = canonical(loaded.record)
        except ReplayError as error:
            turn = f" turn {error.turn + 1}" if error.turn is not None else ""
            result.skipped.append(f"{where}{turn}: [{error.code}] {error.message}")
            continue
        problem = target_format.cannot_hold(record)
        if problem is not None:
            result.skipped.append(f"{where}: {target_format.name} cannot hold it: {problem}")
            continue
        result.written += 1
        yield record
