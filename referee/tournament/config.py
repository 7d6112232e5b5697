"""A tournament's configuration: from the command line or a TOML file, kept in tournament.json."""

from __future__ import annotations

import os
import shlex
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    PlainSerializer,
    PlainValidator,
    SerializerFunctionWrapHandler,
    ValidationError,
    field_serializer,
    field_validator,
    model_serializer,
    model_validator,
)
from pydantic_core import PydanticCustomError

from referee.bounds import (
    MAX_GAMES,
    MAX_LINE_BYTES,
    MAX_LOG_MB,
    MAX_MEMORY_MB,
    MAX_ROUNDS,
    MAX_SECONDS,
    MAX_TURNS,
    MIN_LOG_MB,
    MIN_SECONDS,
)
from referee.errors import RefereeError, plain_problem
from referee.escaping import escaped, quoted
from referee.games import get_game
from referee.records.model import MAX_NAME
from referee.tournament.adjudication import Adjudication, parse_adjudication
from referee.tournament.clock import TimeControl, parse_time_control

if TYPE_CHECKING:
    from referee.games.base import Game, Ruleset
    from referee.ratings.sprt import SprtSpec

TC_HELP = "game clock BASE+INC in seconds, e.g. '10+0.1' or '40'"


def _time_control(value: object) -> TimeControl:
    """A time control as written (parsed once, here), or one parsed already."""
    if isinstance(value, TimeControl):
        return value
    if not isinstance(value, str):
        raise PydanticCustomError("string_type", "Input should be a valid string")
    return parse_time_control(value)


def _adjudication(value: object) -> Adjudication:
    """The adjudication rules as written (parsed once, here), or parsed already."""
    if isinstance(value, Adjudication):
        return value
    if not isinstance(value, list):
        raise PydanticCustomError("list_type", "Input should be a valid list")
    if not all(isinstance(item, str) for item in value):
        raise PydanticCustomError("string_type", "Input should be a valid string")
    return parse_adjudication(value)


TimeControlField = Annotated[
    TimeControl,
    PlainValidator(_time_control, json_schema_input_type=str),
    PlainSerializer(lambda control: control.text, return_type=str),
]
"""A time control, written in tournament.json as it was given."""


def canonical_sprt(text: str) -> SprtSpec:
    """The SPRT written as `text`, as tournament.json keeps it: its `SprtSpec.text` read back,
    so that a test equals the one its file gives (SprtError: not an SPRT)."""
    from referee.ratings.sprt import SprtSpec  # numpy: only when asked for

    return SprtSpec.parse(SprtSpec.parse(text).text())


def _sprt(value: object) -> SprtSpec:
    """An SPRT as written (parsed once, here), or parsed already."""
    from referee.ratings.sprt import SprtError, SprtSpec

    if isinstance(value, SprtSpec):
        return value
    if not isinstance(value, str):
        raise PydanticCustomError("string_type", "Input should be a valid string")
    try:
        return canonical_sprt(value)
    except SprtError as error:
        raise ValueError(str(error).removeprefix("SPRT: ")) from None


if TYPE_CHECKING:
    SprtField = SprtSpec
else:
    # The type is known only where it is used: referee.ratings imports numpy, which a
    # configuration without an SPRT never needs.
    SprtField = Annotated[
        object,
        PlainValidator(_sprt, json_schema_input_type=str),
        PlainSerializer(lambda spec: spec.text(), return_type=str),
    ]
"""An SPRT's bounds, written in tournament.json as `SprtSpec.text` writes them."""

AdjudicationField = Annotated[
    Adjudication,
    PlainValidator(_adjudication, json_schema_input_type=list[str]),
    PlainSerializer(lambda rules: rules.written(), return_type=list[str]),
]
"""The adjudication rules, written in tournament.json as they were given."""


MAX_JOBS = 100_000_000
"""The most games (or matches) a schedule holds: the runner keeps a byte for each."""


class ConfigError(RefereeError, ValueError):
    """A configuration that cannot run, with the reason."""

    code = "config"


