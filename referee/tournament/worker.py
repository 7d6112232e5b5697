"""What a worker process does: play a batch of scheduled games and return them compactly."""

from __future__ import annotations

import contextlib
import functools
import os
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, NamedTuple

from referee.file_names import file_stem
from referee.games.agent import Bot
from referee.games.base import Game, Ruleset
from referee.path_names import BOTS_FOLDER, LOGS_FOLDER, SCRATCH_FOLDER, TOURNAMENT_FILE
from referee.players.external import JsonLineBot, Limits, ProgramBot, TraxContestBot
from referee.players.process import BotLog, Launch, minimal_environment
from referee.players.registry import make_bot
from referee.players.running import release, running_bot
from referee.records.io import parse_record
from referee.records.keys import GameKey, game_key
from referee.records.model import EventInfo, Player
from referee.records.scan import scan_jsonl
from referee.tournament.config import BotEntry, TournamentConfig
from referee.tournament.jsonline import json_line
from referee.tournament.luck import analyse_game, analysis_line
from referee.tournament.openings import Opening, opening_order, read_opening
from referee.tournament.play import (
    Ending,
    GameControl,
    GameSetup,
    Scored,
    play_game_data,
    play_match,
)
from referee.tournament.schedule import GameJob
from referee.validator.check import record_line_valid


def player_of(entry: BotEntry) -> Player:
    if entry.command is not None:
        return Player(name=entry.name, kind="external", spec=" ".join(entry.full_command))
    return Player(name=entry.name, kind="bot", spec=entry.spec)


DEFAULT_MOVE_SECONDS = 60.0
"""An external bot's time per move when the tournament sets none: a hang still ends."""


def external_bot(config: TournamentConfig, entry: BotEntry, folder: Path | None) -> ProgramBot:
    """A program's bot, running in its `dir` or the tournament's scratch folder, with the
    minimal environment, its stderr in DIR/logs/NAME.stderr.log (NAME: `file_stem`)."""
    assert entry.command is not None
    limits = Limits(
        move_seconds=entry.time_limit or config.time_limit or DEFAULT_MOVE_SECONDS,
        startup_seconds=entry.startup_time,
    )
    log = BotLog(None)
    scratch = os.getcwd()
    if folder is not None:
        # A folder that cannot be made is told by the log's first write (`BotLog.failure`).
        with contextlib.suppress(OSError):
            (folder / LOGS_FOLDER).mkdir(parents=True, exist_ok=True)
        path = log_path(folder, entry.name)
        log = BotLog(path, round(config.log_limit_mb * (1 << 20)))
        scratch = str(folder / SCRATCH_FOLDER)
        if entry.dir is None:
            os.makedirs(scratch, exist_ok=True)
    added = {name: value for name, value in entry.env.items() if value is not None}
    launch = Launch(
        command=tuple(entry.full_command),
        cwd=entry.dir or scratch,
        env=minimal_environment(added, config.pass_env),
        memory_mb=entry.memory_mb,
        max_line=entry.max_line,
        groups=str(folder / BOTS_FOLDER) if folder is not None else None,
    )
    if entry.protocol == "trax":
        return TraxContestBot(launch, limits, log, team=entry.trax_team)
    return JsonLineBot(launch, limits, log)


def log_path(folder: Path, name: str) -> Path:
    """The stderr log of the program `name` in the tournament folder `folder`."""
    return folder / LOGS_FOLDER / f"{file_stem(name)}.stderr.log"


def book_of(
    config: TournamentConfig, game: Game[Any, Any], ruleset: Ruleset
) -> Callable[[int], Opening | None]:
    """The opening that a pair plays, by its index among its pairing's pairs (None: no suite).

    Only the openings a batch plays are read (a suite may hold thousands of lines, all checked
    when the tournament was made), each once."""
    if config.openings is None:
        return lambda _index: None
    line = opening_order(config.openings, config.openings_order, config.seed, config.openings_start)

    @functools.cache
    def book(index: int) -> Opening:
        return read_opening(game, ruleset, line(index), f"{TOURNAMENT_FILE}: openings")

    return book


Verify = Literal["all", "sample", "none"]
"""Which games a worker replays through the validator after playing them (`--verify`)."""

SAMPLE_EVERY = 16
"""`--verify sample` replays one game in SAMPLE_EVERY, by game number: a fault of the
referee's own (a move written in a notation that does not read back) shows within a few
dozen games, at a sixteenth of the cost of replaying every game."""


def verified(verify: Verify, number: int) -> bool:
    """Whether the game of this number is replayed through the validator."""
    return verify == "all" or (verify == "sample" and number % SAMPLE_EVERY == 0)


