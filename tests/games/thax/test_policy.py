"""THAX's bots as exact policies (policy.py): each policy's choice is the set of moves its bot
picks from, uniformly, at every position and roll; and the policy evaluation of perfect play
against itself agrees with the solver."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.games.agent import WIN
from referee.games.thax import GAME, ThaxState
from referee.games.thax.bots import PerfectBot, ThaxGreedyBot
from referee.games.thax.rules import TURN_OUTCOMES
from referee.games.thax.solver import Successors, position_index, successors, values
from tests.games.thax.policy import POLICIES, TIE, win_chances

side = st.tuples(*(st.integers(0, n) for n in range(1, 6))).filter(lambda s: sum(s) < 15)


@pytest.fixture(scope="module")
def table() -> Successors:
    """The solver's successor table, built once for the module: a third of a second a build,
    which each of hundreds of examples paid when it built its own."""
    return successors()


@pytest.fixture(scope="module")
def choices(table: Successors) -> dict[str, list[np.ndarray]]:
    return {name: policy(table) for name, policy in POLICIES.items()}


def best_moves(name: str, state: ThaxState) -> set[tuple[int, ...]]:
    """The positions after the moves the bot `name` picks from, by the bot's own scores."""
    moves = state.legal_moves()
    if name == "random":
        scores = [0.0] * len(moves)
        tie = 0.0
    elif name == "greedy":
        bot = ThaxGreedyBot()
        scores = []
        for move in moves:
            after = state.play(move)
            won = after.winner == state.seat
            scores.append(WIN if won else bot.evaluate(after, 0))
        tie = 0.0
    else:
        perfect = PerfectBot()
        scores = [perfect.win_chance(state, move) for move in moves]
        tie = TIE
    best = max(scores)
    return {after_index(state, m) for m, s in zip(moves, scores, strict=True) if s >= best - tie}


def after_index(state: ThaxState, move: object) -> tuple[int, ...]:
    """Where a move leads as the solver's table numbers it: the position of the player to roll
    next, the mover after a double below 6-6 (a win included), else the opponent."""
    own, other = state.play(move).sides  # type: ignore[arg-type]
    assert state.roll is not None
    a, b = state.roll
    return (position_index(own, other) if a == b != 6 else position_index(other, own),)


@settings(max_examples=150, deadline=None)
@given(roller=side, other=side, roll=st.sampled_from([roll for roll, _ in TURN_OUTCOMES]))
@pytest.mark.parametrize("name", sorted(POLICIES))
def test_each_policy_picks_uniformly_among_its_bots_best_moves(
    name: str, table: Successors, choices: dict[str, list[np.ndarray]], roller, other, roll
) -> None:
    which = [r for r, _ in TURN_OUTCOMES].index(roll)
    _, _, rows = table[which]
    position = position_index(roller, other)
    weights = choices[name][which][:, position]
    chosen = {(int(rows[option, position]),) for option in np.nonzero(weights)[0]}
    state = ThaxState(GAME.ruleset(), (roller, other), 0, roll)
    assert chosen == best_moves(name, state)
    assert np.allclose(weights[weights > 0], 1 / len(chosen))


@pytest.mark.slow
def test_perfect_play_against_itself_gives_the_solved_values() -> None:
    table = successors()
    perfect = POLICIES["thax-perfect"](table)
    chances = win_chances(perfect, perfect, table)
    assert np.abs(chances[0] - values()).max() < 1e-9
    assert np.abs(chances[1] - values()).max() < 1e-9
