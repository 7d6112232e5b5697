"""Finding bots by spec: `greedy`, `alphabeta:depth=4,time=0.5`."""

from __future__ import annotations

import inspect
import math
from dataclasses import dataclass
from typing import Any

from referee.games import get_game
from referee.games.agent import Bot, RandomBot
from referee.games.base import GameError
from referee.wording import did_you_mean


class BotSpecError(GameError):
    """A bot spec that names no bot, or gives options the bot does not take."""

    code = "bot-spec"


@dataclass(frozen=True)
class BotInfo:
    name: str
    description: str
    options: dict[str, str]
    """Option name -> its default, as text."""
    defaults: dict[str, Any]
    """Option name -> its default value."""


def bot_classes(game_name: str) -> dict[str, type[Bot[Any, Any]]]:
    return {"random": RandomBot, **get_game(game_name).bots()}


def _defaults_of(cls: type[Bot[Any, Any]]) -> dict[str, Any]:
    parameters = inspect.signature(cls.__init__).parameters.values()
    return {
        p.name: p.default
        for p in parameters
        if p.name != "self" and p.default is not inspect.Parameter.empty
    }


def _options_of(cls: type[Bot[Any, Any]]) -> dict[str, str]:
    return {name: repr(value) for name, value in _defaults_of(cls).items()}


def describe_bots(game_name: str) -> list[BotInfo]:
    return [
        BotInfo(name, cls.description, _options_of(cls), _defaults_of(cls))
        for name, cls in bot_classes(game_name).items()
    ]


MAX_SEARCH_DEPTH = 64
"""The deepest a bot may be told to search, in plies (`depth`, and `quiescence` beyond it):
each ply is a call deeper in the search, and far deeper would exhaust Python's stack in the
middle of a game."""
PLIES = frozenset({"depth", "quiescence"})


def _value(text: str) -> int | float | str:
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def parse_spec(spec: str) -> tuple[str, dict[str, int | float | str]]:
    name, _, rest = spec.partition(":")
    options: dict[str, int | float | str] = {}
    for item in filter(None, rest.split(",")):
        key, eq, value = item.partition("=")
        if not eq or not key.strip():
            raise BotSpecError(f"bot spec {spec!r}: option {item!r} is not key=value")
        options[key.strip()] = _value(value.strip())
    return name.strip(), options


def _checked(
    spec: str, cls: type[Bot[Any, Any]], key: str, value: int | float | str
) -> int | float | str:
    """An option's value of the type its default has; counts and limits are never negative
    (a bot's own range checks follow in its constructor)."""
    default = inspect.signature(cls.__init__).parameters[key].default
    if isinstance(default, bool) or not isinstance(default, int | float):
        return value
    kind = "a whole number" if isinstance(default, int) else "a number"
    if isinstance(value, str) or (isinstance(default, int) and isinstance(value, float)):
        raise BotSpecError(f"bot spec {spec!r}: {key} must be {kind}, not {str(value)!r}")
    if not math.isfinite(value) or value < 0:
        raise BotSpecError(f"bot spec {spec!r}: {key} must be {kind} >= 0, not {value}")
    if key in PLIES and value > MAX_SEARCH_DEPTH:
        raise BotSpecError(
            f"bot spec {spec!r}: {key} must be {MAX_SEARCH_DEPTH} or less, not {value}"
        )
    return value if isinstance(default, int) else float(value)


def make_bot(game_name: str, spec: str) -> Bot[Any, Any]:
    name, options = parse_spec(spec)
    classes = bot_classes(game_name)
    if name not in classes:
        raise BotSpecError(
            f"unknown bot {name!r}{did_you_mean(name, classes)} "
            f"({game_name}'s bots: {', '.join(classes)})"
        )
    cls = classes[name]
    unknown = set(options) - set(_options_of(cls))
    if unknown:
        first = sorted(unknown)[0]
        raise BotSpecError(
            f"bot {name!r} takes no option {', '.join(sorted(unknown))}"
            f"{did_you_mean(first, _options_of(cls))}"
        )
    checked = {key: _checked(spec, cls, key, value) for key, value in options.items()}
    try:
        return cls(**checked)
    except (ValueError, TypeError, OverflowError) as error:
        raise BotSpecError(f"bot spec {spec!r}: {error}") from None
