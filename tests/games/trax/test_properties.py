"""Random Trax games in all three variants, held against the slow reading in helpers.py."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.games.trax import GAME
from referee.games.trax.rules import FITS, ILLEGAL, NO_WIN, TraxState, coords, key_of
from tests.games.trax.helpers import (
    absolute,
    board_of,
    entering,
    frontier,
    naive_formed,
    naive_moves,
    random_game,
    random_state,
    span,
    tracks,
)

VARIANTS = st.sampled_from(GAME.variants)
CHOICES = st.lists(st.integers(0, 10**6), min_size=1, max_size=50)


@settings(max_examples=150, deadline=None)
@given(variant=VARIANTS, seed=st.integers(0, 2**32))
def test_random_games_never_raise_and_keep_the_board_sound(variant: str, seed: int) -> None:
    """After every completed turn: no empty space entered twice (forced play is complete) or
    three times by one colour, and in 8x8 the tiles never span more than 8 columns or rows."""
    states = random_game(variant, seed)
    assert states[-1].is_terminal() or len(states) > 400
    for state in states[1:]:
        board = board_of(state)
        for space in frontier(board):
            colours = entering(board, space)
            assert colours.count("w") < 2 and colours.count("b") < 2
        if variant == "8x8":
            assert max(span(board)) <= 8


@settings(max_examples=150, deadline=None)
@given(variant=VARIANTS, seed=st.integers(0, 2**32))
def test_every_turn_is_judged_as_the_rules_say(variant: str, seed: int) -> None:
    """The winner after each turn: the mover's colour formed a loop or line (lines only where
    they win), else the opponent's did; found by walking every track of the board."""
    states = random_game(variant, seed)
    for before, after in itertools.pairwise(states):
        formed = naive_formed(board_of(after), lines=variant != "looptrax")
        mover, other = ("w", "b") if before.to_move == 0 else ("b", "w")
        if formed[mover]:
            expected = (before.to_move, formed[mover])
        elif formed[other]:
            expected = (1 - before.to_move, formed[other])
        else:
            expected = (None, "")
        assert (after.winner, after.detail) == expected


@settings(max_examples=80, deadline=None)
@given(variant=VARIANTS, choices=CHOICES)
def test_legal_moves_are_exactly_the_legal_turns(variant: str, choices: list[int]) -> None:
    """Every tile on every space, forced play done naively: the engine lists the same moves,
    each once; their count, asked first, is counted without them."""
    state = random_state(variant, choices)
    if state.box is None or state.is_terminal():
        return
    count = state.count_legal_moves()
    moves = state.legal_moves()
    assert count == len(moves)
    assert len(set(moves)) == len(moves)
    assert {absolute(state, move) for move in moves} == naive_moves(state)


@settings(max_examples=150, deadline=None)
@given(variant=VARIANTS, choices=CHOICES)
def test_every_legal_move_reads_back_from_its_notation(variant: str, choices: list[int]) -> None:
    """parse(format(move)) is the move, for every legal move of random positions."""
    state = random_state(variant, choices)
    for move in state.legal_moves():
        assert GAME.parse_move(state, GAME.format_move(state, move)) == move


@settings(max_examples=80, deadline=None)
@given(variant=VARIANTS, choices=CHOICES)
def test_preview_agrees_with_playing_the_move(variant: str, choices: list[int]) -> None:
    """The bots' shortcut (winner or illegality without playing) matches play."""
    state = random_state(variant, choices)
    if state.box is None or state.is_terminal():
        return
    legal = set(state.legal_moves())
    for key, tile in state.candidates():
        move = state.move_at(key, tile)
        result = state.preview(key, tile)
        assert (result != ILLEGAL) == (move in legal)
        if move in legal:
            after = state.play(move)
            assert result == (NO_WIN if after.winner is None else after.winner)


@settings(max_examples=80, deadline=None)
@given(variant=VARIANTS, choices=CHOICES)
def test_incremental_tables_match_the_board(variant: str, choices: list[int]) -> None:
    """The engine's per-space codes and track ends are what the tiles say."""
    state = random_state(variant, choices)
    if state.box is None or state.winner is not None:
        return
    _check_tables(state)


def _check_tables(state: TraxState) -> None:
    board = board_of(state)
    spaces = frontier(board)
    assert {coords(key) for key in state.codes} == spaces
    for key, code in state.codes.items():
        colours = entering(board, coords(key))
        fits = {t for t in range(16) if t in FITS[code]}
        expected = {
            t
            for t in FITS[0]
            if all(c is None or (c == "w") == bool(t >> d & 1) for d, c in enumerate(colours))
        }
        assert fits == expected
    open_ends = {}
    for _, loop, ends in tracks(board):
        assert not loop  # the game would have ended
        (p, e), (q, f) = ends
        first, second = (key_of(*p) << 2 | e), (key_of(*q) << 2 | f)
        open_ends[first], open_ends[second] = second, first
    assert state.ends == open_ends


@pytest.mark.slow
@pytest.mark.parametrize("variant", GAME.variants)
def test_many_random_games_agree_with_the_slow_reading(variant: str) -> None:
    """60 whole random games: at every position the legal moves, after every turn the winner,
    are those the slow reading finds."""
    for seed in range(60):
        states = random_game(variant, 1000 + seed)
        for before, after in itertools.pairwise(states):
            if before.box is not None:
                moves = {absolute(before, move) for move in before.legal_moves()}
                assert moves == naive_moves(before)
            formed = naive_formed(board_of(after), lines=variant != "looptrax")
            mover, other = ("w", "b") if before.to_move == 0 else ("b", "w")
            if formed[mover]:
                assert after.winner == before.to_move
            else:
                assert after.winner == (1 - before.to_move if formed[other] else None)
