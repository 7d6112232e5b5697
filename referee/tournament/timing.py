"""What in a tournament depends on the machine: bots that stop searching at a time limit, and
the work a game's bots do once before their first game (THAX's table of `thax-perfect`)."""

from __future__ import annotations

import inspect

from referee.games import get_game
from referee.players.registry import bot_classes, parse_spec
from referee.tournament.config import TournamentConfig


def _time_limit(game: str, spec: str) -> float:
    """The seconds a move a built-in bot stops searching at (its `time` option), 0 for none."""
    name, options = parse_spec(spec)
    cls = bot_classes(game).get(name)
    if cls is None:
        return 0.0
    default = inspect.signature(cls.__init__).parameters.get("time")
    value = options.get("time", default.default if default is not None else 0)
    return float(value) if isinstance(value, int | float) else 0.0


def timed_bots(config: TournamentConfig) -> list[str]:
    """The bots whose moves depend on the machine's speed and load: built-in bots with a time
    limit (several have one by default), and external programs given a time per move."""
    names = []
    for entry in config.bots:
        if entry.spec is not None:
            if _time_limit(config.game, entry.spec) > 0:
                names.append(entry.name)
        elif config.time_limit is not None:
            names.append(entry.name)
    return names


def warm_up(config: TournamentConfig) -> str | None:
    """The game's line for the terminal when its built-in bots make the first game wait for
    work done once (THAX's table, solved once a machine), or None."""
    bots = [parse_spec(entry.spec)[0] for entry in config.bots if entry.spec is not None]
    return get_game(config.game).warm_up(bots)
