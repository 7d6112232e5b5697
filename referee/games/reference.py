"""What the games' references (`base.Reference`, the yardsticks of `referee analyse`) share:
reading a reference's spec, a search's score as a chance of winning, and a bounded cache of
the values worked out.

A spec is written as a bot's is: `name:key=value,...` (`search:depth=2`); each game names
its references and their options with their defaults and ranges (`Setting`), and a value out
of range, an unknown name or an unknown option is an `EngineSpecError` before any game is read.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from referee.escaping import quoted
from referee.games.base import GameError, Reference, State
from referee.games.search import decided
from referee.wording import did_you_mean

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class EngineSpecError(GameError):
    """A reference spec (`referee analyse --engine`) that names no reference of the game, or
    gives options the reference does not take or values out of their range."""

    code = "engine-spec"


@dataclass(frozen=True, slots=True)
class Setting:
    """One option of a reference: its default and range (a whole number when the default is
    one)."""

    default: int | float
    low: int | float
    high: int | float


def read_spec(
    spec: str | None, references: Mapping[str, Mapping[str, Setting]], title: str
) -> tuple[str, dict[str, int | float]]:
    """The reference that `spec` names among `references` (name -> its options; None: the
    first, the game's default) and its options, every default filled in."""
    name, _, rest = (next(iter(references)) if spec is None else spec).partition(":")
    name = name.strip()
    if name not in references:
        known = ", ".join(references)
        raise EngineSpecError(
            f"{title} has no reference {quoted(name)}{did_you_mean(name, references)} "
            f"(known: {known})"
        )
    settings = references[name]
    options = {key: setting.default for key, setting in settings.items()}
    for item in filter(None, (part.strip() for part in rest.split(","))):
        key, eq, text = (part.strip() for part in item.partition("="))
        if not eq or key not in settings:
            takes = ", ".join(settings) or "none"
            why = f"{quoted(item)} is not key=value" if not eq else f"no option {quoted(key)}"
            raise EngineSpecError(f"reference {name!r}: {why} (options: {takes})")
        options[key] = _number(name, key, text, settings[key])
    return name, options


def _number(name: str, key: str, text: str, setting: Setting) -> int | float:
    whole = isinstance(setting.default, int)
    try:
        value: int | float = int(text) if whole else float(text)
    except ValueError:
        value = math.nan
    if not setting.low <= value <= setting.high:  # NaN fails here too
        kind = "a whole number" if whole else "a number"
        raise EngineSpecError(
            f"reference {name!r}: {key} must be {kind} from {setting.low} to {setting.high}, "
            f"not {quoted(text)}"
        )
    return value


def written(name: str, options: Mapping[str, int | float]) -> str:
    """The spec that names a reference with these options again."""
    if not options:
        return name
    return name + ":" + ",".join(f"{key}={value:g}" for key, value in options.items())


def search_chance(score: float, scale: float) -> float:
    """A search's score for the side to move as its chance of winning: 1 for a win the search
    found, 0 for a loss, else the logistic curve 1 / (1 + e^(-score / scale)), so that an even
    score (a draw's 0) is one half and `scale` points of advantage are about 73%."""
    if decided(score):
        return 1.0 if score > 0 else 0.0
    return 1.0 / (1.0 + math.exp(-score / scale))


class ValueCache(Generic[K, V]):
    """Values worked out, by key, kept in two generations of at most `size` entries each: a
    full generation becomes the old one, the older is dropped, so memory stays bounded over
    any number of games while the positions of the last games are kept."""

    def __init__(self, size: int = 1 << 18) -> None:
        self.size = size
        self._new: dict[K, V] = {}
        self._old: dict[K, V] = {}

    def get(self, key: K) -> V | None:
        value = self._new.get(key)
        if value is None:
            value = self._old.get(key)
            if value is not None:
                self.put(key, value)
        return value

    def put(self, key: K, value: V) -> None:
        if len(self._new) >= self.size:
            self._old, self._new = self._new, {}
        self._new[key] = value


S = TypeVar("S", bound=State[Any])
M = TypeVar("M")


class SearchReference(Reference[S, M]):
    """A reference of a game without dice: a search's score of each position for its player
    to move (`score`), as a chance of winning by `search_chance`; a finished game by its
    outcome, a draw one half. Each position is searched once a run (positions compare as the
    game's states do)."""

    def __init__(self, spec: str, score: Callable[[S], float], scale: float) -> None:
        self.spec = spec
        self.score = score
        self.scale = scale
        self._known: ValueCache[S, float] = ValueCache()
        """A position -> the chance of its player to move."""

    def values(self, states: Sequence[S], seat: int) -> list[float]:
        found = []
        for state in states:
            outcome = state.outcome()
            if outcome is not None:
                winner = outcome.winner
                found.append(0.5 if winner is None else 1.0 if winner == seat else 0.0)
                continue
            chance = self._known.get(state)
            if chance is None:
                chance = search_chance(self.score(state), self.scale)
                self._known.put(state, chance)
            found.append(chance if state.to_move == seat else 1.0 - chance)
        return found