class BotEntry(BaseModel):
    """One participant: a built-in bot by spec, or an external program."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(
        min_length=1, max_length=MAX_NAME, description="the name in standings and records"
    )
    spec: str | None = Field(default=None, description="built-in bot, e.g. 'alphabeta:depth=4'")
    command: list[str] | None = Field(default=None, description="an external bot's command line")
    protocol: Literal["json", "trax"] = "json"
    startup_time: float = Field(
        default=10.0,
        ge=MIN_SECONDS,
        le=MAX_SECONDS,
        description="seconds to answer the hello; added to a Trax contest program's first move",
    )
    memory_mb: int | None = Field(
        default=None, ge=16, le=MAX_MEMORY_MB, description="address-space cap"
    )
    max_line: int = Field(
        default=1 << 20,
        ge=64,
        le=MAX_LINE_BYTES,
        description="longest line accepted, bytes",
    )
    # Launch settings of an external program (docs/bot-protocol.md).
    dir: str | None = Field(
        default=None, description="working folder (default: the tournament's scratch folder)"
    )
    args: list[str] = Field(default=[], description="arguments added to the command")
    env: dict[str, str | None] = Field(
        default={}, description="variables added to its environment (stored: the names only)"
    )
    time_limit: float | None = Field(
        default=None, ge=MIN_SECONDS, le=MAX_SECONDS, description="seconds per move"
    )
    trax_team: bool = Field(
        default=False, description="Trax contest protocol: send -T and read the team name first"
    )
    tc: TimeControlField | None = Field(
        default=None, description=TC_HELP + "; overrides the tournament's"
    )

    @model_validator(mode="after")
    def _one_kind(self) -> BotEntry:
        if (self.spec is None) == (self.command is None):
            raise ValueError(f"bot {quoted(self.name)} needs exactly one of 'spec' or 'command'")
        if self.spec is not None:
            given = [key for key in LAUNCH_SETTINGS if getattr(self, key)]
            if given:
                raise ValueError(
                    f"bot {quoted(self.name)} is built in: {', '.join(given)} only apply to "
                    "programs"
                )
        return self

    @field_serializer("env")
    def _names_only(self, env: dict[str, str | None]) -> dict[str, None]:
        """The values may be secrets: tournament.json keeps the names (resume takes the values
        from the environment it runs in)."""
        return dict.fromkeys(env)

    @property
    def full_command(self) -> list[str]:
        return [*(self.command or []), *self.args]


LAUNCH_SETTINGS = ("dir", "args", "env", "time_limit", "trax_team")


class TournamentConfig(BaseModel):
    # A field whose key is a word with other meanings in referee (`format`) has a precise name
    # and the key as its alias: read and written by the key alone, so files keep their keys.
    model_config = ConfigDict(extra="forbid", frozen=True, serialize_by_alias=True)

    game: str
    variant: str = "standard"
    options: dict[str, str | int] = Field(default={}, description="ruleset options")
    bots: list[BotEntry] = Field(min_length=2)
    games_per_pair: int = Field(
        default=2, ge=2, le=MAX_ROUNDS, description="games of each pairing, even"
    )
    seed: str = "1"
    turn_cap: int | None = Field(
        default=None, ge=1, le=MAX_TURNS, description="adjudicated draw after this"
    )
    time_limit: float | None = Field(
        default=None, ge=MIN_SECONDS, le=MAX_SECONDS, description="seconds per move"
    )
    tc: TimeControlField | None = Field(default=None, description=TC_HELP)
    adjudicate: AdjudicationField = Field(
        default=Adjudication(),
        description="'resign=SCORE:MOVES' and 'draw=SCORE:MOVES:AFTER' rules",
        json_schema_extra={"default": []},  # as written, not the rules' fields
    )
    event: str | None = None
    pass_env: list[str] = Field(
        default=[], description="variables of the runner's environment passed to every program"
    )
    log_limit_mb: float = Field(
        default=10.0,
        ge=MIN_LOG_MB,
        le=MAX_LOG_MB,
        description="cap of each program's stderr log over the tournament",
    )
    pairing_system: Literal["round-robin", "gauntlet"] = Field(
        default="round-robin",
        alias="format",
        description="round-robin: every pairing; gauntlet: the first `seeds` bots meet all others",
    )
    seeds: int = Field(
        default=1,
        ge=1,
        le=MAX_ROUNDS,
        description="gauntlet: how many bots play everyone",
    )
    rounds: int = Field(
        default=1,
        ge=1,
        le=MAX_ROUNDS,
        description="times the whole schedule is played",
    )
    openings: list[str] | None = Field(
        default=None, description="the opening suite, one opening a line (docs/tournaments.md)"
    )
    openings_order: Literal["sequential", "random"] = "sequential"
    openings_start: int = Field(
        default=1, ge=1, le=MAX_GAMES, description="the suite's line to begin with"
    )
    sprt: SprtField | None = Field(
        default=None, description="'elo0=0,elo1=5,alpha=0.05,beta=0.05': stop at a decision"
    )
    luck_adjusted: str | None = Field(
        default=None,
        min_length=1,
        max_length=MAX_NAME,
        description="the SPRT scores pairs by their luck-adjusted results, by this reference "
        "(`referee analyse --engine`)",
    )

    @model_serializer(mode="wrap")
    def _without_unset_luck(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        # Written only when set: the configurations of every tournament before it, their
        # files and their ids (a digest of the configuration), stay as they were.
        data: dict[str, Any] = handler(self)
        if self.luck_adjusted is None:
            data.pop("luck_adjusted", None)
        return data

    @model_validator(mode="after")
    def _coherent(self) -> TournamentConfig:
        if self.pairing_system == "gauntlet" and self.seeds >= len(self.bots):
            raise ValueError(
                f"a gauntlet's --seeds ({self.seeds}) must be fewer than the bots "
                f"({len(self.bots)})"
            )
        from referee.tournament.schedule import schedule_size  # it imports this module

        size = schedule_size(self)
        if size > MAX_JOBS:
            raise ValueError(
                f"the schedule holds {size:,} games or matches (rounds x games per pairing x "
                f"pairings); at most {MAX_JOBS:,}"
            )
        if self.sprt is not None and (len(self.bots) != 2 or self.pairing_system != "round-robin"):
            raise ValueError("an SPRT tests two bots: give exactly two, in a round robin")
        if self.luck_adjusted is not None and self.sprt is None:
            raise ValueError("--luck-adjusted scores an SPRT's pairs: give --sprt too")
        if self.openings is None and self.openings_start != 1:
            raise ValueError("--openings-start goes with --openings")
        if self.openings is not None:
            if not self.openings:
                raise ValueError("the opening suite is empty")
            if self.openings_start > len(self.openings):
                raise ValueError(
                    f"--openings-start {self.openings_start} is past the suite's "
                    f"{len(self.openings)} openings"
                )
            if any(bot.protocol == "trax" for bot in self.bots):
                raise ValueError(
                    "the Trax contest protocol cannot tell a program the book moves of its own "
                    "side: play openings with JSON-protocol bots"
                )
        return self

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

    def time_control(self, index: int) -> TimeControl | None:
        """The clock of bot `index`: its own time control, else the tournament's."""
        return self.bots[index].tc or self.tc

    def rules(self) -> tuple[Game[Any, Any], Ruleset]:
        """The game and the ruleset its games are played under (RulesetError if unknown)."""
        game = get_game(self.game)
        return game, game.ruleset_from(self.variant, self.options)


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


