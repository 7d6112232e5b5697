"""The engine against its frozen oracle (tests/games/thai/oracle/, the engine as it was before
it was reworked for speed): on positions reached by random play, the same legal moves in the
same order, the same notation, the same successors and outcomes, and for moves and texts that
are wrong, the same errors with the same rule codes.

The normal suite plays a few games (hypothesis draws the games); the slow test plays on until
at least 10,000 positions have been compared.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.games.base import GameError
from referee.games.thai import ThaiMove, ThaiState
from tests.games.thai.helpers import GAME, RULESET, position, positions
from tests.games.thai.oracle import notation as old_notation
from tests.games.thai.oracle.rules import ThaiMove as OldMove
from tests.games.thai.oracle.rules import ThaiState as OldState

Result = tuple[object, ...]


def _state(state: ThaiState | OldState | None) -> Result:
    if state is None:
        return ("none",)
    return (state.black, state.white, state.kings, state.turn, state.history)


def _result(work: Callable[..., object], *arguments: object) -> Result:
    """What `work(*arguments)` gives (a state, or a move with a state), or the error it
    raises."""
    try:
        done = work(*arguments)
    except GameError as error:
        return ("error", type(error).__name__, str(error), error.rule)
    if isinstance(done, tuple):
        move, after = done
        return ("ok", tuple(move), _state(after))
    assert isinstance(done, ThaiState | OldState)
    return ("ok", _state(done))


def _moves(moves: list[ThaiMove] | list[OldMove]) -> list[tuple[tuple[int, ...], bool]]:
    return [(move.path, move.capture) for move in moves]


def _wrong_moves(state: ThaiState, rng: random.Random) -> list[tuple[tuple[int, ...], bool]]:
    """Moves worth trying besides the legal ones: a legal move bent (a square changed, dropped
    or added, the capture flag flipped) and squares at random, some off the board."""
    own = [i + 1 for i in range(32) if (state.sides()[0] >> i) & 1] or [1]
    tries: list[tuple[tuple[int, ...], bool]] = []
    for move in rng.sample(state.legal_moves(), min(2, len(state.legal_moves()))):
        path = list(move.path)
        path[rng.randrange(len(path))] = rng.randint(0, 33)
        tries.append((tuple(path), move.capture))
        tries.append((move.path, not move.capture))
        tries.append((move.path[:-1] or (1,), move.capture))
        tries.append((move.path[:1] + move.path[2:], True))
        tries.append(((*move.path, rng.randint(1, 32)), True))
    for _ in range(3):
        length = rng.choice((2, 2, 2, 3, 4))
        squares = (rng.choice(own), *(rng.randint(1, 32) for _ in range(length - 1)))
        tries.append((squares, rng.random() < 0.5))
    tries.append(((rng.randint(-1, 34), rng.randint(-1, 34)), False))
    return tries


def _texts(state: ThaiState, rng: random.Random) -> list[str]:
    """Move texts to read: every legal move as written, short and dashed forms of captures,
    and squares at random."""
    texts = [GAME.format_move(state, move) for move in state.legal_moves()]
    for move in state.legal_moves():
        if move.capture:
            texts.append(f"{move.path[0]}x{move.path[-1]}")
            texts.append("-".join(map(str, move.path)))
    squares = [str(rng.randint(0, 34)) for _ in range(3)]
    texts += [f"{squares[0]}-{squares[1]}", f"{squares[0]}x{squares[1]}x{squares[2]}", "1 X 5"]
    return texts


def compare(new: ThaiState, old: OldState, rng: random.Random) -> None:
    """Everything the engine says about one position, against the oracle."""
    fen = GAME.format_position(new)
    assert _state(new) == _state(old), fen
    assert _moves(new.legal_moves()) == _moves(old.legal_moves()), fen
    assert [GAME.format_move(new, m) for m in new.legal_moves()] == [
        old_notation.format_move(m) for m in old.legal_moves()
    ], fen
    assert [(m.path, m.capture, _state(s)) for m, s in new.successors()] == [
        (m.path, m.capture, _state(s)) for m, s in old.successors()
    ], fen
    assert new.outcome() == old.outcome(), fen
    assert new.has_capture() == old.has_capture(), fen
    assert new.has_move() == old.has_move(), fen
    assert new.repetitions() == old.repetitions(), fen
    for path, capture in [*_moves(new.legal_moves()), *_wrong_moves(new, rng)]:
        assert _result(new.play, ThaiMove(path, capture)) == _result(
            old.play, OldMove(path, capture)
        ), (fen, path, capture)
    for text in _texts(new, rng):
        assert _result(GAME.read_move, new, text) == _result(old_notation.read_move, old, text), (
            fen,
            text,
        )


def play_and_compare(rng: random.Random, start: ThaiState | None = None) -> int:
    """A random game from `start` (the standard start by default) on both engines side by
    side, every position compared: the number of positions."""
    new = start or GAME.initial_state(RULESET)
    old = OldState(RULESET, new.black, new.white, new.kings, new.turn, new.history)
    compared = 0
    for _ in range(GAME.turn_cap * 2):
        compare(new, old, rng)
        compared += 1
        moves = new.legal_moves()
        if not moves:
            break
        choice = rng.randrange(len(moves))
        new, old = new.play(moves[choice]), old.play(old.legal_moves()[choice])
    return compared


SEEDS = st.integers(min_value=0, max_value=2**32)


@settings(max_examples=15, deadline=None)
@given(SEEDS)
def test_random_games_from_the_start_agree_with_the_oracle(seed: int) -> None:
    play_and_compare(random.Random(seed))


@settings(max_examples=40, deadline=None)
@given(positions(max_pieces=16), SEEDS)
def test_random_games_from_random_positions_agree_with_the_oracle(fen: str, seed: int) -> None:
    play_and_compare(random.Random(seed), position(fen))


@pytest.mark.slow
def test_ten_thousand_positions_agree_with_the_oracle() -> None:
    compared, seed = 0, 0
    while compared < 10_000:
        compared += play_and_compare(random.Random(seed))
        seed += 1
