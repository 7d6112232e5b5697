"""A tournament's configuration: from the command line or a TOML file, kept in tournament.json."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator


class ConfigError(ValueError):
    """A configuration that cannot run, with the reason."""


class BotEntry(BaseModel):
    """One participant: a built-in bot by spec, or an external program."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(min_length=1, description="the name in standings and records")
    spec: str | None = Field(default=None, description="built-in bot, e.g. 'alphabeta:depth=4'")
    command: list[str] | None = Field(default=None, description="an external bot's command line")
    protocol: Literal["json", "trax"] = "json"
    startup_time: float = Field(default=10.0, gt=0, description="seconds to answer the hello")
    memory_mb: int | None = Field(default=None, ge=16, description="address-space cap")
    max_line: int = Field(default=1 << 20, ge=64, description="longest line accepted, bytes")

    @model_validator(mode="after")
    def _one_kind(self) -> BotEntry:
        if (self.spec is None) == (self.command is None):
            raise ValueError(f"bot {self.name!r} needs exactly one of 'spec' or 'command'")
        return self


class TournamentConfig(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    game: str
    variant: str = "standard"
    options: dict[str, str | int] = Field(default={}, description="ruleset options")
    bots: list[BotEntry] = Field(min_length=2)
    games_per_pair: int = Field(
        default=2, ge=2, le=1_000_000, description="games of each pairing, even"
    )
    seed: str = "1"
    turn_cap: int | None = Field(default=None, ge=1, description="adjudicated draw after this")
    time_limit: float | None = Field(default=None, gt=0, description="seconds per move")
    event: str | None = None

    @field_validator("games_per_pair")
    @classmethod
    def _even(cls, value: int) -> int:
        if value % 2:
            raise ValueError("games are played in pairs with seats swapped: give an even number")
        return value

    @model_validator(mode="after")
    def _unique_names(self) -> TournamentConfig:
        names = [bot.name for bot in self.bots]
        duplicates = sorted({name for name in names if names.count(name) > 1})
        if duplicates:
            raise ValueError(f"bot names must be unique, repeated: {', '.join(duplicates)}")
        return self


def split_bot_specs(text: str) -> list[str]:
    """Split `random,greedy,alphabeta:depth=4,time=1` into bot specs.

    A piece with '=' but no ':' continues the options of the spec before it.
    """
    specs: list[str] = []
    for piece in (p.strip() for p in text.split(",")):
        if not piece:
            continue
        if "=" in piece and ":" not in piece and specs:
            specs[-1] += "," + piece
        else:
            specs.append(piece)
    return specs


def bot_entries(specs: list[str], externals: list[str]) -> list[BotEntry]:
    """Built-in specs named by themselves (`random`, `random#2` when given twice, for
    self-play), and externals given as NAME=COMMAND."""
    entries = []
    for index, spec in enumerate(specs):
        repeat = specs[:index].count(spec)
        entries.append(BotEntry(name=spec if not repeat else f"{spec}#{repeat + 1}", spec=spec))
    for item in externals:
        name, eq, command = item.partition("=")
        if not eq or not name.strip() or not command.strip():
            raise ConfigError(f"external bot {item!r} is not NAME=COMMAND")
        protocol: Literal["json", "trax"] = "json"
        if name.endswith("@trax"):
            name, protocol = name.removesuffix("@trax"), "trax"
        entries.append(BotEntry(name=name.strip(), command=command.split(), protocol=protocol))
    return entries


def ruleset_options(items: list[str]) -> dict[str, str | int]:
    """`["match=5"]` -> `{"match": 5}`."""
    options: dict[str, str | int] = {}
    for item in items:
        key, eq, value = item.partition("=")
        if not eq or not key.strip():
            raise ConfigError(f"ruleset option {item!r} is not KEY=VALUE")
        options[key.strip()] = int(value) if value.strip().isdigit() else value.strip()
    return options


def build_config(**fields: object) -> TournamentConfig:
    try:
        return TournamentConfig.model_validate(fields)
    except ValidationError as error:
        raise ConfigError(_first_error(error)) from None


def load_config_file(path: Path, overrides: dict[str, object]) -> TournamentConfig:
    """A TOML configuration, with command-line values taking precedence."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise ConfigError(f"{path}: cannot read: {error.strerror}") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as error:
        raise ConfigError(f"{path}: not TOML: {error}") from None
    data.update({key: value for key, value in overrides.items() if value is not None})
    try:
        return TournamentConfig.model_validate(data)
    except ValidationError as error:
        raise ConfigError(f"{path}: {_first_error(error)}") from None


def _first_error(error: ValidationError) -> str:
    first = error.errors()[0]
    where = ".".join(str(part) for part in first["loc"])
    message = first["msg"].removeprefix("Value error, ")
    return f"{where}: {message}" if where else message