def bot_entries(specs: list[str], externals: list[str], base: Path | None = None) -> list[BotEntry]:
    """Built-in specs named by themselves (`random`, `random#2` when given twice, for
    self-play), and externals given as NAME=COMMAND (paths relative to `base`, by default the
    current folder)."""
    entries = []
    for index, spec in enumerate(specs):
        repeat = specs[:index].count(spec)
        if escaped(spec) != spec:
            raise ConfigError(f"bot spec '{escaped(spec)}' is not UTF-8 text")
        try:
            entries.append(BotEntry(name=spec if not repeat else f"{spec}#{repeat + 1}", spec=spec))
        except ValidationError as error:  # a name too long
            raise ConfigError(f"bot spec {quoted(spec[:40])}...: {first_problem(error)}") from None
    for item in externals:
        name, eq, command = item.partition("=")
        if not eq or not name.strip() or not command.strip():
            raise ConfigError(f"external bot {quoted(item)} is not NAME=COMMAND")
        protocol: Literal["json", "trax"] = "json"
        if name.endswith("@trax"):
            name, protocol = name.removesuffix("@trax"), "trax"
        entry = BotEntry(name=name.strip(), command=command.split(), protocol=protocol)
        entries.append(resolve_paths(entry, base or Path.cwd()))
    return entries


