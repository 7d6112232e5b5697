"""What a worker process does: play a batch of scheduled games and return their records."""

from __future__ import annotations

from referee.bots.registry import make_bot
from referee.games import get_game
from referee.games.base import Game, Ruleset
from referee.games.bot import Bot
from referee.records.model import EventInfo, Player, Record
from referee.tournament.config import BotEntry, TournamentConfig
from referee.tournament.play import play_game
from referee.tournament.schedule import GameJob


def tournament_ruleset(config: TournamentConfig) -> tuple[Game, Ruleset]:
    game = get_game(config.game)
    options = "&".join(f"{key}={value}" for key, value in sorted(config.options.items()))
    ruleset_id = f"{config.game}/{config.variant}@1" + (f"?{options}" if options else "")
    return game, game.parse_ruleset(ruleset_id)


def player_of(entry: BotEntry) -> Player:
    if entry.command is not None:
        return Player(name=entry.name, kind="external", spec=" ".join(entry.command))
    return Player(name=entry.name, kind="bot", spec=entry.spec)


def _bot(config: TournamentConfig, entry: BotEntry) -> Bot:
    assert entry.spec is not None
    return make_bot(config.game, entry.spec)


def play_batch(config: TournamentConfig, jobs: list[GameJob], tournament_id: str) -> list[Record]:
    """Play `jobs` in order with fresh bots for each game, so batching never changes a game."""
    game, ruleset = tournament_ruleset(config)
    records = []
    for job in jobs:
        entries = [config.bots[index] for index in job.seats]
        bots = [_bot(config, entry) for entry in entries]
        event = EventInfo(
            event=config.event,
            tournament=tournament_id,
            pairing=job.pair,
            game_number=job.number,
        )
        try:
            record = play_game(
                game,
                ruleset,
                bots,
                [player_of(entry) for entry in entries],
                job.seed(config.seed),
                config.turn_cap,
                event,
            )
        finally:
            for bot in bots:
                bot.close()
        records.append(record)
    return records
