"""Takhteh analysed against tdnet's network: luck against values worked out here from the
network's own output, and errors at depth 0 and 1."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.games.agent import RandomBot
from referee.games.dice import TURN_OUTCOMES
from referee.games.reference import EngineSpecError
from referee.games.takhteh import GAME, TakhtehState
from referee.games.takhteh.bots import TakhtehGreedyBot
from referee.games.takhteh.net import Net
from referee.games.takhteh.rules import Board, apply_legs, flip, legal_plays
from tests.analysis.helpers import analysed, played
from tests.games.takhteh.helpers import random_game

NET = Net.load()


def network(board: Board) -> float:
    """The chance of the player who has just moved, by the network (1 once all are off)."""
    if max(board) <= 0:
        return 1.0
    return float(NET.probabilities([board])[0, 0])


def walk(seed: int, plies: int) -> TakhtehState:
    """A position to roll after some random plays from the start."""
    rng = random.Random(seed)
    state = GAME.initial_state(GAME.ruleset()).apply_chance((rng.randint(1, 5), 6))
    for _ in range(plies):
        rolled = state.apply_chance((rng.randint(1, 6), rng.randint(1, 6)))
        after = rolled.play(rng.choice(rolled.legal_moves()))
        if after.is_terminal():
            break
        state = after
    return state


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10**6), plies=st.integers(0, 40), seat=st.integers(0, 1))
def test_luck_is_each_rolls_best_play_less_their_mean_which_it_has_zero_mean(
    seed: int, plies: int, seat: int
) -> None:
    chance = walk(seed, plies)
    roller = chance.to_move
    rolled = {
        roll: max(
            network(apply_legs(chance.board, play)) for play in legal_plays(chance.board, *roll)
        )
        for roll, _ in TURN_OUTCOMES
    }
    mean = sum(p * rolled[roll] for roll, p in TURN_OUTCOMES)
    reference = GAME.reference()
    total = 0.0
    for roll, p in TURN_OUTCOMES:
        luck = reference.luck(chance, chance.apply_chance(roll), seat)
        expected = rolled[roll] - mean
        assert luck == pytest.approx(expected if seat == roller else -expected, abs=1e-12)
        total += p * luck
    assert total == pytest.approx(0.0, abs=1e-12)


def test_the_opening_roll_is_the_starters_luck() -> None:
    game = random_game(random.Random(3))
    analysis = analysed(game)
    assert analysis.opening is not None
    start = GAME.initial_state(GAME.ruleset())
    # The roller's chance facing the board is one less the opponent's, who has just moved.
    starts = {
        seat: 1.0 - network(flip(start.apply_chance((6, 1) if seat == 0 else (1, 6)).board))
        for seat in (0, 1)
    }
    seat = analysis.opening.seat
    assert analysis.opening.luck == pytest.approx(
        starts[seat] - (starts[seat] + 1.0 - starts[1 - seat]) / 2, abs=1e-12
    )


@pytest.mark.parametrize("depth", [0, 1])
def test_errors_are_what_the_move_loses_against_the_best(depth: int) -> None:
    game = played("takhteh", [RandomBot(), TakhtehGreedyBot()], "2", turn_cap=24 if depth else None)
    analysis = analysed(game, f"tdnet:depth={depth}")
    assert analysis.engine == f"tdnet:depth={depth}"
    assert all(turn.error >= 0.0 for turn in analysis.turns)
    assert analysis.seats[0].error_total > 0.0
    if depth == 0:
        # The chance after each play is the network's on the board it leaves.
        state = GAME.initial_state(GAME.ruleset()).apply_chance(tuple(game.opening_rolls[-1]))
        for turn, analysed_turn in zip(game.turns, analysis.turns, strict=True):
            state = state.apply_chance(tuple(turn.roll))
            values = [network(apply_legs(state.board, play)) for play in state.legal_moves()]
            played_move = GAME.parse_move(state, turn.move)
            assert analysed_turn.value == max(values)
            assert analysed_turn.error == pytest.approx(
                max(values) - network(apply_legs(state.board, state.legs(played_move))), abs=1e-15
            )
            state = state.play(played_move)


def test_depth_one_looks_ahead_over_the_opponents_rolls() -> None:
    state = walk(7, 12).apply_chance((5, 3))
    board = state.board
    play = state.legal_moves()[0]
    other = flip(apply_legs(board, play))
    expected = sum(
        p * (1.0 - max(network(apply_legs(other, reply)) for reply in legal_plays(other, *roll)))
        for roll, p in TURN_OUTCOMES
    )
    reference = GAME.reference("tdnet:depth=1")
    assert reference.move_values(state, [play]) == [pytest.approx(expected, abs=1e-12)]


def test_a_spec_out_of_range_is_refused() -> None:
    with pytest.raises(EngineSpecError, match="depth must be a whole number from 0 to 1"):
        GAME.reference("tdnet:depth=2")
