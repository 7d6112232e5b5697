"""The Trax engine against its frozen oracle (tests/games/trax/oracle/rules.py, the engine
before its speed-up): on positions reached by random play, the same legal moves in the same
order, the same notation, the same results and the same rule codes for illegal moves."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.games.base import IllegalMove
from referee.games.trax import GAME, notation
from referee.games.trax.rules import (
    FITS,
    ROW_ORIGIN,
    SYMBOLS,
    TraxMove,
    TraxState,
    format_token,
)
from tests.games.trax.oracle import rules as oracle

MOVES_PER_GAME = 60
"""Random games are cut here: the positions of long games look alike."""


def _attempt(state: Any, move: tuple[int, int, int], move_class: Any) -> tuple[Any, ...]:
    """What playing `move` gives: the new position's tokens, seat and result, or the rule."""
    try:
        after = state.play(move_class(*move))
    except IllegalMove as error:
        return ("illegal", error.rule, str(error))
    return ("played", after.tokens(), after.seat, after.winner, after.detail, after.outcome())


def _located(state: Any, col: int, row: int, symbol: str) -> tuple[Any, ...]:
    try:
        move, key = state.locate(col, row, symbol)
    except IllegalMove as error:
        return ("illegal", error.rule, str(error))
    return ("found", tuple(move), key is None)


def _read(state: TraxState, text: str) -> tuple[Any, ...]:
    """What reading a token gives through the game (`TraxState.read`, its inline `locate`)."""
    try:
        move, after = GAME.read_move(state, text)
    except IllegalMove as error:
        return ("illegal", error.rule, str(error))
    return ("read", tuple(move), after.tokens(), after.seat, after.winner, after.outcome())


def _read_oracle(state: Any, col: int, row: int, symbol: str) -> tuple[Any, ...]:
    """The same through the oracle: `locate`, then `play_at` (`play` beyond the 8x8 area)."""
    try:
        move, key = state.locate(col, row, symbol)
        after = state.play(move) if key is None else state.play_at(move, key)
    except IllegalMove as error:
        return ("illegal", error.rule, str(error))
    return ("read", tuple(move), after.tokens(), after.seat, after.winner, after.outcome())


def _compare(new: TraxState, old: Any, rng: random.Random) -> None:
    assert new.tokens() == old.tokens()
    assert (new.seat, new.winner, new.detail) == (old.seat, old.winner, old.detail)
    # A move passes on the variant's rules (`builder(derived=True)`) as the class derives them.
    assert (new.limit, new.lines) == (old.limit, old.lines)
    assert new.is_terminal() == old.is_terminal()
    assert new.outcome() == old.outcome()
    moves = new.legal_moves()
    assert [tuple(move) for move in moves] == [tuple(move) for move in old.legal_moves()]
    assert [format_token(move) for move in moves] == [oracle.format_token(m) for m in moves]
    assert new.has_legal_move() == old.has_legal_move()
    # Every tile that fits (the illegal turns of forced play among them), then moves at random
    # around the tiles: occupied spaces, spaces touching no tile, colours that do not match,
    # spaces beyond the 8x8 limit.
    tried = [tuple(new.move_at(key, tile)) for key, tile in new.candidates()]
    assert tried == [tuple(old.move_at(key, tile)) for key, tile in old.candidates()]
    width = 1 if new.box is None else new.box[1] - new.box[0] + 4
    height = 1 if new.box is None else new.box[3] - new.box[2] + 4
    tried += [
        (rng.randrange(width), rng.randrange(height), rng.choice(list(SYMBOLS))) for _ in range(8)
    ]
    for move in tried:
        assert _attempt(new, move, TraxMove) == _attempt(old, move, oracle.TraxMove)
        col, row, tile = move
        symbol = SYMBOLS[tile]
        assert _located(new, col, row, symbol) == _located(old, col, row, symbol)
        token = format_token(TraxMove(col, row, tile))
        assert _read(new, token) == _read_oracle(old, col, row, symbol)
        if new.box is not None and not new.is_terminal():
            new_key, old_key = new.space_of(col, row), old.space_of(col, row)
            if new_key in new.codes and tile in FITS[new.codes[new_key]]:
                assert new.preview(new_key, tile) == old.preview(old_key, tile)


def _play_game(variant: str, seed: int) -> int:
    """Play a random game on both engines side by side; the number of positions compared."""
    rng = random.Random(seed)
    ruleset = GAME.ruleset(variant)
    new, old = TraxState(ruleset), oracle.TraxState(ruleset)
    compared = 0
    while True:
        _compare(new, old, rng)
        compared += 1
        moves = new.legal_moves()
        if not moves or compared > MOVES_PER_GAME:
            return compared
        move = rng.choice(moves)
        new, old = new.play(move), old.play(oracle.TraxMove(*move))


@settings(max_examples=30, deadline=None)
@given(variant=st.sampled_from(GAME.variants), seed=st.integers(0, 2**32))
def test_the_engine_agrees_with_its_oracle(variant: str, seed: int) -> None:
    assert _play_game(variant, seed) >= 1


@pytest.mark.slow
def test_the_engine_agrees_with_its_oracle_on_ten_thousand_positions() -> None:
    compared = sum(
        _play_game(GAME.variants[seed % len(GAME.variants)], seed) for seed in range(600)
    )
    assert compared >= 10_000


@pytest.mark.parametrize("up", [True, False])
def test_the_engine_agrees_with_its_oracle_far_from_the_first_row(up: bool) -> None:
    """A column of 300 tiles, upwards (rows of negative keys) or downwards (keys beyond the
    one-digit ints): the engine's keys near the first row are chosen small (`ROW_ORIGIN`),
    and these rows are beyond them. LoopTrax: a straight column wins no line."""
    rng = random.Random(up)
    ruleset = GAME.ruleset("looptrax")
    new, old = TraxState(ruleset), oracle.TraxState(ruleset)
    for count in range(300):
        token = "@0+" if count == 0 else "A0+" if up else f"A{count + 1}+"
        new = GAME.read_move(new, token)[1]
        col, row, symbol = notation.split_token(token)
        move, key = old.locate(col, row, symbol)
        old = old.play_at(move, key) if key is not None else old.play(move)
        # Every 50th, the tiles either side of row 0 (upwards, the tile after row 0's is on
        # the first row of negative keys) and the last: the boards grow with the column, and
        # so does each comparison, which plays every candidate move on both engines.
        if count % 50 == 0 or ROW_ORIGIN - 1 <= count <= ROW_ORIGIN + 2 or count == 299:
            _compare(new, old, rng)
    assert len(new.tiles) == 300
