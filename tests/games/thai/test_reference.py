"""The engine against the plain reference reading of the rules (reference.py), on random
positions and along random games: the same legal moves, and the same position after each."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

import tests.games.thai.reference as reference
from tests.games.thai.helpers import GAME, moves, position, positions


def check_against_reference(fen: str) -> None:
    state = position(fen)
    board, turn = reference.board_from_fen(fen)
    expected = reference.legal_moves(board, turn)
    if state.outcome() is not None:
        assert not state.legal_moves()
        return
    assert moves(state) == expected, fen
    for text in expected:
        after, next_turn = reference.play(board, turn, text)
        engine_after = state.play(GAME.parse_move(state, text))
        assert GAME.format_position(engine_after) == reference.fen_of(after, next_turn), text


@settings(max_examples=400, deadline=None)
@given(positions())
def test_legal_moves_match_the_reference_on_random_positions(fen: str) -> None:
    """Every rule at once: flying kings, immediate removal, free choice of line, promotion."""
    check_against_reference(fen)


@settings(max_examples=150, deadline=None)
@given(positions(max_pieces=24))
def test_legal_moves_match_the_reference_on_crowded_positions(fen: str) -> None:
    check_against_reference(fen)


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 2**32))
def test_legal_moves_match_the_reference_along_random_games(seed: int) -> None:
    rng = random.Random(seed)
    state = GAME.initial_state(GAME.ruleset())
    for _ in range(200):
        fen = GAME.format_position(state)
        check_against_reference(fen)
        if state.outcome() is not None:
            break
        state = state.play(rng.choice(state.legal_moves()))
