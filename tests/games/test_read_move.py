"""`Game.read_move`, the replay's one call a move, against its definition: the move
`parse_move` reads and the state `play` gives, or the same error. Every game overrides it
for speed (Takhteh writes `parse_move`'s steps again), so each is held to the plain pair."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from referee.games import GAME_NAMES, get_game
from referee.games.agent import RandomBot
from referee.games.base import GameError, State

OTHER_TEXTS = ("", "x", "24/13", "13/7*", "6/off*", "1-5", "@0/", "P7")
"""Texts that are no move, or another game's, or a hit marked where none is."""


def _outcome(call: Any, *args: Any) -> tuple[str, Any]:
    try:
        return "ok", call(*args)
    except GameError as error:
        return type(error).__name__, str(error)


def _positions(name: str, seed: int) -> list[State[Any]]:
    """The decision positions of a random game (at most 60)."""
    game = get_game(name)
    rng = random.Random(seed)
    state: State[Any] = game.initial_state(game.ruleset())
    seen: list[State[Any]] = []
    while not state.is_terminal() and len(seen) < 60:
        if state.is_chance():
            state = state.apply_chance(rng.choice(state.chance_outcomes())[0])
            continue
        seen.append(state)
        state = state.play(rng.choice(state.legal_moves()))
    return seen


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(GAME_NAMES), st.integers(0, 2**32 - 1), st.data())
def test_read_move_is_parse_move_then_play(name: str, seed: int, data: st.DataObject) -> None:
    game = get_game(name)
    for state in _positions(name, seed):
        legal = [game.format_move(state, move) for move in state.legal_moves()]
        # The legal moves' texts, and texts of other positions' moves or none (errors).
        other = data.draw(st.sampled_from([*OTHER_TEXTS, *legal]))
        for text in (*legal[:4], other):
            expected = _outcome(_parse_then_play, game, state, text)
            assert _outcome(game.read_move, state, text) == expected, (state, text)


def _parse_then_play(game: Any, state: State[Any], text: str) -> tuple[Any, State[Any]]:
    move = game.parse_move(state, text)
    return move, state.play(move)


@settings(max_examples=20, deadline=None)
@given(st.sampled_from(GAME_NAMES), st.integers(0, 2**32 - 1))
def test_the_random_bots_think_picks_what_its_choose_picks(name: str, seed: int) -> None:
    """`RandomBot.think` writes `Bot.think` with `choose` in it: from the same seed the two
    pick the same moves and report nothing."""
    game = get_game(name)
    thinking, choosing = RandomBot(), RandomBot()
    thinking.start_game(game.ruleset(), 0, str(seed))
    choosing.start_game(game.ruleset(), 0, str(seed))
    for state in _positions(name, seed):
        move, info = thinking.think(state)
        assert move == choosing.choose(state)
        assert info is RandomBot.info