def resolve_paths(entry: BotEntry, base: Path) -> BotEntry:
    """Make a program's relative `dir`, and the relative paths in its command that name files
    in `base` (the program, a script), absolute: a bot runs in its own `dir` or in the
    tournament's scratch folder, never where referee was started."""
    if entry.command is None:
        return entry

    def absolute(part: str) -> str:
        if part.startswith("-") or os.path.isabs(part) or not (base / part).exists():
            return part
        return os.path.normpath(base / part)

    directory = entry.dir
    if directory is not None and not os.path.isabs(directory):
        directory = os.path.normpath(base / directory)
    return entry.model_copy(
        update={"command": [absolute(part) for part in entry.command], "dir": directory}
    )


def with_bot_options(config: TournamentConfig, items: list[str], base: Path) -> TournamentConfig:
    """Apply `NAME.KEY=VALUE` launch settings (`args` split as a shell would and added, `env`
    as `NAME.env=VAR=VALUE`, `dir` relative to `base`, others as written)."""
    bots = {bot.name: bot for bot in config.bots}
    for item in items:
        target, eq, value = item.partition("=")
        name, dot, key = target.rpartition(".")
        if not eq or not dot:
            raise ConfigError(f"--bot-option {quoted(item)} is not NAME.KEY=VALUE")
        if name not in bots:
            known = ", ".join(bots)
            raise ConfigError(f"--bot-option {quoted(item)}: no bot {quoted(name)} ({known})")
        if key in ("name", "spec", "command"):
            raise ConfigError(f"--bot-option {quoted(item)}: {key} is not a launch setting")
        fields: dict[str, object] = dict(bots[name])
        if key == "args":
            try:
                fields["args"] = [*bots[name].args, *shlex.split(value)]
            except ValueError as error:  # an unclosed quote
                raise ConfigError(f"--bot-option {quoted(item)}: {error}") from None
        elif key == "env":
            variable, eq, text = value.partition("=")
            if not eq or not variable:
                raise ConfigError(f"--bot-option {quoted(item)}: give env as {name}.env=VAR=VALUE")
            fields["env"] = {**bots[name].env, variable: text}
        else:
            fields[key] = value
        try:
            entry = BotEntry.model_validate(fields)
        except ValidationError as error:
            raise ConfigError(f"--bot-option {quoted(item)}: {first_problem(error)}") from None
        if key == "dir":
            entry = resolve_paths(entry, base)
        bots[name] = entry
    return config.model_copy(update={"bots": list(bots.values())})


LAUNCH_FIELDS = frozenset(
    {"command", "protocol", "startup_time", "memory_mb", "max_line", *LAUNCH_SETTINGS}
)
RUN_FIELDS = frozenset({"pass_env", "log_limit_mb"})


def game_fields(config: TournamentConfig) -> dict[str, Any]:
    """The configuration as JSON data without how programs are started (`dir`, `command`,
    ...): what decides the games played."""
    data = config.model_dump(mode="json", exclude=set(RUN_FIELDS))
    data["bots"] = [
        {key: value for key, value in bot.items() if key not in LAUNCH_FIELDS}
        for bot in data["bots"]
    ]
    return data


def same_games(first: TournamentConfig, second: TournamentConfig) -> bool:
    """Whether two configurations play the same games, differing at most in how programs are
    started: what a fix after a failed start changes."""
    return game_fields(first) == game_fields(second)


