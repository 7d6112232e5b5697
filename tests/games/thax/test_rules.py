"""THAX rules beyond the published examples: refusals with the rule named, the win, the opening."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.games.base import IllegalMove, perft, perft_counts
from referee.games.thax import GAME, PASS, ThaxMove, ThaxState
from referee.games.thax.rules import check, options

RULESET = GAME.ruleset()


def state_with(own: tuple[int, ...], opponent: tuple[int, ...], roll: tuple[int, int]) -> ThaxState:
    return ThaxState(RULESET, (own, opponent), 0, roll)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("own", "opponent", "roll", "move", "rule"),
    [
        ((1, 0, 0, 4, 0), (0, 0, 2, 0, 0), (3, 1), "P1 P3", "thax.space-covered"),
        ((0, 0, 0, 0, 0), (0, 0, 0, 0, 0), (3, 1), "P3", "thax.place-both"),
        ((0, 0, 0, 0, 0), (0, 0, 0, 0, 0), (3, 5), "P4", "thax.place-dice"),
        ((0, 0, 0, 0, 0), (0, 0, 0, 0, 0), (3, 1), "-", "thax.must-move"),
        ((0, 0, 0, 0, 0), (0, 0, 1, 0, 0), (3, 5), "T5>3", "thax.take-uncovered"),
        ((0, 0, 0, 0, 0), (0, 0, 1, 0, 0), (3, 5), "T3>4", "thax.take-dice"),
        ((0, 0, 3, 0, 0), (0, 0, 0, 0, 1), (3, 5), "T5>3", "thax.space-covered"),
        ((0, 1, 0, 0, 0), (0, 0, 0, 0, 0), (4, 4), "R2", "thax.remove-needs-thax"),
        ((0, 1, 0, 0, 0), (0, 0, 0, 0, 0), (6, 6), "R3", "thax.remove-uncovered"),
        ((0, 1, 0, 0, 0), (0, 0, 0, 0, 0), (6, 6), "-", "thax.thax-must-remove"),
        ((0, 0, 0, 0, 0), (0, 0, 0, 0, 0), (6, 4), "P2", "thax.half-thax"),
        ((0, 0, 0, 0, 0), (0, 0, 0, 0, 0), (6, 4), "P4 P4", "thax.half-thax"),
    ],
)
def test_illegal_moves_name_the_rule_broken(
    own: tuple[int, ...], opponent: tuple[int, ...], roll: tuple[int, int], move: str, rule: str
) -> None:
    state = state_with(own, opponent, roll)
    with pytest.raises(IllegalMove) as raised:
        state.play(GAME.parse_move(state, move))
    assert raised.value.rule == rule


def test_covering_the_fifteenth_space_wins_at_once_even_on_doubles() -> None:
    """Win: the moment all 15 own spaces are covered; no extra turn after a winning double."""
    state = state_with((1, 2, 3, 4, 3), (0, 0, 0, 0, 0), (5, 5))
    after = state.play(ThaxMove(place=(5, 5)))
    outcome = after.outcome()
    assert outcome is not None and outcome.winner == 0
    assert after.legal_moves() == []
    with pytest.raises(IllegalMove):
        after.play(PASS)


def test_opening_tie_is_rolled_again_and_the_higher_die_starts() -> None:
    """Start: each player rolls one die, the higher number moves first, ties re-roll."""
    start = GAME.initial_state(RULESET)
    assert start.is_chance() and start.to_move is None
    assert start.apply_chance((4, 4)) == start
    assert start.apply_chance((2, 5)).to_move == 1
    assert start.apply_chance((6, 1)).to_move == 0
    assert start.apply_chance((6, 1)).is_chance()  # the starter rolls two dice next


def test_roll_probabilities_sum_to_one() -> None:
    start = GAME.initial_state(RULESET)
    turn = start.apply_chance((6, 1))
    for node in (start, turn):
        assert sum(p for _, p in node.chance_outcomes()) == pytest.approx(1.0)
    assert len(turn.chance_outcomes()) == 21


def _all_moves() -> list[ThaxMove]:
    numbers = range(1, 6)
    moves = [PASS]
    moves += [ThaxMove(place=(n,)) for n in numbers]
    moves += [ThaxMove(place=pair) for pair in itertools.combinations_with_replacement(numbers, 2)]
    moves += [ThaxMove(place=(y,), take=x) for x in numbers for y in numbers]
    moves += [ThaxMove(remove=n) for n in numbers]
    return moves


side = st.tuples(*(st.integers(0, n) for n in range(1, 6)))
die = st.integers(1, 6)


@given(side, side, die, die)
def test_checking_one_move_agrees_with_the_list_of_options(
    own: tuple[int, ...], opponent: tuple[int, ...], a: int, b: int
) -> None:
    """Validation checks a move without listing options; both must give the same answer."""
    legal = set(options(own, opponent, (a, b)))  # type: ignore[arg-type]
    for move in _all_moves():
        assert (check(own, opponent, (a, b), move) is None) == (move in legal), move  # type: ignore[arg-type]


def test_perft_depth_1_from_the_start_counts_each_starter_and_roll() -> None:
    """By hand: per starter, 10 mixed rolls without a 6 give P a b, plus the sum for 1-2, 1-3,
    1-4 and 2-3 (14); doubles 1-1 and 2-2 place or sum, 3-3 to 5-5 only place (7); five half
    thaxes place (5); 6-6 on an empty side passes (1): 27 moves, twice."""
    start = GAME.initial_state(RULESET)
    assert perft(start, 1) == 54
    assert perft_counts(start, 2) == [54, perft(start, 2)]
