"""The engine's fast paths against plain walks of the board, square by square as the rules
read: the men's capture test, and the order of the legal moves, which random bots depend on
(the same seed, the same game): start squares ascending; a man's steps, then a king's rays, in
the geometry's direction order, a king's squares along a ray nearest first (the engine lists
quiet moves from row tables and ray slices)."""

from __future__ import annotations

from hypothesis import given, settings

from referee.games.thai.geometry import ALL, DIRECTIONS, FORWARD, RAY
from referee.games.thai.rules import CAPTURING_MEN, ThaiState
from tests.games.thai.helpers import position, positions


def quiet_moves_in_order(state: ThaiState) -> list[tuple[int, ...]]:
    own, opponent = state.sides()
    occupied = own | opponent
    paths: list[tuple[int, ...]] = []
    for square in range(32):
        if not (own >> square) & 1:
            continue
        king = (state.kings >> square) & 1
        for d in DIRECTIONS if king else FORWARD[state.turn]:
            for target in RAY[d][square] if king else RAY[d][square][:1]:
                if (occupied >> target) & 1:
                    break
                paths.append((square + 1, target + 1))
    return paths


@settings(max_examples=200, deadline=None)
@given(positions(max_pieces=20))
def test_quiet_moves_come_in_board_order(fen: str) -> None:
    state = position(fen)
    if state.has_capture():
        return
    assert [move.path for move in state.legal_moves()] == quiet_moves_in_order(state), fen


@settings(max_examples=150, deadline=None)
@given(positions(max_pieces=20))
def test_captures_come_by_start_square_and_successors_follow_legal_moves(fen: str) -> None:
    state = position(fen)
    moves = state.legal_moves()
    if state.has_capture():
        starts = [move.path[0] for move in moves]
        assert starts == sorted(starts), fen
        assert all(move.capture for move in moves)
    assert [move for move, _ in state.successors()] == moves, fen
    for move, after in state.successors():
        assert after == state.play(move), (fen, move)


@settings(max_examples=150, deadline=None)
@given(positions(max_pieces=24))
def test_the_bitboard_capture_test_finds_the_men_that_can_jump(fen: str) -> None:
    """`CAPTURING_MEN` (all men at once, by shifts) against a man-by-man look ahead."""
    state = position(fen)
    own, opponent = state.sides()
    occupied = own | opponent
    expected = 0
    for square in range(32):
        if (own >> square) & 1 and not (state.kings >> square) & 1:
            for d in FORWARD[state.turn]:
                ray = RAY[d][square]
                if len(ray) >= 2 and (opponent >> ray[0]) & 1 and not (occupied >> ray[1]) & 1:
                    expected |= 1 << square
    men = own & ~state.kings
    assert CAPTURING_MEN[state.turn](men, opponent, ~occupied & ALL) == expected, fen
