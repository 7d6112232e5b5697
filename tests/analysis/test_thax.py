"""THAX analysed against the solved game: errors and luck agree exactly with values read here
from the solver's table, position by position, not from the reference's own arithmetic."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.analysis.summary import BLUNDER
from referee.games.agent import RandomBot
from referee.games.dice import TURN_OUTCOMES
from referee.games.thax import GAME, ThaxMove, ThaxState
from referee.games.thax.bots import PerfectBot, ThaxGreedyBot
from referee.games.thax.rules import EMPTY_SIDE, SPACES, Side, options
from referee.games.thax.solver import win_probability
from tests.analysis.helpers import analysed, played, record

side = st.tuples(*(st.integers(0, n) for n in range(1, 6))).filter(lambda s: sum(s) < SPACES)


def mover_chance(own: Side, other: Side, roll: tuple[int, int], move: ThaxMove) -> float:
    """The mover's solved chance after `move` with `roll`, played by the rules: a full side
    has won, a double below 6-6 rolls again, else the opponent rolls."""
    state = ThaxState(GAME.ruleset(), (own, other), 0, roll).play(move)
    mine, theirs = state.sides
    if state.winner == 0:
        return 1.0
    if state.seat == 0:
        return win_probability(mine, theirs)
    return 1.0 - win_probability(theirs, mine)


def test_a_perfect_player_makes_no_error() -> None:
    for seed in ("1", "2", "3"):
        game = played("thax", [PerfectBot(), PerfectBot()], seed)
        analysis = analysed(game)
        assert analysis.engine == "exact"
        assert all(turn.error == 0.0 and turn.best is None for turn in analysis.turns)
        assert [seat.error_total for seat in analysis.seats] == [0.0, 0.0]
        assert sum(seat.decisions for seat in analysis.seats) > 0


def test_a_random_player_errs_against_a_perfect_one() -> None:
    analysis = analysed(played("thax", [RandomBot(), PerfectBot()], "4"))
    random, perfect = analysis.seats
    assert random.error_total > 0.0 and perfect.error_total == 0.0
    assert all(turn.error >= 0.0 for turn in analysis.turns)


def test_a_hand_built_position_loses_what_the_solver_says() -> None:
    # Seat 0 starts (5 beats 2) and covers its 1 and 3; seat 1 rolls 2-1: place both, the sum
    # on its 3, or take seat 0's 1 onto its own 2. Each option's chance from the table:
    first: Side = (1, 0, 1, 0, 0)
    chances = {
        text: mover_chance(EMPTY_SIDE, first, (2, 1), GAME.parse_move(None, text))  # type: ignore[arg-type]
        for text in ("P1 P2", "P3", "T1>2")
    }
    assert chances["T1>2"] == 1.0 - win_probability((0, 0, 1, 0, 0), (0, 1, 0, 0, 0))
    worst = min(chances, key=chances.__getitem__)
    best = max(chances, key=chances.__getitem__)
    game = record(
        "thax",
        [
            {"seat": 0, "roll": [3, 1], "move": "P1 P3"},
            {"seat": 1, "roll": [2, 1], "move": worst},
        ],
        opening_rolls=[[5, 2]],
    )
    turn = analysed(game).turns[1]
    assert turn.choices == 3
    assert turn.error == chances[best] - chances[worst] > 0
    assert turn.best == best
    assert turn.value == chances[best]


def test_the_opening_roll_is_the_starters_luck() -> None:
    game = record(
        "thax", [{"seat": 1, "roll": [4, 4], "move": "P4 P4"}], opening_rolls=[[3, 3], [1, 6]]
    )
    analysis = analysed(game)
    assert analysis.opening is not None
    assert analysis.opening.seat == 1 and analysis.opening.roll == (1, 6)
    # Either seat starts with one chance in two, from the empty board.
    assert analysis.opening.luck == pytest.approx(
        win_probability(EMPTY_SIDE, EMPTY_SIDE) - 0.5, abs=1e-15
    )


@settings(max_examples=60, deadline=None)
@given(roller=side, other=side, mover=st.integers(0, 1), seat=st.integers(0, 1))
def test_luck_is_each_rolls_chance_less_their_mean_which_it_has_zero_mean(
    roller: Side, other: Side, mover: int, seat: int
) -> None:
    reference = GAME.reference()
    sides = (roller, other) if mover == 0 else (other, roller)
    chance = ThaxState(GAME.ruleset(), sides, mover)
    rolled = {}
    for roll, _ in TURN_OUTCOMES:
        moves = options(roller, other, roll)
        rolled[roll] = max(mover_chance(roller, other, roll, move) for move in moves)
    mean = sum(p * rolled[roll] for roll, p in TURN_OUTCOMES)
    lucks = []
    for roll, p in TURN_OUTCOMES:
        luck = reference.luck(chance, chance.apply_chance(roll), seat)
        expected = rolled[roll] - mean
        assert luck == pytest.approx(expected if seat == mover else -expected, abs=1e-12)
        lucks.append(p * luck)
    assert sum(lucks) == pytest.approx(0.0, abs=1e-12)


def test_the_adjusted_result_takes_out_each_seats_luck() -> None:
    analysis = analysed(played("thax", [ThaxGreedyBot(), PerfectBot()], "5"))
    assert analysis.result is not None and analysis.adjusted is not None
    lucks = [0.0, 0.0]
    for turn in analysis.turns:
        lucks[turn.seat] += turn.luck or 0.0
    assert analysis.opening is not None
    lucks[analysis.opening.seat] += analysis.opening.luck
    assert [seat.luck for seat in analysis.seats] == pytest.approx(lucks, abs=1e-12)
    for seat in (0, 1):
        expected = analysis.result[seat] - lucks[seat] + lucks[1 - seat]
        assert analysis.adjusted[seat] == pytest.approx(expected, abs=1e-12)
    assert sum(analysis.adjusted) == pytest.approx(1.0, abs=1e-12)
    blunders = sum(
        turn.error >= BLUNDER and turn.seat == 0 and turn.choices > 1 for turn in analysis.turns
    )
    assert analysis.seats[0].blunders == blunders
