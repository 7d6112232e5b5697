"""Takhteh bots: legal, deterministic for a seed, their time limits, the learned evaluation."""

from __future__ import annotations

import random

import numpy as np
import pytest

from referee.games.takhteh import GAME
from referee.games.takhteh.bots import evaluate, evaluate_board
from referee.games.takhteh.net import INPUTS, SIDE_INPUTS, Net, features
from referee.games.takhteh.rules import START, TakhtehState, flip
from referee.games.takhteh.train import _Chain, self_play_game
from referee.players.registry import describe_bots, make_bot
from referee.records.replay import replay
from tests.games.bot_clock import BUSY_MACHINE, timed
from tests.games.takhteh.helpers import random_game


def _states(seed: int) -> list[TakhtehState]:
    return [step.before for step in replay(random_game(random.Random(seed)))]  # type: ignore[misc]


@pytest.mark.parametrize(
    "spec",
    [
        "random",
        "greedy",
        "expectimax:top=2",
        "expectimax:depth=2,top=1",
        "tdnet:depth=0",
        "tdnet:top=2",
    ],
)
def test_bots_choose_legal_moves(spec: str) -> None:
    bot = make_bot("takhteh", spec)
    bot.start_game(GAME.ruleset(), 0, "seed")
    for state in _states(1)[::15]:
        move = bot.choose(state)
        assert move in state.legal_moves()


@pytest.mark.parametrize("spec", ["greedy", "expectimax:top=3", "tdnet:top=3,time=0"])
def test_bots_are_deterministic_for_a_seed(spec: str) -> None:
    states = _states(2)[::10]
    choices = []
    for _ in range(2):
        bot = make_bot("takhteh", spec)
        bot.start_game(GAME.ruleset(), 0, "same")
        choices.append([bot.choose(state) for state in states])
    assert choices[0] == choices[1]


def test_expectimax_answers_within_its_time_limit() -> None:
    bot = make_bot("takhteh", "expectimax:depth=2,top=8,time=0.05")
    bot.start_game(GAME.ruleset(), 0, "t")
    state = GAME.initial_state(GAME.ruleset(), first=0).apply_chance((2, 1))
    move, cpu, wall = timed(lambda: bot.choose(state))
    assert move in state.legal_moves()
    assert cpu < 0.5
    assert wall < 0.05 + BUSY_MACHINE


def test_evaluation_is_antisymmetric_and_prefers_being_ahead() -> None:
    state = GAME.initial_state(GAME.ruleset(), first=0)
    assert evaluate(state, 0) == pytest.approx(-evaluate(state, 1))
    for s in _states(3)[::20]:
        assert evaluate_board(s.board) == pytest.approx(-evaluate_board(flip(s.board)))
    ahead = list(START)
    ahead[24], ahead[18] = 0, 2
    assert evaluate_board(tuple(ahead)) > evaluate_board(START)


def test_bots_are_listed_with_their_options() -> None:
    bots = {info.name: info for info in describe_bots("takhteh")}
    assert set(bots) == {"random", "greedy", "expectimax", "tdnet"}
    assert set(bots["expectimax"].options) == {"depth", "top", "time"}
    assert set(bots["tdnet"].options) == {"depth", "top", "time"}


def _busy_states() -> list[TakhtehState]:
    """Positions in the middle of random games with many legal plays (doubles above all),
    where looking ahead over the opponent's rolls costs the most."""
    states = [s for seed in range(4, 10) for s in _states(seed)]
    states.sort(key=lambda s: -len(s.legal_moves()))
    return states[:12]


def test_tdnet_answers_within_a_short_time_limit() -> None:
    """The clock is read inside the look-ahead (before each of the opponent's rolls): with
    time=0.05 each move comes back in the limit plus the work of one roll and one batch of
    the network (about 0.015 s), under 0.1 s more (bot_clock: CPU time bounded tightly)."""
    limit = 0.05
    limited = make_bot("takhteh", f"tdnet:top=50,time={limit}")
    limited.start_game(GAME.ruleset(), 0, "t")
    untimed = make_bot("takhteh", "tdnet:top=50,time=0")
    untimed.start_game(GAME.ruleset(), 0, "t")
    spent, walls = [], []
    for state in _busy_states():
        move, cpu, wall = timed(lambda state=state: limited.choose(state))
        assert move in state.legal_moves()
        spent.append(cpu)
        walls.append(wall)
    assert max(spent) < limit + 0.1, spent
    assert max(walls) < limit + BUSY_MACHINE, walls
    # The limit does cut the search: without it the same positions take longer.
    _, cpu, _ = timed(lambda: untimed.choose(_busy_states()[0]))
    assert cpu > limit


def test_tdnet_takes_a_winning_play() -> None:
    """Bearing off the last checker wins at once, whatever the network says."""
    board = [0] * 26
    board[2] = 1
    board[10] = -15
    state = TakhtehState(GAME.ruleset(), tuple(board), 0, (6, 1))
    bot = make_bot("takhteh", "tdnet:depth=0")
    bot.start_game(GAME.ruleset(), 0, "w")
    assert state.play(bot.choose(state)).outcome() is not None


def test_network_probabilities_are_sensible() -> None:
    """Probabilities in [0, 1], a gammon no likelier than a win, far ahead in a race means
    winning and far behind losing."""
    net = Net.load()
    boards = [s.board for s in _states(11)[::7]]
    p = net.probabilities(boards)
    assert ((p >= 0) & (p <= 1)).all()
    assert (p[:, 1] <= p[:, 0] + 0.05).all()
    ahead = [0] * 26
    ahead[1] = ahead[2] = ahead[3] = 2
    ahead[13] = -15
    behind = flip(tuple(ahead))
    win, lose = net.probabilities([tuple(ahead), behind])[:, 0]
    assert win > 0.9 > 0.1 > lose


def test_features_read_the_board_from_each_side() -> None:
    """The start seen from either side gives the same inputs for each side, in turn; pip
    counts 167 each; the checkers of each side on its 6-point coded as 5 checkers."""
    x = features([START])[0]
    side = SIDE_INPUTS
    assert x[:side] == pytest.approx(x[side : 2 * side])
    six = 4 * (6 - 1)
    assert list(x[six : six + 4]) == [1, 1, 1, 1]
    assert x[98] == pytest.approx(1.67)
    assert x.shape == (INPUTS,)


def test_td_step_moves_the_output_towards_its_target() -> None:
    """TD(lambda): after the trace of a position, learning from a target moves that
    position's outputs towards the target."""
    net = Net.random(8, seed=3)
    x = features([START])
    hidden, out = net.forward(x)
    chain = _Chain(net)
    chain.trace(net, x[0], hidden[0], out[0], lam=0.7)
    target = np.array([1.0, 1.0, 0.0])
    chain.learn(net, target, alpha=0.5)
    after = net.forward(x)[1][0]
    assert (np.abs(target - after) < np.abs(target - out[0])).all()


def test_self_play_game_ends_and_learns() -> None:
    net = Net.random(8, seed=4)
    before = net.w1.copy()
    plies = self_play_game(net, random.Random(5), alpha=0.1, lam=0.7)
    assert 10 < plies < 3000
    assert not np.array_equal(before, net.w1)
    assert np.isfinite(net.w1).all()
