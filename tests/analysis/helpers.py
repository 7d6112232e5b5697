"""What the analysis tests share: games played by bots, records built from moves, and a game
analysed in the process."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from referee.analysis.run import Engines, analyse_loaded
from referee.analysis.summary import GameAnalysis
from referee.games import get_game
from referee.games.agent import Bot
from referee.records.io import Loaded, parse_record
from referee.records.model import Player, Record
from referee.tournament.play import GameSetup, play_game

PLAYERS = [Player(name="ann", kind="bot"), Player(name="bob", kind="bot")]


def played(name: str, bots: Sequence[Bot[Any, Any]], seed: str = "1", **setup: Any) -> Record:
    """A game of `name` played by `bots` from its standard start."""
    game = get_game(name)
    return play_game(GameSetup(game, game.ruleset(), PLAYERS, seed, **setup), bots)


def record(name: str, turns: list[dict[str, Any]], **fields: Any) -> Record:
    """A record of `name` with these turns ({"seat", "move", "roll"?}) and header fields."""
    return parse_record(
        {
            "format": "referee",
            "version": 1,
            "game": name,
            "ruleset": f"{name}/standard@1",
            "players": [player.model_dump() for player in PLAYERS],
            "turns": turns,
            **fields,
        }
    )


def analysed(game: Record, spec: str | None = None) -> GameAnalysis:
    """The analysis of one game, as `referee analyse` makes it."""
    return analyse_loaded("games.jsonl", Loaded(1, 1, game), Engines(spec))
