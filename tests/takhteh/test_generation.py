"""Legal plays: the fast generators and the play check against a plain reference generator
written from RULES.md (takhteh_reference.py), on random positions."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from takhteh_reference import random_board, reference_positions

from referee.games.base import IllegalMove, perft_counts
from referee.games.takhteh import GAME
from referee.games.takhteh.rules import (
    TakhtehState,
    _generate,
    apply_legs,
    check_play,
    legal_plays,
)

seeds = st.integers(min_value=0, max_value=2**32 - 1)
rolls = st.tuples(st.integers(1, 6), st.integers(1, 6)).map(lambda r: (max(r), min(r)))


def _position(seed: int) -> tuple[int, ...]:
    rng = random.Random(seed)
    while True:
        board = random_board(rng, rng.choice((0.0, 0.3, 0.7, 1.0)))
        if max(board) > 0 and min(board) < 0:
            return board


@settings(max_examples=400, deadline=None)
@given(seeds, rolls)
def test_legal_plays_reach_exactly_the_reference_positions_once_each(
    seed: int, roll: tuple[int, int]
) -> None:
    """Most dice, then the larger die, over sequences the Takhteh restrictions allow."""
    board = _position(seed)
    plays = legal_plays(board, *roll)
    reached = [apply_legs(board, play) for play in plays]
    assert len(reached) == len(set(reached))
    assert set(reached) == reference_positions(board, roll)
    assert set(_generate(board, *roll)) == set(reached)


def _candidates(board: tuple[int, ...], roll: tuple[int, int]) -> set[tuple]:
    """Leg sequences of standard backgammon, any length, ignoring every dice-use rule."""
    high, low = roll
    found: set[tuple] = set()

    def walk(c: list[int], dice: list[int], legs: list[tuple[int, int]]) -> None:
        found.add(tuple(sorted(legs, reverse=True)))
        if not dice:
            return
        for src in range(25, 0, -1):
            if c[src] <= 0 or (c[25] > 0 and src != 25):
                continue
            dst = src - dice[0]
            if dst <= 0:
                if any(c[p] > 0 for p in range(7, 26)):
                    continue
                if dst < 0 and any(c[p] > 0 for p in range(src + 1, 7)):
                    continue
                dst = 0
            elif c[dst] <= -2:
                continue
            nxt = list(c)
            nxt[src] -= 1
            if dst and nxt[dst] == -1:
                nxt[dst], nxt[0] = 1, nxt[0] - 1
            elif dst:
                nxt[dst] += 1
            walk(nxt, dice[1:], [*legs, (src, dst)])

    for dice in ([high] * 4,) if high == low else ([high, low], [low, high]):
        walk(list(board), dice, [])
    return found


@settings(max_examples=80, deadline=None)
@given(seeds, rolls)
def test_play_check_accepts_exactly_the_plays_reaching_a_legal_position(
    seed: int, roll: tuple[int, int]
) -> None:
    """Without generating every play: any leg sequence is judged by the position it reaches."""
    board = _position(seed)
    legal = reference_positions(board, roll)
    for legs in _candidates(board, roll):
        target = apply_legs(board, legs)
        try:
            after, _ = check_play(board, roll, legs, lambda p: () if p in legal else None)
        except IllegalMove as error:
            assert target not in legal, error.message
            assert error.rule.startswith("takhteh.")
        else:
            assert target in legal and after == target


@settings(max_examples=100, deadline=None)
@given(seeds, rolls)
def test_state_play_of_each_legal_move_matches_its_position(
    seed: int, roll: tuple[int, int]
) -> None:
    board = _position(seed)
    state = TakhtehState(GAME.ruleset(), board, 0, roll)
    fresh = TakhtehState(GAME.ruleset(), board, 0, roll)
    for move in state.legal_moves():
        after = state.play(move)
        assert after == fresh.play(move)
        assert after.board_of(0) == apply_legs(board, move)


def test_perft_from_the_first_turn() -> None:
    """Move-sequence counts with seat 0 to roll at the start, each roll a branch: 447 at
    depth 1 is GNU Backgammon's count too; 200,516 at depth 2 is the reference generator's
    (Takhteh differs from standard there: a blot hit in the home board stays)."""
    state = GAME.initial_state(GAME.ruleset(), first=0)
    assert perft_counts(state, 2) == [447, 200_516]
    # From the opening roll: its distinct results are who starts, each then with 447.
    opening = GAME.initial_state(GAME.ruleset())
    assert perft_counts(opening, 1) == [2 * 447]


@pytest.mark.slow
def test_perft_depth_3() -> None:
    state = GAME.initial_state(GAME.ruleset(), first=0)
    assert perft_counts(state, 3) == [447, 200_516, 114_429_099]


@settings(max_examples=300, deadline=None)
@given(
    seeds,
    rolls,
    st.lists(st.tuples(st.integers(-3, 28), st.integers(-3, 28)), max_size=5),
)
def test_any_move_object_is_judged_without_other_errors(
    seed: int, roll: tuple[int, int], legs: list[tuple[int, int]]
) -> None:
    """A bot may hand back anything: the state raises IllegalMove or plays it."""
    state = TakhtehState(GAME.ruleset(), _position(seed), 0, roll)
    try:
        after = state.play(tuple(legs))
    except IllegalMove as error:
        assert error.rule.startswith("takhteh.")
    else:
        assert after.board_of(0) in {apply_legs(state.board, m) for m in state.legal_moves()}