def without_secrets(config: TournamentConfig) -> TournamentConfig:
    """The configuration as tournament.json keeps it: the bots' `env` without values."""
    return TournamentConfig.model_validate(config.model_dump())


def with_environment(
    config: TournamentConfig, source: Mapping[str, str] = os.environ
) -> TournamentConfig:
    """A stored configuration with the values of its bots' `env` taken from `source`."""
    bots = []
    for bot in config.bots:
        missing = [name for name, value in bot.env.items() if value is None and name not in source]
        if missing:
            raise ConfigError(
                f"bot {quoted(bot.name)} needs {', '.join(missing)} in the environment "
                "(tournament.json keeps the names of its env, not the values): set them and "
                "resume again"
            )
        values = {name: source[name] if value is None else value for name, value in bot.env.items()}
        bots.append(bot.model_copy(update={"env": values}))
    return config.model_copy(update={"bots": bots})


def ruleset_options(items: list[str]) -> dict[str, str | int]:
    """`["match=5"]` -> `{"match": 5}`."""
    options: dict[str, str | int] = {}
    for item in items:
        key, eq, value = item.partition("=")
        if not eq or not key.strip():
            raise ConfigError(f"ruleset option {quoted(item)} is not KEY=VALUE")
        options[key.strip()] = int(value) if value.strip().isdigit() else value.strip()
    return options


def build_config(**fields: object) -> TournamentConfig:
    try:
        return TournamentConfig.model_validate(fields)
    except ValidationError as error:
        raise ConfigError(first_problem(error)) from None


def load_config_file(path: Path, overrides: dict[str, object]) -> TournamentConfig:
    """A TOML configuration, with command-line values taking precedence."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise ConfigError(f"{path}: cannot read: {error.strerror}") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as error:
        raise ConfigError(f"{path}: not TOML: {error}") from None
    except RecursionError:
        raise ConfigError(f"{path}: not a configuration: nested too deeply to read") from None
    data.update({key: value for key, value in overrides.items() if value is not None})
    suite = data.pop("openings", None) if isinstance(data.get("openings"), str) else None
    start = data.pop("openings_start", None) if suite is not None else None
    try:
        # Strict: a number written as a string ("3") is a mistake in a file that has numbers.
        config = TournamentConfig.model_validate(data, strict=True)
    except ValidationError as error:
        raise ConfigError(f"{path}: {first_problem(error)}") from None
    if suite is not None:
        config = with_openings(config, suite, path.resolve().parent, start=start)
    if "bots" in overrides and overrides["bots"] is not None:
        return config  # resolved where they were given
    # A file's relative paths mean the same from wherever referee is started.
    folder = path.resolve().parent
    return config.model_copy(update={"bots": [resolve_paths(bot, folder) for bot in config.bots]})


def with_openings(
    config: TournamentConfig, given: str, folder: Path, *, start: object = None
) -> TournamentConfig:
    """The configuration with the opening suite `given`: a file (relative to `folder`) or the
    name of a suite shipped with referee, every line checked by playing it (ConfigError with
    the file, line and rule of the first bad one); the suite's lines, not the file's name, go
    into tournament.json, so a resume needs no file and a suite named either way is the same
    tournament. `start` is the suite's line to begin with (`openings_start`), when given: it is
    checked against the suite, so it waits for the suite."""
    from referee.tournament.openings import OpeningError, find_suite, read_openings

    try:
        game, ruleset = config.rules()
        suite = read_openings(find_suite(given, folder), game, ruleset)
    except OpeningError as error:
        raise ConfigError(str(error)) from None
    fields = {**config.model_dump(), "openings": [o.text() for o in suite]}
    if start is not None:
        fields["openings_start"] = start
    # The dump keeps the names of the bots' env, not their values: the bots are kept whole.
    return build_config(**fields).model_copy(update={"bots": config.bots})


def first_problem(error: ValidationError) -> str:
    """The first problem of a configuration that failed validation: `field.path: why`."""
    first = error.errors()[0]
    where = ".".join(str(part) for part in first["loc"])
    message = plain_problem(dict(first))
    return f"{where}: {message}" if where else message
