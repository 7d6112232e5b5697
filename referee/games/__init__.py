"""The rules engines, one subpackage per game, and the registry that finds a game by name.

The four built-in games are imported on first use. Any other game is a plug-in: a `Game`
object given to `register_game`, or named by an entry point of the `referee.games` group of an
installed package (`toy = "toy_game:GAME"` under `[project.entry-points."referee.games"]`),
read the first time a name is not known or every game is listed.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from referee.escaping import quoted
from referee.wording import did_you_mean

if TYPE_CHECKING:
    from referee.games.base import Game

# The engine interface (base.py) is imported where an error is raised or a plug-in checked:
# the command line lists GAME_NAMES in its help, which needs no engine.

GAME_NAMES: tuple[str, ...] = ("thax", "takhteh", "trax", "thai")
"""The games built in, each a subpackage of this package with a `GAME`."""

ENTRY_POINTS = "referee.games"

_plugins: dict[str, Game[Any, Any]] = {}
"""The games registered besides the built-in ones, by name."""
_entry_points_read = False
_built_in: dict[str, Game[Any, Any]] = {}
"""The built-in games imported so far, by name: every record looks its game up, and the
import system's look-up of a module already imported costs some 0.6 us."""


def register_game(game: Game[Any, Any]) -> Game[Any, Any]:
    """Make `game` known to every part of referee: records of it read, validate, play in
    tournaments, rate and show in reports. Registering the same object again does nothing."""
    from referee.games.base import RulesetError

    name = game.name
    known = _plugins.get(name)
    if name in GAME_NAMES or (known is not None and known is not game):
        raise RulesetError(f"a game named {name!r} is already registered")
    _plugins[name] = game
    return game


def registered_names() -> tuple[str, ...]:
    """The games known so far, built-in ones first, without looking for entry points (the
    record model is built from these on every read: it must stay cheap)."""
    return GAME_NAMES + tuple(_plugins) if _plugins else GAME_NAMES


def listing_order(name: str) -> tuple[int, str]:
    """A sort key that lists games as the registry does (THAX, Takhteh, Trax, Thai checkers,
    then the others by name), not alphabetically."""
    names = registered_names()
    return (names.index(name) if name in names else len(names), name)


def game_names() -> tuple[str, ...]:
    """Every game: the built-in ones, those registered, and those of entry points."""
    _read_entry_points()
    return registered_names()


def get_game(name: str) -> Game[Any, Any]:
    game = _built_in.get(name)
    if game is not None:
        return game
    if name in GAME_NAMES:
        built_in: Game[Any, Any] = importlib.import_module(f"referee.games.{name}").GAME
        _built_in[name] = built_in
        return built_in
    if name not in _plugins:
        _read_entry_points()
    if name not in _plugins:
        from referee.games.base import RulesetError

        known = registered_names()
        raise RulesetError(
            f"unknown game {quoted(name)}{did_you_mean(name, known)} (known: {', '.join(known)})"
        )
    return _plugins[name]


def _read_entry_points() -> None:
    """Register the games of installed packages' entry points, once per process."""
    global _entry_points_read
    if _entry_points_read:
        return
    from importlib.metadata import entry_points  # costs start-up time: only when needed

    from referee.games.base import Game, RulesetError

    _entry_points_read = True
    for point in entry_points(group=ENTRY_POINTS):
        try:
            game = point.load()
        except Exception as error:  # whatever a plug-in raises: one line, no traceback
            raise RulesetError(
                f"the game plug-in {point.name!r} ({point.value}) cannot be loaded: {error}"
            ) from None
        if not isinstance(game, Game) or game.name != point.name:
            raise RulesetError(
                f"the game plug-in {point.name!r} ({point.value}) is not a Game of that name"
            )
        if _plugins.get(game.name) is not game:
            register_game(game)


def compiled_games() -> tuple[str, ...]:
    """The built-in games whose engine modules this install runs compiled: the optional build
    of README.md's "Compiled engines" (mypyc), whose extension modules sit beside the sources
    and are imported in their place. Empty for the pure package."""
    from importlib.machinery import EXTENSION_SUFFIXES
    from pathlib import Path

    here = Path(__file__).parent
    return tuple(
        name
        for name in GAME_NAMES
        if any(path.name.endswith(tuple(EXTENSION_SUFFIXES)) for path in (here / name).iterdir())
    )
