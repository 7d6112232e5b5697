"""Converting records between formats, rewritten in each game's canonical notation."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

from referee.records.formats import FileFormat, detect_stream, format_for_path
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
    """Write every game of `source` that replays to `target`, in canonical form."""
    result = Conversion()
    target_format = format_for_path(target, to)
    with source.open("rb") as stream:
        source_format, stream = detect_stream(source, stream)
        if source_format is None:
            raise RecordError("format", f"{source}: not a record file referee reads")
        with target.open("w", encoding="utf-8") as out:
            target_format.write(_canonical_games(source, source_format, stream, result), out)
    return result


def _canonical_games(
    source: Path, source_format: FileFormat, stream: IO[bytes], result: Conversion
) -> Iterator[Record]:
    for loaded in source_format.read(stream):
        where = f"{source}: game {loaded.number}"
        if loaded.record is None:
            result.skipped.append(f"{where}: {loaded.error}")
            continue
        try:
            record = canonical(loaded.record)
        except ReplayError as error:
            turn = f" turn {error.turn + 1}" if error.turn is not None else ""
            result.skipped.append(f"{where}{turn}: [{error.code}] {error.message}")
            continue
        result.written += 1
        yield record
