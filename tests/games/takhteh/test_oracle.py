"""The Takhteh engine against its frozen oracle (tests/games/takhteh/oracle/, the engine as it
was before it was reworked for speed): on positions reached by random play with random dice,
the same legal moves in the same order, the same notation, the same successors and results,
and for plays and texts that are wrong, the same errors with the same rule codes.

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
from referee.games.takhteh import GAME, notation
from referee.games.takhteh.rules import Leg, TakhtehMove, TakhtehState
from tests.games.takhteh.oracle import notation as old_notation
from tests.games.takhteh.oracle.rules import TakhtehState as OldState

RULESET = GAME.ruleset()
Result = tuple[object, ...]


def _state(state: TakhtehState | OldState) -> Result:
    return (state.board, state.to_move, state.roll, state.winner, state.points, state.outcome())


def _result(work: Callable[..., object], *arguments: object) -> Result:
    """What `work(*arguments)` gives (a state, a move with a state, or legs), or the error it
    raises."""
    try:
        done = work(*arguments)
    except GameError as error:
        return ("error", type(error).__name__, str(error), error.rule)
    if isinstance(done, TakhtehState | OldState):
        return ("ok", _state(done))
    if isinstance(done, tuple) and len(done) == 2 and isinstance(done[1], TakhtehState | OldState):
        return ("ok", done[0], _state(done[1]))
    return ("ok", done)


def _unlisted(state: TakhtehState | OldState) -> TakhtehState | OldState:
    """The same position on a board of its own, so that no list of moves made for `state` is
    reused: a play is then checked in full."""
    return type(state)(
        state.ruleset,
        tuple(list(state.board)),
        state.to_move,
        state.roll,
        state.winner,
        state.points,
    )


def _wrong_plays(state: TakhtehState, rng: random.Random) -> list[TakhtehMove]:
    """Plays worth trying besides the legal ones written as listed: legal plays with their legs
    reversed, joined, cut short, bent or extended, and legs at random."""
    tries: list[TakhtehMove] = []
    moves = state.legal_moves()
    for move in rng.sample(moves, min(3, len(moves))):
        tries.append(tuple(reversed(move)))
        if move:
            legs = list(move)
            tries.append(tuple(legs[:-1]))
            i = rng.randrange(len(legs))
            src, dst = legs[i]
            legs[i] = (src, max(0, dst + rng.choice((-2, -1, 1, 2))))
            tries.append(tuple(legs))
            tries.append((*move, (rng.randint(1, 25), rng.randint(0, 24))))
            (s1, d1), *rest = move
            if rest and rest[0][0] == d1:
                tries.append(((s1, rest[0][1]), *rest[1:]))
    for _ in range(4):
        count = rng.choice((1, 2, 2, 3, 4, 5))
        legs_: list[Leg] = [(rng.randint(-1, 26), rng.randint(-1, 26)) for _ in range(count)]
        tries.append(tuple(legs_))
    tries.append(())
    return tries


def _texts(state: TakhtehState, rng: random.Random) -> list[str]:
    """Move texts to read: every legal move as written, its plain legs, its legs reversed, and
    points at random."""
    moves = state.legal_moves()
    texts = [GAME.format_move(state, move) for move in moves]
    for move in rng.sample(moves, min(3, len(moves))):
        plain = notation.format_legs_plain(state.board, move)
        texts += [plain, " ".join(reversed(plain.split()))]
    texts += [
        f"{rng.randint(0, 26)}/{rng.randint(0, 26)}*",
        f"bar/{rng.randint(15, 24)} {rng.randint(1, 24)}/off",
        f"{rng.randint(1, 24)}/{rng.randint(1, 24)}({rng.randint(1, 4)})",
        "",
    ]
    return texts


def compare(new: TakhtehState, old: OldState, rng: random.Random) -> None:
    """Everything the engine says about one position, against the oracle."""
    where = (new.board, new.roll)
    assert _state(new) == _state(old), where
    assert (new.is_chance(), new.is_terminal()) == (old.is_chance(), old.is_terminal()), where
    assert new.chance_outcomes() == old.chance_outcomes(), where
    moves = new.legal_moves()
    assert moves == old.legal_moves(), where
    assert [GAME.format_move(new, m) for m in moves] == [
        old_notation.format_move(old, m) for m in moves
    ], where
    # Listed plays, played where they were listed and on a board of their own.
    for move in moves:
        assert _result(new.play, move) == _result(old.play, move), (where, move)
        assert _result(new.legs, move) == _result(old.legs, move), (where, move)
    unlisted_new, unlisted_old = _unlisted(new), _unlisted(old)
    for move in [*moves, *_wrong_plays(new, rng)]:
        assert _result(unlisted_new.play, move) == _result(unlisted_old.play, move), (where, move)
        assert _result(unlisted_new.resolve, move) == _result(unlisted_old.resolve, move), (
            where,
            move,
        )
    for text in _texts(new, rng):
        assert _result(notation.read_move, new, text) == _result(
            old_notation.read_move, old, text
        ), (where, text)


def play_and_compare(rng: random.Random, turns: int) -> int:
    """A random game (random dice, random plays) on both engines side by side for at most
    `turns` turns, every position compared, those waiting for the dice too: the number of
    decision positions compared."""
    new, old = GAME.initial_state(RULESET), OldState(RULESET)
    compared = 0
    while not new.is_terminal() and compared < turns:
        compare(new, old, rng)
        if new.is_chance():
            roll = (rng.randint(1, 6), rng.randint(1, 6))
            new, old = new.apply_chance(roll), old.apply_chance(roll)
            continue
        compared += 1
        move = rng.choice(new.legal_moves())
        new, old = new.play(move), old.play(move)
    compare(new, old, rng)
    return compared


SEEDS = st.integers(min_value=0, max_value=2**32)


@settings(max_examples=10, deadline=None)
@given(SEEDS)
def test_random_games_agree_with_the_oracle(seed: int) -> None:
    assert play_and_compare(random.Random(seed), 120) >= 1


@pytest.mark.slow
def test_ten_thousand_positions_agree_with_the_oracle() -> None:
    compared, seed = 0, 0
    while compared < 10_000:
        compared += play_and_compare(random.Random(seed), 10_000)
        seed += 1
