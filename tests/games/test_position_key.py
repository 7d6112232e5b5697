"""Each built-in game's `position_key` tells positions apart as its position text does (what
an opening suite and `select --position` compare), read from the state's fields instead."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Hashable
from typing import Any

import pytest

from referee.games import GAME_NAMES, get_game
from referee.games.base import State
from referee.records.replay import replay, start_state
from tests.archive.helpers import pool


def positions(name: str) -> list[State[Any]]:
    """Every position of the pool's games of `name` (each game's start and each turn's end)."""
    found: list[State[Any]] = []
    game = get_game(name)
    for record in pool():
        if record.game == name:
            found.append(start_state(record, game))
            found.extend(step.after for step in replay(record, game))
    return found


@pytest.mark.parametrize("name", GAME_NAMES)
def test_the_key_is_the_same_when_the_position_is(name: str) -> None:
    game = get_game(name)
    # A Trax position's text is its move list, which depends on the order the tiles were
    # laid in: its picture and the seat to move say the position instead.
    text = (
        (lambda state: (state.to_move, game.render_text(state)))
        if game.symmetric_positions
        else game.format_position
    )
    texts: dict[Hashable, set[Hashable]] = defaultdict(set)
    keys: dict[Hashable, set[Hashable]] = defaultdict(set)
    states = positions(name)
    for state in states:
        key, said = game.position_key(state), text(state)
        texts[key].add(said)
        keys[said].add(key)
    assert all(len(found) == 1 for found in texts.values())
    assert all(len(found) == 1 for found in keys.values())
    assert len(keys) < len(states)  # some positions come again: the check compares some
