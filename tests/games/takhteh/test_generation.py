"""Legal plays: the fast generators and the play check against a plain reference generator
written from docs/rules/takhteh.md (reference.py), on random positions."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.games.base import IllegalMove, perft_counts
from referee.games.takhteh import GAME
from referee.games.takhteh.rules import (
    HOME,
    TakhtehState,
    _double_plays,
    _double_walk,
    _generate,
    _leg_error,
    _nothing_more,
    _read_straight,
    _sources,
    _split_segments,
    apply_legs,
    check_play,
    legal_plays,
    outside_count,
)
from tests.games.takhteh.reference import random_board, reference_positions

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


@settings(max_examples=300, deadline=None)
@given(seeds, st.integers(1, 6), st.integers(1, 6))
def test_sources_are_the_points_a_checker_can_reach(seed: int, a: int, b: int) -> None:
    """A point held, or one, two or three equal dice below a point held or the bar."""
    board = _position(seed)
    for steps in ((a, 2 * a, 3 * a), (max(a, b), min(a, b))):
        expected = [
            p
            for p in range(24, 0, -1)
            if board[p] > 0 or any(p + s <= 25 and board[p + s] > 0 for s in steps)
        ]
        assert _sources(board, steps) == expected


@settings(max_examples=400, deadline=None)
@given(seeds, st.integers(1, 6))
def test_doubles_nested_loops_list_the_walks_plays_in_its_order(seed: int, d: int) -> None:
    """`_double_plays` is `_double_walk` written out as loops: the same plays, same order,
    with checkers on the bar too."""
    board = _position(seed)
    points = [s for s in range(24, d, -1) if s in _sources(board, (d, 2 * d, 3 * d))]
    points = [s for s in points if board[s - d] >= -1]
    plays = _double_plays(list(board), d)
    assert plays == _double_walk(list(board), d, points)
    assert len({apply_legs(board, play) for play in plays}) == len(plays)


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


def _free_point(rng: random.Random, board: list[int], points: range, sign: int) -> int | None:
    """A point of `points` where a checker of the side `sign` may stand, if one is found."""
    for _ in range(20):
        point = rng.choice(points)
        if board[point] * sign >= 0:
            return point
    return None


def _entering_board(rng: random.Random) -> tuple[int, ...]:
    """The mover with checkers on the bar against an opposing home board closed in part."""
    board = [0] * 26
    theirs = 0
    for point in rng.sample(range(19, 25), rng.randint(2, 6)):
        count = rng.randint(2, 3)
        if theirs + count > 14:
            break
        board[point] = -count
        theirs += count
    open_points = [p for p in range(19, 25) if board[p] == 0]
    if open_points and rng.random() < 0.5:
        board[rng.choice(open_points)] = -1
        theirs += 1
    board[25] = rng.choice((1, 1, 2, 3))
    # Few other checkers of the mover, at times, so that a die may have nothing to move.
    for _ in range(rng.choice((0, 1, 2, rng.randint(1, 15 - board[25])))):
        point = _free_point(rng, board, range(1, 25), 1)
        if point is not None:
            board[point] += 1
    while theirs < 14 and rng.random() < 0.8:
        point = _free_point(rng, board, range(rng.choice((1, 13)), 19), -1)
        if point is not None:
            # Points made in pairs, so that they block.
            board[point] -= 2
            theirs += 2
    return tuple(board)


def _one_on_bar_board(rng: random.Random) -> tuple[int, ...]:
    """One checker of the mover on the bar, few others, many opposing points made: at times
    it enters with one die and the other die moves nothing."""
    board = [0] * 26
    board[25] = 1
    for point in rng.sample(range(7, 25), 7):
        board[point] = -2
    for _ in range(rng.randint(0, 2)):
        point = _free_point(rng, board, range(1, 25), 1)
        if point is not None:
            board[point] += 1
    return tuple(board)


def _ending_board(rng: random.Random) -> tuple[int, ...]:
    """The mover near the end of the bearing off: a few checkers home, perhaps one outside."""
    board = [0] * 26
    for _ in range(rng.randint(1, 4)):
        board[rng.choice(range(1, 7) if rng.random() < 0.85 else range(7, 10))] += 1
    for _ in range(rng.randint(1, 15)):
        point = _free_point(rng, board, range(1, 25), -1)
        if point is not None:
            board[point] -= 1
    return tuple(board)


@settings(max_examples=200, deadline=None)
@given(seeds, rolls, st.sampled_from([_entering_board, _one_on_bar_board, _ending_board]))
def test_plays_leaving_dice_unused_are_judged_as_the_reference_does(
    seed: int, roll: tuple[int, int], make: Callable[[random.Random], tuple[int, ...]]
) -> None:
    """As many dice as possible, then the larger die, where the play check settles a play
    that leaves dice unused without listing every play: checkers on the bar that cannot all
    enter, a checker entering with one die only, the last checkers borne off."""
    board = make(random.Random(seed))
    legal = reference_positions(board, roll)
    for legs in _candidates(board, roll):
        target = apply_legs(board, legs)
        try:
            after, _ = check_play(board, roll, legs, lambda p: () if p in legal else None)
        except IllegalMove:
            assert target not in legal
        else:
            assert target in legal and after == target
        state = TakhtehState(GAME.ruleset(), board, 0, roll)
        try:
            state.play(legs)
        except IllegalMove:
            assert target not in legal
        else:
            assert target in legal


def _straight_by_definition(
    board: tuple[int, ...], high: int, low: int, segments: tuple[tuple[int, int], ...]
) -> tuple[list[int], tuple[tuple[int, int], ...], bool, bool] | None:
    """`_read_straight` as its docstring defines it: the legs `_split_segments` finds, each
    checked by `_leg_error` as it comes, without the fast paths and the inlined checks."""
    found = _split_segments(board, high, low, segments)
    if found is None:
        return None
    legs, every_die = found
    c = list(board)
    outside = -1
    bore_off = False
    frozen = 0
    for src, dst, die in legs:
        if src <= HOME and outside < 0:
            outside = outside_count(c)
        if _leg_error(c, src, dst, die, outside if src <= HOME else 1, frozen) is not None:
            return None
        after = list(apply_legs(tuple(c), [(src, dst)]))
        if dst and c[dst] == -1 and dst <= HOME:
            frozen |= 1 << dst
        bore_off = bore_off or not dst
        c = after
    played = tuple((src, dst) for src, dst, _ in legs)
    settled = every_die or _nothing_more(board, tuple(c), high, low, played)
    return c, played, settled, bore_off


def _written(rng: random.Random, board: tuple[int, ...], roll: tuple[int, int]) -> tuple:
    """Checker moves as a player may write them: a legal play's legs, with one checker's legs
    joined at times; or moves of the roll's distances (or both dice, or several equal dice)
    from points the mover holds, in any order, legal or not."""
    high, low = roll
    plays = legal_plays(board, high, low)
    if plays and rng.random() < 0.5:
        legs = list(rng.choice(plays))
        if len(legs) > 1 and rng.random() < 0.4:
            first = rng.randrange(len(legs) - 1)
            (a, b), (c, d) = legs[first], legs[first + 1]
            if b == c:
                legs[first : first + 2] = [(a, d)]
        rng.shuffle(legs)
        return tuple(legs)
    held = [p for p in range(1, 26) if board[p] > 0] or [25]
    distances = [high, low, high + low] + ([2 * high, 3 * high, 4 * high] if high == low else [])
    segments = []
    for _ in range(rng.randint(1, 4 if high == low else 2)):
        # At times the checker just moved moves on (after a hit in the home board, it may not).
        src = segments[-1][1] if segments and segments[-1][1] and rng.random() < 0.4 else None
        src = src or rng.choice(held)
        segments.append((src, max(src - rng.choice(distances), 0)))
    return tuple(segments)


@settings(max_examples=500, deadline=None)
@given(
    seeds,
    rolls,
    st.sampled_from([_position, _entering_board, _one_on_bar_board, _ending_board]),
)
def test_straight_reading_keeps_the_leg_rules_it_copies(
    seed: int, roll: tuple[int, int], make: Callable[[random.Random], tuple[int, ...]]
) -> None:
    """`_read_straight` writes `_leg_error`'s conditions into its loop and reads the usual
    plays of two dice without `_split_segments`: on any written play it returns what the two
    originals give."""
    rng = random.Random(seed)
    board = _position(seed) if make is _position else make(rng)
    for _ in range(8):
        segments = _written(rng, board, roll)
        expected = _straight_by_definition(board, *roll, segments)
        assert _read_straight(board, *roll, segments) == expected, segments


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