class PlayedGame(NamedTuple):
    """A finished game as a worker sends it back: the record as the line games.jsonl stores,
    and the few fields the runner reads (a pickled record would cost more than its game)."""

    line: bytes
    """The record as one line of JSON, with its line break."""
    number: int
    """The game number (the job's, in a match the match's)."""
    match_game: int
    """The number of the game in its match, or 0."""
    players: tuple[str, str]
    ending: Ending | None
    valid: bool | None
    """Whether the record replays and its result holds, checked where it was played (the
    runner is one process, and checking there would cap a large pool); None: not replayed
    (`--verify`)."""
    analysis: bytes | None = None
    """A luck-adjusted test's analysis of the game, as a line of the analysis file (luck.py),
    made where it was played; None without one."""
    adjusted: tuple[float, float] | None = None
    """Each seat's luck-adjusted result, from that analysis."""


class PlayedBatch(NamedTuple):
    games: list[PlayedGame]
    started: frozenset[str]
    """The programs that started in this batch (answered a hello, or played a Trax move)."""
    unstarted: list[tuple[str, str]]
    """A game not sent back because a program of it could not start (unless keeping going):
    the program's name and the one-line message saying why, once for each such game. The
    batch stops at a program's second."""
    seconds: float
    """How long the batch took (wall time): the runner sizes the next batches by it."""
    warnings: tuple[str, ...] = ()
    """Programs' logs that could not be written, each told by the first batch that saw it
    fail in this worker (`BotLog.untold_failure`)."""


_SPOOL_MARKS = {True: b"+", False: b"!", None: b"-"}
"""The first byte of a spooled game's line: whether the worker found it valid."""


def spool_line(game: PlayedGame) -> bytes:
    return _SPOOL_MARKS[game.valid] + game.line


def read_spool(path: Path) -> list[tuple[GameKey, PlayedGame]]:
    """The games a worker wrote to its spool file with their keys, each whole line (the last
    one, cut short by a kill, is no game); none when there is no such file."""
    try:
        with path.open("rb") as stream:
            lines = [raw for raw in stream if raw.endswith(b"\n")]
    except FileNotFoundError:
        return []
    marks = {mark[0]: valid for valid, mark in _SPOOL_MARKS.items()}
    games = []
    for scanned in scan_jsonl(raw[1:] for raw in lines):
        header, mark = scanned.header, lines[scanned.line - 1][0]
        key = None if header is None else game_key(header)
        if header is None or key is None or mark not in marks:
            continue
        players = (header.players[0].name, header.players[1].name)
        ending = Ending.of(header.result)
        games.append((key, PlayedGame(scanned.raw, key[2], key[3], players, ending, marks[mark])))
    return games


_BUILT: dict[tuple[str, str, int], Bot[Any, Any]] = {}
"""This worker process's built-in bots that can be reused, by game, spec and seat."""


def built_in_bot(game: str, spec: str, seat: int) -> Bot[Any, Any]:
    """The built-in bot for a seat: the one this process reset after an earlier game
    (`Bot.reset`), else a new one. Either way it starts the game as a new bot would."""
    bot = _BUILT.pop((game, spec, seat), None)
    return make_bot(game, spec) if bot is None else bot


def _put_back(game: str, spec: str, seat: int, bot: Bot[Any, Any]) -> None:
    """Keep a bot for the next game when it can forget this one, or close it."""
    if bot.reset():
        _BUILT[(game, spec, seat)] = bot
    else:
        bot.close()


@dataclass(frozen=True)
class BatchOptions:
    """How a run plays each of its batches."""

    tournament_id: str
    """The id every record carries."""
    folder: str | None = None
    """The tournament's folder, seen from the worker: programs' logs and scratch folder."""
    keep_going: bool = True
    verify: Verify = "all"


