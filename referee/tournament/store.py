"""A tournament folder: tournament.json (config and seed) and games.jsonl (finished games)."""

from __future__ import annotations

import hashlib
import os
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import IO

from pydantic import BaseModel, ValidationError

from referee.records.io import append_durably, iter_jsonl
from referee.records.model import Record
from referee.tournament.config import ConfigError, TournamentConfig, same_games

CONFIG_FILE = "tournament.json"
GAMES_FILE = "games.jsonl"


def tournament_id(config: TournamentConfig) -> str:
    """The id every record of the tournament carries: the game and a short digest of the
    configuration (seed included), so that the same configuration gives the same files;
    the wall-clock start is only in tournament.json (`created`)."""
    digest = hashlib.sha256(config.model_dump_json().encode("utf-8")).hexdigest()
    return f"{config.game}-{digest[:12]}"


class TournamentFile(BaseModel):
    """The contents of tournament.json."""

    format: str = "referee-tournament"
    version: int = 1
    id: str
    created: str
    config: TournamentConfig


class TournamentStore:
    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.config_path = directory / CONFIG_FILE
        self.games_path = directory / GAMES_FILE

    def exists(self) -> bool:
        return self.config_path.exists()

    def create(self, config: TournamentConfig) -> TournamentFile:
        """Start a new tournament folder, or reopen one that has the same configuration (the
        external bots' launch settings may change: they are how a program is found, not which
        games are played)."""
        if self.exists():
            existing = self.load()
            if existing.config == config:
                return existing
            if not same_games(existing.config, config):
                raise ConfigError(
                    f"{self.directory} holds a tournament with another configuration; "
                    "resume it with 'referee tournament resume' or choose another folder"
                )
            info = existing.model_copy(update={"config": config})
        else:
            self.directory.mkdir(parents=True, exist_ok=True)
            created = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
            info = TournamentFile(id=tournament_id(config), created=created, config=config)
        temporary = self.config_path.with_suffix(".tmp")
        temporary.write_text(info.model_dump_json(indent=2) + "\n", encoding="utf-8")
        os.replace(temporary, self.config_path)
        return info

    def load(self) -> TournamentFile:
        try:
            return TournamentFile.model_validate_json(self.config_path.read_bytes())
        except OSError as error:
            raise ConfigError(f"{self.config_path}: cannot read: {error.strerror}") from None
        except ValidationError as error:
            raise ConfigError(f"{self.config_path}: not a tournament file: {error}") from None

    def records(self) -> list[Record]:
        """The stored games in file order; an unreadable line (a write cut short) is skipped."""
        if not self.games_path.exists():
            return []
        with self.games_path.open("rb") as stream:
            return [loaded.record for loaded in iter_jsonl(stream) if loaded.record is not None]

    def by_job(self) -> dict[int, list[Record]]:
        """The stored games of each scheduled job (a game, or the games of a match), by the
        job's number; a game stored twice counts once."""
        jobs: dict[int, list[Record]] = {}
        for record in self.records():
            number = record.event.game_number
            if number is None:
                continue
            games = jobs.setdefault(number, [])
            if record not in games:
                games.append(record)
        return jobs

    def open_for_append(self) -> IO[str]:
        """Open games.jsonl for appending, first cutting off a last line left half-written."""
        if self.games_path.exists():
            with self.games_path.open("rb+") as stream:
                stream.truncate(_complete_length(stream))
        return self.games_path.open("a", encoding="utf-8")

    @staticmethod
    def append(stream: IO[str], records: Sequence[Record]) -> None:
        append_durably(stream, records)


def _complete_length(stream: IO[bytes], chunk: int = 1 << 16) -> int:
    """The length of the file up to and including its last newline."""
    end = stream.seek(0, os.SEEK_END)
    position = end
    while position > 0:
        start = max(0, position - chunk)
        stream.seek(start)
        block = stream.read(position - start)
        newline = block.rfind(b"\n")
        if newline >= 0:
            return start + newline + 1
        position = start
    return 0
