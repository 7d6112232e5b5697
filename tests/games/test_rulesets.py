"""Reading ruleset ids: each text is read once per game, and what is read stays each game's."""

from __future__ import annotations

from typing import ClassVar

import pytest

from referee.games.base import RulesetError
from referee.games.thax import GAME, ThaxGame


class _ByValue(ThaxGame):
    """A game that compares by value, as a plug-in may: it has no hash."""

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _ByValue)


class _Renamed(ThaxGame):
    name: ClassVar[str] = "renamed"


def test_a_ruleset_read_again_is_the_same() -> None:
    first = GAME.parse_ruleset("thax/standard@1")
    assert GAME.parse_ruleset("thax/standard@1") == first == GAME.ruleset()


def test_a_wrong_id_is_refused_every_time() -> None:
    for _ in range(2):
        with pytest.raises(RulesetError, match="is not a thax ruleset"):
            GAME.parse_ruleset("trax/standard@1")


def test_what_one_game_read_is_not_another_games() -> None:
    GAME.parse_ruleset("thax/standard@1")
    with pytest.raises(RulesetError, match="is not a renamed ruleset"):
        _Renamed().parse_ruleset("thax/standard@1")


def test_a_game_without_a_hash_reads_its_rulesets() -> None:
    game = _ByValue()
    assert game.parse_ruleset("thax/standard@1") == GAME.ruleset()
    assert game.parse_ruleset("thax/standard@1") == GAME.ruleset()
