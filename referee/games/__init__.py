"""The rules engines, one subpackage per game; this module finds them by name."""

from __future__ import annotations

import importlib

from referee.games.base import Game, RulesetError

GAME_NAMES: tuple[str, ...] = ("thax", "takhteh", "trax", "thai")


def get_game(name: str) -> Game:
    if name not in GAME_NAMES:
        raise RulesetError(f"unknown game {name!r} (known: {', '.join(GAME_NAMES)})")
    return importlib.import_module(f"referee.games.{name}").GAME


def get_ruleset_game(ruleset_id: str) -> Game:
    """The game a ruleset id such as `thax/standard@1` belongs to."""
    return get_game(ruleset_id.partition("/")[0])
