"""Takhteh bots: legal, deterministic for a seed, and the expectimax time limit."""

from __future__ import annotations

import random
import time

import pytest
from helpers_takhteh import random_game

from referee.bots.registry import describe_bots, make_bot
from referee.games.takhteh import GAME
from referee.games.takhteh.bots import evaluate, evaluate_board
from referee.games.takhteh.rules import START, TakhtehState, flip
from referee.records.replay import replay


def _states(seed: int) -> list[TakhtehState]:
    return [step.before for step in replay(random_game(random.Random(seed)))]  # type: ignore[misc]


@pytest.mark.parametrize(
    "spec", ["random", "greedy", "expectimax:top=2", "expectimax:depth=2,top=1"]
)
def test_bots_choose_legal_moves(spec: str) -> None:
    bot = make_bot("takhteh", spec)
    bot.start_game(GAME.ruleset(), 0, "seed")
    for state in _states(1)[::15]:
        move = bot.choose(state)
        assert move in state.legal_moves()


@pytest.mark.parametrize("spec", ["greedy", "expectimax:top=3"])
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
    started = time.perf_counter()
    assert bot.choose(state) in state.legal_moves()
    assert time.perf_counter() - started < 0.5


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
    assert set(bots) == {"random", "greedy", "expectimax"}
    assert set(bots["expectimax"].options) == {"depth", "top", "time"}
