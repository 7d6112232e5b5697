"""Converting records between formats, rewritten in each game's canonical notation."""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

from referee.records.formats import FileFormat, detect_format, format_for_path
from referee.records.io import RecordError
from referee.records.model import Record
from referee.records.replay import ReplayError, game_of, replay


def canonical(record: Record) -> Record:
    """The record with every move rewritten in canonical notation (raises ReplayError)."""
    game = game_of(record)
    turns = list(record.turns)
    for step in replay(record, game):
        text = game.format_move(step.before, step.move)
        if text != turns[step.index].move:
            turns[step.index] = turns[step.index].model_copy(update={"move": text})
    return record.model_copy(update={"turns": turns})


@dataclass
class Conversion:
    written: int = 0
    skipped: list[str] = field(default_factory=list)
    """Why each game that could not be converted was left out."""


def convert(source: Path, target: Path, to: str | None = None) -> Conversion:
    """Write every game of `source` that replays, and that the target format can hold, to
    `target`, in canonical form.

    The target is written as a temporary file beside it and renamed only when all went
    well, so a failed conversion leaves no file and never a half-written one. Raises
    RecordError (code `format`) for a target format that holds another game than the source's
    games, and for a file where no game could be written.
    """
    result = Conversion()
    target_format = format_for_path(target, to)
    with source.open("rb") as stream:
        source_format = detect_format(source, stream.peek(4096)[:4096])
        if source_format is None:
            raise RecordError("format", f"{source}: not a record file referee reads")
        games = _canonical_games(source, source_format, target_format, stream, result)
        temporary = target.with_name(f".{target.name}.{os.getpid()}.tmp")
        try:
            with temporary.open("x", encoding="utf-8") as out:
                try:
                    target_format.write(games, out)
                except RecordError:
                    raise
                except ValueError as error:
                    raise RecordError(
                        "format", f"{target}: cannot be written as {target_format.name}: {error}"
                    ) from None
            if not result.written and result.skipped:
                more = f" (and {len(result.skipped) - 1} more)" if result.skipped[1:] else ""
                raise RecordError(
                    "format", f"no game could be written to {target}: {result.skipped[0]}{more}"
                )
            os.replace(temporary, target)
        except BaseException:
            temporary.unlink(missing_ok=True)
            raise
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
                "format",
                f"{where} is a {loaded.record.game} game; {target_format.name} holds only "
                f"{target_format.game} games",
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