def play_batch(
    config: TournamentConfig,
    jobs: list[GameJob],
    options: BatchOptions,
    played: dict[int, list[Scored | None]] | None = None,
    spool: str | None = None,
) -> PlayedBatch:
    """Play `jobs` in order: each a game, or the games of a match not yet played (`played`
    holds the results of the games of a match stored before); the games chosen by
    `options.verify` come back validated. Each game is also appended to the file `spool` as
    it ends, when that file exists (the runner makes it in its folder, seen from this
    machine), for the runner to store should the batch not come back.

    Built-in bots are reset and reseeded for each game, so batching and resuming never change
    a game; external programs keep running from game to game and from batch to batch in this
    worker (restarted after a forfeit, referee/players/running.py) and their standard error goes
    to a log per bot. Unless `options.keep_going`, a game in which a program could not start
    (and has not started in this worker before) is not sent back but noted in the program's
    log (nor is the rest of its match played), and the batch stops at that program's second
    such game.
    """
    began = time.perf_counter()
    game, ruleset = config.rules()
    keep_going, verify = options.keep_going, options.verify
    base = Path(options.folder) if options.folder is not None else None
    externals: dict[int, ProgramBot] = {}
    built: list[tuple[str, int, Bot[Any, Any]]] = []
    games: list[PlayedGame] = []
    unstarted: list[tuple[str, str]] = []
    book = book_of(config, game, ruleset)
    # What a bot's games have in common, made once a batch (as pydantic models, checked).
    player = functools.cache(lambda index: player_of(config.bots[index]))
    control = functools.cache(
        lambda seats: GameControl(
            (config.time_control(seats[0]), config.time_control(seats[1])), config.adjudicate
        )
    )
    matches = game.match_length(ruleset) > 1

    def put_back() -> None:
        for spec, seat, bot in built:
            _put_back(config.game, spec, seat, bot)
        built.clear()

    def seated(job: GameJob) -> list[Bot[Any, Any]]:
        put_back()
        bots: list[Bot[Any, Any]] = []
        for seat, index in enumerate(job.seats):
            entry = config.bots[index]
            if entry.command is None:
                assert entry.spec is not None
                bots.append(built_in_bot(config.game, entry.spec, seat))
                built.append((entry.spec, seat, bots[-1]))
            else:
                if index not in externals:
                    externals[index] = running_bot(entry.name, external_bot(config, entry, base))
                bots.append(externals[index])
        return bots

    spooled = _Spool(spool)
    finished = False
    try:
        for job in jobs:
            first, second = job.seats
            setup = GameSetup(
                game,
                ruleset,
                (player(first), player(second)),
                job.seed(config.seed),
                config.turn_cap,
                EventInfo(
                    event=config.event,
                    tournament=options.tournament_id,
                    pairing=job.pair,
                    game_number=job.number,
                ),
                control(job.seats),
                book(job.round),
            )
            records: Iterable[dict[str, Any]]
            if matches:
                earlier = (played or {}).get(job.number, [])
                records = play_match(setup, functools.partial(seated, job), earlier)
            else:
                records = [play_game_data(setup, seated(job))]
            check = verified(verify, job.number)
            for record in records:
                failed = None if keep_going else _unstarted(config, job, externals, record)
                if failed is not None:
                    unstarted.append(failed)
                    break  # the rest of a match waits for the program too
                games.append(compact(record, job.number, check, config.luck_adjusted))
                spooled.write(games[-1])
            if not keep_going and _second_failure(unstarted):
                break
        finished = True
    finally:
        spooled.close()
        put_back()
        for program in externals.values():
            release(program, clean=finished)
    started = frozenset(config.bots[i].name for i, bot in externals.items() if bot.ever_ready)
    failures = (bot.log.untold_failure() for bot in externals.values())
    warnings = tuple(failure for failure in failures if failure is not None)
    return PlayedBatch(games, started, unstarted, time.perf_counter() - began, warnings)


class _Spool:
    """A batch's spool file, made empty by the runner: one write of a whole line per game (no
    buffer to lose when the worker is killed). Nothing is written when the file is not there
    (a Dask worker on another machine, or a batch the runner has stopped and stored the
    spool of) or once this worker is leaving (`stop_spooling`)."""

    def __init__(self, path: str | None) -> None:
        self.fd: int | None = None
        if path is not None:
            with contextlib.suppress(FileNotFoundError):
                self.fd = os.open(path, os.O_WRONLY | os.O_APPEND)

    def write(self, game: PlayedGame) -> None:
        if self.fd is not None and _spooling:
            os.write(self.fd, spool_line(game))

    def close(self) -> None:
        if self.fd is not None:
            os.close(self.fd)


_spooling = True
"""False once this worker is leaving: a game that ends then was ended by its bots being
killed, and is no result."""


def stop_spooling() -> None:
    """Write no more games to spool files (a worker about to kill its bots and leave)."""
    global _spooling
    _spooling = False


def compact(data: dict[str, Any], number: int, check: bool, luck: str | None = None) -> PlayedGame:
    """The game (its record as JSON data) as a worker sends it back, replayed through the
    validator when `check`, analysed against the reference `luck` when given."""
    line = json_line(data)
    valid = record_line_valid(line) if check else None
    analysis = adjusted = None
    if luck is not None:
        analysed = analyse_game(parse_record(data), luck)
        if analysed is not None and analysed.adjusted is not None:
            analysis, adjusted = analysis_line(analysed), analysed.adjusted
    return PlayedGame(
        line,
        number,
        data["match"]["game"] if "match" in data else 0,
        (data["players"][0]["name"], data["players"][1]["name"]),
        Ending.of_data(data),
        valid,
        analysis,
        adjusted,
    )


def _unstarted(
    config: TournamentConfig,
    job: GameJob,
    externals: dict[int, ProgramBot],
    record: dict[str, Any],
) -> tuple[str, str] | None:
    """The name of a program of `job` that could not start in the game just played (`record`)
    and has never started in this worker, with the message saying why; the game is noted in
    the program's log."""
    for index in job.seats:
        bot = externals.get(index)
        if bot is None or bot.ever_ready or bot.start_failure is None:
            continue
        name = config.bots[index].name
        number = record["event"]["game_number"]
        bot.log.note(f"game {number} not stored: could not start: {bot.start_failure}")
        return name, (
            f"bot {name!r} could not start in its first 2 games: {bot.start_failure} "
            f"(command: {' '.join(bot.launch.command)}; folder: {bot.launch.cwd})"
        )
    return None


def _second_failure(unstarted: list[tuple[str, str]]) -> bool:
    """Whether a program has failed to start in two games of the batch."""
    names = [name for name, _ in unstarted]
    return len(names) != len(set(names))
