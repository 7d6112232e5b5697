"""What a worker process does: play a batch of scheduled games and return their records."""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

from referee.bots.external import JsonLineBot, Limits, TraxContestBot
from referee.bots.registry import make_bot
from referee.games import get_game
from referee.games.base import Game, Ruleset
from referee.games.bot import Bot
from referee.records.model import EventInfo, Player, Record
from referee.tournament.config import BotEntry, TournamentConfig
from referee.tournament.play import GameControl, play_game, play_match
from referee.tournament.schedule import GameJob
from referee.validator.check import validate_record


def tournament_ruleset(config: TournamentConfig) -> tuple[Game, Ruleset]:
    game = get_game(config.game)
    options = "&".join(f"{key}={value}" for key, value in sorted(config.options.items()))
    ruleset_id = f"{config.game}/{config.variant}@1" + (f"?{options}" if options else "")
    return game, game.parse_ruleset(ruleset_id)


def player_of(entry: BotEntry) -> Player:
    if entry.command is not None:
        return Player(name=entry.name, kind="external", spec=" ".join(entry.command))
    return Player(name=entry.name, kind="bot", spec=entry.spec)


DEFAULT_MOVE_SECONDS = 60.0
"""An external bot's time per move when the tournament sets none: a hang still ends."""


def external_bot(config: TournamentConfig, entry: BotEntry, log_dir: Path | None) -> Bot:
    assert entry.command is not None
    limits = Limits(
        move_seconds=config.time_limit or DEFAULT_MOVE_SECONDS,
        startup_seconds=entry.startup_time,
        max_line=entry.max_line,
        memory_mb=entry.memory_mb,
    )
    log = None
    if log_dir is not None:
        log_dir.mkdir(parents=True, exist_ok=True)
        log = log_dir / f"{_file_name(entry.name)}.stderr.log"
    kind = TraxContestBot if entry.protocol == "trax" else JsonLineBot
    return kind(entry.command, limits, log)


def _file_name(name: str) -> str:
    return "".join(c if c.isalnum() or c in "-_." else "_" for c in name)


class PlayedGame(NamedTuple):
    record: Record
    valid: bool
    """Whether the record replays and its result holds, checked where it was played: the
    runner is one process, and checking every game there would cap a large pool."""


def play_batch(
    config: TournamentConfig,
    jobs: list[GameJob],
    tournament_id: str,
    log_dir: str | None = None,
    played: dict[int, list[Record]] | None = None,
) -> list[PlayedGame]:
    """Play `jobs` in order: each a game, or the games of a match not yet in `played`; every
    record comes back validated.

    Built-in bots are made afresh for each game, so batching and resuming never change a
    game; external programs keep running from game to game (restarted after a forfeit) and
    their standard error goes to a log per bot.
    """
    game, ruleset = tournament_ruleset(config)
    logs = Path(log_dir) if log_dir is not None else None
    externals: dict[int, Bot] = {}
    built: list[Bot] = []
    records: list[Record] = []

    def seated(job: GameJob) -> list[Bot]:
        for bot in built:
            bot.close()
        built.clear()
        bots: list[Bot] = []
        for index in job.seats:
            entry = config.bots[index]
            if entry.command is None:
                assert entry.spec is not None
                bots.append(make_bot(config.game, entry.spec))
                built.append(bots[-1])
            else:
                if index not in externals:
                    externals[index] = external_bot(config, entry, logs)
                bots.append(externals[index])
        return bots

    try:
        for job in jobs:
            event = EventInfo(
                event=config.event,
                tournament=tournament_id,
                pairing=job.pair,
                game_number=job.number,
            )
            players = [player_of(config.bots[index]) for index in job.seats]
            seed = job.seed(config.seed)
            control = GameControl(
                clocks=(config.time_control(job.seats[0]), config.time_control(job.seats[1])),
                adjudication=config.adjudication(),
            )
            if game.match_length(ruleset) > 1:
                earlier = (played or {}).get(job.number, [])
                records += play_match(
                    game,
                    ruleset,
                    lambda job=job: seated(job),
                    players,
                    seed,
                    config.turn_cap,
                    event,
                    earlier,
                    control,
                )
            else:
                bots = seated(job)
                records.append(
                    play_game(
                        game, ruleset, bots, players, seed, config.turn_cap, event, control=control
                    )
                )
    finally:
        for bot in [*built, *externals.values()]:
            bot.close()
    return [PlayedGame(record, validate_record(record, "", 0).valid) for record in records]
