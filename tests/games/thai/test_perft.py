"""Move-sequence counts (perft): the known English-start vectors and the Thai start."""

from __future__ import annotations

import pytest

import tests.games.thai.reference as reference
from referee.games.base import perft, perft_counts
from referee.games.thai.fen import ENGLISH_START_FEN, START_FEN
from tests.games.thai.helpers import GAME, RULESET, position

ENGLISH_START_COUNTS = [7, 49, 302, 1469, 7361, 36768, 179740]
"""docs/thai.md's test vectors: Thai rules from the 12-against-12 English checkers start."""

THAI_START_COUNTS = [7, 49, 392, 3136, 26592, 218695, 1820189, 14533014]
"""Computed by this engine; the reference implementation gives the same to depth 8
(docs/thai.md)."""


def test_the_english_start_is_twelve_men_on_the_three_nearest_rows() -> None:
    state = position(ENGLISH_START_FEN)
    assert state.black == 0xFFF00000  # squares 21..32
    assert state.white == 0x00000FFF  # squares 1..12
    assert state.to_move == 0


def test_perft_english_start_depths_1_to_6() -> None:
    assert perft_counts(position(ENGLISH_START_FEN), 6) == ENGLISH_START_COUNTS[:6]


@pytest.mark.slow
def test_perft_english_start_depth_7() -> None:
    assert perft(position(ENGLISH_START_FEN), 7) == 179740


def test_perft_thai_start_depths_1_to_5() -> None:
    assert GAME.format_position(GAME.initial_state(RULESET)) == START_FEN
    assert perft_counts(GAME.initial_state(RULESET), 5) == THAI_START_COUNTS[:5]


@pytest.mark.slow
def test_perft_thai_start_depths_1_to_8() -> None:
    assert perft_counts(GAME.initial_state(RULESET), 8) == THAI_START_COUNTS


def _reference_perft(board: reference.Board, turn: str, depth: int) -> int:
    legal = reference.legal_moves(board, turn)
    if depth == 1:
        return len(legal)
    return sum(_reference_perft(*reference.play(board, turn, move), depth - 1) for move in legal)


def test_the_reference_gives_the_thai_start_counts_to_depth_5() -> None:
    board, turn = reference.board_from_fen(START_FEN)
    assert [_reference_perft(board, turn, d) for d in range(1, 6)] == THAI_START_COUNTS[:5]


@pytest.mark.slow
def test_the_reference_gives_the_thai_start_counts_at_depth_7() -> None:
    board, turn = reference.board_from_fen(START_FEN)
    assert _reference_perft(board, turn, 7) == THAI_START_COUNTS[6]
